# faces/game.py's SEG_TEXT, the TM1637 segment byte of every ASCII code, against the alphabet written out here
# independently: the digits, the 26 letters in both cases, the signs; every other code blank. Runs under CPython
# and MicroPython.
from sagatfw.faces import game as F

DIGITS = (0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F)
LETTERS = (0x77, 0x7C, 0x39, 0x5E, 0x79, 0x71, 0x3D, 0x76, 0x30, 0x1E, 0x75, 0x38, 0x37, 0x54, 0x3F, 0x73, 0x67,
           0x50, 0x6D, 0x78, 0x3E, 0x1C, 0x2A, 0x76, 0x6E, 0x5B)  # A..Z (K, M, V, W, X rough)
SIGNS = {" ": 0x00, "-": 0x40, "_": 0x08, "=": 0x48, "?": 0x53, "/": 0x52, "+": 0x46, "'": 0x02, '"': 0x22,
         "(": 0x39, "[": 0x39, ")": 0x0F, "]": 0x0F}


def test_every_ascii_code_has_its_segments_and_no_other_is_lit():
    want = bytearray(128)
    for i in range(10):
        want[48 + i] = DIGITS[i]
    for i in range(26):
        want[65 + i] = LETTERS[i]
        want[97 + i] = LETTERS[i]
    for c in SIGNS:
        want[ord(c)] = SIGNS[c]
    assert len(F.SEG_TEXT) == 128
    for code in range(128):
        assert F.SEG_TEXT[code] == want[code], (code, chr(code), F.SEG_TEXT[code], want[code])
    assert bytes(F.DIGITS) == bytes(DIGITS)
