# Test kit for the board modules on the fake `machine` (the boards' test_*_mp.py): a stand-in for the App with what
# a board's show() reads, the ticks used across the 2^30 wrap, and the ADC value of a cell.
from sagatfw.core.ticks import TICKS_MAX, ticks_add
from sagatfw.log.settings import defaults

BASE = TICKS_MAX - 20000  # the ticks wrap 20 s into a test that uses T()


def T(ms):
    return ticks_add(BASE, ms)


def cell(mv):
    """The fake ADC's read_u16 for a cell at `mv` through the boards' 100k/100k divider."""
    return (mv * 65535 + 2 * 3300 - 1) // (2 * 3300)


class Store:
    def __init__(self):
        self.values = defaults()


def say(app, text):
    """Set an app's status line from the text the faces show ("LOG ERROR", "CODE 042917", None)."""
    from sagatfw.faces.game import STATUS_TEXT

    if text is None:
        app.status = 0
    elif text[:5] == "CODE ":
        app.status = STATUS_TEXT.index("CODE")
        app.code_text = text
    else:
        app.status = STATUS_TEXT.index(text)


class FakeApp:
    """What HwBoard.show reads of the App: the clock, settings, status line, menu, match, journal
    and the next refresh (a board sets next_face to ask for the loop's next pass)."""

    def __init__(self, clock):
        self.clock = clock
        self.store = Store()
        self.status = 0
        self.code_text = None
        self.menu = None
        self.match = None
        self.journal = None
        self.next_face = None
        self.locate_until = None  # the arbiter's locate (faces.locating)
        self.protest_ms = 0  # what protest_left says: TK-P1's window, as the App builds it from its journal

    def protest_left(self, at):
        return self.protest_ms


def show_all(board, app, now):
    """show, and again at the loop's next passes while the OLED faces have pages left to send."""
    for _ in range(10):
        app.next_face = None
        board.show(app, now)
        if app.next_face != now:
            return
        now += 5
    raise AssertionError("the faces never finished sending")
