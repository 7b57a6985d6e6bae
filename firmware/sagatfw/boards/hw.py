# sagat: what the Pico and the ESP32 boards share: pins to Buttons, faces to displays, a buzzer, a
# battery gauge with its warning and cut-off. Each board module (pico.py, esp32.py) is one pin map
# in one place plus its battery wiring; no game logic lives here.
import time

from machine import ADC, PWM, Pin

from sagatfw.core.ticks import TICKS_MAX, ticks_add, ticks_diff
from sagatfw.engine import clock as C
from sagatfw.faces import game as F
from sagatfw.faces import screen as SC  # what the faces show: this board draws it

try:
    from micropython import const
except ImportError:  # the host's type check

    def const(x):  # type: ignore[misc]
        return x


BEEP_HZ = const(2000)
BATTERY_MS = const(5000)  # the cell is read every 5 s
CUTOFF_READS = const(3)  # readings in a row under the cut-off before the clock sleeps (not a beep's dip)
NO_CELL_MV = const(2000)  # less is no cell at all: a LiPo's protection cuts it off near 2.4 V
LOCATE_BEEP_MS = const(150)  # a locate's beep, once a second (faces.locating)
LOCATE_BLINK_MS = const(250)  # a locate's faces: dark every other 250 ms (2 Hz)
_DARK = b"\x00\x00\x00\x00"  # a TM1637 face dark (a locate's blink)
# LEDs of a face, in the pin map's order: running, flag, low time (TK-C17), mark (a stage passed at a
# flag, TK-C13, or the default time, TK-C6); faces/screen.py says which are lit (the low-battery
# warning blinks the low LEDs of both faces while the clock is stopped).
_LED_BITS = (F.LED_RUNNING, F.LED_FLAG, F.LED_LOW, F.LED_STAGE | F.LED_DEFAULT)
# a face with three LEDs (fewer free pins): the third shows low time or a mark
_LED_BITS3 = (F.LED_RUNNING, F.LED_FLAG, F.LED_LOW | F.LED_STAGE | F.LED_DEFAULT)


class HwBoard:
    name = "hw"
    root = "/"
    PINS = None  # type: dict  # the board module's pin map
    # Pin.irq(hard=True) exists on rp2 (ports/rp2/machine_pin.c, machine_pin_irq); the ESP32 port's
    # Pin.irq takes only handler, trigger, wake and always schedules the handler (soft): a TypeError
    # there. hardware/esp32.md bounds how late a soft IRQ stamps a press.
    HARD_IRQ = True
    # the serial link's writes (link/stream.py): LINK_WRITE bytes at most per write, LINK_STEP per pass of
    # the loop. A UART at 115200 baud takes 11 bytes a ms and its write waits for room: 256 (about
    # 22 ms). USB CDC moves 4 KB in about 2.5 ms (the Pico's, emulated: 1.6 MB/s).
    LINK_WRITE = 256
    LINK_STEP = 256
    CUTOFF_SHOW_MS = 10000  # the empty-battery message stays this long before the board sleeps
    loop_max_ms = 0  # the longest gap between two passes of app._loop since identify asked

    def __init__(self):
        p = self.PINS
        self.buttons = None
        self._irq_pins = []
        self.display = p.get("display", "tm1637")
        self.seg = bytearray(4)
        # per face: running, flag, and where the pin map has them, low time and mark (stage/default)
        self.led_pins = [[Pin(n, Pin.OUT, value=0) for n in face] for face in p["leds"]]
        if self.display == "tm1637":
            from sagatfw.faces.tm1637 import TM1637

            self.tm = [TM1637(Pin(clk), Pin(dio)) for clk, dio in p["tm1637"]]
        else:
            from machine import I2C

            from sagatfw.faces.oled import OLED  # sagat's driver: only the changed columns go on the bus

            sda, scl = p["i2c"]
            i2c = I2C(p.get("i2c_id", 0), sda=Pin(sda), scl=Pin(scl), freq=400000)
            self.oled = [OLED(i2c, a) for a in (0x3C, 0x3D)]
        self._kept = None  # the second of the OLEDs' last keep
        self._located = -1  # the second of a locate's last beep
        self._dark = False  # the OLEDs inverted by a locate
        self.buzzer = PWM(Pin(p["buzzer"]))
        self.buzzer.duty_u16(0)
        self.beep_until = None
        bat = p.get("battery")
        self.adc = self.battery_adc(bat[0]) if bat else None
        self.vbus = self.vbus_pin()
        self.mv = None  # the cell's last reading
        self.level = 100
        self.low = False
        self.under = 0  # readings in a row at or below the cut-off
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
        self._battery(app, now)
        self._beep_off(now)
        located = F.locating(app, now)
        self._faces(app, now)
        self._locate(located, now)

    def _locate(self, ms, now):
        """The arbiter's locate, `ms` left of it (faces.locating; 0: none): a beep at its start and
        every second after, sound setting or not (the arbiter's call); the faces dark every other
        LOCATE_BLINK_MS: a TM1637 blank, an OLED inverted (SSD1306 0xA7; oled.keep, once a second,
        sets it back to normal, so it is sent again at each refresh of a dark phase)."""
        if ms and (ms - 1) // 1000 != self._located:
            self._located = (ms - 1) // 1000
            self.beep(LOCATE_BEEP_MS, now, True)
        elif not ms:
            self._located = -1
        dark = ms and not ((ms - 1) // LOCATE_BLINK_MS) & 1
        if self.display == "tm1637":
            if dark:
                for tm in self.tm:
                    tm.show(_DARK)
        elif dark or self._dark:
            self._dark = dark
            for o in self.oled:
                o.invert(dark)

    def _faces(self, app, now):
        """Draw what faces/screen.py says both faces show (the menu, a match or the game, and what the app
        and the battery have to say): the LEDs, then each TM1637 or both OLEDs."""
        tm = self.display == "tm1637"
        for side in (0, 1):
            mask = SC.leds(app, side, now, self.low)
            if mask >= 0:  # (-1: the menu is open, the LEDs keep what they showed)
                pins = self.led_pins[side]
                bits = _LED_BITS3 if len(pins) == 3 else _LED_BITS
                for i in range(len(pins)):
                    pins[i](1 if mask & bits[i] else 0)
            if tm:
                self.tm[side].brightness = app.store.values["brightness"]
                self.tm[side].show(SC.tm1637(self.seg, app, side, now, self.low))
        if not tm:
            self._send(app, SC.oled(app, now, self.level, self.low), now)

    def _send(self, app, items, now):
        from sagatfw.faces.oled import show_faces

        s = now // 1000
        if s != self._kept:  # once a second: a face that lost power comes back (oled.keep)
            self._kept = s
            for o in self.oled:
                try:
                    o.keep(s & 7)
                except OSError:
                    pass  # said by show_faces' error
        if show_faces(self.oled, items):
            app.next_face = now  # pages left: sent at the loop's next pass (5 ms), each pass in budget

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

    def battery_adc(self, pin):
        return ADC(pin)

    def vbus_pin(self):
        n = self.PINS.get("vbus")
        return None if n is None else Pin(n, Pin.IN)

    def pin_uv(self):
        """The ADC pin's voltage in uV: 8 samples against the 3.3 V reference (the Pico's ADC_VREF
        is its 3V3 rail: hardware/power.md gives the error, bringup.md the calibration)."""
        adc = self.adc
        total = 0
        for _ in range(8):
            total += adc.read_u16()
        # total * 3300000 // 524280 exactly, every step under 2^30: the boards' small ints are
        # 31 bits, past that each reading would leave bignums on the heap
        q, r = divmod(total * 825, 131070)
        return q * 1000 + r * 1000 // 131070

    def battery_mv(self):
        """The cell's voltage in mV through its divider (PINS "battery": pin, ratio x 1000)."""
        if self.adc is None:
            return None
        uv = self.pin_uv()
        ratio = self.PINS["battery"][1]
        # uv * ratio // 1000000 exactly, in 31-bit ints (uv < 3.4e6, ratio < 1e5)
        a = uv // 1000 * ratio
        return a // 1000 + (a % 1000 * 1000 + uv % 1000 * ratio) // 1000000

    def _battery(self, app, now):
        if self.next_battery is not None and ticks_diff(now, self.next_battery) < 0:
            return
        self.next_battery = ticks_add(now, BATTERY_MS)
        mv = self.mv = self.battery_mv()
        if mv is None or mv < NO_CELL_MV:  # no divider, or no cell on it (mains power): not measured
            self.mv = None
            self.level = None
            self.low = False
            self.under = 0
            return
        p = self.PINS
        cell = CELLS.get(p.get("cell"), CELLS["lipo"])
        self.level = percent(mv, p.get("cell", "lipo"))
        # FIDE: at least 10 h of play after the warning: the cell's threshold leaves that by the
        # power budget's currents (hardware/power.md). It stays until the cell reads 100 mV above
        # it (charging), so a reading wavering at the threshold does not blink it on and off.
        warn = p.get("low_battery_mv", cell[1])
        self.low = mv <= warn or (self.low and mv < warn + 100)
        if mv <= p.get("cutoff_mv", cell[2]) and not (self.vbus is not None and self.vbus()):
            self.under += 1
            if self.under >= CUTOFF_READS:
                self.cutoff(app, now)
        else:
            self.under = 0

    def cutoff(self, app, now):
        """The cell is empty: below the cut-off in CUTOFF_READS readings in a row
        on battery power. Saves the running game at this instant (a checkpoint: the next boot
        restores it paused with a power_restore record, TK-C18), says so on both faces for
        CUTOFF_SHOW_MS, switches every output off and sleeps until the clock is switched off and
        on (machine.deepsleep: DORMANT with no wake source on rp2, deep sleep on the ESP32). Presses
        meanwhile are stamped but never applied."""
        j = app.journal
        c = app.clock
        if j is not None:
            j.commit()
            j.last_t = c.t - j.checkpoint_ms  # due now: the running side's time at this instant
            j.checkpoint(c, now)
            if (j.backlog or j.gap or not j.opened) and c.state in (C.RUNNING, C.PAUSED, C.ADJOURNED):
                # the log could not take the game (LOG ERROR / LOG FULL): its only copy is in RAM
                # and on the faces, which a sleep (a reset) erases. Play on; the faces say bAtt and
                # the log's error; the cut-off comes at the first reading after the game's end
                # (or once the flash takes the records).
                return
        self.buzzer.duty_u16(0)
        for face in self.led_pins:
            for pin in face:
                pin(0)
        # (the faces' last words before the sleep, here rather than in faces/screen.py: a function more
        # there would cost its dict an entry for the whole of every game)
        if self.display == "tm1637":
            F.text4(self.seg, b"bAtt")
            for tm in self.tm:
                tm.show(self.seg)  # bit-banged: no error to stop the sleep
        else:
            for o in self.oled:
                try:  # a face that no longer answers (a loose I2C wire) must not keep the cell draining
                    o.draw(F.menu_oled(F.T("EMPTY"), None, 1, F.T("BATTERY"), F.T("CHARGE IT")))
                    o.send()
                except OSError:
                    pass
        time.sleep_ms(self.CUTOFF_SHOW_MS)  # type: ignore[attr-defined]  # MicroPython's time
        for d in (self.tm if self.display == "tm1637" else self.oled):
            try:
                d.off()
            except OSError:
                pass
        import machine

        machine.deepsleep()

    def battery(self):
        return self.level, self.low

    def note(self, text):
        pass  # no unsolicited output on the serial stream (docs/design.md, contract 6)


# Per cell kind: the voltage-to-charge curve, (mV, percent) points high to low; the warning (mV),
# which leaves >= 10 h of play by hardware/power.md's figures; the cut-off (mV). PINS "cell" picks
# one; PINS "low_battery_mv" / "cutoff_mv" override the thresholds.
CELLS = {
    # 1-cell LiPo at rest, the commonly published table (3.75 V is about 25 %)
    "lipo": (((4200, 100), (4150, 95), (4110, 90), (4080, 85), (4020, 80), (3980, 75), (3950, 70), (3910, 65),
              (3870, 60), (3850, 55), (3840, 50), (3820, 45), (3800, 40), (3790, 35), (3770, 30), (3750, 25),
              (3730, 20), (3710, 15), (3690, 10), (3610, 5), (3270, 0)), 3820, 3500),
    # 3 alkaline AA cells in series
    "aa3": (((4650, 100), (4200, 70), (3900, 40), (3600, 20), (3300, 5), (3000, 0)), 3900, 3100),
}


def percent(mv, cell="lipo"):
    """Battery charge in percent from its voltage (piecewise linear)."""
    pts = CELLS.get(cell, CELLS["lipo"])[0]
    if mv >= pts[0][0]:
        return 100
    for i in range(1, len(pts)):
        hi_mv, hi_p = pts[i - 1]
        lo_mv, lo_p = pts[i]
        if mv >= lo_mv:
            return lo_p + (hi_p - lo_p) * (mv - lo_mv) // (hi_mv - lo_mv)
    return 0

