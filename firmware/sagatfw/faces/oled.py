# sagat: a 128x64 SSD1306 OLED face on I2C that sends only what changed, its text in the font of glyphs.py.
#
# A full frame is 1024 bytes: at 400 kHz (9 bit times a byte) that is 23 ms per face, 46 ms for two,
# past the loop's 20 ms budget (docs/design.md, Budgets). A running face changes a few digits a
# second, so `draw` only renders a face whose draw items (faces.oled, faces.menu_oled) changed, and
# `send` compares each of the 8 pages (8 pixel rows x 128 columns) with what the panel holds (`sent`,
# a copy) and sends only the columns from the first to the last changed byte of each changed page,
# in the panel's horizontal addressing mode, at most PASS_BYTES per pass of the loop: a whole new
# face (the menu, a result) goes out over a few passes, 5 ms apart, each within the budget.
# The page comparison is native (memoryview ==, py/objarray.c), on views made once.
#
# The command set is the SSD1306 datasheet's (Solomon Systech, rev 1.1, sections 9 and 10); the init
# sequence is that of the common 128x64 I2C modules (internal charge pump).
import framebuf

from sagatfw.faces import glyphs

try:
    from micropython import const
except ImportError:  # CPython (the host imports faces, never this)

    def const(x):  # type: ignore[misc]
        return x


W = const(128)
PAGES = const(8)
# Control bytes (datasheet 8.1.5.2): 0x00 = the bytes after it are commands, 0x40 = they are data.
_INIT = bytes((
    0x00,
    0xAE,  # display off
    0x20, 0x00,  # memory addressing mode: horizontal
    0x40,  # display start line 0
    0xA1,  # segment remap: column 127 is SEG0 (the modules' orientation)
    0xA8, 63,  # multiplex ratio: 64 rows
    0xC8,  # COM scan from COM63 to COM0
    0xD3, 0x00,  # display offset 0
    0xDA, 0x12,  # COM pins: alternative, no left/right remap (128x64)
    0xD5, 0x80,  # clock divide ratio / oscillator frequency: the reset value
    0xD9, 0xF1,  # pre-charge periods for the internal charge pump
    0xDB, 0x30,  # VCOMH deselect level ~0.83 x VCC
    0x81, 0xFF,  # contrast
    0xA4,  # the display follows RAM
    0xA6,  # not inverted
    0x8D, 0x14,  # charge pump on
    0xAF,  # display on
))
_OFF = b"\x00\xae"  # display off (sleep): about 10 uA instead of mA
_INVERTED = b"\x00\xa7"  # every pixel the other way (a locate's blink); 0xA6 (in _INIT) back to normal
_NORMAL = b"\x00\xa6"
# the settings again, display on last, without the init's display off (no flicker): `keep`
_KEEP = b"\x00" + _INIT[2:]


PASS_BYTES = const(256)  # data bytes a pass may send: about 6 ms at 400 kHz with the windows' commands


def show_faces(faces, items, budget=PASS_BYTES):
    """Draw both faces' items and send what changed, up to the pass's budget. True if a face has
    pages still to send: the caller shows again at the loop's next pass."""
    more = False
    err = None
    for side in (0, 1):
        o = faces[side]
        try:  # a face that no longer answers (a loose wire) must not freeze the other one
            o.draw(items[side])
            budget -= o.send(budget)
        except OSError as e:
            o.lost = True
            err = e
        more = more or o.dirty
    if err is not None:
        raise err  # the loop says ERROR
    return more


class OLED(framebuf.FrameBuffer):
    """One face. `i2c`: a machine.I2C (or anything with writeto / writevto); `addr` 0x3C or 0x3D."""

    def __init__(self, i2c, addr):
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(W * PAGES)
        self.sent = bytearray(W * PAGES)  # what the panel's RAM holds
        super().__init__(self.buffer, W, PAGES * 8, framebuf.MONO_VLSB)
        mv = memoryview(self.buffer)
        ms = memoryview(self.sent)
        self._pages = [mv[p * W:(p + 1) * W] for p in range(PAGES)]
        self._sent = [ms[p * W:(p + 1) * W] for p in range(PAGES)]
        self._win = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")  # columns a..b, pages p..p
        self._data = [b"\x40", None]
        self._glyph = bytearray(12)  # one glyph: the text font's 6x12 (glyphs.py), or the 8x8 digits
        self._glyph_fb = framebuf.FrameBuffer(self._glyph, 8, 12, framebuf.MONO_HLSB)
        self.items = None  # the draw items of the frame in the buffer
        self.dirty = False  # the buffer has pages the panel does not show yet
        self.lost = False  # a write failed: the panel may have lost power (see keep)
        self.sent_bytes = 0  # data bytes sent since power-on (the benchmark reads it)
        i2c.writeto(addr, _INIT)
        # the panel's RAM is random at power-on: clear it once (23 ms, at boot), so that `sent`
        # (zeros) is what it holds
        self._win[5] = 0
        i2c.writeto(addr, self._win)
        self._data[1] = self.buffer
        i2c.writevto(addr, self._data)
        self._data[1] = None

    def keep(self, p):
        """Once a second (the board's show): the panel's settings and display on again, and page
        `p` (0..7) sent again whatever `sent` says. A panel that lost power for a moment (its
        connector knocked at the table) comes back dark with random RAM, and a face that did not
        change was not written meanwhile, so no error told: it is lit again within a second and
        whole within 8. After a failed write (`lost`), the first that succeeds resends all."""
        try:
            self.i2c.writeto(self.addr, _KEEP)
        except OSError:
            self.lost = True
            raise
        first = 0 if self.lost else p
        last = PAGES - 1 if self.lost else p
        self.lost = False
        for q in range(first, last + 1):
            page = self._pages[q]
            sent = self._sent[q]
            for i in range(W):
                sent[i] = page[i] ^ 0xFF  # differs from the frame in every column: all resent
        self.dirty = True

    def off(self):
        self.i2c.writeto(self.addr, _OFF)

    def invert(self, on):
        """The panel shows its RAM inverted (a locate's blink) or normal; `keep` sets it normal."""
        self.i2c.writeto(self.addr, _INVERTED if on else _NORMAL)

    def draw(self, items):
        """Render a face's items (faces.oled / faces.menu_oled) into the buffer, unless they are
        those already there; `send` puts the change on the panel."""
        if items == self.items:
            return
        self.items = items
        self.fill(0)
        for item in items:
            if item[0] == "fill":
                self.fill_rect(item[1], item[2], item[3], item[4], item[5])
            else:
                self._text(item[3], item[1], item[2], item[4], item[0] == "big")
        self.dirty = True

    def _text(self, text, x, y, scale, big):
        """A text item: the text font's glyphs (glyphs.py: Latin and Cyrillic, 6x12) or, `big`, framebuf's 8x8
        digits; each glyph put in a small buffer, then blitted (scale 1) or drawn as scale x scale squares."""
        g = self._glyph_fb
        buf = self._glyph
        bits = glyphs.BITS
        w = 8 if big else glyphs.W
        h = 8 if big else glyphs.H
        for ch in text:
            if big:
                g.fill(0)
                g.text(ch, 0, 0, 1)
            else:
                at = glyphs.at(ch)
                for row in range(h):
                    buf[row] = bits[at + row]
            if scale == 1:
                self.blit(g, x, y, 0)  # its lit pixels only (key 0: the unlit ones are transparent)
            else:
                for row in range(h):
                    for col in range(w):
                        if g.pixel(col, row):
                            self.fill_rect(x + col * scale, y + row * scale, scale, scale, 1)
            x += w * scale

    def send(self, budget=W * PAGES):
        """Send the changed columns of each changed page while they fit in `budget` data bytes;
        `dirty` stays set if a page is left for the next pass. Returns the bytes sent."""
        if not self.dirty:
            return 0
        win = self._win
        data = self._data
        n = 0
        for p in range(PAGES):
            page = self._pages[p]
            sent = self._sent[p]
            if page == sent:
                continue
            a = 0
            while page[a] == sent[a]:
                a += 1
            b = W - 1
            while page[b] == sent[b]:
                b -= 1
            if n + b + 1 - a > budget:
                self.sent_bytes += n
                return n  # the rest at the next pass
            win[2] = a
            win[3] = b
            win[5] = p
            win[6] = p
            self.i2c.writeto(self.addr, win)
            data[1] = page[a:b + 1]
            self.i2c.writevto(self.addr, data)
            sent[a:b + 1] = data[1]
            data[1] = None
            n += b + 1 - a
        self.sent_bytes += n
        self.dirty = False
        return n
