# sagat: the sim board - the same firmware on the MicroPython unix port.
#
# Its flash is a littlefs image file (vfs.VfsLfs2 on a file-backed block device, mounted at /flash),
# so settings and the log persist across runs exactly as on a board; its faces are drawn in the
# terminal; keys press its buttons through the same Buttons.edge path as a pin IRQ; and its ticks
# can come from a virtual time source. What runs the app on it (a script, the keyboard, the serial
# link) is sagatfw/boards/simulator.py's.
import sys
import time

from sagatfw.core.ticks import TICKS_MAX, ticks_add
from sagatfw.engine import clock as C
from sagatfw.ui import buttons as B

BLOCK = 4096
BLOCKS = 256  # a 1 MB image (its littlefs is mounted with progsize 256, as the Pico's: mount_flash)
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


def ms_now():
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
        vfs.VfsLfs2.mkfs(dev, progsize=256)  # type: ignore[arg-type]  # stubs: block devices are duck-typed
    try:
        fs = vfs.VfsLfs2(dev, progsize=256)  # type: ignore[abstract, arg-type]  # stubs: as above
    except OSError:
        raise OSError("%s is not a littlefs image" % path) from None
    vfs.mount(fs, "/flash")
    return dev


class Board:
    """The sim board: pins are keys, faces are text, flash is an image file."""

    name = "sim"
    root = "/flash/"
    LINK_WRITE = LINK_STEP = 4096  # a pty takes 4 KB at once (link/stream.py)

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
            from sagatfw.faces import game as faces  # noqa: F401  - scripted run never loads them)
        self.out = out if out is not None else sys.stdout
        self.buttons = None
        self.beeps = 0
        self.frames = 0
        self.loop_max_ms = 0
        self.status = None  # a line of the host's under the faces (--status)
        self.located = -1  # the second of a locate's last beep

    def ticks(self):
        if self.virtual:
            return (self.base + self.vt) & TICKS_MAX
        return ms_now() & TICKS_MAX  # the unix port wraps at 2^62: keep the boards' 2^30

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
        from sagatfw.faces import game as F  # loaded in __init__ unless the run was quiet then

        self.frames += 1
        located = F.locating(app, now)  # the arbiter's locate (ms left): LOCATE, a beep a second
        if located and (located - 1) // 1000 != self.located:
            self.beep(150, now, True)
        self.located = (located - 1) // 1000 if located else -1
        c = app.clock
        tenths = app.store.values["tenths_below_ms"]
        blink = (now // 500) & 1
        menu = app.menu
        state = C.STATE_NAMES[c.state]
        if menu is not None and menu.active:  # the on-clock menu replaces the faces
            left, right = menu.view(now)
            drawn = F.menu_items(left, right, menu.field, blink, menu.detail)
        elif app.match is not None:  # a match mode's faces (faces/matchfaces.py: loaded only then)
            from sagatfw.faces import matchfaces as MF

            ma = app.match
            m = ma.m
            note = getattr(ma, "note", None)  # a MatchApp's (tests may give the engine alone)
            drawn = (MF.oled(m, C.LEFT, (note and note(C.LEFT, now)) or F.status_text(app)),
                     MF.oled(m, C.RIGHT, (note and note(C.RIGHT, now)) or F.status_text(app)))
            state = m.MODE + " " + MF.M.STATE_NAMES[m.state]
        else:
            drawn = (F.oled(c, C.LEFT, tenths, 100, False, blink, F.status_text(app)),
                     F.oled(c, C.RIGHT, tenths, 100, False, blink, F.status_text(app)))
        # (the same choice as faces/screen.py's `oled`, which the Pico's and the ESP32's OLEDs draw; the
        # sim has no four-digit face, so nothing of screen's turns applies, and loading screen.py here
        # would cost the sim's frozen heap its module, at the 64 KB budget's edge)
        if self.oled is not None:
            from sagatfw.boards import simoled

            if simoled.show(self, drawn):
                app.next_face = now  # pages left: the loop's next pass sends them
            if self.quiet:
                return
        lines = (_face_lines(drawn[0]), _face_lines(drawn[1]))
        rows = ["sagat sim  %s%s" % (state, "  LOCATE" if located else "")]
        # the two faces row by row at the same height (y), a row one face leaves empty kept empty,
        # so the left face's lines stay beside the right face's
        ys = sorted(set([r[0] for r in lines[0]] + [r[0] for r in lines[1]]))
        for y in ys:
            left = _at(lines[0], y)[:21]
            rows.append("  " + left + " " * (21 - len(left)) + " | " + _at(lines[1], y))
        if self.virtual:  # a record of every frame (kept nowhere: the heap budget runs this way)
            out = self.out
            for row in rows:  # a row at a time: no frame-long string in a heap near its end
                out.write(row)
                out.write("\r\n")
            return
        if self.status:  # the host's line (`sagat sim --serial`: the port), kept on the screen
            rows.append(self.status)
        rows.append(  # the keys' help (a constant of the code: no global in the module's dict)
            "keys: a/z left lever, l// right lever, space start/pause, m menu, +/- plus/minus, "
            "M/_ menu/minus held, q off"
        )
        frame = "\r\n".join(rows)
        if frame == getattr(self, "last_frame", None):
            return  # nothing changed: nothing is written
        self.last_frame = frame
        # home, each line cleared to its end, then everything below the last line
        self.out.write("\x1b[H" + "\x1b[K\r\n".join(rows) + "\x1b[K\r\n\x1b[J")


def _face_lines(items):
    """One face's draw items (faces.oled, faces.menu_oled) as lines of text: the texts of one row on
    one line at their columns (21 of 6 px), the run row's bar (y 40) as "#", its frame as [ ]."""
    rows = []  # [y, text]
    bar = framed = False
    for it in items:
        if it[0] == "fill":
            if it[2] == 40 and it[3] == 128:
                bar = True
            elif it[2] == 41 and it[5] == 0:
                framed = True
            continue
        y, text, scale = it[2], it[3], it[4]
        col = it[1] // 6 if scale == 1 and it[0] == "text" else (21 - len(text)) // 2
        if col < 0:
            col = 0
        for row in rows:
            if row[0] == y:
                break
        else:
            row = [y, ""]
            rows.append(row)
        head = row[1][:col]  # (by characters: % pads and cuts UTF-8 by bytes on MicroPython)
        row[1] = head + " " * (col - len(head)) + text
    if bar and not framed:
        rows.append([40, "###### running ######"])  # the running bar
    elif framed:
        for row in rows:
            if row[0] == 40:
                t = row[1].strip()
                n = 19 - len(t)
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
