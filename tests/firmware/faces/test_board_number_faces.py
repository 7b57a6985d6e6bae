# The board number on the faces (the `board` setting): "BOARD 8" on the OLED's status line in a
# game set up with nothing else to say, "B8 CODE 042917" beside the result code (16 characters up
# to B999, within a line's 21), "b  8" on a four-digit face; made when the number or the code
# changes, not at each refresh (the same text object comes back). Both runtimes.
from boardkit import FakeApp, say

from clockkit import Game, L
from sagatfw.faces import game as F


def _app(tc="300", board=8):
    app = FakeApp(Game(tc).clock)
    app.store.values["board"] = board
    return app


def test_setup_names_the_board_on_the_status_line_and_the_four_digit_face():
    app = _app()
    assert F.status_text(app) == "BOARD 8" and F.status_text(app, True) == "b  8"
    assert F.status_text(app) is F.status_text(app)  # cached: nothing formatted per refresh
    assert F.oled(app.clock, L, message=F.status_text(app))[-1] == ("text", 0, 52, "BOARD 8", 1)
    app.store.values["board"] = 123
    assert F.status_text(app) == "BOARD 123" and F.status_text(app, True) == "b123"
    assert bytes(F.text4(bytearray(4), "b  8")) == bytes((F.seg_char(ord("b")), 0, 0, F.DIGITS[8]))


def test_no_number_no_board_text():
    app = _app(board=0)
    assert F.status_text(app) is None and F.status_text(app, True) is None


def test_a_message_or_play_outranks_the_board_number():
    app = _app()
    say(app, "LOG ERROR")
    assert F.status_text(app) == "LOG ERROR" and F.status_text(app, True) == "LErr"
    say(app, None)
    app.clock.start(0)
    assert F.status_text(app) is None and F.status_text(app, True) is None


def test_the_result_code_follows_the_board_number():
    app = _app()
    app.clock.result(0, 0)
    say(app, "CODE 042917")
    assert F.status_text(app) == "B8 CODE 042917"
    app.store.values["board"] = 999
    assert F.status_text(app) == "B999 CODE 042917" and len(F.status_text(app)) == 16
    app.store.values["board"] = 0
    assert F.status_text(app) == "CODE 042917"
    app.code_text = "CODE 000001"  # another game's code
    app.store.values["board"] = 8
    assert F.status_text(app) == "B8 CODE 000001"
