"""`sagat sim`'s runners: the firmware on the sim board (board.py), under the MicroPython unix port.

A script (contract 4, script.py): checked line by line before anything runs, split at its power
cuts, and each boot of the clock is one MicroPython process on the same flash image, in virtual
time if asked (run_script). Interactive: the faces in this terminal, keys press the buttons
(run_interactive). Serial: the protocol on a pseudo-terminal, with the faces or headless, a
script played in real time or a random player moving (run_serial).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sagatfw.core.ticks import TICKS_MAX

from .. import image
from ..i18n import _
from . import board
from .script import Boot, SimError, parse_script, plan_boots


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
    exe = board.micropython()
    if exe is None:
        echo("sagat sim: " + board.no_unix_port(), file=sys.stderr)
    fw = board.cached_firmware(compiled=exe is not None)
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
        board.drop(fw)
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
            image.unpack(flash, folder)
            cmd = [sys.executable, "-c", board.CPYTHON_MAIN, fw, "--dir", folder]
        cmd += ["--actions", actions_file, "--start", str(boot.start), "--quiet"]
        cmd += (["--final"] + board.words_args()) if final else []
        if virtual:
            # ticks restart at boot, as a board's do; the first boot starts 30 s before the wrap
            base = (TICKS_MAX - 30000) if boot.start == 0 else (-boot.start) & TICKS_MAX
            cmd += ["--virtual", "--base", str(base)]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        if folder is not None:
            image.pack(folder, flash)
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




def _last_game(flash: str) -> int:
    if not os.path.exists(flash):
        return 0
    from ..log.decode import LogError, read_segments
    from ..log.flash import read_image

    try:
        log = read_segments(read_image(flash), replay=False)
    except LogError:
        return 0
    return max((e["game"] for e in log.events), default=0)


def _write_log(flash: str, out: str, after_game: int) -> int:
    from ..log.decode import LogError, read_segments
    from ..log.export import to_json_lines
    from ..log.flash import read_image

    try:
        log = read_segments(read_image(flash), replay=False)
    except LogError as e:
        raise SimError(e.text()) from None
    events = [e for e in log.shown() if e["game"] > after_game]
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(to_json_lines(events))
    return len(events)



def _run_interactive(flash: str, oled: str | None = None) -> int:
    cmd, fw, folder = board.engine(flash, oled)
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
            image.pack(folder, flash)
            shutil.rmtree(folder, ignore_errors=True)
        board.drop(fw)


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

    cmd, fw, folder = board.engine(flash, oled)
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
        cmd += ["--status", _("serial port {port}: sagat --port {port} ...").format(port=path)]
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
    (ready or (lambda p: print("sagat sim: " + _("serial port {port}").format(port=p), file=sys.stderr,
                               flush=True)))(path)
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
            image.pack(folder, flash)
            shutil.rmtree(folder, ignore_errors=True)
        board.drop(fw)


def run_script(script: str, flash: str, *args, **kw) -> dict:
    """Run a script file on the sim board (the flash image held: board.hold); returns figures (boots,
    warnings, events written)."""
    fd = board.hold(flash)
    try:
        return _run_script(script, flash, *args, **kw)
    finally:
        os.close(fd)


def run_interactive(flash: str, *args, **kw) -> int:
    fd = board.hold(flash)
    try:
        return _run_interactive(flash, *args, **kw)
    finally:
        os.close(fd)


def run_serial(flash: str, *args, **kw) -> int:
    """The sim board with its serial link on a pseudo-terminal (_run_serial), the flash image held."""
    fd = board.hold(flash)
    try:
        return _run_serial(flash, *args, **kw)
    finally:
        os.close(fd)
