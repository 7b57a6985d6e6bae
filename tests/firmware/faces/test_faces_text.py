# The menu's texts on the faces (faces.text4, cells4, seg_char, menu_oled, menu_items): exact TM1637
# bytes and OLED draw items. Runs under CPython (pytest) and MicroPython (tests/mprun.py); under
# MicroPython text4 is also checked to allocate nothing.
from sagatfw.faces import game as F

# Segment bytes written out independently of faces/game.py (bit0 = a, top ... bit6 = g, middle).
D0, D1, D2, D3, D4, D5, D6, D7, D8, D9 = 0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F
DP = 0x80
G_A, G_E, G_L, G_N, G_O, G_R, G_T, G_I, G_S, G_Y = 0x77, 0x79, 0x38, 0x54, 0x3F, 0x50, 0x78, 0x30, 0x6D, 0x6E
MINUS = 0x40
SLASH = 0x52
CLEAR = ("fill", 0, 0, 128, 64, 0)


def t4(text, field=None, blink=1):
    buf = bytearray(4)
    assert F.text4(buf, text, field, blink) is buf
    return list(buf)


def test_alphabet():
    assert [F.seg_char(ord(c)) for c in "0123456789"] == [D0, D1, D2, D3, D4, D5, D6, D7, D8, D9]
    assert [F.seg_char(ord(c)) for c in "AELNORTISY"] == [G_A, G_E, G_L, G_N, G_O, G_R, G_T, G_I, G_S, G_Y]
    for c in "abcdefghijklmnopqrstuvwxyz":
        assert F.seg_char(ord(c)) == F.seg_char(ord(c.upper())) != 0, c
    assert F.seg_char(ord("-")) == MINUS and F.seg_char(ord("/")) == SLASH and F.seg_char(ord(" ")) == 0
    assert F.seg_char(ord("~")) == 0 and F.seg_char(200) == 0 and F.seg_char(-1) == 0  # no glyph: blank


def test_words_and_numbers_right_aligned():
    assert t4("NO") == [0, 0, G_N, G_O]
    assert t4("YES") == [0, G_Y, G_E, G_S]
    assert t4("LATE") == [G_L, G_A, G_T, G_E]
    assert t4("1-0") == [0, D1, MINUS, D0]
    assert t4("1/2") == [0, D1, SLASH, D2]
    assert t4("40") == [0, 0, D4, D0]
    assert t4("") == [0, 0, 0, 0]


def test_longer_texts_show_their_first_four_cells():
    assert t4("SETTINGS") == [G_S, G_E, G_T, G_T]
    assert t4("40/90:30") == [D4, D0, SLASH, D9]


def test_separators_light_the_point_of_the_cell_before():
    assert t4("1:23") == [0, D1 | DP, D2, D3]  # the colon of clock modules is byte 1's point
    assert t4("23:45") == [D2, D3 | DP, D4, D5]
    assert t4("TI.L") == [0, G_T, G_I | DP, G_L]
    assert t4("5:00") == [0, D5 | DP, D0, D0]
    assert t4(":5") == [0, 0, DP, D5]  # a separator with nothing before it takes a cell
    assert t4("1::2") == [0, D1 | DP, DP, D2]
    assert t4("ABCD.") == [G_A, 0x7C, 0x39, 0x5E | DP]  # a point after the fourth cell still shows
    assert F.cells4("1:23:45") == 5 and F.cells4("TI.L") == 3 and F.cells4("") == 0 and F.cells4("..") == 2


def test_field_blinks_and_keeps_the_separator():
    assert t4("1:23", (0, 1), 1) == [0, D1 | DP, D2, D3]
    assert t4("1:23", (0, 1), 0) == [0, DP, D2, D3]
    assert t4("1:23", (2, 4), 0) == [0, D1 | DP, 0, 0]
    assert t4("23:45", (3, 5), 0) == [D2, D3 | DP, 0, 0]
    assert t4("40", (0, 2), 0) == [0, 0, 0, 0]


def test_text4_allocates_nothing_under_micropython():
    try:
        import micropython
    except ImportError:
        return  # CPython: nothing to check
    buf = bytearray(4)
    text = "12:34"
    field = (3, 5)
    F.text4(buf, text, field, 0)
    micropython.heap_lock()
    try:
        F.text4(buf, text, field, 0)
        F.text4(buf, "TI.L", None, 1)
        n = F.cells4(text)
    finally:
        micropython.heap_unlock()
    assert list(buf) == [0, G_T, G_I | DP, G_L] and n == 4


def test_menu_oled_big_text_and_field():
    items = F.menu_oled("1:23:45", (2, 4), 1)
    # 7 characters: scale 2 (the text font, 12 px each), centred: x = (128 - 84) // 2 = 22; y = 12 + (28 - 24) // 2;
    # the field's underline below the glyphs' rows: y + 10 * 2 + 1
    assert items == [CLEAR, ("fill", 22 + 2 * 12, 14 + 21, 2 * 12, 2, 1), ("text", 22, 14, "1:23:45", 2)]
    off = F.menu_oled("1:23:45", (2, 4), 0)
    assert off[2] == ("text", 22, 14, "1:  :45", 2)  # blink phase 0: the field blank, its underline stays
    assert F.menu_oled("NO") == [CLEAR, ("text", 64 - 12, 14, "NO", 2)]  # scale 2 at most
    assert F.menu_oled("SETTINGS L")[1] == ("text", 4, 14, "SETTINGS L", 2)  # 10 characters: 120 px, still scale 2
    long_text = F.menu_oled("40/90+30:30+30")  # over 10 characters: scale 1, y = 12 + (28 - 12) // 2
    assert long_text[1] == ("text", 22, 20, "40/90+30:30+30", 1)
    field1 = F.menu_oled("40/90+30:30+30", (3, 5), 1)  # at scale 1: 6 px a character, the underline at y + 11
    assert field1[1] == ("fill", 22 + 3 * 6, 20 + 11, 2 * 6, 2, 1)


def test_menu_items_both_faces():
    left, right = F.menu_items("TIME L", "0:07:00", (0, 1), 1, "a short reason")
    assert left == [CLEAR, ("text", 0, 0, "MENU", 1), ("text", 28, 14, "TIME L", 2),  # (128 - 6 * 12) // 2
                    ("text", 0, 52, "a short reason", 1)]
    left, right = F.menu_items("TIME L", "0:07:00", (0, 1), 1, "a reason that is longer than a line")
    # a reason longer than a line: wrapped, not cut, below the edited item's text at scale 1 on the top line
    # (in place of "MENU")
    assert left[0] == CLEAR
    assert left[1] == ("text", 46, 0, "TIME L", 1)  # (128 - 6 * 6) // 2
    assert left[2:] == [("text", 0, 12, "a reason that is", 1), ("text", 0, 24, "longer than a line", 1)]
    assert right == [CLEAR, ("fill", 22, 35, 12, 2, 1), ("text", 22, 14, "0:07:00", 2)]
