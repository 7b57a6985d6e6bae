# Ctrl-C and the REPL (docs/protocol.md "Ctrl-C and the REPL"). At the REPL the
# arbiter key's file can be read, so with a key set no byte on the serial link may reach it. Here the
# link (sagatfw/link/stream.py) serves a real App on littlefs in RAM through the sim board's SerialDriver,
# which does what a board's USB CDC / UART driver does with the interrupt character the firmware sets
# (a byte equal to it raises KeyboardInterrupt instead of arriving) and calls the unix port's real
# micropython.kbd_intr. The host sends exactly the bytes mpremote sends to reach the REPL.
# Also: the protocol's `maintenance`, app.run() on the board loop, and main.py's board branch.
import gc
import io
import json
import sys

from appkit import T
from flash import Flash, mount, unmount
from linkkit import SerialRig, Stream
from protocolrig import KEY

from sagatfw.boards.simserial import SerialDriver
from sagatfw.engine import clock as C
from sagatfw.link import auth as A
from sagatfw.link import stream as L
from sagatfw.link import wire as W
from sagatfw.link.commands import save_key
from sagatfw.log import boot as journalboot

# What mpremote (1.2x, mpremote/transport_serial.py) and pyboard.py write to reach the REPL:
MPREMOTE = (
    b"\r\x03",  # enter_raw_repl: Ctrl-C, "interrupt any running program"
    b"\r\x03\x03",  # pyboard.py and older mpremote: Ctrl-C twice
    b"\r\x01",  # Ctrl-A: enter the raw REPL
    b"\x04",  # Ctrl-D: soft reset (in the raw REPL)
    b"\x05A\x01",  # raw-paste mode
    b"\r\x02",  # exit_raw_repl: Ctrl-B, the friendly REPL
    b"\x03" * 64,  # a host that keeps trying
)
ALL = b"".join(MPREMOTE)
STATES = ("setup", "running", "paused", "flagged", "adjourned", "finished")


def _interrupted(rig, data):
    try:
        rig.host(data)
    except KeyboardInterrupt:
        return True
    return False


def test_mpremote_bytes_never_interrupt_a_keyed_clock_in_any_state():
    for state in STATES:
        rig = SerialRig(KEY)
        rig.to_state(state)
        left = rig.app.clock.ms(C.LEFT)
        for data in MPREMOTE + (ALL,):
            try:
                chars = rig.host(data)
            except KeyboardInterrupt:
                raise AssertionError("%s: %r reached the REPL" % (state, data)) from None
            assert chars == [-1] * len(chars), (state, data, chars)  # Ctrl-C is a byte, after every pass
        # the protocol still answers: the newline ends the garbage line (one error), then a request
        rig.host(b"\n")
        errors = rig.answers()
        assert len(errors) == 1 and errors[0]["id"] is None and errors[0]["error"]["code"] == "bad_json", errors
        st = rig.request("state")
        assert st["ok"] is True and st["state"] == state, (state, st)
        if state == "running":
            assert st["left"]["ms"] < left  # the clock kept running through it all
        assert rig.request("identify")["repl_open"] is False
        assert rig.drv.char == -1
        unmount()


def test_without_a_key_ctrl_c_interrupts_between_games_only():
    for state in STATES:
        rig = SerialRig()
        rig.to_state(state)
        between = state in ("setup", "finished")
        assert rig.drv.char == (3 if between else -1), (state, rig.drv.char)
        assert _interrupted(rig, b"\r\x03") is between, state  # as before: mpremote reaches the REPL
        if not between:
            assert rig.request("state")["state"] == state  # a byte during a game: the clock goes on
        unmount()


def test_maintenance_needs_the_key_and_opens_the_repl_until_the_reboot():
    rig = SerialRig(KEY)
    r = rig.request("maintenance")
    assert r["ok"] is False and r["error"]["code"] == "auth_required", r
    r = rig.request("maintenance", b"not the key")
    assert r["ok"] is False and r["error"]["code"] == "auth_failed", r
    assert rig.drv.char == -1 and not _interrupted(rig, b"\r\x03")
    rig.host(b"\n")
    rig.answers()
    seq = rig.app.journal.seq
    r = rig.request("maintenance", KEY)
    assert r["ok"] is True and r["repl_open"] is True, r
    assert rig.drv.char == 3  # at once, in the same pass that answered
    # and it is in the log, under the key: from here to the next boot the flash was open
    origins = [e.get("origin") for e in journalboot.game_events(rig.app.journal) if e["seq"] >= seq]
    assert origins == ["maintenance"] and rig.app.journal.seq == seq + 1, origins
    assert rig.request("maintenance", KEY)["ok"] is True and rig.app.journal.seq == seq + 1  # once
    assert rig.request("identify")["repl_open"] is True
    assert _interrupted(rig, b"\r\x03")  # mpremote reaches the REPL now (sagat deploy)
    # a game started after it: Ctrl-C is a byte again while the game is in progress, then open again
    rig.inp.data = bytearray()
    rig.to_state("running")
    assert rig.drv.char == -1 and not _interrupted(rig, b"\r\x03\r\x01\x04")
    rig.app.result("0-1", T(rig.ms))
    rig.step()
    assert rig.drv.char == 3
    # the next boot (a reset, a power cycle, a soft reset): closed again
    reboot = SerialRig(KEY, fresh=False)
    reboot.step()
    assert reboot.drv.char == -1 and not _interrupted(reboot, ALL)
    assert reboot.request("identify")["repl_open"] is False
    unmount()


def test_maintenance_is_refused_during_a_game():
    for state in ("running", "paused", "flagged", "adjourned"):
        rig = SerialRig(KEY)
        rig.to_state(state)
        r = rig.request("maintenance", KEY)
        assert r["ok"] is False and r["error"]["code"] == "refused", r
        assert "finish the game" in r["error"]["message"], r
        assert rig.link.server.repl_open is False and rig.drv.char == -1
        unmount()
    rig = SerialRig()  # without a key it needs no proof (Ctrl-C reaches the REPL between games anyway)
    assert rig.request("maintenance")["ok"] is True
    rig.to_state("running")
    assert rig.request("maintenance")["error"]["code"] == "refused"
    unmount()


def test_setting_the_key_closes_the_repl_in_the_same_pass():
    rig = SerialRig()
    assert rig.drv.char == 3
    r = rig.request("key.set", key=KEY.hex())
    assert r["ok"] is True
    assert rig.drv.char == -1  # no later pass needed: the next byte already is a byte
    assert not _interrupted(rig, ALL)
    r = rig.request("key.set", KEY, key="")  # cleared: as without a key
    assert r["ok"] is True and rig.drv.char == 3
    unmount()


def test_the_maintenance_command_is_listed_and_loaded_on_demand():
    rig = SerialRig(KEY)
    assert "maintenance" in rig.request("identify")["commands"]
    assert W.COMMANDS["maintenance"][1] == W.GUARD
    rig.request("maintenance", KEY)
    assert "sagatfw.link.commands" not in sys.modules  # it leaves RAM after its feed, like the others
    unmount()


# ------------------------------------------------------------------ the board's loop: app.run()


class _Stop(BaseException):
    """Ends a run() that was not interrupted (a test's way out of the forever loop)."""


class _Machine:
    resets = 0

    @staticmethod
    def unique_id():
        return b"\xe6\x61\x41\x03"

    @staticmethod
    def reset():
        _Machine.resets += 1
        raise _Stop("reset")


def _run_board(key, script, frames=14):
    """app.run() as on a board: the sim board, a fake `machine`, the link on fake streams behind
    the serial driver. script: {frame: bytes or a function of the answers so far}. Returns
    ("returned" | "KeyboardInterrupt" | "stopped", answers)."""
    from sagatfw.app import main as app_main
    from sagatfw.boards import sim as sim

    gc.collect()
    mount(Flash(blocks=64), fresh=True)
    if key:
        save_key("/flash/", key)
    inp = Stream()
    out = Stream()
    seen = []

    class Board(sim.Board):
        def __init__(self):
            super().__init__(quiet=True)
            self.n = 0

        def show(self, app, now):
            self.n += 1
            step = script.get(self.n)
            if step is not None:
                inp.push(step if isinstance(step, bytes) else step(_parse(out)))
            if self.n >= frames:
                raise _Stop("frames")

    class BoardLink(L.Link):
        def __init__(self, server, max_out=L.MAX_OUT, step_out=0):
            super().__init__(server, inp, out, max_out, step_out)
            SerialDriver.attach(self)

    saved = (sim.Board, L.Link, sys.modules.get("machine"))
    sim.Board = Board
    L.Link = BoardLink
    sys.modules["machine"] = _Machine
    try:
        app_main.run()
        how = "returned"
    except KeyboardInterrupt:
        how = "KeyboardInterrupt"
    except _Stop:
        how = "stopped"
    finally:
        sim.Board, L.Link = saved[0], saved[1]
        if saved[2] is None:
            sys.modules.pop("machine", None)
        else:
            sys.modules["machine"] = saved[2]
        unmount()
    seen.extend(_parse(out))
    return how, seen


def _parse(out):
    return [json.loads(x) for x in bytes(out.data).split(b"\n") if x.startswith(b"{")]


def _signed(cmd, rid):
    def make(answers):
        nonce = [a for a in answers if a.get("nonce")][-1]["nonce"]
        uid = [a for a in answers if a.get("uid")][-1]["uid"]  # the board's own (identify's)
        req = {"id": rid, "cmd": cmd}
        req["auth"] = A.sign(KEY, nonce, req, uid)
        return json.dumps(req).encode() + b"\n"

    return make


def test_board_loop_keyed_survives_mpremote_and_answers():
    how, answers = _run_board(KEY, {3: ALL, 10: b'\n{"id":1,"cmd":"state"}\n'})
    assert how == "stopped", how  # never interrupted: the loop ran until the test stopped it
    assert [a["id"] for a in answers] == [None, 1] and answers[1]["state"] == "setup", answers


def test_board_loop_after_maintenance_returns_into_the_repl():
    script = {3: b'{"id":0,"cmd":"identify"}\n{"id":1,"cmd":"auth.challenge"}\n', 6: _signed("maintenance", 2),
              10: b"\r\x03"}
    how, answers = _run_board(KEY, script)
    assert answers[-1]["id"] == 2 and answers[-1]["repl_open"] is True, answers
    assert how == "returned", how  # main.py ends, MicroPython starts the REPL: mpremote goes on


def test_board_loop_without_a_key_is_interrupted_as_before():
    how, _ = _run_board(b"", {3: b"\r\x03"})
    assert how == "KeyboardInterrupt", how  # main.py ends into the REPL, as it always did


# ------------------------------------------------------------------ main.py on a board


class _Mod:
    pass


def _main(key, run=None, importable=True):
    """Run firmware/main.py's board branch with a fake sys.platform "rp2", micropython, machine and
    sagatfw.app.main (whose run() does `run`); returns (what happened, kbd_intr calls, resets)."""
    fw = [p for p in sys.path if p.endswith("firmware")][0]
    with open(fw + "/main.py") as f:
        src = f.read()
    calls = []
    fsys = _Mod()
    fsys.platform = "rp2"
    fsys.argv = []
    fmp = _Mod()
    fmp.kbd_intr = calls.append
    fapp = _Mod()
    if importable:
        fapp.run = run
    _Machine.resets = 0
    saved = {n: sys.modules.get(n) for n in ("sys", "micropython", "machine", "sagatfw.app.main")}

    def fake_open(path, mode="r"):  # the board's flash: "/key" holds `key`
        if path != "/key" or not key:
            raise OSError(2)
        return io.BytesIO(key)

    sys.modules["sys"] = fsys
    sys.modules["micropython"] = fmp
    sys.modules["machine"] = _Machine
    sys.modules["sagatfw.app.main"] = fapp
    try:
        exec(src, {"__name__": "__main__", "open": fake_open})
        how = "ended"  # into the REPL
    except _Stop:
        how = "reset"
    except KeyboardInterrupt:
        how = "KeyboardInterrupt"  # into the REPL, with its traceback
    except Exception as e:  # noqa: BLE001
        how = type(e).__name__
    finally:
        for n in saved:
            if saved[n] is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = saved[n]
    return how, calls, _Machine.resets


def _raises(exc):
    def run():
        raise exc

    return run


def test_main_py_with_a_key_never_ends_into_the_repl():
    ran = []

    def run():
        ran.append(True)
        raise KeyboardInterrupt

    how, calls, resets = _main(KEY, run)
    assert ran and calls == [-1] and how == "reset" and resets == 1  # Ctrl-C off before anything
    for exc in (MemoryError(), OSError(5), SystemExit(), ValueError("a bug")):
        assert _main(KEY, _raises(exc))[0] == "reset", exc
    assert _main(KEY, importable=False)[0] == "reset"  # a firmware that cannot even load
    # maintenance opened the REPL: run() returns, main.py ends, the REPL starts (mpremote)
    assert _main(KEY, lambda: None) == ("ended", [-1], 0)


def test_main_py_without_a_key_behaves_as_before():
    how, calls, resets = _main(b"", _raises(KeyboardInterrupt))
    assert how == "KeyboardInterrupt" and calls == [] and resets == 0  # the REPL, as ever
    assert _main(b"", _raises(MemoryError()))[:3] == ("MemoryError", [], 0)
