# A stand-in for `machine` (and micropython-lib's `ssd1306`) so the board modules run on the unix
# port: pins record what is written to them and keep their IRQ handlers, so a test can press a
# button "in hardware" and decode what went to a TM1637 from the pin trace.
import sys

import framebuf

TRACE = []  # (pin number, value) for every write to an output pin, in order


class Pin:
    IN = 0
    OUT = 1
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
        if v is None:
            return self.level
        self.level = 1 if v else 0
        TRACE.append((self.n, self.level))
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
