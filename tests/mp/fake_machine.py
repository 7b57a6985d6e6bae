# A stand-in for `machine` (and micropython-lib's `ssd1306`) so the board modules run on the unix
# port: pins record what is written to them and keep their IRQ handlers, so a test can press a
# button "in hardware" and decode what went to a TM1637 from the pin trace.
import sys

import framebuf

TRACE = []  # (pin number, value) for every write to an output pin, in order


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2  # value(1) releases the line (high through a pull-up), value(0) pulls it low
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8
    pins = {}

    def __init__(self, n, mode=None, pull=None, value=None):
        self.n = n
        self.mode = mode
        self.level = 1 if pull == Pin.PULL_UP else 0
        self.handler = None
        self.hard = None
        if value is not None:
            self(value)
        Pin.pins[n] = self

    def init(self, mode=None, pull=None, value=None):
        self.mode = mode
        if value is not None:
            self(value)

    def __call__(self, v=None):
        chip = CHIPS.get(self.n)
        if v is None:
            if chip is not None and chip.pulling and self.n == chip.dio:
                return 0  # the bus level: the chip's ACK
            return self.level
        self.level = 1 if v else 0
        TRACE.append((self.n, self.level))
        if chip is not None:
            chip.wrote(self)
        return None

    def value(self, v=None):
        return self(v)

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler
        self.hard = hard

    # for tests: a level change on an input pin fires its IRQ
    def drive(self, level):
        self.level = level
        if self.handler is not None:
            self.handler(self)


class PWM:
    def __init__(self, pin):
        self.pin = pin
        self.f = 0
        self.duty = 0

    def freq(self, f=None):
        if f is not None:
            self.f = f
        return self.f

    def duty_u16(self, d=None):
        if d is not None:
            self.duty = d
        return self.duty


class ADC:
    ATTN_11DB = 3
    value = 0

    def __init__(self, src):
        self.src = src

    def atten(self, a):
        self.a = a

    def read_u16(self):
        return ADC.value


class I2C:
    def __init__(self, *args, **kw):
        self.args = args


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width, height, i2c, addr=0x3C):
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.addr = addr
        self.shows = 0

    def show(self):
        self.shows += 1


class _Module:
    pass


def install():
    m = _Module()
    for name in ("Pin", "PWM", "ADC", "I2C"):
        setattr(m, name, globals()[name])
    sys.modules["machine"] = m
    s = _Module()
    s.SSD1306_I2C = SSD1306_I2C
    sys.modules["ssd1306"] = s


CHIPS = {}  # pin number -> the TM1637Chip on that CLK or DIO line


class TM1637Chip:
    """The TM1637's side of its two wires, attached to a CLK and a DIO pin number (before or after
    the driver makes its Pins): it follows start and stop, receives the bytes (LSB first, sampled at
    CLK's rising edge), and pulls DIO low for its ACK from the 8th clock's falling edge to the 9th
    clock's falling edge. It records:
    - frames: the bytes received, one list per start..stop;
    - conflicts: every moment the driver drove DIO high push-pull (mode OUT, value 1) while the chip
      pulled it low (a short circuit between the two outputs), as (frame index, byte index in the
      frame, TRACE index);
    - acks: per ACK clock, whether DIO was released (OPEN_DRAIN or IN, value 1) from the 9th clock's
      rising edge to its falling edge, and never driven high push-pull during the pull."""

    def __init__(self, clk, dio):
        self.clk = clk
        self.dio = dio
        self.c = 1  # CLK level
        self.d = 1  # the driver's DIO level (1 = released or driven high)
        self.active = False
        self.pulling = False
        self.count = 0  # rising clock edges of the current byte
        self.byte = 0
        self.frames = []
        self.conflicts = []
        self.acks = []
        self._ok = True
        CHIPS[clk] = self
        CHIPS[dio] = self

    def detach(self):
        for n in (self.clk, self.dio):
            if CHIPS.get(n) is self:
                del CHIPS[n]

    @staticmethod
    def _released(pin):
        return pin.level == 1 and pin.mode in (Pin.OPEN_DRAIN, Pin.IN)

    def _check(self, pin):
        # called while the chip pulls DIO low: a push-pull 1 shorts the two outputs
        if pin.level == 1 and pin.mode == Pin.OUT:
            f = len(self.frames) - 1
            self.conflicts.append((f, len(self.frames[f]) - 1, len(TRACE) - 1))
            self._ok = False

    def wrote(self, pin):
        if pin.n == self.dio:
            v = pin.level
            if self.pulling:
                self._check(pin)
                if self.c == 1 and not self._released(pin):
                    self._ok = False
            elif self.c == 1 and self.d == 1 and v == 0:  # start
                self.active = True
                self.count = 0
                self.byte = 0
                self.frames.append([])
            elif self.c == 1 and self.d == 0 and v == 1 and self.active:  # stop
                self.active = False
            self.d = v
            return
        if pin.n != self.clk:
            return
        v = pin.level
        if v == self.c:
            return
        self.c = v
        if not self.active:
            return
        if v == 1:  # rising edge: clock number count + 1
            if self.count < 8:
                bus = 0 if self.pulling else self.d
                self.byte |= bus << self.count
            elif self.pulling:  # the 9th clock rises: DIO must be released by now
                dio = Pin.pins.get(self.dio)
                if dio is None or not self._released(dio):
                    self._ok = False
            self.count += 1
            return
        if self.count == 8:  # the 8th clock falls: the ACK begins
            self.frames[-1].append(self.byte)
            self.pulling = True
            self._ok = True
            dio = Pin.pins.get(self.dio)
            if dio is not None:
                self._check(dio)
        elif self.count == 9:  # the 9th clock falls: the ACK ends
            self.pulling = False
            self.acks.append(self._ok)
            self.count = 0
            self.byte = 0


def tm1637_frames(clk, dio, trace):
    """Decode the bytes sent to a TM1637 from a pin trace: a list of frames (start..stop), each a
    list of byte values."""
    frames = []
    cur = None
    bits = []
    c = 1
    d = 1
    for n, v in trace:
        if n == dio:
            if c == 1 and d == 1 and v == 0:  # start
                cur = []
                bits = []
            elif c == 1 and d == 0 and v == 1 and cur is not None:  # stop
                frames.append(cur)
                cur = None
            d = v
        elif n == clk:
            if v == 1 and c == 0 and cur is not None:
                bits.append(d)
                if len(bits) == 9:  # 8 data bits, LSB first, then the ACK clock
                    b = 0
                    for i in range(8):
                        b |= bits[i] << i
                    cur.append(b)
                    bits = []
            c = v
    return frames
