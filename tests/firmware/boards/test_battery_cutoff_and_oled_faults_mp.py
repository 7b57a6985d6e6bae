# Attacks on the board code (the battery gauge, its warning and cut-off, sagat's SSD1306
# driver) on the port-accurate fake `machine`, with the real app and journal on a RAM flash. Each
# test performs one attack and asserts what a sound clock must do.
import fake_machine as FM

FM.install()

from boardkit import T, cell, say  # noqa: E402
from flash import Flash, mount, unmount  # noqa: E402

from sagatfw.app.main import App  # noqa: E402
from sagatfw.boards import esp32, pico  # noqa: E402
from sagatfw.engine import clock as C  # noqa: E402
from sagatfw.faces.game import status_text  # noqa: E402


def _board_cls(display="tm1637", base=pico.Board, pins=pico.PINS):
    p = dict(pins)
    p["display"] = display

    class Board(base):
        root = "/flash/"
        CUTOFF_SHOW_MS = 0
        PINS = p

    return Board


def _app(display="tm1637", fresh=True, flash=None):
    FM.use("rp2")
    FM.ADC.value = cell(4100)
    FM.Pin.pins.pop(24, None)
    FM.I2C.devices.clear()
    if display == "ssd1306":
        FM.SSD1306Chip(0x3C)
        FM.SSD1306Chip(0x3D)
    if fresh:
        flash = flash or Flash()
        mount(flash, fresh=True)
    board = _board_cls(display)()
    app = App(board)
    app.boot(T(0))
    return app, board


def _loop(app, start, stop, step=5):
    """The board's loop (app._loop): a step every `step` ms, an exception said and the loop goes on.
    Returns (the ms of a deepsleep or None, the exceptions caught)."""
    t = start
    caught = []
    while t <= stop:
        del FM.TRACE[:]
        try:
            app.step(T(t))
        except FM.Slept:
            return t, caught
        except Exception as e:  # noqa: BLE001 - as app._loop
            caught.append(e)
            say(app, "ERROR")
        t += step
    return None, caught


def test_cutoff_sleeps_even_when_an_oled_no_longer_answers():
    # A face's I2C wire works loose during the round (the loop says ERROR and plays on); then the
    # cell runs down. The cut-off must still put the clock to sleep: a display that cannot be
    # told the message must not keep the cell draining to the protection IC's 2.4 V.
    app, board = _app("ssd1306")
    app.new_game("600", "left", T(0))
    app.start(T(0))
    assert _loop(app, 0, 2000)[0] is None
    del FM.I2C.devices[0x3D]  # the right face is gone: every write to it is OSError(EIO)
    FM.ADC.value = cell(3400)
    slept, caught = _loop(app, 2005, 120000, 20)
    assert slept is not None and slept <= 40000, (slept, len(caught))
    unmount()


class FailingFlash(Flash):
    """A flash whose program and erase operations fail with EIO once `failing` is set, returned
    to littlefs as an error code (as a chip's driver reports it), not raised through its C code."""

    failing = False

    def writeblocks(self, block, buf, offset=None):
        if self.failing:
            return -5
        return Flash.writeblocks(self, block, buf, offset)

    def ioctl(self, op, arg):
        if self.failing and op == 6:
            return -5
        return Flash.ioctl(self, op, arg)


def _press(app, side, ms):
    app.buttons.edge(side, T(ms), True)
    app.buttons.edge(side, T(ms + 80), False)


def test_cutoff_with_moves_only_in_ram_does_not_lose_them():
    # The flash stops taking writes mid-game (LOG ERROR on the faces: the moves wait in the RAM
    # backlog, the clock plays on, TK-C18's restore would not have them). The cell then reaches the
    # cut-off. Going dark now throws away the only copy of the game: the faces showed the times,
    # the RAM held the moves, and a deepsleep (a reset on rp2) erases both.
    f = FailingFlash()
    app, board = _app(flash=f)
    app.new_game("600", "left", T(0))
    app.start(T(0))
    _loop(app, 0, 1000, 20)
    f.failing = True  # every program and erase from here on: EIO
    for i in range(6):
        _press(app, app.clock.running, 2000 + i * 1000)
        _loop(app, 2000 + i * 1000, 2980 + i * 1000, 20)
    _loop(app, 8000, 9000, 20)
    assert status_text(app) == "LOG ERROR" and app.journal.backlog, status_text(app)
    moves = app.clock.moves[C.LEFT] + app.clock.moves[C.RIGHT]
    assert moves == 6
    FM.ADC.value = cell(3400)
    slept, caught = _loop(app, 9020, 60000, 20)
    assert slept is None and not caught, (slept, caught)  # the game stays on the faces and in RAM
    assert app.clock.state == C.RUNNING and board.low and status_text(app) == "LOG ERROR"
    # the arbiter ends the game (the result noted by hand, the log cannot take it): now it sleeps
    app.result("1-0", T(60020))
    slept, caught = _loop(app, 60020, 90000, 20)
    assert slept is not None and slept <= 66000 and not caught, (slept, caught)
    unmount()


def test_cutoff_once_the_flash_takes_the_records_again_restores_every_move():
    # The same, but the flash recovers while the cell is under the cut-off: the retry makes the
    # moves durable, and the cut-off then saves the instant and sleeps; the boot has every move.
    f = FailingFlash()
    app, board = _app(flash=f)
    app.new_game("600", "left", T(0))
    app.start(T(0))
    _loop(app, 0, 1000, 20)
    f.failing = True
    for i in range(4):
        _press(app, app.clock.running, 2000 + i * 1000)
        _loop(app, 2000 + i * 1000, 2980 + i * 1000, 20)
    FM.ADC.value = cell(3400)
    assert _loop(app, 6000, 30000, 20)[0] is None
    f.failing = False
    slept, caught = _loop(app, 30020, 50000, 20)
    assert slept is not None and not caught, (slept, caught)
    at = app.clock.t
    right = app.clock.ms(C.RIGHT)
    left = app.clock.ms(C.LEFT)
    unmount()
    mount(f)
    FM.ADC.value = cell(3950)
    app2 = App(_board_cls()())
    app2.boot(T(70000))
    c = app2.clock
    assert c.state == C.PAUSED and c.moves[C.LEFT] + c.moves[C.RIGHT] == 4, (c.state, c.moves)
    assert c.t == at and c.ms(C.LEFT) == left and c.ms(C.RIGHT) == right, (c.t, at)
    unmount()


# The boards' MicroPython keeps ints in 31 bits (-2^30 .. 2^30 - 1, MICROPY_OBJ_REPR_A on rp2 and
# esp32); past that an int is a heap-allocated bignum. The unix port's 63-bit small ints hide an
# overflow, so these readings are ints that fail on any result outside the boards' range.
_LIM = 1 << 30


class Word(int):
    def _c(self, v):
        assert -_LIM <= v < _LIM, "past the boards' small int: %d" % v
        return Word(v)

    def __add__(self, o):
        return self._c(int(self) + int(o))

    def __radd__(self, o):
        return self._c(int(o) + int(self))

    def __sub__(self, o):
        return self._c(int(self) - int(o))

    def __mul__(self, o):
        return self._c(int(self) * int(o))

    def __rmul__(self, o):
        return self._c(int(o) * int(self))

    def __floordiv__(self, o):
        return self._c(int(self) // int(o))

    def __mod__(self, o):
        return self._c(int(self) % int(o))


class _Adc:
    def __init__(self, u16=0, uv=0):
        self.u16 = u16
        self.uv = uv

    def read_u16(self):
        return Word(self.u16)

    def read_uv(self):
        return Word(self.uv)


def test_the_cell_reading_stays_in_the_boards_small_ints_and_exact():
    # read every 5 s in the loop's show(): a bignum there is heap garbage each time
    FM.use("rp2")
    FM.I2C.devices.clear()
    b = _board_cls()()
    for u16 in (0, 1, 30000, 41700, 65535):
        b.adc = _Adc(u16=u16)
        want = 8 * u16 * 3300000 // (8 * 65535) * 2000 // 1000000
        assert b.battery_mv() == want, (u16, b.battery_mv(), want)
    FM.use("esp32")
    e = _board_cls(base=esp32.Board, pins=esp32.PINS)()
    for uv in (0, 1, 1750123, 2100000, 3100000):
        e.adc = _Adc(uv=uv)
        assert e.battery_mv() == uv * 2000 // 1000000, (uv, e.battery_mv())
    FM.use("rp2")


def test_an_oled_that_was_unplugged_and_plugged_back_shows_the_game_again():
    # A face's connector lets go for a moment at the table (a knock on the case): while it is off
    # the writes fail (the loop says ERROR and plays on); when it is back, the panel has powered up
    # again: display off, charge pump off, RAM random. The driver must bring it back to the frame
    # drawn, not send only the columns it believes changed to a panel that shows nothing.
    app, board = _app("ssd1306")
    app.new_game("600", "left", T(0))
    app.start(T(0))
    assert _loop(app, 0, 3000)[0] is None
    del FM.I2C.devices[0x3D]  # the waiting face: its frame does not change, nothing is sent to it
    _loop(app, 3005, 4000)
    chip = FM.SSD1306Chip(0x3D)  # plugged back: a panel just powered up
    chip.ram[:] = b"\xa5" * 1024
    _, caught = _loop(app, 4005, 13000)  # lit within a second, whole within 8
    o = board.oled[1]
    assert not caught and chip.on and chip.image() == bytes(o.buffer), (len(caught), chip.on)
    unmount()


def test_one_dead_oled_does_not_freeze_the_other_face():
    # The left face's connector lets go; the right player's time runs on. Every write to the left
    # face fails, and the right face must still count down (not stand still at the instant the
    # left one died, which is what the players would read as their time).
    app, board = _app("ssd1306")
    app.new_game("600", "left", T(0))
    app.start(T(0))
    assert _loop(app, 0, 2000)[0] is None
    del FM.I2C.devices[0x3C]
    _, caught = _loop(app, 2005, 3000)
    _press(app, C.LEFT, 3000)  # the left player moves: the right's time runs
    _, more = _loop(app, 3005, 9000)
    assert caught + more and app.clock.running == C.RIGHT
    o = board.oled[1]
    chip = FM.I2C.devices[0x3D]
    from sagatfw.faces import game as F

    want = (F.face_text(app.clock, C.RIGHT), "9:55")  # at 9.000 s, or at the last refresh before
    # the time: the face's big digits
    assert o.items is not None and any(it[3] in want for it in o.items if it[0] == "big"), (want, o.items)
    assert chip.image() == bytes(o.buffer)
    unmount()
