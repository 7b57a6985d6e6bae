"""`sagat deploy`'s install (what it does, in order: the package's docstring, deploy/__init__.py): the
firmware compiled for the board (mpy-cross, the board's .mpy version), which files go where, what
an upgrade writes, leaves and removes (the settings, the key and the log are kept byte for byte),
and the check that the restarted clock runs the version sent."""

from __future__ import annotations

import ast
import contextlib
import hashlib
import re
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import firmware
from ..i18n import _, ngettext
from .protocol import REPL, SAFE_STATES
from .transport import DeployError, Transport

# --board NAME: the MicroPython port it runs (`sys.platform`); the firmware's board module is
# sagatfw/boards/NAME.py and its identify answer says "board": NAME.
BOARDS = {"pico": "rp2", "esp32": "esp32"}
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
        for rel in firmware.files(root):
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
    """Install or upgrade the firmware (see the package's docstring, deploy/__init__.py). board:
    "pico", "esp32", or None to take it from the board's port. ask_state(), open_repl() and
    identify() talk to the clock over the protocol on the same port while the transport is closed
    (protocol.py): open_repl() sends the signed `maintenance` to a keyed clock right before the REPL
    is entered (True if it did; DeployError if the clock refuses). progress(done, total) counts
    bytes written."""
    if board is not None and board not in BOARDS:
        raise DeployError(_("unknown board {board} (one of: {boards})").format(board=repr(board),
                                                                              boards=", ".join(BOARDS)))
    fw = Path(firmware_dir)
    if not (fw / "main.py").is_file() or not (fw / "sagatfw" / "__init__.py").is_file():
        raise DeployError(_("{dir} is not the firmware folder (main.py and sagatfw/)").format(dir=fw))
    if firmware.version(fw) != version:
        raise DeployError(_("the firmware in {dir} is version {found}, not {version}").format(
            dir=fw, found=firmware.version(fw), version=version))

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
    n = sum(p.endswith(".mpy") for p in files)
    log(ngettext("compiled {n} module with mpy-cross (.mpy v{version})",
                 "compiled {n} modules with mpy-cross (.mpy v{version})", n).format(
        n=n, version=f"{want[0]}.{want[1]}"))

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
    written, unchanged, removed = len(report.written), len(report.unchanged), len(report.removed)
    files = ", ".join((ngettext("{n} file written", "{n} files written", written).format(n=written),
                       ngettext("{n} unchanged", "{n} unchanged", unchanged).format(n=unchanged),
                       ngettext("{n} removed", "{n} removed", removed).format(n=removed)))
    log(_("ok: sagat {version} on {board} ({files})").format(version=version, board=report.board, files=files))
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
            log(ngettext("wrote {path} ({n} byte)", "wrote {path} ({n} bytes)", len(data)).format(path=path,
                                                                                                  n=len(data)))
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


