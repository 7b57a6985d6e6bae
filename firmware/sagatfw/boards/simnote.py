# sagat: the sim board's notes (loaded only when one is needed: the probe's heap is tight): why a
# scripted action was refused, and an error of the sim board serving a serial link.
import sys

from sagatfw.core.ticks import ticks_diff
from sagatfw.engine import clock as C


def refused(n, what, why):
    sys.stderr.write("script line %d: %s refused: %s\n" % (n, what, why))


def why_press(app, side, state, running, now, last):
    """Why a scripted press did nothing (the clock's state and turn before it)."""
    if state != C.RUNNING:
        return "the clock is %s: a lever does nothing%s" % (
            C.STATE_NAMES[state], " (start it first)" if state == C.SETUP else "")
    if running != side:
        return "it is not %s's turn: the waiting side's lever does nothing (TK-C9)" % C.SIDE_NAMES[side]
    b = app.buttons
    other = last[1 - side]
    if other is not None and 0 <= ticks_diff(now, other) <= b.together_ms:
        return "dropped as pressed together: %d ms after the %s lever's press (the earlier press counts)" % (
            ticks_diff(now, other), C.SIDE_NAMES[1 - side])
    mine = last[side]
    if mine is not None and 0 <= ticks_diff(now, mine) <= b.lockout_ms + 1:
        return "dropped: %d ms after this lever's last press, inside its %d ms lockout" % (
            ticks_diff(now, mine), b.lockout_ms)
    return "dropped by the buttons (a bounce or a press held down)"


def fail(e):
    """An error of the sim board serving a link: its traceback on stderr (the terminal), never on
    stdout (the link, where MicroPython prints an uncaught one and nobody sees it); exit 1."""
    sys.stderr.write("sim: the sim board stopped with an error:\n")
    show = getattr(sys, "print_exception", None)  # MicroPython's traceback printer
    if show is not None:
        show(e, sys.stderr)
    else:  # the CPython fallback
        sys.stderr.write("%s: %s\n" % (type(e).__name__, e))
    sys.exit(1)
