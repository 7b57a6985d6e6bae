# The faces' words in every language (faces/words.py and its tables words_kk/ru/ky.py) against the
# font (faces/glyphs.py) and the 128 px of a face. Runs under CPython (pytest) and MicroPython
# (tests/mprun.py): the tables are the firmware's own modules on both.
import sagatfw
from sagatfw.faces import glyphs
from sagatfw.faces import words as FW
from sagatfw.log import settings as ST

LANGS = ("kk", "ru", "ky")
FACE_PX = 128


def _pairs(code):
    return __import__("sagatfw.faces.words_" + code, None, None, ("WORDS",)).WORDS


def _tables():
    """(code, its words in KEYS' order) for every language; English's are the keys."""
    out = [("en", FW.KEYS)]
    for code in LANGS:
        out.append((code, _every_other(_pairs(code), 1)))
    return out


def _every_other(pairs, first):
    """pairs[first::2] (MicroPython slices only with a step of 1)."""
    return tuple(pairs[i] for i in range(first, len(pairs), 2))


# The most characters a word may have where the faces put it: a line holds 21 (128 px / 6); what
# goes beside it on that line is taken off (a number, a time, the frame's "> " and " <", the cards).
# Words not listed fill a line of their own, or the menu's big line (scale 2 if 10 fit, else 1).
LIMITS = {
    "CODE": 9,  # "B999 CODE 042917"
    "BOARD": 17,  # "BOARD 999"
    "PROTEST": 15,  # "PROTEST 29:59"
    "FLAG": 8, "1ST": 5, "LOW": 6, "ST>": 4, "DEF": 4,  # the marks, side by side
    "USED": 13,  # "USED 1:23:45"
    "READY": 16, "PAUSE": 17, "ADJ": 17,  # the run row, framed ("> PAUSE <"); a match's "READY 4:00"
    "END": 13,  # "END 1/2"
    "PRE": 18,  # "PRE 5"
    "MIN": 16, "S": 16,  # "120 MIN", "60 S"
    "1ST HALF": 12, "2ND HALF": 12, "GOLDEN SCORE": 12, "INNINGS 1": 12, "INNINGS 2": 12, "EXTRA 1": 12,
    "EXTRA 2": 12, "SUDDEN": 12, "REST": 12, "CHANGEOVER": 12,  # the top line, beside "IN RED"
    "IN": 3, "RED": 4, "W": 1,  # "IN WW"
    "WIN": 8, "LOSS": 8, "DRAW": 8,  # "LOSS REFEREE"
    "POINTS": 12, "LEAD": 12, "GOLDEN": 12, "REMOVAL": 12, "LOT": 12, "REFEREE": 12,
    "BY LEAD": 12, "BY LOT": 12, "BY REFEREE": 12, "BY PAZHAM": 12,
    "TIME": 12, "STOP": 7,  # "> STOP 0:12 3:12 <"
    "STOPPED": 16,  # "STOPPED 1:05"
    # a match's reasons, on one line of its face (app/matchmode.py note)
    "not started": 21, "period not started": 21, "period running": 21, "stoppage on": 21, "break running": 21,
    "lot due": 21, "time over: result?": 21, "match over": 21, "nothing to undo": 21, "no stoppage": 21,
    "no lot due": 21, "undo the scores first": 21, "stop the period first": 21, "not the entering team": 21,
    "a pazham is 1 point": 21, "score limit": 21, "too many entries": 21, "events not logged yet": 21,
    "no scores": 21, "no cards in this game": 21, "no lot in this game": 21,
}
WRAPPED = 84  # a menu's reason: four lines of 21, word-wrapped


def _px(text):
    """The text drawn with the font at scale 1: the columns from its first to its last lit pixel
    plus one (0 for none), on a strip as wide as needed."""
    right = 0
    for i in range(len(text)):
        at = glyphs.at(text[i])
        for row in range(glyphs.H):
            bits = glyphs.BITS[at + row]
            for col in range(glyphs.W):
                if bits >> (7 - col) & 1:
                    x = i * glyphs.W + col + 1
                    if x > right:
                        right = x
    return right


def _lower(text):
    for c in text:
        o = ord(c)
        if 97 <= o <= 122 or 0x430 <= o <= 0x45F or c in "әғқңөұүһі":
            return True
    return False


def test_every_language_has_every_word():
    assert FW.CODES == ST.SCHEMA["lang"][2]  # the settings take the languages the faces speak
    assert len(FW.NAMES) == len(FW.CODES)
    for code in LANGS:
        pairs = _pairs(code)
        assert _every_other(pairs, 0) == FW.KEYS, code  # each English word, in order, then its translation
        for word in _every_other(pairs, 1):  # T finds a word at its first place: no translation is another English word
            assert word not in FW.KEYS or pairs[pairs.index(word) + 1] == word, (code, word)
    for code, table in _tables():
        assert len(table) == len(FW.KEYS), (code, len(table), len(FW.KEYS))
        for i in range(len(table)):
            assert isinstance(table[i], str) and table[i].strip() == table[i] and table[i], (code, FW.KEYS[i])


def test_the_font_has_every_character_of_every_word():
    for code, table in _tables():
        for word in table:
            for c in word:
                assert glyphs.has(c), (code, word, c)
    for name in FW.NAMES:
        for c in name:
            assert glyphs.has(c), (name, c)


def test_the_font_covers_latin_and_the_cyrillic_of_russian_kazakh_and_kyrgyz():
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:.-+/?"
    letters += "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя"
    letters += "ӘҒҚҢӨҰҮҺІәғқңөұүһі"
    for c in letters:
        assert glyphs.has(c), c
        assert _px(c) > 0, c  # a glyph with ink, not a blank
    assert not glyphs.has("\u4e2d") and glyphs.at("\u4e2d") == glyphs.at("?")  # none: drawn as '?'


def test_every_word_fits_its_place_on_a_face_in_every_language():
    for code, table in _tables():
        for i in range(len(table)):
            key, word = FW.KEYS[i], table[i]
            if key in LIMITS:
                most = LIMITS[key]
            elif _lower(key):  # a reason or a detail: word-wrapped on four lines, no word longer than one
                most = WRAPPED
                for part in word.split():
                    assert _px(part) <= FACE_PX, (code, key, part)
            else:
                most = FACE_PX // glyphs.W
            assert len(word) <= most and _px(word) <= most * glyphs.W, (code, key, word, len(word), most)
            assert _px(word) <= FACE_PX or most == WRAPPED, (code, key, word)


def test_words_in_capitals_stay_in_capitals():
    # a clock writes its words in capitals; MicroPython's str.upper() knows only ASCII, so the tables
    # hold them as shown
    for code, table in _tables():
        for i in range(len(table)):
            if not _lower(FW.KEYS[i]):
                assert not _lower(table[i]), (code, FW.KEYS[i], table[i])


def test_t_gives_the_chosen_language_and_any_other_text_as_it_is():
    try:
        for code, table in _tables():
            sagatfw.use(code)
            for i in range(len(FW.KEYS)):
                assert sagatfw.T(FW.KEYS[i]) == table[i], (code, FW.KEYS[i])
                assert sagatfw.T(table[i]) == table[i] or table[i] in FW.KEYS  # a word shown is not turned again
            assert sagatfw.T("Айгерим") == "Айгерим" and sagatfw.T("042917") == "042917"
        sagatfw.use("xx")  # unknown (the settings refuse it first): English
        assert sagatfw.T("PAUSE") == "PAUSE"
    finally:
        sagatfw.use("en")
