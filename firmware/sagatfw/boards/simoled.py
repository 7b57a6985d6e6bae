# sagat sim: OLED faces as a board drives them (`sagat sim --oled`), loaded only then. sagatfw.faces.oled
# draws the faces and sends them over a bus model that takes as long as a 400 kHz I2C bus: on rp2
# and esp32, machine.I2C.writeto holds the CPU until the last byte is out, so here the loop waits
# the same (9 bit times a byte, the address byte included) and the sim's measured loop
# (identify's `loop_max_ms`) includes the faces' bus time. `--oled full` sends both whole frames at
# every refresh, as micropython-lib's ssd1306 driver did, for the benchmark's comparison.
import time

from sagatfw.faces import oled

HZ = 400000


class Bus:
    def __init__(self):
        self.bytes = 0  # on the bus, address bytes included

    def writeto(self, addr, buf, stop=True):
        self._wait(len(buf))

    def writevto(self, addr, vector, stop=True):
        n = 0
        for b in vector:
            n += len(b)
        self._wait(n)

    def _wait(self, n):
        n += 1  # the address byte
        self.bytes += n
        end = time.ticks_add(time.ticks_us(), n * 9 * 1000000 // HZ)  # type: ignore[attr-defined]
        while time.ticks_diff(end, time.ticks_us()) > 0:  # type: ignore[attr-defined]
            pass


def attach(board, mode):
    bus = Bus()
    board.bus = bus
    board.oled = (oled.OLED(bus, 0x3C), oled.OLED(bus, 0x3D))
    board.oled_full = mode == "full"


def show(board, drawn):
    """Both faces' draw items onto the panels; True if pages are left for the loop's next pass."""
    faces = board.oled
    if not board.oled_full:
        return oled.show_faces(faces, drawn)
    for side in (0, 1):
        o = faces[side]
        o.items = None
        o.draw(drawn[side])
        o.i2c.writeto(o.addr, b"\x00\x21\x00\x7f\x22\x00\x07")
        o.i2c.writevto(o.addr, [b"\x40", o.buffer])
    return False
