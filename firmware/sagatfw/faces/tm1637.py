# sagat: a small TM1637 driver (4-digit 7-segment modules), bit-banged on two pins.
#
# The TM1637 speaks a two-wire protocol that is not quite I2C: start, bytes LSB first each with an
# ACK clock, stop. `show(segments)` writes four segment bytes (faces.tm1637 fills them) with
# auto-increment from address 0, then the display control with the brightness. No allocation.
#
# DIO is open-drain (Pin.OPEN_DRAIN, on the rp2 and esp32 ports alike): value(0) pulls the line low,
# value(1) releases it to the module's pull-up (10 kOhm to the module's VCC on the common modules).
# The chip pulls DIO low for its ACK from the 8th clock's falling edge to the end of the 9th clock, so
# the driver releases DIO after the 8th bit and never drives it high against the chip. CLK is only
# ever driven by us and stays push-pull.
import time

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


_CMD_DATA = const(0x40)  # write data, auto-increment address
_CMD_ADDR = const(0xC0)  # address 0
_CMD_CTRL = const(0x88)  # display on | brightness 0..7
_CMD_OFF = const(0x80)  # display off
_DELAY_US = const(5)


class TM1637:
    def __init__(self, clk, dio, brightness=4):
        self.clk = clk  # machine.Pin objects
        self.dio = dio
        self.brightness = brightness & 7
        clk.init(clk.OUT, value=1)
        dio.init(dio.OPEN_DRAIN, value=1)  # released: the module's pull-up holds it high

    def _start(self):
        self.dio(0)
        time.sleep_us(_DELAY_US)
        self.clk(0)

    def _stop(self):
        self.dio(0)
        time.sleep_us(_DELAY_US)
        self.clk(1)
        time.sleep_us(_DELAY_US)
        self.dio(1)

    def _byte(self, b):
        clk = self.clk
        dio = self.dio
        for _ in range(8):
            dio(b & 1)
            b >>= 1
            time.sleep_us(_DELAY_US)
            clk(1)
            time.sleep_us(_DELAY_US)
            clk(0)
        dio(1)  # release DIO (CLK is low, so not a stop): the chip pulls it low for its ACK
        clk(1)  # the ACK clock (the ACK is not read)
        time.sleep_us(_DELAY_US)
        clk(0)

    def show(self, segments):
        """Write 4 segment bytes (leftmost first) and switch the display on."""
        self._start()
        self._byte(_CMD_DATA)
        self._stop()
        self._start()
        self._byte(_CMD_ADDR)
        for i in range(4):
            self._byte(segments[i])
        self._stop()
        self._start()
        self._byte(_CMD_CTRL | self.brightness)
        self._stop()

    def off(self):
        """Display off (the cut-off sleep): the chip stops driving the segments."""
        self._start()
        self._byte(_CMD_OFF)
        self._stop()

    def set_brightness(self, level):
        self.brightness = level & 7
