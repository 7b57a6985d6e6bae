# The low battery and the cut-off on the Pico board module with the real app and journal (littlefs on a RAM
# flash, the port-accurate fake `machine`): the low-battery warning during play on TM1637 faces,
# and the cut-off: below it on battery power the clock saves the running game at that instant, says
# so, goes dark and sleeps; the next boot restores the game paused at exactly that instant.
import fake_machine as FM

FM.install()

from boardkit import T, cell  # noqa: E402
from flash import Flash, mount, unmount  # noqa: E402

from sagatfw.app.main import App  # noqa: E402
from sagatfw.boards import pico  # noqa: E402
from sagatfw.engine import clock as C  # noqa: E402
from sagatfw.faces import game as F  # noqa: E402
from sagatfw.log import boot as journalboot  # noqa: E402


class Board(pico.Board):
    root = "/flash/"
    CUTOFF_SHOW_MS = 0


def _app(fresh=True):
    FM.use("rp2")
    FM.ADC.value = cell(4100)
    FM.Pin.pins.pop(24, None)
    if fresh:
        mount(Flash(), fresh=True)
    board = Board()
    app = App(board)
    app.boot(T(0))
    return app, board


def _run(app, start, stop, step=100):
    """Step the app every `step` ms from `start` to `stop` (ms); the ms of a deepsleep, or None."""
    t = start
    while t <= stop:
        del FM.TRACE[:]  # the pin trace of the last step only (_faces reads it)
        try:
            app.step(T(t))
        except FM.Slept:
            return t
        t += step
    return None


def _faces(board):
    """The last 4 segment bytes each TM1637 received, and whether its last command was display off."""
    out = []
    for clk, dio in board.PINS["tm1637"]:
        frames = FM.tm1637_frames(clk, dio, FM.TRACE)
        data = [f for f in frames if f and f[0] == 0xC0]
        out.append((bytes(data[-1][1:5]) if data else None, frames[-1] == [0x80] if frames else None))
    return out


def test_the_waiting_face_says_bAtt_during_play_on_a_low_cell():
    app, board = _app()
    app.new_game("600", "left", T(0))
    app.start(T(0))
    FM.ADC.value = cell(3810)  # under the LiPo warning (3820 mV), over the cut-off
    assert _run(app, 0, 29000) is None
    assert board.low and app.clock.running == C.LEFT
    batt = bytes(F.text4(bytearray(4), "bAtt"))
    _run(app, 30000, 30000)  # 1 s in every 30: the right face (waiting) says it, the left runs on
    left, right = _faces(board)
    assert right[0] == batt and left[0] == bytes(F.tm1637(bytearray(4), app.clock, C.LEFT)), (left, right)
    _run(app, 31000, 31000)
    assert _faces(board)[1][0] != batt
    # the warning latches: a reading 50 mV higher (a pause in the load) does not clear it
    FM.ADC.value = cell(3860)
    _run(app, 31100, 40000)
    assert board.low
    FM.ADC.value = cell(3930)  # charged: 100 mV over the threshold clears it
    _run(app, 40100, 50000)
    assert not board.low
    unmount()


def test_cutoff_saves_the_instant_goes_dark_and_the_boot_restores_it():
    app, board = _app()
    app.new_game("600+5", "left", T(0))
    app.start(T(0))
    _run(app, 0, 12000)
    app.buttons.edge(0, T(12000), True)  # left presses at 12 s: right runs
    app.buttons.edge(0, T(12100), False)
    _run(app, 12000, 20000)
    assert app.clock.running == C.RIGHT
    FM.ADC.value = cell(3480)  # under the cut-off (3500 mV)
    slept = _run(app, 20100, 60000)
    # read every 5 s: three readings in a row under the cut-off, then the sleep, not before
    assert slept is not None and 30000 <= slept <= 36000, slept
    at = app.clock.t
    right_ms = app.clock.ms(C.RIGHT)
    assert right_ms == 600000 - (slept - 12000), right_ms
    (l_seg, l_off), (r_seg, r_off) = _faces(board)
    batt = bytes(F.text4(bytearray(4), "bAtt"))
    assert l_seg == batt and r_seg == batt and l_off and r_off  # said so, then both displays off
    assert all(p() == 0 for face in board.led_pins for p in face) and board.buzzer.duty == 0
    # power off and on: the boot restores the game paused at the cut-off instant (TK-C18)
    FM.ADC.value = cell(3950)
    app2, board2 = _app(fresh=False)
    c = app2.clock
    assert c.state == C.PAUSED and c.t == at and c.ms(C.RIGHT) == right_ms and c.moves[C.LEFT] == 1
    assert [e["type"] for e in journalboot.game_events(app2.journal)][-1] == "power_restore"
    unmount()


def test_no_cutoff_on_usb_power_or_for_a_dip():
    app, board = _app()
    app.new_game("600", "left", T(0))
    app.start(T(0))
    # two low readings, then a normal one (a beep's dip, a loose contact): no sleep
    FM.ADC.value = cell(3400)
    assert _run(app, 0, 9000) is None  # readings at 0 and 5000 ms
    FM.ADC.value = cell(3700)
    assert _run(app, 9100, 14000) is None
    FM.ADC.value = cell(3400)
    assert _run(app, 14100, 24000) is None  # two more low readings: the count started again
    # on USB power (the Pico's VBUS sense, GP24, high) the cell may be charging: the clock plays on
    FM.Pin.pins[24].drive(1)
    assert _run(app, 24100, 60000) is None
    assert app.clock.state == C.RUNNING and board.low
    FM.Pin.pins[24].drive(0)
    assert _run(app, 60100, 80000) is not None
    unmount()
