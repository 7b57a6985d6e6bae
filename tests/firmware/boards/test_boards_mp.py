# The Pico and ESP32 board modules on the unix port, with a stand-in `machine` (fake_machine.py):
# IRQ edges reach Buttons with their timestamp, the TM1637 receives exactly the bytes faces/game.py
# computed (decoded from the pin trace), LEDs, the buzzer, the battery gauge and the OLED path.
import fake_machine as FM

FM.install()

from boardkit import FakeApp as _App  # noqa: E402
from boardkit import cell, say, show_all  # noqa: E402

from sagatfw.boards import hw  # noqa: E402
from sagatfw.engine.clock import LEFT, RIGHT, Clock, Settings  # noqa: E402
from sagatfw.faces import game as F  # noqa: E402
from sagatfw.ui import buttons as B  # noqa: E402

PORTS = {"pico": "rp2", "esp32": "esp32"}


def _board(module, display="tm1637"):
    FM.use(PORTS[module])  # the fake `machine` of that board's port (signatures and constants)
    mod = __import__("sagatfw.boards." + module, None, None, ["Board"])
    pins = dict(mod.PINS)
    pins["display"] = display

    class Board(mod.Board):
        PINS = pins

    if display == "ssd1306":  # the two panels on the bus, power-on RAM
        FM.SSD1306Chip(0x3C)
        FM.SSD1306Chip(0x3D)
    return Board(), pins


def _game():
    c = Clock()
    c.new_game("600+5")
    c.start(0)
    c.press(LEFT, 3000)
    c.advance(10400)  # right has 592.6 s
    return c


def test_lever_irq_reaches_buttons_with_its_timestamp():
    for module in ("pico", "esp32"):
        board, pins = _board(module)
        buttons = B.Buttons(60)
        board.attach(buttons)
        pin = FM.Pin.pins[pins["buttons"][B.LEVER_RIGHT]]
        # a hard IRQ on the Pico; the ESP32 port has only scheduled (soft) pin handlers
        assert pin.hard is (module == "pico") and pin.handler is not None, module
        pin.drive(0)  # pressed: the pin is pulled low
        pin.drive(1)  # bounce
        pin.drive(0)
        got = []
        now = board.ticks() + 1000
        while buttons.take(now) >= 0:
            got.append((buttons.button, buttons.kind))
        assert got[:1] == [(B.LEVER_RIGHT, B.PRESS)], (module, got)


def test_tm1637_gets_the_faces_bytes():
    for module in ("pico", "esp32"):
        board, pins = _board(module)
        c = _game()
        del FM.TRACE[:]
        board.show(_App(c), 10400)
        for side in (LEFT, RIGHT):
            clk, dio = pins["tm1637"][side]
            frames = FM.tm1637_frames(clk, dio, FM.TRACE)
            want = F.tm1637(bytearray(4), c, side, 20000, (10400 // 500) & 1)
            assert frames == [[0x40], [0xC0] + list(want), [0x88 | 4]], (module, side, frames, list(want))
        run_l = FM.Pin.pins[pins["leds"][LEFT][0]]
        run_r = FM.Pin.pins[pins["leds"][RIGHT][0]]
        assert (run_l(), run_r()) == (0, 1)  # right is running


def test_tm1637_faces_show_the_result_code_with_the_final_times():
    board, pins = _board("pico")
    c = _game()
    c.result(0, 10400)
    app = _App(c)
    say(app, "CODE 042917")
    for now, texts in ((12000, None), (14000, ("C042", "917"))):  # every other 2 s
        del FM.TRACE[:]
        board.show(app, now)
        for side in (LEFT, RIGHT):
            clk, dio = pins["tm1637"][side]
            if texts is None:
                want = F.tm1637(bytearray(4), c, side, 20000, (now // 500) & 1)
            else:
                want = F.text4(bytearray(4), texts[side])
            assert FM.tm1637_frames(clk, dio, FM.TRACE)[1] == [0xC0] + list(want), (now, side)


def test_flag_led_and_beep_switch_off_without_sleeping():
    board, pins = _board("pico")
    c = Clock()
    c.new_game("10")
    c.start(0)
    c.advance(10000)  # left flags
    board.beep(400, 10000, True)
    assert board.buzzer.duty > 0
    board.show(_App(c), 10200)
    assert board.buzzer.duty > 0 and FM.Pin.pins[pins["leds"][LEFT][1]]() == 1
    board.show(_App(c), 10400)
    assert board.buzzer.duty == 0
    board.beep(400, 10500, False)  # sound off: silent
    assert board.buzzer.duty == 0


def test_battery_percent_and_low_warning():
    board, _ = _board("pico")
    FM.ADC.value = cell(4000)  # the cell (GP26, 100k/100k)
    board.next_battery = 0
    board.show(_App(_game()), 20000)
    level, low = board.battery()
    assert 3995 <= board.mv <= 4000 and 77 <= level <= 80 and not low, (board.mv, level)
    FM.ADC.value = cell(3750)
    board.next_battery = 0
    board.show(_App(_game()), 30000)
    level, low = board.battery()
    assert level <= 25 and low
    assert hw.percent(4300) == 100 and hw.percent(3000) == 0 and hw.percent(3850) == 55
    # 3.75 V is about 25 % (not 40 %)
    assert hw.percent(3750) == 25 and hw.percent(3750, "aa3") == 30


def test_oled_faces_are_drawn():
    for module in ("pico", "esp32"):
        board, _ = _board(module, "ssd1306")
        c = _game()
        show_all(board, _App(c), 10400)
        for side in (LEFT, RIGHT):
            oled = board.oled[side]
            chip = FM.I2C.devices[oled.addr]
            assert chip.on and any(chip.ram) and chip.image() == bytes(oled.buffer), (module, side)
        assert board.oled[0].addr == 0x3C and board.oled[1].addr == 0x3D


class _Menu:
    active = True
    field = (0, 1)
    field4 = (0, 2)
    detail = "blitz"

    def view(self, now=None):
        return ("TIME L", "1:23:45")

    def view4(self, now=None):
        return ("TI L", "1:23")


def test_menu_replaces_the_faces():
    board, pins = _board("pico")
    app = _App(_game())
    app.menu = _Menu()
    del FM.TRACE[:]
    board.show(app, 1000)  # blink phase 0
    for side, text in ((LEFT, "TI L"), (RIGHT, "1:23")):
        clk, dio = pins["tm1637"][side]
        want = F.text4(bytearray(4), text, (0, 2) if side == RIGHT else None, 0)
        assert FM.tm1637_frames(clk, dio, FM.TRACE)[1] == [0xC0] + list(want), side
    board2, _ = _board("esp32", "ssd1306")
    show_all(board2, app, 1000)
    assert FM.I2C.devices[0x3C].image() == bytes(board2.oled[0].buffer) and any(FM.I2C.devices[0x3D].ram)


def test_pico_low_time_and_mark_leds_and_low_battery():
    board, pins = _board("pico")
    c = Clock()
    c.new_game("2/400:100", None, LEFT, Settings(None, "flag", 300000, 1800000, 300000))
    c.start(0)
    c.advance(200000)  # left under the 5-minute mark (TK-C17)
    board.show(_App(c), 200000)
    low_l = FM.Pin.pins[pins["leds"][LEFT][2]]
    mark_l = FM.Pin.pins[pins["leds"][LEFT][3]]
    assert low_l() == 1 and mark_l() == 0
    c.advance(400000)  # stage 2's time added at the flag: the mark for the arbiter (TK-C13)
    board.show(_App(c), 400000)
    assert mark_l() == 1
    c.pause(2, 400001)
    board.low = True
    board.next_battery = 10 ** 9  # keep the forced reading
    board.show(_App(c), 400500)  # blink phase 1: both low LEDs
    assert low_l() == 1 and FM.Pin.pins[pins["leds"][RIGHT][2]]() == 1
    board.show(_App(c), 401000)  # phase 0
    assert FM.Pin.pins[pins["leds"][RIGHT][2]]() == 0


def test_esp32_third_led_shows_low_time_or_a_mark():
    board, pins = _board("esp32")
    c = Clock()
    c.new_game("2/400:100", None, LEFT, Settings(None, "flag", 300000, 1800000, 300000))
    c.start(0)
    third_l = FM.Pin.pins[pins["leds"][LEFT][2]]
    c.advance(50000)
    board.show(_App(c), 50000)
    assert third_l() == 0
    c.advance(200000)  # under the low-time mark
    board.show(_App(c), 200000)
    assert third_l() == 1


def test_battery_is_read_at_the_first_show_after_a_boot_at_ticks_past_2_29():
    # next_battery = 0 is in the future for ticks in 2^29 .. 2^30 (a board
    # soft-reset after 6.2 days of uptime): the gauge was never read until the ticks wrapped
    from sagatfw.core.ticks import TICKS_HALF, TICKS_MAX, ticks_add

    for boot in (TICKS_HALF, TICKS_HALF + 12345, TICKS_MAX - 2000):
        board, _ = _board("pico")
        FM.ADC.value = cell(3700)  # a low cell
        board.show(_App(_game()), boot)
        level, low = board.battery()
        assert level is not None and level <= 12 and low, (boot, level)
        FM.ADC.value = cell(4000)
        board.show(_App(_game()), ticks_add(boot, 4999))  # read every 5 s, across the wrap too
        assert board.battery()[0] <= 12
        board.show(_App(_game()), ticks_add(boot, 5000))
        assert 77 <= board.battery()[0] <= 80, boot


# The fakes accept what each port's C source accepts (MicroPython v1.28.0) and
# reject the rest. (port, call, the exception the port raises or None). Sources: see the specs in
# fake_machine.py (ports/<port>/machine_pin.c machine_pin_irq / machine_pin_obj_init_helper,
# machine_adc.c mp_machine_adc_make_new, machine_i2c.c, machine_pwm.c, machine_timer.c,
# machine_uart.c, extmod/machine_i2c.c mp_machine_soft_i2c_init).
def _irq(hard):
    p = FM.Pin(14, FM.Pin.IN, FM.Pin.PULL_UP)
    if hard is None:
        p.irq(lambda p: None, FM.Pin.IRQ_FALLING | FM.Pin.IRQ_RISING)
    else:
        p.irq(lambda p: None, FM.Pin.IRQ_FALLING | FM.Pin.IRQ_RISING, hard=hard)


PORT_CALLS = (
    ("rp2", lambda: _irq(True), None),
    ("esp32", lambda: _irq(True), TypeError),  # esp32's irq takes no `hard`: a boot once failed on it
    ("esp32", lambda: _irq(None), None),
    ("esp32", lambda: FM.Pin(14).irq(handler=None, wake=None), None),
    ("rp2", lambda: FM.Pin(14).irq(handler=None, wake=None), TypeError),
    ("rp2", lambda: FM.Pin(2, FM.Pin.OUT, value=0), None),
    ("esp32", lambda: FM.Pin(2, FM.Pin.OUT, value=0, drive=FM.Pin.DRIVE_1), None),
    ("rp2", lambda: FM.Pin(2, FM.Pin.OUT, drive=1), TypeError),
    ("esp32", lambda: FM.Pin(2, FM.Pin.OUT, alt=1), TypeError),
    ("rp2", lambda: FM.Pin(2, FM.Pin.OUT, FM.Pin.PULL_UP, 1), TypeError),  # value is kw-only
    ("rp2", lambda: FM.Pin(2).init(FM.Pin.OPEN_DRAIN, value=1), None),
    ("esp32", lambda: FM.Pin(2).init(FM.Pin.OPEN_DRAIN, value=1), None),
    ("esp32", lambda: FM.Pin.ALT, AttributeError),
    ("rp2", lambda: FM.Pin.WAKE_LOW, AttributeError),
    ("esp32", lambda: FM.Pin(34, FM.Pin.OUT), ValueError),  # input-only GPIO
    ("esp32", lambda: FM.Pin(24), ValueError),  # no GPIO24 on the classic ESP32
    ("rp2", lambda: FM.Pin(30), ValueError),
    ("rp2", lambda: FM.Pin(2)(1, 2), TypeError),
    ("rp2", lambda: FM.ADC(3).read_u16(), None),
    ("rp2", lambda: FM.ADC(FM.Pin(26)).read_u16(), None),
    ("rp2", lambda: FM.ADC(3).atten(0), AttributeError),
    ("rp2", lambda: FM.ADC(3).read_uv(), AttributeError),
    ("rp2", lambda: FM.ADC(3, atten=3), TypeError),
    ("rp2", lambda: FM.ADC.ATTN_11DB, AttributeError),
    ("rp2", lambda: FM.ADC(FM.Pin(2)), ValueError),
    ("esp32", lambda: FM.ADC(FM.Pin(34), atten=FM.ADC.ATTN_11DB).read_uv(), None),
    ("esp32", lambda: FM.ADC(FM.Pin(34)).atten(FM.ADC.ATTN_11DB), None),
    ("esp32", lambda: FM.ADC(34).read_u16(), None),
    ("esp32", lambda: FM.ADC(FM.Pin(34), FM.ADC.ATTN_11DB), TypeError),  # atten is kw-only
    ("esp32", lambda: FM.ADC(FM.Pin(5)), ValueError),  # no ADC on GPIO5
    ("esp32", lambda: FM.ADC.CORE_TEMP, AttributeError),
    ("rp2", lambda: FM.I2C(0, sda=FM.Pin(0), scl=FM.Pin(1), freq=400000), None),
    ("rp2", lambda: FM.I2C(0, 400000, sda=FM.Pin(0), scl=FM.Pin(1)), None),  # freq is positional on rp2
    ("esp32", lambda: FM.I2C(0, sda=FM.Pin(21), scl=FM.Pin(22), freq=400000), None),
    ("esp32", lambda: FM.I2C(0, 400000, sda=FM.Pin(21), scl=FM.Pin(22)), TypeError),  # kw-only on esp32
    ("esp32", lambda: FM.I2C(0, sda=FM.Pin(21), scl=FM.Pin(22), baudrate=1), TypeError),
    ("rp2", lambda: FM.SoftI2C(FM.Pin(0), FM.Pin(1), freq=100000), None),
    ("esp32", lambda: FM.SoftI2C(sda=FM.Pin(21)), TypeError),  # scl required
    ("rp2", lambda: FM.PWM(FM.Pin(22)).duty_u16(0), None),
    ("esp32", lambda: FM.PWM(FM.Pin(15), 2000, duty_u16=0), None),
    ("esp32", lambda: FM.PWM(FM.Pin(15), lightsleep=True), None),
    ("rp2", lambda: FM.PWM(FM.Pin(22), lightsleep=True), TypeError),
    ("rp2", lambda: FM.Timer(period=10, callback=None, hard=True), None),
    ("esp32", lambda: FM.Timer(period=10, callback=None), TypeError),  # the id is required
    ("esp32", lambda: FM.Timer(0, period=10, callback=None, hard=True), None),
    ("rp2", lambda: FM.Timer(-1, 10), TypeError),  # all of init's args are kw-only
    ("rp2", lambda: FM.UART(0, 115200, tx=FM.Pin(0), rx=FM.Pin(1)), None),
    ("esp32", lambda: FM.UART(1, 115200, tx=FM.Pin(17), rx=FM.Pin(16)), None),
    ("esp32", lambda: FM.UART(1, 115200, pins=(1, 2)), TypeError),
)


def test_fakes_accept_exactly_what_each_port_accepts():
    bad = []
    for i, (port, call, want) in enumerate(PORT_CALLS):
        FM.use(port)
        try:
            call()
            got = None
        except (TypeError, ValueError, AttributeError) as e:
            got = type(e)
        if got is not want:
            bad.append((i, port, want, got))
    FM.use("rp2")
    assert not bad, bad


def test_both_board_modules_boot_under_their_port():
    # the board's setup as main.py does it: Board(), attach the buttons, a battery read, a frame
    for module in ("pico", "esp32"):
        for display in ("tm1637", "ssd1306"):
            board, pins = _board(module, display)
            board.attach(B.Buttons(60))
            board.next_battery = 0
            board.show(_App(_game()), 10400)
            assert board.battery()[0] is not None, (module, display)
    FM.use("rp2")


def test_pico_onboard_led_is_dark_all_game():
    # GP25 is the Pico's on-board LED. The battery is read on GP26 (the cell's
    # divider), so nothing drives GP25: it stays an input after reset, the LED dark
    FM.Pin.pins.pop(25, None)
    board, _ = _board("pico")
    del FM.TRACE[:]
    board.next_battery = 0
    board.show(_App(_game()), 10400)
    board.show(_App(_game()), 20000)
    assert 25 not in FM.Pin.pins and all(n != 25 for n, v in FM.TRACE)


def test_tm1637_faces_say_the_messages_an_oled_shows():
    # before: a TM1637 clock never showed LOG ERROR, LOG FULL, ERROR...: its arbiter
    # could not see that the log fails. Stopped: every other 2 s on both faces; during play: 1 s in
    # every 10 s on the waiting side's face (its time stands still), never the running side's
    board, pins = _board("pico")
    for message, text in (("LOG ERROR", "LErr"), ("LOG FULL", "LFul"), ("ERROR", "Err"),
                          ("SETTINGS DEFAULT", "SdEF"), ("LOG DAMAGED", "LdAm")):
        app = _App(_game())  # right runs, t = 10.4 s
        c = app.clock
        say(app, message)
        want = bytes(F.text4(bytearray(4), text))
        seen = {LEFT: 0, RIGHT: 0}
        for now in range(10400, 40400, 500):
            c.advance(now)
            del FM.TRACE[:]
            board.show(app, now)
            for side in (LEFT, RIGHT):
                clk, dio = pins["tm1637"][side]
                if bytes(FM.tm1637_frames(clk, dio, FM.TRACE)[1][1:5]) == want:
                    seen[side] += 1
        assert seen[RIGHT] == 0 and seen[LEFT] == 6, (message, seen)  # 3 windows of 1 s, 2 shows each
    c.pause(2, 40400)
    say(app, "LOG ERROR")
    want = bytes(F.text4(bytearray(4), "LErr"))
    for now, shown in ((42000, True), (44000, False)):
        del FM.TRACE[:]
        board.show(app, now)
        for side in (LEFT, RIGHT):
            clk, dio = pins["tm1637"][side]
            assert (bytes(FM.tm1637_frames(clk, dio, FM.TRACE)[1][1:5]) == want) is shown, (now, side)


def test_a_match_is_on_the_faces_and_leds_of_both_display_kinds():
    # while a match is the active mode the boards draw faces/matchfaces.py's faces: TM1637 the
    # match time left and the score right, OLED each side's score; the LEDs the running period,
    # the cards and the winner
    from sagatfw.engine.kokboru import KokBoru
    from sagatfw.engine.matchwords import CARD_WARNING
    from sagatfw.faces import matchfaces as MF

    class _Match:  # matchapp.MatchApp's face of it: the engine, no open entry
        def __init__(self, m):
            self.m = m

        def note(self, side, now):
            return None

        def note4(self, now):
            return None

    m = KokBoru()
    m.new_match()
    m.start(0)
    m.score(LEFT, 4, 1000)
    m.card(RIGHT, CARD_WARNING, 2000)
    m.advance(12300)
    m.clear_events()
    board, pins = _board("pico")
    app = _App(Clock())
    app.match = _Match(m)
    del FM.TRACE[:]
    board.show(app, 12300)
    for side in (LEFT, RIGHT):
        clk, dio = pins["tm1637"][side]
        want = [0xC0] + list(MF.tm1637(bytearray(4), m, side, 0))
        assert FM.tm1637_frames(clk, dio, FM.TRACE)[1] == want, side
    leds = pins["leds"]
    assert FM.Pin.pins[leds[LEFT][0]]() == 1 and FM.Pin.pins[leds[RIGHT][0]]() == 1  # the half runs
    assert FM.Pin.pins[leds[RIGHT][2]]() == 1 and FM.Pin.pins[leds[LEFT][2]]() == 0  # right's warning
    board2, _ = _board("esp32", "ssd1306")
    show_all(board2, app, 12300)
    for side in (LEFT, RIGHT):
        o = board2.oled[side]
        assert o.items == MF.oled(m, side) and FM.I2C.devices[o.addr].image() == bytes(o.buffer), side


def _locating(app, at):
    app.locate_until = at + 5000  # link/commands.py locate, at ticks `at`
    app.store.values["sound"] = False  # a locate beeps all the same: the arbiter's call


def test_a_locate_inverts_the_oleds_at_2_hz_and_beeps_once_a_second():
    board, pins = _board("pico", "ssd1306")
    app = _App(_game())
    _locating(app, 20000)
    chips = (FM.I2C.devices[0x3C], FM.I2C.devices[0x3D])
    seen = []
    beeps = 0
    for now in range(20000, 26000, 50):
        duty = board.buzzer.duty
        show_all(board, app, now)
        beeps += duty == 0 and board.buzzer.duty > 0
        seen.append((now, chips[0].inverted, chips[1].inverted))
    inverted = [now for now, a, b in seen if a]
    assert all(a == b for now, a, b in seen)
    assert inverted[:6] == [20250, 20300, 20350, 20400, 20450, 20750], inverted
    assert inverted[-1] == 24950 and beeps == 5, (inverted[-1], beeps)  # (the keep once a second: inverted again)
    assert app.locate_until is None and not chips[0].inverted


def test_a_locate_darkens_the_tm1637_faces_every_other_250_ms():
    board, pins = _board("pico")
    app = _App(_game())
    _locating(app, 20000)
    dark = []
    for now in (20000, 20250, 20500, 20750, 25250):
        del FM.TRACE[:]
        board.show(app, now)
        clk, dio = pins["tm1637"][LEFT]
        dark.append(FM.tm1637_frames(clk, dio, FM.TRACE)[-2][1:5] == [0, 0, 0, 0])
    assert dark == [False, True, False, True, False], dark
    assert board.buzzer.duty == 0  # the last beep is off


def test_tm1637_faces_name_the_board_in_setup_every_other_2_s():
    board, pins = _board("pico")
    c = Clock()
    c.new_game("300")
    app = _App(c)
    app.store.values["board"] = 8
    want = bytes(F.text4(bytearray(4), "b  8"))
    for now, shown in ((12000, False), (14000, True)):
        del FM.TRACE[:]
        board.show(app, now)
        for side in (LEFT, RIGHT):
            clk, dio = pins["tm1637"][side]
            assert (bytes(FM.tm1637_frames(clk, dio, FM.TRACE)[1][1:5]) == want) is shown, (now, side)
