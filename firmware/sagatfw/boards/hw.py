# sagat: what the Pico and the ESP32 boards share: pins to Buttons, faces to displays, a buzzer, a
# battery gauge. Each board module (pico.py, esp32.py) is one pin map in one place plus its battery
# wiring; no game logic lives here.
import time

from machine import PWM, Pin

from sagatfw import faces as F
from sagatfw.ticks import TICKS_MAX, ticks_add, ticks_diff

BEEP_HZ = 2000
# LEDs of a face, in the pin map's order: running, flag, low time (TK-C17), mark (a stage passed at a
# flag, TK-C13, or the default time, TK-C6); the low-battery warning lights the low LEDs of both
# faces while the clock is stopped, so it shows at setup.
_LED_BITS = (F.LED_RUNNING, F.LED_FLAG, F.LED_LOW, F.LED_STAGE | F.LED_DEFAULT)
# a face with three LEDs (fewer free pins): the third shows low time or a mark
_LED_BITS3 = (F.LED_RUNNING, F.LED_FLAG, F.LED_LOW | F.LED_STAGE | F.LED_DEFAULT)


class HwBoard:
    name = "hw"
    root = "/"
    PINS = None  # type: dict  # the board module's pin map
    # Pin.irq(hard=True) exists on rp2 (ports/rp2/machine_pin.c, machine_pin_irq); the ESP32 port's
    # Pin.irq takes only handler, trigger, wake and always schedules the handler (soft): a TypeError
    # there (issue 13). hardware/esp32.md bounds how late a soft IRQ stamps a press.
    HARD_IRQ = True

    def __init__(self):
        p = self.PINS
        self.buttons = None
        self._irq_pins = []
        self.display = p.get("display", "tm1637")
        self.seg = bytearray(4)
        # per face: running, flag, and where the pin map has them, low time and mark (stage/default)
        self.led_pins = [[Pin(n, Pin.OUT, value=0) for n in face] for face in p["leds"]]
        if self.display == "tm1637":
            from sagatfw.tm1637 import TM1637

            self.tm = [TM1637(Pin(clk), Pin(dio)) for clk, dio in p["tm1637"]]
        else:
            import ssd1306  # micropython-lib's driver (mip install ssd1306)
            from machine import I2C

            sda, scl = p["i2c"]
            i2c = I2C(p.get("i2c_id", 0), sda=Pin(sda), scl=Pin(scl), freq=400000)
            self.oled = [ssd1306.SSD1306_I2C(128, 64, i2c, addr=a) for a in (0x3C, 0x3D)]
            import framebuf

            self._glyph = bytearray(8)
            self._glyph_fb = framebuf.FrameBuffer(self._glyph, 8, 8, framebuf.MONO_HLSB)
        self.buzzer = PWM(Pin(p["buzzer"]))
        self.buzzer.duty_u16(0)
        self.beep_until = None
        self.adc = self.battery_adc()
        self.level = 100
        self.low = False
        self.next_battery = None  # read at the first show (a boot at ticks >= 2^29 too)

    # ------------------------------------------------------------------ time

    def ticks(self):
        return time.ticks_ms() & TICKS_MAX  # type: ignore[operator]  # already in range on rp2 and esp32

    # --------------------------------------------------------------- buttons

    def attach(self, buttons):
        """Each button's pin: pull-up, pressed = low, an IRQ on both edges (hard where the port has
        hard pin IRQs) that only stamps the time and hands it to Buttons.edge (no allocation in
        the handler)."""
        self.buttons = buttons
        for button, number in enumerate(self.PINS["buttons"]):
            pin = Pin(number, Pin.IN, Pin.PULL_UP)
            if self.HARD_IRQ:
                pin.irq(self._handler(button), Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
            else:
                pin.irq(self._handler(button), Pin.IRQ_FALLING | Pin.IRQ_RISING)
            self._irq_pins.append(pin)

    def _handler(self, button):
        edge = self.buttons.edge
        ticks_ms = time.ticks_ms

        def irq(pin):
            edge(button, ticks_ms() & TICKS_MAX, pin.value() == 0)  # type: ignore[operator]  # stubs: opaque ticks

        return irq

    # ----------------------------------------------------------------- faces

    def show(self, app, now):
        c = app.clock
        v = app.store.values
        blink = (now // 500) & 1
        self._battery(now)
        self._beep_off(now)
        menu = app.menu
        if menu is not None and menu.active:
            self._show_menu(menu, now, blink)
            return
        for side in (0, 1):
            mask = F.leds(c, side, blink)
            if self.low and c.running == -1 and blink:
                mask |= F.LED_LOW  # low battery: both low LEDs blink while the clock is stopped
            pins = self.led_pins[side]
            bits = _LED_BITS3 if len(pins) == 3 else _LED_BITS
            for i in range(len(pins)):
                pins[i](1 if mask & bits[i] else 0)
            if self.display == "tm1637":
                self.tm[side].brightness = v["brightness"]
                code = app.message
                if code is not None and code[:5] == "CODE " and (now // 2000) & 1:
                    # the result code (for the scoresheet) every other 2 s, with the final times:
                    # "C123" on the left face, " 456" on the right
                    F.text4(self.seg, ("C" + code[5:8]) if side == 0 else code[8:11])
                else:
                    F.tm1637(self.seg, c, side, v["tenths_below_ms"], blink)
                self.tm[side].show(self.seg)
            else:
                items = F.oled(c, side, v["tenths_below_ms"], self.level, self.low, blink, app.message)
                self._draw(self.oled[side], items)

    def _show_menu(self, menu, now, blink):
        """The on-clock menu on both faces: what is edited on the left, its value on the right."""
        if self.display == "tm1637":
            texts = menu.view4(now)
            for side in (0, 1):
                F.text4(self.seg, texts[side], menu.field4 if side == 1 else None, blink)
                self.tm[side].show(self.seg)
        else:
            left, right = menu.view(now)
            items = F.menu_items(left, right, menu.field, blink, menu.detail)
            self._draw(self.oled[0], items[0])
            self._draw(self.oled[1], items[1])

    def _draw(self, oled, items):
        oled.fill(0)
        for item in items:
            if item[0] == "fill":
                oled.fill_rect(item[1], item[2], item[3], item[4], item[5])
            elif item[4] == 1:
                oled.text(item[3], item[1], item[2], 1)
            else:
                self._big(oled, item[3], item[1], item[2], item[4])
        oled.show()

    def _big(self, oled, text, x, y, scale):
        """framebuf's 8x8 font scaled up: each glyph drawn into a small buffer, then its pixels
        as scale x scale squares."""
        g = self._glyph_fb
        for ch in text:
            g.fill(0)
            g.text(ch, 0, 0, 1)
            for row in range(8):
                for col in range(8):
                    if g.pixel(col, row):
                        oled.fill_rect(x + col * scale, y + row * scale, scale, scale, 1)
            x += 8 * scale

    # ----------------------------------------------------------------- sound

    def beep(self, ms, now, enabled):
        """Start a beep; it is switched off by a later show(), never by sleeping."""
        if not enabled:
            return
        self.buzzer.freq(BEEP_HZ)
        self.buzzer.duty_u16(32768)
        self.beep_until = ticks_add(now, ms)

    def _beep_off(self, now):
        if self.beep_until is not None and ticks_diff(now, self.beep_until) >= 0:
            self.buzzer.duty_u16(0)
            self.beep_until = None

    # --------------------------------------------------------------- battery

    def battery_adc(self):
        return None

    def battery_mv(self):
        return None

    def _battery(self, now):
        if self.next_battery is not None and ticks_diff(now, self.next_battery) < 0:
            return
        self.next_battery = ticks_add(now, 5000)
        mv = self.battery_mv()
        if mv is None:
            self.level = None
            return
        self.level = percent(mv, self.PINS.get("cell", "lipo"))
        # FIDE: at least 10 h of play after the warning; hardware/power.md gives the threshold
        # that leaves 10 h for each build (40 % for a Pico with TM1637 faces on a 2000 mAh cell)
        self.low = self.level <= self.PINS.get("low_battery_pct", 40)

    def battery(self):
        return self.level, self.low

    def note(self, text):
        pass  # no unsolicited output on the serial stream (docs/design.md, contract 6)


# Open-circuit voltage to charge, per cell kind: (mV, percent) points, high to low.
CURVES = {
    "lipo": ((4200, 100), (4000, 80), (3850, 60), (3750, 40), (3650, 20), (3550, 10), (3400, 0)),
    "aa3": ((4650, 100), (4200, 70), (3900, 40), (3600, 20), (3300, 5), (3000, 0)),  # 3 alkaline AA
}


def percent(mv, cell="lipo"):
    """Battery charge in percent from its voltage (piecewise linear)."""
    pts = CURVES.get(cell, CURVES["lipo"])
    if mv >= pts[0][0]:
        return 100
    for i in range(1, len(pts)):
        hi_mv, hi_p = pts[i - 1]
        lo_mv, lo_p = pts[i]
        if mv >= lo_mv:
            return lo_p + (hi_p - lo_p) * (mv - lo_mv) // (hi_mv - lo_mv)
    return 0


def read_adc_mv(adc, ratio_num, ratio_den, samples=8):
    """Average ADC reading in mV at the battery, through a divider of ratio num/den."""
    total = 0
    for _ in range(samples):
        total += adc.read_u16()
    return total // samples * 3300 // 65535 * ratio_num // ratio_den


