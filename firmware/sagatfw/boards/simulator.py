# sagat: the simulator - the app on the sim board (boards/sim.py), run from a script in virtual or
# real time, from the keyboard, or over a serial link.
#
#   micropython firmware/main.py --flash IMG [--virtual] [--actions FILE] [--base TICKS]
#                                [--start MS] [--quiet] [--oled diff|full] [--final] [--status TEXT]
#                                [--serial [--headless] [--play SEED:LO-HI]]
#
# `sagat sim` (host/sagat/sim/) validates a script, splits it at power cuts and runs one process
# per boot with --actions; without --actions the sim is interactive (boards/sim.py's keys). --final
# prints the faces once as a script's last boot ends them; --status puts a line of the host's (the
# serial port) under the interactive faces; --play a random player's levers (boards/simplayer.py).
import sys
import time

from sagatfw import forget
from sagatfw.boards.sim import KEYS, Board, mount_flash, ms_now
from sagatfw.core.ticks import TICKS_MAX, ticks_diff
from sagatfw.engine import clock as C
from sagatfw.log import records as R
from sagatfw.ui import buttons as B

SIDES = {"left": C.LEFT, "right": C.RIGHT}


def do_action(app, board, a, now, n=0, last=None):
    """One script action (contract 4, line n) through the same code the buttons, menu and host use
    (a lever's press on the board; every other action through ui/actions.py's table), then the step
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
    from sagatfw.ui import actions

    try:
        actions.do(app, name, actions.args(name, req), now, a.get("seed", 0))
    except ValueError as e:  # Refused (why) or a bad value
        sys.stderr.write("script line %d: %s refused: %s\n" % (n, what, e.args[0]))
    finally:
        forget("sagatfw.ui.actions")
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


def run_interactive(app, board, keys=None, player=None):
    """Real time: keys press the buttons (from `keys`, default stdin), the faces are drawn on
    board.out. With keys=False there are no keys (a headless clock serving its serial link).
    `player`: a simplayer.Player that presses the levers of a running game."""
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
                if key == "M" or key == "_" or key == "*":  # held 1.2 s: MENU / MINUS / PLUS held (a
                    button = B.MENU if key == "M" else B.MINUS if key == "_" else B.PLUS  # match's red card or
                    hold = 1200  # restart, undo, the horn)
                if button is not None:
                    board.press(button, pressed, hold)
        if player is not None:
            player.step(app, board, board.ticks())
        app.step(board.ticks())


def main(argv):
    try:
        from sagatfw.app.main import App

        opts = {"--flash": "sagat-flash.img", "--dir": None, "--actions": None, "--base": None, "--start": "0",
                "--oled": None, "--status": None, "--play": None, "--words": None}
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
        if opts["--words"] is not None:  # a file of the sim's own words in the PC's language (sagat sim's gettext):
            # boards/simwords.py, loaded only then (no new local in this function: its frame lives as long as the
            # sim, and the 64 KB probes run it)
            __import__("sagatfw.boards.simwords", None, None, ("install",), 0).install(board, opts["--words"])
        app = App(board)
        uid = sim_uid(opts["--flash"] if opts["--dir"] is None else opts["--dir"])
        R.Chain.tag = R.clock_tag(uid)  # its result records name this clock (records.clock_tag), as a Server does
        start = int(opts["--start"])
        if virtual:
            board.vt = start
        if "--serial" in flags:  # the link before the boot, as on a board (app.run)
            from sagatfw.link.server import Server
            from sagatfw.link.stream import Link

            app.link = Link(Server(app, {"uid": uid}, board.ticks()))
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
                player = None
                if opts["--play"] is not None:  # SEED:LO-HI (ms): a random player moves in every game
                    from sagatfw.boards.simplayer import Player

                    seed, think = opts["--play"].split(":")
                    lo, hi = think.split("-")
                    player = Player(int(seed), int(lo), int(hi))
                run_interactive(app, board, keys, player)
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


def sim_uid(path):
    """A stable id for this simulated board, its machine.unique_id: a hash of its flash image's path
    (two flash images, two clocks: their result codes of one history differ, records.clock_tag)."""
    import binascii
    import hashlib

    return "sim-" + binascii.hexlify(hashlib.sha256(path.encode()).digest()[:6]).decode()


def run_real(app, board, actions, start):
    """A script in real time: wait for each action's instant, stepping the app meanwhile. Returns
    the line of a power cut that ended it, else None (as run_virtual)."""
    t0 = ms_now()
    last = [None, None]
    prev = board.ticks()
    for n, a in actions:
        while ms_now() - t0 + start < a["at"]:
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
