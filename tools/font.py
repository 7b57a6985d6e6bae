"""Make the OLED faces' text font, firmware/sagatfw/faces/glyphs.py, from the Terminus Font's 6x12
bold bitmaps in Debian's xfonts-terminus (ter-u12b_unicode.pcf.gz, SIL Open Font License 1.1:
firmware/fonts/OFL.txt; how and why in firmware/fonts/README.md).

    python tools/font.py           write glyphs.py
    python tools/font.py --check   exit 1 if glyphs.py is not what this makes (tests/firmware/faces run it)

Only the glyphs the firmware needs go in: printable ASCII, the Cyrillic block А..я, the letters of
Kazakh and Kyrgyz beyond it (Ё ё Ә ә Ғ ғ Қ қ Ң ң Ө ө Ұ ұ Ү ү Һ һ І і), and any other character that
a table of the faces' words (firmware/sagatfw/faces/words_kk.py, ...) uses. Each glyph is 12 bytes, a
byte a row, its leftmost pixel in bit 7 (framebuf's MONO_HLSB at a width of 8: a board blits it as it is).

The PCF format is X11's (libXfont's pcfread.c): a table of contents, then the tables this reads,
METRICS, BITMAPS, BDF_ENCODINGS and ACCELERATORS, each with its own byte and bit order.
"""

import ast
import gzip
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PCF = Path("/usr/share/fonts/X11/misc/ter-u12b_unicode.pcf.gz")
OUT = ROOT / "firmware/sagatfw/faces/glyphs.py"
FACES = ROOT / "firmware/sagatfw/faces"
W, H = 6, 12
BASE = "".join(chr(c) for c in range(32, 127)) + "".join(chr(c) for c in range(0x410, 0x450))
KAZAKH_KYRGYZ = "ЁёӘәҒғҚқҢңӨөҰұҮүҺһІі"

_METRICS, _BITMAPS, _ENCODINGS, _ACCEL, _BDF_ACCEL = 4, 8, 32, 2, 256


class PCF_Error(Exception):
    pass


def _tables(data):
    if data[:4] != b"\x01fcp":
        raise PCF_Error("not a PCF font")
    (n,) = struct.unpack_from("<i", data, 4)
    out = {}
    for i in range(n):
        typ, fmt, size, off = struct.unpack_from("<iiii", data, 8 + 16 * i)
        out[typ] = (fmt, off)
    return out


def _order(fmt):
    return ">" if fmt & 4 else "<"


def read_pcf(data):
    """{code point: (rows, width)}: each glyph's rows as ints (bit W-1 the leftmost pixel) in a
    W x H cell, placed by the font's ascent."""
    t = _tables(data)
    # ascent from the accelerators
    fmt, off = t.get(_BDF_ACCEL, t.get(_ACCEL))
    o = _order(struct.unpack_from("<i", data, off)[0])
    ascent, descent = struct.unpack_from(o + "ii", data, off + 4 + 8)  # after the format and 8 flag bytes
    # metrics
    fmt, off = t[_METRICS]
    fmt = struct.unpack_from("<i", data, off)[0]
    o = _order(fmt)
    metrics = []
    if fmt & 0x100:  # compressed: bytes, each value + 0x80
        (count,) = struct.unpack_from(o + "h", data, off + 4)
        for i in range(count):
            lb, rb, w, a, d = (b - 0x80 for b in data[off + 6 + 5 * i: off + 11 + 5 * i])
            metrics.append((lb, rb, w, a, d))
    else:
        (count,) = struct.unpack_from(o + "i", data, off + 4)
        for i in range(count):
            metrics.append(struct.unpack_from(o + "hhhhh", data, off + 8 + 12 * i))
    # bitmaps
    fmt, off = t[_BITMAPS]
    fmt = struct.unpack_from("<i", data, off)[0]
    o = _order(fmt)
    msbit = bool(fmt & 8)
    pad = 1 << (fmt & 3)
    (count,) = struct.unpack_from(o + "i", data, off + 4)
    offsets = struct.unpack_from(o + "%di" % count, data, off + 8)
    base = off + 8 + 4 * count + 16
    # encodings
    fmt, off = t[_ENCODINGS]
    fmt = struct.unpack_from("<i", data, off)[0]
    o = _order(fmt)
    min2, max2, min1, max1, _default = struct.unpack_from(o + "hhhhh", data, off + 4)
    span = max2 - min2 + 1
    n = span * (max1 - min1 + 1)
    index = struct.unpack_from(o + "%dH" % n, data, off + 14)
    glyphs = {}
    for k, g in enumerate(index):
        if g == 0xFFFF:
            continue
        code = (min1 + k // span) * 256 + min2 + k % span
        lb, rb, width, a, d = metrics[g]
        stride = ((rb - lb + 7) // 8 + pad - 1) // pad * pad
        rows = [0] * H
        for r in range(a + d):
            y = ascent - a + r
            if not 0 <= y < H:
                continue
            start = base + offsets[g] + r * stride
            bits = 0
            for b in range(stride):
                byte = data[start + b]
                if not msbit:
                    byte = int("{:08b}".format(byte)[::-1], 2)
                bits = bits << 8 | byte
            bits >>= stride * 8 - (rb - lb)  # the glyph's own columns, leftmost first
            for x in range(rb - lb):
                if bits >> (rb - lb - 1 - x) & 1:
                    col = lb + x
                    if 0 <= col < W:
                        rows[y] |= 1 << (W - 1 - col)
        glyphs[code] = (rows, width)
    return glyphs


def table_chars():
    """Every character in the string constants of the faces' words (faces/words.py, faces/words_*.py)."""
    chars = set()
    paths = sorted(FACES.glob("words_*.py")) + [FACES / "words.py"]
    if len(paths) < 4:
        raise PCF_Error(f"no tables of the faces' words in {FACES}")
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                chars.update(node.value)
    return chars


def wanted():
    extra = KAZAKH_KYRGYZ + "".join(sorted(c for c in table_chars() if c not in BASE and c not in KAZAKH_KYRGYZ
                                           and c != "\n"))
    return BASE + extra, extra


def make(pcf=PCF):
    glyphs = read_pcf(gzip.decompress(pcf.read_bytes()))
    chars, extra = wanted()
    missing = [c for c in chars if ord(c) not in glyphs]
    if missing:
        raise PCF_Error("the font has no glyph for " + " ".join("U+%04X" % ord(c) for c in missing))
    bits = bytearray()
    for c in chars:
        rows, width = glyphs[ord(c)]
        if width != W:
            raise PCF_Error("U+%04X is %d px wide, not %d" % (ord(c), width, W))
        bits += bytes(r << (8 - W) for r in rows)
    lines = [bits[i:i + 24] for i in range(0, len(bits), 24)]  # two glyphs a line, every byte as \xNN
    body = "\n".join('    b"' + "".join("\\x%02x" % b for b in line) + '"' for line in lines)
    return TEMPLATE.format(n=len(chars), size=len(bits), extra=extra, body=body, first=len(BASE))


TEMPLATE = '''# sagat: the OLED faces' text font, made by tools/font.py (do not edit: run it again). Made from
# the Terminus Font 4.48 6x12 bold (ter-u12b_unicode.pcf.gz, Debian's xfonts-terminus), Copyright (c)
# 2010-2014 Dimitar Toshkov Zhekov, under the SIL Open Font License 1.1 (firmware/fonts/OFL.txt;
# firmware/fonts/README.md says how it was made). {n} glyphs, {size} bytes, in flash when frozen.
#
# Each glyph is 12 bytes, a byte a pixel row, the leftmost of its 6 pixels in bit 7 (framebuf's MONO_HLSB
# at a width of 8): ASCII 32..126 first, then U+0410..U+044F (А..я), then EXTRA's characters.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


W = const(6)  # px a character, every one (a fixed-width font: a text of n characters is 6 n px wide)
H = const(12)
EXTRA = {extra!r}
BITS = (
{body}
)


def at(ch):
    """The offset of character `ch`'s 12 bytes in BITS; a character the font lacks draws as '?'."""
    o = ord(ch)
    if 32 <= o < 127:
        return (o - 32) * 12
    if 0x410 <= o < 0x450:
        return (o - 0x410 + 95) * 12
    i = EXTRA.find(ch)
    return ({first} + i) * 12 if i >= 0 else 31 * 12


def has(ch):
    """True if the font has a glyph for `ch` (else it draws '?')."""
    o = ord(ch)
    return 32 <= o < 127 or 0x410 <= o < 0x450 or EXTRA.find(ch) >= 0
'''


def main(argv):
    text = make()
    if "--check" in argv:
        if OUT.read_text(encoding="utf-8") != text:
            print("%s is not what tools/font.py makes: run python tools/font.py" % OUT.relative_to(ROOT))
            return 1
        print("%s is up to date" % OUT.relative_to(ROOT))
        return 0
    OUT.write_text(text, encoding="utf-8")
    print("wrote %s" % OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
