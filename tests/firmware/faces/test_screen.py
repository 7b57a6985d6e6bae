# faces/screen.py: what both faces show, decided for every board from the app's view (the boards only
# draw it): the four-digit face's turns (the result code, a message, the battery's bAtt), the LEDs with
# the battery's warning, the OLEDs' items of the game, a match or the menu. Both runtimes.
from boardkit import FakeApp, say

from clockkit import Game, L, R
from sagatfw.faces import game as F
from sagatfw.faces import screen as SC


def _shown(app, side, now, low=False):
    return bytes(SC.tm1637(bytearray(4), app, side, now, low))


def _text4(text):
    return bytes(F.text4(bytearray(4), text))


def test_the_result_code_takes_turns_with_the_final_times_on_four_digits():
    g = Game("300")
    app = FakeApp(g.clock)
    g.start(0)
    g.call("result", 1000, 0)
    say(app, "CODE 042917")
    assert _shown(app, L, 2000) == _text4("C042") and _shown(app, R, 2000) == _text4("917")
    assert _shown(app, L, 4000) == bytes(F.tm1637(bytearray(4), g.clock, L, 20000, 0))  # the time's turn


def test_a_message_shows_every_other_2_s_while_stopped_and_on_the_waiting_face_during_play():
    g = Game("300")
    app = FakeApp(g.clock)
    say(app, "LOG ERROR")
    assert _shown(app, L, 2000) == _text4("LErr") and _shown(app, L, 4000) != _text4("LErr")
    g.start(0)  # left runs: the message 1 s in every 10 on the right face only
    g.clock.advance(5000)
    assert _shown(app, R, 5000) == _text4("LErr") and _shown(app, L, 5000) != _text4("LErr")
    g.clock.advance(6000)
    assert _shown(app, R, 6000) != _text4("LErr")


def test_the_battery_warning_is_batt_during_play_and_the_low_leds_blinking_while_stopped():
    g = Game("300")
    app = FakeApp(g.clock)
    assert SC.leds(app, L, 500, True) & F.LED_LOW and not SC.leds(app, L, 0, True) & F.LED_LOW  # blinking
    assert not SC.leds(app, L, 500, False) & F.LED_LOW
    g.start(0)
    g.clock.advance(30000)  # 1 s in every 30 s of play, on the face of the side not running
    assert _shown(app, R, 30000, True) == _text4("bAtt") and _shown(app, L, 30000, True) != _text4("bAtt")
    assert _shown(app, R, 30000, False) != _text4("bAtt")
    assert not SC.leds(app, L, 30500, True) & F.LED_LOW  # running: the LEDs say the time's own marks


def test_the_oled_faces_carry_the_status_line_and_the_boards_battery():
    g = Game("300")
    app = FakeApp(g.clock)
    say(app, "LOG ERROR")
    left, right = SC.oled(app, 0, 87, False)
    assert left == F.oled(g.clock, L, 20000, 87, False, 0, "LOG ERROR")
    assert right == F.oled(g.clock, R, 20000, 87, False, 0, "LOG ERROR")


def test_the_protest_window_is_the_apps_view_not_the_journals():
    g = Game("300")
    app = FakeApp(g.clock)
    g.start(0)
    g.call("result", 3000, 0)  # c.t // 3000 is odd: the protest window's turn
    say(app, "CODE 042917")
    app.journal = object()  # nothing of it is read
    app.protest_ms = 1799001
    assert F.status_text(app) == "PROTEST 30:00"
    app.protest_ms = 0  # closed (or no wall time): the code
    assert F.status_text(app) == "CODE 042917"


class _Menu:
    active = True
    field = None
    field4 = (0, 2)
    detail = "why"

    def view(self, now):
        return ("TIME L", "1:23:45")

    def view4(self, now):
        return ("TI.L", "1:23")


def test_the_open_menu_replaces_the_faces_and_leaves_the_leds():
    app = FakeApp(Game("300").clock)
    app.menu = _Menu()
    assert SC.leds(app, L, 0, True) == -1
    assert _shown(app, L, 500) == _text4("TI.L")
    assert _shown(app, R, 0) == bytes(F.text4(bytearray(4), "1:23", (0, 2), 0))  # its field blinking
    assert SC.oled(app, 0, 87, False) == F.menu_items("TIME L", "1:23:45", None, 0, "why")
