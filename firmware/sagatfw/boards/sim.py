# sagat: the sim board - the same firmware on the MicroPython unix port.
#
# Its flash is a littlefs image file (vfs.VfsLfs2 on a file-backed block device, mounted at /flash),
# so settings and the log persist across runs exactly as on a board; its faces are drawn in the
# terminal; keys press its buttons through the same Buttons.edge path as a pin IRQ; and it can run on
# a virtual time source, stepping the app at every instant where something happens.
#
#   micropython firmware/main.py --flash IMG [--virtual] [--actions FILE] [--base TICKS]
#                                [--start MS] [--quiet] [--oled diff|full] [--final] [--status TEXT]
#
# `sagat sim` (host/sagat/sim.py) validates a script, splits it at power cuts and runs one process
# per boot with --actions; without --actions the sim is interactive (keys below). --final prints
# the faces once as a script's last boot ends them; --status puts a line of the host's (the serial
# port) under the interactive faces.
import sys
import time

from sagatfw import buttons as B
from sagatfw import clock as C
from sagatfw import forget
from sagatfw.ticks import TICKS_MAX, ticks_add, ticks_diff

BLOCK = 4096
BLOCKS = 256  # a 1 MB image
PROGSIZE = 256  # as the Pico's littlefs
KEYS = {
    "a": B.LEVER_LEFT,
    "z": B.LEVER_LEFT,
    "l": B.LEVER_RIGHT,
    "/": B.LEVER_RIGHT,
    " ": B.START,
    "m": B.MENU,
    "+": B.PLUS,
    "=": B.PLUS,
    "-": B.MINUS,
}
HELP = "keys: a/z left lever, l// right lever, space start/pause, m menu, +/- plus/minus, M/_ menu/minus held, q off"
SIDES = {"left": C.LEFT, "right": C.RIGHT}


class FileFlash:
    """A block device on an image file: every write goes straight to the file, so ending the
    process at any instant is a power cut that keeps exactly what was written."""

    def __init__(self, path):
        self.f = open(path, "r+b")
        self.f.seek(0, 2)
        self.blocks = self.f.tell() // BLOCK

    def readblocks(self, block, buf, offset=0):
        self.f.seek(block * BLOCK + offset)
        self.f.readinto(buf)

    def writeblocks(self, block, buf, offset=None):
        self.f.seek(block * BLOCK + (offset or 0))
        self.f.write(buf)
        self.f.flush()

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return BLOCK
        return 0  # init, deinit, sync, erase: nothing to do on a file


def _ms():
    """Milliseconds of a monotonic clock: ticks_ms on MicroPython, monotonic time on CPython."""
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)  # type: ignore[attr-defined]  # CPython only


def mount_flash(path):
    """Mount the image at /flash, creating and formatting it if it does not exist."""
    import vfs

    fresh = False
    try:
        open(path, "rb").close()
    except OSError:
        fresh = True
        with open(path, "wb") as f:
            chunk = b"\xff" * 1024
            for _ in range(BLOCKS * BLOCK // 1024):
                f.write(chunk)
    dev = FileFlash(path)
    if fresh:
        vfs.VfsLfs2.mkfs(dev, progsize=PROGSIZE)  # type: ignore[arg-type]  # stubs: block devices are duck-typed
    try:
        fs = vfs.VfsLfs2(dev, progsize=PROGSIZE)  # type: ignore[abstract, arg-type]  # stubs: as above
    except OSError:
        raise OSError("%s is not a littlefs image" % path) from None
    vfs.mount(fs, "/flash")
    return dev


class Board:
    """The sim board: pins are keys, faces are text, flash is an image file."""

    name = "sim"
    root = "/flash/"
    LINK_WRITE = LINK_STEP = 4096  # a pty takes 4 KB at once (link.py)

    def __init__(self, virtual_base=None, quiet=False, out=None, oled=None):
        self.virtual = virtual_base is not None
        self.base = virtual_base or 0
        self.vt = 0  # virtual ms since the script began
        self.quiet = quiet
        self.oled = None
        if oled:  # OLED faces on a modelled 400 kHz bus (boards/simoled.py)
            from sagatfw.boards import simoled

            simoled.attach(self, oled)
        if not quiet or oled:  # as a board's faces: loaded with the board, before the boot (a quiet,
            from sagatfw import faces  # noqa: F401  - scripted run never loads them)
        self.out = out if out is not None else sys.stdout
        self.buttons = None
        self.beeps = 0
        self.frames = 0
        self.loop_max_ms = 0
        self.status = None  # a line of the host's under the faces (--status)

    def ticks(self):
        if self.virtual:
            return (self.base + self.vt) & TICKS_MAX
        return _ms() & TICKS_MAX  # the unix port wraps at 2^62: keep the boards' 2^30

    def attach(self, buttons):
        self.buttons = buttons

    def press(self, button, ticks, hold=0):
        """A key or a scripted press: the edges a pin IRQ would report (press, then release, `hold`
        ms later: 1200 makes a control button's LONG)."""
        self.buttons.edge(button, ticks, True)
        self.buttons.edge(button, ticks_add(ticks, max(hold, self.buttons.lockout_ms + 1)), False)

    def beep(self, ms, now, enabled):
        if enabled:
            self.beeps += 1
            if not self.quiet and not self.virtual:
                self.out.write("\a")

    def battery(self):
        return 100, False

    def note(self, text):
        sys.stderr.write("sim: %s\n" % text)

    def show(self, app, now):
        """Both faces as text, as the OLEDs draw them. Interactively the screen is redrawn in place
        (cursor home, each line cleared to its end; never a full clear, which floods a terminal's
        scrollback) and only when the text changed; in virtual time each frame is printed after
        the last."""
        if self.quiet and self.oled is None:
            return
        from sagatfw import faces as F  # loaded in __init__ unless the run was quiet then

        self.frames += 1
        c = app.clock
        tenths = app.store.values["tenths_below_ms"]
        blink = (now // 500) & 1
        menu = app.menu
        state = C.STATE_NAMES[c.state]
        if menu is not None and menu.active:  # the on-clock menu replaces the faces
            left, right = menu.view(now)
            drawn = F.menu_items(left, right, menu.field, blink, menu.detail)
        elif app.match is not None:  # a match mode's faces (matchfaces.py: loaded only then)
            from sagatfw import matchfaces as MF

            ma = app.match
            m = ma.m
            note = getattr(ma, "note", None)  # a MatchApp's (tests may give the engine alone)
            drawn = (MF.oled(m, C.LEFT, (note and note(C.LEFT, now)) or F.status_text(app)),
                     MF.oled(m, C.RIGHT, (note and note(C.RIGHT, now)) or F.status_text(app)))
            state = m.MODE + " " + MF.M.STATE_NAMES[m.state]
        else:
            drawn = (F.oled(c, C.LEFT, tenths, 100, False, blink, F.status_text(app)),
                     F.oled(c, C.RIGHT, tenths, 100, False, blink, F.status_text(app)))
        if self.oled is not None:
            from sagatfw.boards import simoled

            if simoled.show(self, drawn):
                app.next_face = now  # pages left: the loop's next pass sends them
            if self.quiet:
                return
        lines = (_face_lines(drawn[0]), _face_lines(drawn[1]))
        rows = ["sagat sim  %s" % state]
        # the two faces row by row at the same height (y), a row one face leaves empty kept empty,
        # so the left face's lines stay beside the right face's
        ys = sorted(set([r[0] for r in lines[0]] + [r[0] for r in lines[1]]))
        for y in ys:
            rows.append("  %-16.16s | %s" % (_at(lines[0], y), _at(lines[1], y)))
        if self.virtual:  # a record of every frame (kept nowhere: the heap budget runs this way)
            out = self.out
            for row in rows:  # a row at a time: no frame-long string in a heap near its end
                out.write(row)
                out.write("\r\n")
            return
        if self.status:  # the host's line (`sagat sim --serial`: the port), kept on the screen
            rows.append(self.status)
        rows.append(HELP)
        frame = "\r\n".join(rows)
        if frame == getattr(self, "last_frame", None):
            return  # nothing changed: nothing is written
        self.last_frame = frame
        # home, each line cleared to its end, then everything below the last line
        self.out.write("\x1b[H" + "\x1b[K\r\n".join(rows) + "\x1b[K\r\n\x1b[J")


def _face_lines(items):
    """One face's draw items (faces.oled, faces.menu_oled) as lines of text: the texts of one row on
    one line at their columns (16 of 8 px), the run row's bar (y 44) as "#", its frame as [ ]."""
    rows = []  # [y, text]
    bar = framed = False
    for it in items:
        if it[0] == "fill":
            if it[2] == 44 and it[3] == 128:
                bar = True
            elif it[2] == 45 and it[5] == 0:
                framed = True
            continue
        y, text, scale = it[2], it[3], it[4]
        col = it[1] // 8 if scale == 1 else (16 - len(text)) // 2
        if col < 0:
            col = 0
        for row in rows:
            if row[0] == y:
                break
        else:
            row = [y, ""]
            rows.append(row)
        row[1] = "%-*.*s" % (col, col, row[1]) + text
    if bar and not framed:
        rows.append([44, "#### running ###"])  # the running bar
    elif framed:
        for row in rows:
            if row[0] == 45:
                t = row[1].strip()
                n = 14 - len(t)
                row[1] = "[" + " " * (n // 2) + t + " " * (n - n // 2) + "]"
    rows.sort(key=lambda r: r[0])
    return rows


def _at(rows, y):
    """The text of the row at height y ("" where the face has none)."""
    for r in rows:
        if r[0] == y:
            return r[1]
    return ""


# ---------------------------------------------------------------- scripts


def do_action(app, board, a, now, n=0, last=None):
    """One script action (contract 4, line n) through the same code the buttons, menu and host use
    (a lever's press on the board; every other action through actions.py's table), then the step
    that applies it. A refused action, or a press that did nothing, is a warning on stderr with its
    line and why (sagatfw.boards.simnote, loaded only then: the probe's heap is tight). `last`: each
    lever's last scripted press (ticks), to tell a press dropped as pressed together."""
    what = a["do"]
    if what == "press":
        side = SIDES[a["side"]]
        c = app.clock
        before = c.moves[side]
        state = c.state
        running = c.running
        board.press(side, now)  # what it did shows once the app has stepped
        app.step(board.ticks())
        if app.clock.moves[side] == before:
            from sagatfw.boards import simnote

            simnote.refused(n, what, simnote.why_press(app, side, state, running, now, last))
        if last is not None:
            last[side] = now
        return
    req = {}
    for k in a:
        if k != "at" and k != "do" and k != "line" and k != "seed":
            req[k] = a[k]
    name = what
    if what == "settings":
        name = "settings.set"
        req = {"values": req}
    elif what == "pause" and "by" not in req:
        req["by"] = "arbiter"  # contract 4: a script's pause is the arbiter's
    from sagatfw import actions

    try:
        actions.do(app, name, actions.args(name, req), now, a.get("seed", 0))
    except ValueError as e:  # Refused (why) or a bad value
        sys.stderr.write("script line %d: %s refused: %s\n" % (n, what, e))
    finally:
        forget("sagatfw.actions")
    app.step(board.ticks())


def run_virtual(app, board, actions, start, step_ms=1000):
    """Play (line, action) pairs in virtual time from `start` ms: step the app at every action,
    at every instant the clock computes (flags, stages, low time, default) and every `step_ms`
    (checkpoints, beeps). Ends at the last action (power cuts end a process there too)."""
    board.vt = start
    app.step(board.ticks())
    last = [None, None]
    for line in actions:
        n, a = line
        target = a["at"]
        while board.vt < target:
            now = board.ticks()
            nxt = app.next_instant(now)
            gap = target - board.vt
            if gap > step_ms:
                gap = step_ms
            if nxt is not None:
                d = ticks_diff(nxt, now)
                if 0 < d < gap:
                    gap = d
            board.vt += gap
            app.step(board.ticks())
        if a["do"] == "power_cut":
            return n  # the host boots the next process off_ms later
        do_action(app, board, a, board.ticks(), n, last)
    return None


def read_actions(path):
    """Yield (line number, action) from a validated JSON-lines file written by `sagat sim`, one
    line at a time (a 600-move script never sits in RAM)."""
    import json

    with open(path) as f:
        n = 0
        for text in f:
            n += 1
            text = text.strip()
            if text:
                a = json.loads(text)
                yield a.pop("line", n), a


def run_interactive(app, board, keys=None):
    """Real time: keys press the buttons (from `keys`, default stdin), the faces are drawn on
    board.out. With keys=False there are no keys (a headless clock serving its serial link)."""
    import select

    poll = None
    stdin = None
    if keys is not False:
        src = keys if keys is not None else sys.stdin
        poll = select.poll()
        poll.register(src, select.POLLIN)
        stdin = src.buffer if hasattr(src, "buffer") else src
    last = board.ticks()
    while True:
        now = board.ticks()
        gap = ticks_diff(now, last)
        if board.loop_max_ms < 0:
            board.loop_max_ms = 0  # the pass that served identify itself is not counted (app._loop)
        elif gap > board.loop_max_ms:
            board.loop_max_ms = gap  # reported by identify: how long the loop was held up
        last = now
        link = app.link
        if link is not None and not link.open:
            return  # the host end of the sim's serial link is gone (`sagat sim` ended): power off
        busy = link is not None and (link.server.pending() or link.server.has_work())
        if poll is None:
            if not busy:  # a host waiting for answers gets them at once, else the loop idles
                time.sleep(0.005)
        else:
            for _ in poll.poll(5):
                ch = stdin.read(1)
                pressed = board.ticks()  # stamped when the key is read, as an IRQ would
                if not ch:
                    return
                key = chr(ch[0]) if isinstance(ch, (bytes, bytearray)) else ch
                if key in ("q", "\x03", "\x04"):
                    return
                button = KEYS.get(key)
                hold = 0
                if key == "M" or key == "_":  # held 1.2 s: MENU / MINUS held (a match's red card, undo)
                    button = B.MENU if key == "M" else B.MINUS
                    hold = 1200
                if button is not None:
                    board.press(button, pressed, hold)
        app.step(board.ticks())


def main(argv):
    try:
        from sagatfw.app import App

        opts = {"--flash": "sagat-flash.img", "--dir": None, "--actions": None, "--base": None, "--start": "0",
                "--oled": None, "--status": None}
        flags = set()
        i = 0
        while i < len(argv):
            arg = argv[i]
            if arg in opts and i + 1 < len(argv):
                opts[arg] = argv[i + 1]
                i += 2
            elif arg in ("--virtual", "--quiet", "--serial", "--headless", "--final"):
                flags.add(arg)
                i += 1
            else:
                sys.stderr.write("sim: unknown argument %s\n" % arg)
                sys.exit(2)
        if opts["--dir"] is not None:
            # CPython fallback (no MicroPython unix port here): the flash's files live in a folder,
            # which `sagat sim` unpacks from and packs back into the littlefs image
            Board.root = opts["--dir"].rstrip("/") + "/"
        else:
            try:
                mount_flash(opts["--flash"])
            except OSError as e:
                sys.stderr.write("sim: cannot use flash image %s: %s\n" % (opts["--flash"], e))
                sys.exit(2)
        if opts["--oled"] not in (None, "diff", "full"):
            sys.stderr.write("sim: --oled takes diff or full\n")
            sys.exit(2)
        virtual = "--virtual" in flags
        base = int(opts["--base"]) & TICKS_MAX if opts["--base"] is not None else None
        if virtual and base is None:
            base = TICKS_MAX - 30000  # wrap the ticks 30 s into the run: the wrap is always exercised
        board = Board(base if virtual else None, "--quiet" in flags, None, opts["--oled"])
        board.status = opts["--status"]
        app = App(board)
        start = int(opts["--start"])
        if virtual:
            board.vt = start
        if "--serial" in flags:  # the link before the boot, as on a board (app.run)
            from sagatfw.link import Link
            from sagatfw.protocol import Server

            app.link = Link(Server(app, {"uid": _uid(opts["--flash"] if opts["--dir"] is None else opts["--dir"])},
                                   board.ticks()))
            from sagatfw.boards.simserial import SerialDriver  # only with a link: the probe's heap is tight

            SerialDriver.attach(app.link)
        app.boot(board.ticks())
        if "--serial" in flags:
            # stdin/stdout carry the protocol, as a board's USB serial does; the faces and the keys
            # then use the terminal (/dev/tty), or nothing at all when headless
            keys = False
            if "--headless" in flags:
                board.quiet = True
            else:
                # unbuffered: MicroPython's flush of a file is an fsync, which a terminal refuses (EINVAL)
                try:
                    tty = open("/dev/tty", "r+b", buffering=0)
                except OSError as e:
                    sys.stderr.write("sim: no terminal for the faces and keys (/dev/tty: %s): use --headless\n" % (e,))
                    sys.exit(2)
                board.out = _TextOut(tty)
                keys = tty
            try:
                if opts["--actions"] is not None:  # a script in real time, then go on serving the link
                    run_real(app, board, read_actions(opts["--actions"]), int(opts["--start"]))
                run_interactive(app, board, keys)
            except KeyboardInterrupt:  # a Ctrl-C the link let through (SerialDriver): main.py ends
                sys.stderr.write("sim: KeyboardInterrupt: the firmware stopped; a board would be at its REPL now\n")
                sys.exit(130)
            return
        if opts["--actions"] is not None:
            actions = read_actions(opts["--actions"])
            if virtual:
                cut = run_virtual(app, board, actions, start)
            else:
                cut = run_real(app, board, actions, start)
            if "--final" in flags and cut is None:  # the script's last boot: its faces as it ended
                board.quiet = False
                board.virtual = True  # one frame, printed as a record (no cursor moves)
                board.show(app, board.ticks())
            return
        run_interactive(app, board)

    except Exception as e:  # noqa: BLE001 - with --serial stdout is the link: the error goes to the terminal
        if "--serial" not in argv:
            raise
        from sagatfw.boards import simnote

        simnote.fail(e)

class _TextOut:
    """Text to an unbuffered binary stream (the terminal, when stdout is the serial link)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        self.stream.write(text.encode())


def _uid(path):
    """A stable id for this simulated board: a hash of its flash image's path."""
    import binascii
    import hashlib

    return "sim-" + binascii.hexlify(hashlib.sha256(path.encode()).digest()[:6]).decode()


def run_real(app, board, actions, start):
    """A script in real time: wait for each action's instant, stepping the app meanwhile. Returns
    the line of a power cut that ended it, else None (as run_virtual)."""
    t0 = _ms()
    last = [None, None]
    prev = board.ticks()
    for n, a in actions:
        while _ms() - t0 + start < a["at"]:
            now = board.ticks()
            if board.loop_max_ms < 0:
                board.loop_max_ms = 0  # as run_interactive: identify's own pass is not counted
            elif ticks_diff(now, prev) > board.loop_max_ms:
                board.loop_max_ms = ticks_diff(now, prev)  # as run_interactive: identify reports it
            prev = now
            app.step(now)
            time.sleep(0.005)
        if a["do"] == "power_cut":
            return n
        now = board.ticks()
        if a["do"] == "press" and not board.virtual:
            # stamped at its scripted instant, as a pin IRQ stamps it even when the loop runs late
            # (a busy machine must not bunch two presses into one lockout)
            now = (t0 + a["at"] - start) & TICKS_MAX
        do_action(app, board, a, now, n, last)
