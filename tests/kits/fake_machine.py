# A stand-in for `machine` so the board modules run on the unix port: pins record what is written to
# them and keep their IRQ handlers, so a test can press a button "in hardware" and decode what went
# to a TM1637 from the pin trace; an SSD1306 on the I2C bus keeps its display RAM as the panel would.
import sys

TRACE = []  # (pin number, value) for every write to an output pin, in order

# Port-accurate signatures: each port's fake accepts exactly the arguments the
# port's C source parses with mp_arg_parse_all / mp_arg_check_num in MicroPython v1.28.0, and raises
# TypeError / ValueError / AttributeError where the port does. A spec is a tuple of
# (name, kw_only, required), in the C table's order (positional args fill the non-kw-only ones).
PORT = "rp2"
# ports/rp2/machine_timer.c and ports/esp32/machine_timer.c: machine_timer_init_helper, all kw-only
_TIMER = (("mode", 1, 0), ("callback", 1, 0), ("period", 1, 0), ("tick_hz", 1, 0), ("freq", 1, 0), ("hard", 1, 0))
_S = {
    "rp2": {
        # ports/rp2/machine_pin.c: allowed_args (mode, pull, *, value, alt), machine_pin_irq
        "Pin.init": (("mode", 0, 0), ("pull", 0, 0), ("value", 1, 0), ("alt", 1, 0)),
        "Pin.irq": (("handler", 0, 0), ("trigger", 0, 0), ("hard", 0, 0)),
        # ports/rp2/machine_pwm.c: mp_machine_pwm_init_helper
        "PWM": (("freq", 0, 0), ("duty_u16", 1, 0), ("duty_ns", 1, 0), ("invert", 1, 0)),
        # ports/rp2/machine_adc.c: mp_machine_adc_make_new, mp_arg_check_num(n_args, n_kw, 1, 1, false)
        "ADC": (),
        # ports/rp2/machine_i2c.c: machine_i2c_make_new (id, freq, *, scl, sda, timeout)
        "I2C": (("id", 0, 0), ("freq", 0, 0), ("scl", 1, 0), ("sda", 1, 0), ("timeout", 1, 0)),
        # ports/rp2/machine_timer.c: machine_timer_init_helper (id is optional, -1)
        "Timer": _TIMER,
        # ports/rp2/machine_uart.c: mp_machine_uart_init_helper
        "UART": (("baudrate", 0, 0), ("bits", 0, 0), ("parity", 0, 0), ("stop", 0, 0), ("tx", 1, 0), ("rx", 1, 0),
                 ("cts", 1, 0), ("rts", 1, 0), ("timeout", 1, 0), ("timeout_char", 1, 0), ("invert", 1, 0),
                 ("flow", 1, 0), ("txbuf", 1, 0), ("rxbuf", 1, 0)),
    },
    "esp32": {
        # ports/esp32/machine_pin.c: machine_pin_obj_init_helper (mode, pull, *, value, drive, hold),
        # machine_pin_irq (handler, trigger, wake): no `hard`, the ISR mp_sched_schedule()s the handler
        "Pin.init": (("mode", 0, 0), ("pull", 0, 0), ("value", 1, 0), ("drive", 1, 0), ("hold", 1, 0)),
        "Pin.irq": (("handler", 0, 0), ("trigger", 0, 0), ("wake", 0, 0)),
        # ports/esp32/machine_pwm.c: mp_machine_pwm_make_new mp_arg_check_num(n_args, n_kw, 1, 2, true),
        # mp_machine_pwm_init_helper
        "PWM": (("freq", 0, 0), ("duty", 1, 0), ("duty_u16", 1, 0), ("duty_ns", 1, 0), ("invert", 1, 0),
                ("lightsleep", 1, 0)),
        # ports/esp32/machine_adc.c: madc_init_helper (*, atten)
        "ADC": (("atten", 1, 0),),
        # ports/esp32/machine_i2c.c: machine_hw_i2c_make_new (id, *, scl, sda, freq, timeout)
        "I2C": (("id", 0, 0), ("scl", 1, 0), ("sda", 1, 0), ("freq", 1, 0), ("timeout", 1, 0)),
        # ports/esp32/machine_timer.c: machine_timer_make_new (id required), machine_timer_init_helper
        "Timer": _TIMER,
        # ports/esp32/machine_uart.c: mp_machine_uart_init_helper
        "UART": (("baudrate", 0, 0), ("bits", 0, 0), ("parity", 0, 0), ("stop", 0, 0), ("tx", 1, 0), ("rx", 1, 0),
                 ("rts", 1, 0), ("cts", 1, 0), ("txbuf", 1, 0), ("rxbuf", 1, 0), ("timeout", 1, 0),
                 ("timeout_char", 1, 0), ("invert", 1, 0), ("flow", 1, 0)),
    },
}
# extmod/machine_i2c.c: mp_machine_soft_i2c_init (scl, sda required, *, freq, timeout), both ports
_SOFT_I2C = (("scl", 0, 1), ("sda", 0, 1), ("freq", 1, 0), ("timeout", 1, 0))

# Constants of each port's locals dict (a name the port lacks is an AttributeError).
_CONST = {
    "rp2": {
        # ports/rp2/machine_pin.c machine_pin_locals_dict_table (MACHINE_PIN_MODE_*, GPIO_PULL_*,
        # pico-sdk GPIO_IRQ_EDGE_*)
        "Pin": {"IN": 0, "OUT": 1, "OPEN_DRAIN": 2, "ALT": 3, "PULL_UP": 1, "PULL_DOWN": 2,
                "IRQ_RISING": 8, "IRQ_FALLING": 4},
        "ADC": {"CORE_TEMP": 4},  # ports/rp2/machine_adc.c: no atten, no width
        "Timer": {"ONE_SHOT": 0, "PERIODIC": 1},
    },
    "esp32": {
        # ports/esp32/machine_pin.c machine_pin_locals_dict_table (ESP-IDF gpio_mode_t, gpio_int_type_t)
        "Pin": {"IN": 1, "OUT": 3, "OPEN_DRAIN": 7, "PULL_UP": 2, "PULL_DOWN": 1, "IRQ_RISING": 1,
                "IRQ_FALLING": 2, "WAKE_LOW": 4, "WAKE_HIGH": 5, "DRIVE_0": 0, "DRIVE_1": 1, "DRIVE_2": 2,
                "DRIVE_3": 3},
        # ports/esp32/machine_adc.c MICROPY_PY_MACHINE_ADC_CLASS_CONSTANTS (classic ESP32: 9..12 bit)
        "ADC": {"ATTN_0DB": 0, "ATTN_2_5DB": 1, "ATTN_6DB": 2, "ATTN_11DB": 3, "WIDTH_9BIT": 9,
                "WIDTH_10BIT": 10, "WIDTH_11BIT": 11, "WIDTH_12BIT": 12},
        "Timer": {"ONE_SHOT": 0, "PERIODIC": 1},
    },
}
# ports/esp32/machine_pin.h MICROPY_HW_ENABLE_GPIOn for CONFIG_IDF_TARGET_ESP32 (no 24, 28-31; 16
# and 17 only without CONFIG_SPIRAM: the WROOM-32 build); 34-39 are input only ("pin can only be
# input", machine_pin_obj_init_helper). ADC1: 32-39, ADC2: 0 2 4 12-15 25-27.
_ESP32_PINS = tuple(range(0, 24)) + (25, 26, 27) + tuple(range(32, 40))
_ESP32_ADC = (0, 2, 4, 12, 13, 14, 15, 25, 26, 27) + tuple(range(32, 40))


def _parse(spec, args, kw, what):
    """mp_arg_parse_all (py/argcheck.c): positional args fill the non-kw-only entries in order."""
    pos = [s[0] for s in spec if not s[1]]
    if len(args) > len(pos):
        raise TypeError("extra positional arguments given (%s)" % what)
    names = [s[0] for s in spec]
    for k in kw:
        if k not in names:
            raise TypeError("unexpected keyword argument '%s' (%s on %s)" % (k, what, PORT))
    out = {}
    for i, a in enumerate(args):
        if pos[i] in kw:
            raise TypeError("argument given twice: %s" % pos[i])
        out[pos[i]] = a
    out.update(kw)
    for s in spec:
        if s[2] and s[0] not in out:
            raise TypeError("'%s' argument required" % s[0])
    return out


def _pin_id(n):
    if isinstance(n, Pin):
        return n.n
    if not isinstance(n, int):
        raise ValueError("invalid pin")
    ok = n in _ESP32_PINS if PORT == "esp32" else 0 <= n <= 29  # RP2040: GPIO0-29 (rp2 machine_pin_find)
    if not ok:
        raise ValueError("invalid pin")
    return n


def use(port):
    """Select the port the fakes imitate: its signatures and its constants on the classes."""
    global PORT
    PORT = port
    for cls in (Pin, ADC, Timer):
        name = cls.__name__
        for p in _CONST:
            for k in _CONST[p][name]:
                if hasattr(cls, k):
                    delattr(cls, k)
        for k, v in _CONST[port][name].items():
            setattr(cls, k, v)


class Pin:
    pins = {}

    def __init__(self, n, *args, **kw):
        # mp_pin_make_new: mp_arg_check_num(n_args, n_kw, 1, MP_OBJ_FUN_ARGS_MAX, true); configured
        # only when more than the id is given
        n = _pin_id(n)
        self.n = n
        old = Pin.pins.get(n)
        self.mode = old.mode if old else None
        self.level = old.level if old else 0
        self.handler = old.handler if old else None
        self.hard = old.hard if old else None
        self.trigger = old.trigger if old else None
        Pin.pins[n] = self
        if args or kw:
            self.init(*args, **kw)

    def init(self, *args, **kw):
        a = _parse(_S[PORT]["Pin.init"], args, kw, "Pin.init")
        mode = a.get("mode")
        if mode is not None:
            if mode not in (Pin.IN, Pin.OUT, Pin.OPEN_DRAIN) and not (PORT == "rp2" and mode == 3):
                raise ValueError("invalid pin mode")
            if PORT == "esp32" and mode != Pin.IN and self.n >= 34:
                raise ValueError("pin can only be input")
            self.mode = mode
        pull = a.get("pull")
        if pull is not None and pull not in (Pin.PULL_UP, Pin.PULL_DOWN):
            raise ValueError("invalid pull")
        if pull == Pin.PULL_UP:
            self.level = 1
        if a.get("value") is not None:
            self(a["value"])

    def __call__(self, *args, **kw):
        if kw or len(args) > 1:  # machine_pin_call: mp_arg_check_num(n_args, n_kw, 0, 1, false)
            raise TypeError("function takes 0 or 1 positional arguments")
        chip = CHIPS.get(self.n)
        if not args:
            if chip is not None and chip.pulling and self.n == chip.dio:
                return 0  # the bus level: the chip's ACK
            return self.level
        self.level = 1 if args[0] else 0
        TRACE.append((self.n, self.level))
        if chip is not None:
            chip.wrote(self)
        return None

    def value(self, *args):
        return self(*args)

    def on(self):
        self(1)

    def off(self):
        self(0)

    def irq(self, *args, **kw):
        a = _parse(_S[PORT]["Pin.irq"], args, kw, "Pin.irq")
        self.handler = a.get("handler")
        self.trigger = a.get("trigger", Pin.IRQ_FALLING | Pin.IRQ_RISING)
        self.hard = bool(a.get("hard", False))  # esp32: always scheduled (machine_pin_isr_handler)

    # for tests: a level change on an input pin fires its IRQ
    def drive(self, level):
        self.level = level
        if self.handler is not None:
            self.handler(self)


class PWM:
    def __init__(self, pin, *args, **kw):
        if PORT == "esp32" and len(args) > 1:  # mp_arg_check_num(n_args, n_kw, 1, 2, true)
            raise TypeError("function takes 1 or 2 positional arguments")
        a = _parse(_S[PORT]["PWM"], args, kw, "PWM")
        self.pin = Pin(_pin_id(pin))
        self.f = a.get("freq", 0)
        self.duty = a.get("duty_u16", 0)

    def freq(self, f=None):
        if f is not None:
            self.f = f
        return self.f

    def duty_u16(self, d=None):
        if d is not None:
            self.duty = d
        return self.duty


class ADC:
    value = 0  # what read_u16 returns (tests set it)

    def __init__(self, src, *args, **kw):
        if PORT == "rp2":
            if args or kw:  # mp_arg_check_num(n_args, n_kw, 1, 1, false)
                raise TypeError("function doesn't take keyword arguments" if kw else "extra positional arguments")
            n = src.n if isinstance(src, Pin) else src
            if not (isinstance(src, int) and 0 <= n <= 4) and n not in (26, 27, 28, 29):
                raise ValueError("Pin doesn't have ADC capabilities")
        else:
            n = _pin_id(src)  # machine_pin_get_id: a Pin or an int
            if n not in _ESP32_ADC:
                raise ValueError("invalid pin")
            a = _parse(_S["esp32"]["ADC"], args, kw, "ADC")
            self.a = a.get("atten", 3)  # madc_init_helper: ADC_ATTEN_MAX when not given
        self.src = n

    def read_u16(self):
        return ADC.value

    def __getattr__(self, name):
        # esp32 only (MICROPY_PY_MACHINE_ADC_ATTEN_WIDTH, _READ_UV, _READ): atten, width, read_uv, read
        if PORT != "esp32" or name not in ("atten", "width", "read_uv", "read"):
            raise AttributeError(name)
        return getattr(self, "_" + name)

    def _atten(self, a):
        if a not in (0, 1, 2, 3):
            raise ValueError("invalid attenuation")
        self.a = a

    def _width(self, w):
        if w not in (9, 10, 11, 12):
            raise ValueError("invalid width")

    def _read_uv(self):
        return ADC.value * 3300000 // 65535

    def _read(self):
        return ADC.value >> 4


class I2C:
    devices = {}  # address -> the chip answering there (SSD1306Chip)
    bytes = 0  # bytes on the bus since reset, address bytes included (bus time = bytes x 9 / freq)
    transfers = 0

    def __init__(self, *args, **kw):
        a = _parse(_S[PORT]["I2C"], args, kw, "I2C")
        if PORT == "rp2" and "id" not in a:
            a["id"] = 0  # PICO_DEFAULT_I2C
        if a.get("id", 0) not in (0, 1):
            raise ValueError("I2C(%s) doesn't exist" % a.get("id"))
        for k in ("scl", "sda"):
            if a.get(k) is not None:
                _pin_id(a[k])
        self.args = a

    # extmod/machine_i2c.c: writeto(addr, buf, stop=True), writevto(addr, vector, stop=True), both ports
    def writeto(self, addr, buf, stop=True):
        return self.writevto(addr, [buf], stop)

    def writevto(self, addr, vector, stop=True):
        chip = I2C.devices.get(addr)
        if chip is None:
            raise OSError(5)  # no ACK for the address (rp2: EIO; esp32: ENODEV)
        data = bytearray()
        for b in vector:
            data += b
        I2C.bytes += 1 + len(data)
        I2C.transfers += 1
        chip.receive(data)
        return len(data)


class SSD1306Chip:
    """An SSD1306's display RAM (8 pages x 128 columns) as the datasheet's commands and horizontal
    addressing fill it: what the panel shows, whatever the driver sent."""

    ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

    def __init__(self, addr):
        self.ram = bytearray(1024)
        self.on = False
        self.inverted = False  # 0xA7 (inverse display) / 0xA6 (normal)
        self.mode = 2  # page addressing after reset
        self.cols = [0, 127]
        self.pages = [0, 7]
        self.c = 0
        self.p = 0
        self.data_bytes = 0
        I2C.devices[addr] = self

    def receive(self, data):
        ctrl = data[0]
        if ctrl == 0x40:  # data
            for b in data[1:]:
                self.ram[self.p * 128 + self.c] = b
                self.data_bytes += 1
                self.c += 1
                if self.c > self.cols[1]:
                    self.c = self.cols[0]
                    self.p = self.p + 1 if self.p < self.pages[1] else self.pages[0]
            return
        if ctrl not in (0x00, 0x80):
            raise AssertionError("SSD1306: control byte %02x" % ctrl)
        cmds = list(data[1:])
        while cmds:
            c = cmds.pop(0)
            n = self.ARGS.get(c, 0)
            args, cmds = cmds[:n], cmds[n:]
            if len(args) < n:
                raise AssertionError("SSD1306: command %02x without its arguments" % c)
            if c in (0xAE, 0xAF):
                self.on = c == 0xAF
            elif c in (0xA6, 0xA7):
                self.inverted = c == 0xA7
            elif c == 0x20:
                self.mode = args[0]
            elif c == 0x21:
                self.cols = args
                self.c = args[0]
            elif c == 0x22:
                self.pages = args
                self.p = args[0]

    def image(self):
        return bytes(self.ram)


class SoftI2C:
    def __init__(self, *args, **kw):
        self.args = _parse(_SOFT_I2C, args, kw, "SoftI2C")


class Timer:
    def __init__(self, *args, **kw):
        if PORT == "esp32" and not args:  # mp_arg_check_num(n_args, n_kw, 1, MP_OBJ_FUN_ARGS_MAX, true)
            raise TypeError("function missing 1 required positional arguments")
        self.id = args[0] if args else -1
        if PORT == "rp2" and self.id != -1:  # only soft timer (-1) supported
            raise ValueError("only virtual timers are supported")
        self.init(*args[1:], **kw)

    def init(self, *args, **kw):
        self.args = _parse(_S[PORT]["Timer"], args, kw, "Timer.init")

    def deinit(self):
        pass


class UART:
    def __init__(self, uart_id, *args, **kw):
        self.args = _parse(_S[PORT]["UART"], args, kw, "UART")


class _Module:
    pass


class Slept(Exception):
    """machine.deepsleep() was called: on a board it never returns."""


def deepsleep(*args):
    # ports/rp2/modmachine.c and ports/esp32/modmachine.c: deepsleep([time_ms]), no return
    if len(args) > 1:
        raise TypeError("function takes at most 1 argument")
    raise Slept()


def install(port="rp2"):
    use(port)
    m = _Module()
    for name in ("Pin", "PWM", "ADC", "I2C", "SoftI2C", "Timer", "UART", "deepsleep"):
        setattr(m, name, globals()[name])
    sys.modules["machine"] = m
    sys.modules.pop("ssd1306", None)


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
