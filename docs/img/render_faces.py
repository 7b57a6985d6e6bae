# Renders both OLED faces of a game position with framebuf, as a board draws them (faces.oled),
# into /tmp/faces.raw:   micropython docs/img/render_faces.py && python docs/img/to_png.py
import sys

sys.path.insert(0, "firmware")

import framebuf  # noqa: E402

from sagatfw.engine.clock import LEFT, RIGHT, Clock  # noqa: E402
from sagatfw.faces import game as F  # noqa: E402


def draw(fb, glyph, items):
    for it in items:
        if it[0] == "fill":
            fb.fill_rect(it[1], it[2], it[3], it[4], it[5])
        elif it[4] == 1:
            fb.text(it[3], it[1], it[2], 1)
        else:
            x = it[1]
            for ch in it[3]:
                glyph.fill(0)
                glyph.text(ch, 0, 0, 1)
                for row in range(8):
                    for col in range(8):
                        if glyph.pixel(col, row):
                            fb.fill_rect(x + col * it[4], it[2] + row * it[4], it[4], it[4], 1)
                x += 8 * it[4]


def main():
    c = Clock()
    c.new_game("40/5400+30:1800+30")
    c.start(0)
    t = 0
    for i in range(46):
        t += 61000 + (i * 7919) % 60000
        c.press(i % 2, t)
        c.clear_events()
    c.advance(t + 1234567)
    out = bytearray()
    glyph = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_HLSB)
    for side in (LEFT, RIGHT):
        b = bytearray(128 * 64 // 8)
        draw(framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_HLSB), glyph, F.oled(c, side, 20000, 87, False, 1, None))
        out += b
    with open("/tmp/faces.raw", "wb") as f:
        f.write(out)


main()
