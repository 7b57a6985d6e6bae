# sagat: what each face shows for a clock state (contract 2 of docs/design.md).
#
# Pure module: no `machine`, never reads the time, never touches files; runs unchanged under CPython
# and MicroPython. Everything is computed from a Clock (engine/clock.py) at its last call, plus what
# the clock does not know (the blink phase, the battery, a message, the result).
#
# Four outputs:
#   tm1637(buf, clock, side, ...)  4-digit 7-segment bytes for a TM1637 module (no allocation)
#   leds(clock, side, blink)       the face's indicator LEDs as a bitmask (no allocation)
#   oled(clock, side, ...)         draw items for a 128x64 SSD1306 (the text font, glyphs.py; the
#                                  time in framebuf's 8x8 digits, scaled)
#   time_text(ms, ...)             the time as text: the OLED's big digits and the sim's terminal
# Time formats (contract 2; TK-B10: "0:00:00 (h:mm:ss)" on an electronic clock is time expired):
#   from one hour up      H:MM:SS  (TM1637: H.MM, hours and minutes only)
#   below one hour        M:SS     (TM1637: MM:SS with the colon, leading zero blanked: " 5:07")
#   below tenths_below_ms S.t      (TM1637: SS.t; 0 disables tenths; capped at 60 s, as S.t has
#                                   two digits of seconds)
#   at zero               0:00     (and the face's flag), never 0.0
#
# Rounding. A counting-down face never shows zero while time remains: the time is rounded UP to the
# resolution of the format, and the format is the one the ROUNDED value falls in. So 19.94 s rounds
# up to 20.0 s, which is not below 20 s, so the face shows 0:20 (seconds, rounded up: 20); 59:59.001
# rounds up to 1:00:00 and shows H:MM:SS (TM1637: 1.00); 0.05 s shows 0.1 (a value v means "more
# than v - one unit, at most v"). A count-up face (control "-") shows the elapsed time rounded DOWN
# (a stopwatch), in M:SS or H:MM:SS, never with tenths.

from sagatfw import T
from sagatfw.core import timecontrol as tcm
from sagatfw.engine import clock as _C  # RESULT_NAMES (one name in this module's dict: RAM)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# clock.py's states, as private consts (no entries in this module's dict, which lives in RAM: it
# stays under a step of its table); tests/firmware/engine/test_clock_props.py checks each against
# its clock.py twin
_SETUP = const(0)
_RUNNING = const(1)
_PAUSED = const(2)
_ADJOURNED = const(4)
_FINISHED = const(5)

# The status line (App.status): what the faces say besides the game or match, as a code, the later
# outweighing the earlier. The codes index these texts: the OLED's bottom line and state's "message"
# (in the clock's language: T); the four-digit face's (docs/user-guide.md lists them). Code 0 is
# none (in setup: the board number); code 1 the result code, whose text is its own (App.code_text,
# "CODE 042917", "B8 CODE 042917"; on four digits "C042" and " 917"). A module that sets or reads a
# code names it as a private const (_ST_LOG_ERROR = const(2)): no heap for the names
# (tests/host/sim/test_sim_faces.py checks every such const against these tables).
STATUS_TEXT = (None, "CODE", "LOG ERROR", "LOG FULL", "LOG DAMAGED", "RESTORE FAILED", "SETTINGS DEFAULT",
               "SETTINGS UNSAVED", "ERROR")
STATUS4 = (None, None, "LErr", "LFul", "LdAm", "rErr", "SdEF", "SErr", "Err")
_ST_NONE = const(0)
_ST_CODE = const(1)
_TICKS_MAX = const(0x3FFFFFFF)  # core/ticks.py's
_TICKS_HALF = const(0x20000000)

_SAID = None  # type: list | None  # the board number's texts (_said), made once a clock is numbered


def _said(app):
    """The board number's and the result code's texts, made again only when the number, the app's code text
    ("CODE 042917") or the language changed, never at a refresh: [the number, "BOARD 8", "b  8", the code text,
    "B8 CODE 042917", the word BOARD]; None for a clock never numbered and no code (no list)."""
    global _SAID
    n = app.store.values.get("board", 0)
    code = app.code_text
    s = _SAID
    if s is None:
        if not n and code is None:
            return None
        s = _SAID = [0, None, None, None, None, None]
    if n != s[0] or code is not s[3] or T("BOARD") is not s[5]:
        s[0] = n
        s[5] = T("BOARD")
        s[1] = s[5] + " %d" % n if n else None
        s[2] = "b%3d" % n if n else None
        s[3] = code
        code = T("CODE") + code[4:] if code else None
        s[4] = "B%d %s" % (n, code) if n and code else code
    return s


def status_text(app, four=False):
    """The status line's text or None: a message; the result code after the board number ("B8 CODE 042917"), in
    turns of 3 s with TK-P1's protest window ("PROTEST 29:59") while the finished game is on the faces and the wall
    time is known (the result's record has it, and a sync since the boot); in a game set up with nothing else to say
    the number ("BOARD 8"). `four`: a four-digit face's (STATUS4, "b  8"; its code is hw.py's)."""
    s = app.status
    if s == _ST_CODE and not four:
        c = app.clock
        if c.state == _FINISHED and c.t // 3000 & 1:
            # the window's ms left at the clock's last call (a finished clock's t goes on): the
            # app's view of it (App.protest_left: built from the result's wall time and the time
            # sync, which the faces never read)
            left = app.protest_left(c.last)
            if left:
                return T("PROTEST") + " %d:%02d" % ((left + 999) // 60000, (left + 999) // 1000 % 60)
        return _said(app)[4]  # (a list: a code is shown)
    if s == _ST_NONE and app.match is None and app.clock.state == _SETUP:
        said = _said(app)
        return None if said is None else said[2 if four else 1]
    return STATUS4[s] if four else (STATUS_TEXT[s] and T(STATUS_TEXT[s]))


# The arbiter's `locate` (link/commands.py): for 5 s the boards blink the faces and beep once a
# second, whatever the sound setting (the arbiter's call); the game untouched, nothing logged.
def locating(app, now):
    """The ms a locate has left at ticks `now` (its end in app.locate_until), or 0: none (an ended
    one leaves app.locate_until). No allocation."""
    left = 0 if app.locate_until is None else (app.locate_until - now) & _TICKS_MAX
    if left == 0 or left > _TICKS_HALF:  # (past its end: a difference below zero)
        app.locate_until = None
        return 0
    return left


# Formats, chosen from the rounded time.
K_TENTHS = const(0)  # S.t
K_MINSEC = const(1)  # M:SS
K_HOURS = const(2)  # H:MM:SS (TM1637: H.MM)

_HOUR = const(3600000)
_MINUTE = const(60000)
_TENTHS_CAP = const(60000)  # S.t shows at most 59.9

# ------------------------------------------------------------------------------------ TM1637
#
# Segment bytes, standard TM1637 encoding: bit0 = a (top), bit1 = b, ... bit6 = g (middle). Byte 0
# is the leftmost digit. Bit 7 of a byte is that digit's decimal point on modules that have decimal
# points; on the common "clock" modules with a colon, bit 7 of byte 1 drives the colon instead (and
# the other points are not wired). The same bytes serve both kinds: the separator after the second
# digit is always bit 7 of byte 1, shown as "1.24" or "1:24".
#
#   H.MM  [blank, H | DP, M tens, M units]       from one hour; hours above 9 show 9.59
#   MM:SS [M tens or blank, M units | DP, S tens, S units]   colon lit: " 5:07", " 0:20", " 0:00"
#   SS.t  [blank, S tens or blank, S units | DP, tenths]     "19.9", " 0.1" (the point is bit 7 of
#                                                           byte 2: visible on modules with points)
#
# H.MM and MM:SS use the same positions (" 1.00" is one hour or one minute): while the face runs in
# H.MM its separator blinks (lit in blink phase 1), so a running hours face ticks and differs from
# M:SS (steady colon).

DIGITS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f"  # 0..9
SEG_DP = const(0x80)  # bit 7: the digit's decimal point; on byte 1 also the colon
_SEG_BLANK = const(0)


def _div(ms, unit, down):
    """ms in whole `unit`s: rounded down (count-up) or up (count-down)."""
    if down:
        return ms // unit
    return (ms + unit - 1) // unit


def fmt_kind(ms, tenths_below_ms=20000, countup=False):
    """The format (K_TENTHS, K_MINSEC, K_HOURS) for a face of `ms`, chosen by the value rounded to
    each format's resolution (see the rounding note at the top). No allocation."""
    if countup:
        return K_HOURS if ms >= _HOUR else K_MINSEC
    lim = tenths_below_ms if tenths_below_ms < _TENTHS_CAP else _TENTHS_CAP
    if ms > 0 and _div(ms, 100, False) * 100 < lim:
        return K_TENTHS
    if _div(ms, 1000, False) * 1000 < _HOUR:
        return K_MINSEC
    return K_HOURS


def _countup(clock, side):
    tc = clock.tc[side]
    return tc is not None and tc.kind == tcm.COUNTUP


def _face_ms(clock, side):
    ms = clock.ms(side)
    return ms if ms > 0 else 0


def tm1637(buf, clock, side, tenths_below_ms=20000, blink=0):
    """Fill `buf` (a bytearray of 4) with the segment bytes of `side`'s face. No allocation."""
    ms = _face_ms(clock, side)
    up = _countup(clock, side)
    kind = fmt_kind(ms, tenths_below_ms, up)
    d = DIGITS
    if kind == K_TENTHS:
        t = _div(ms, 100, up)
        s = t // 10
        buf[0] = _SEG_BLANK
        buf[1] = d[s // 10] if s >= 10 else _SEG_BLANK
        buf[2] = d[s % 10] | SEG_DP
        buf[3] = d[t % 10]
    elif kind == K_MINSEC:
        s = _div(ms, 1000, up)
        m = s // 60
        s = s % 60
        buf[0] = d[m // 10] if m >= 10 else _SEG_BLANK
        buf[1] = d[m % 10] | SEG_DP  # the colon
        buf[2] = d[s // 10]
        buf[3] = d[s % 10]
    else:
        m = _div(ms, _MINUTE, up)
        if m > 599:
            m = 599  # 9.59: four digits hold no more
        buf[0] = _SEG_BLANK
        buf[1] = d[m // 60] | (SEG_DP if (blink or clock.running != side) else 0)
        buf[2] = d[(m % 60) // 10]
        buf[3] = d[m % 10]
    return buf


# -------------------------------------------------------------------------------------- LEDs
#
# One bit per indicator of a face (contract 2: the running face, flags, first flag, stage and low
# time are always visible):
#   LED_RUNNING  this side's clock runs: steady; while the clock is stopped before the start,
#                paused or adjourned it blinks (lit only in blink phase 1) on the side to move, the
#                side START runs (TK-C5), so a TM1637 clock shows it too
#   LED_FLAG     this side's flag is down: steady; while BOTH flags are down the one that fell first
#                blinks (lit in blink phase 1): which fell first is always visible (FIDE; DGT's too)
#   LED_STAGE    the next stage was added at this side's flag (stage_advance "flag"): steady, for
#                the arbiter to check the move count (TK-C13), as DGT's steady period flag
#   LED_LOW      this side's time is at or under low_time_ms, not zero, where the mark counts
#                (is_low)
#   LED_DEFAULT  the default time found this side without a move (TK-C6): the arbiter decides

LED_RUNNING = const(1)
LED_FLAG = const(2)
LED_STAGE = const(4)
LED_LOW = const(8)
LED_DEFAULT = const(16)


def is_low(clock, side):
    """TK-C17: the face is at or under the low-time mark (its `low_time` event falls at the instant
    the time equals it) and not at zero, where it counts (clock.low_counts). No allocation."""
    return clock.low_counts(side) and 0 < clock.ms(side) <= clock.settings.low_time_ms


def first_of_two(clock, side):
    """True while both flags are down and this side's fell first."""
    f = clock.flag[side]
    g = clock.flag[1 - side]
    return f != 0 and g != 0 and f < g


def leds(clock, side, blink=0):
    """The LED bitmask of `side`'s face (LED_* bits). No allocation."""
    m = 0
    st = clock.state
    if clock.running == side:
        m |= LED_RUNNING
    elif blink and clock.to_move == side and (st == _SETUP or st == _PAUSED or st == _ADJOURNED):
        m |= LED_RUNNING  # the side to move, while stopped: blinking
    if clock.flag[side] and (blink or not first_of_two(clock, side)):
        m |= LED_FLAG
    if clock.stage_mark[side]:
        m |= LED_STAGE
    if is_low(clock, side):
        m |= LED_LOW
    if clock.default_mark[side]:
        m |= LED_DEFAULT
    return m


# --------------------------------------------------------------------------------- time text


def time_text(ms, tenths_below_ms=20000, countup=False):
    """The face's time as text: "1:23:45", "5:07", "19.9", "0:00" (rounding as noted above)."""
    if ms < 0:
        ms = 0
    kind = fmt_kind(ms, tenths_below_ms, countup)
    if kind == K_TENTHS:
        t = _div(ms, 100, countup)
        return "%d.%d" % (t // 10, t % 10)
    s = _div(ms, 1000, countup)
    if kind == K_MINSEC:
        return "%d:%02d" % (s // 60, s % 60)
    return "%d:%02d:%02d" % (s // 3600, (s // 60) % 60, s % 60)


def face_text(clock, side, tenths_below_ms=20000):
    """time_text of `side`'s face of `clock`."""
    return time_text(_face_ms(clock, side), tenths_below_ms, _countup(clock, side))


# -------------------------------------------------------------------------------------- OLED
#
# A 128x64 face as a list of draw items, drawn in order on a cleared screen (the first item clears
# it): ("fill", x, y, w, h, color); ("text", x, y, string, scale): the text font (faces/glyphs.py,
# 6x12 px a character, Latin and Cyrillic) scaled by an integer; ("big", x, y, string, scale):
# framebuf's 8x8 font scaled (the time's digits). Rows (a text line is 12 px: capitals on its rows
# 2..9, accents above, descenders below):
#
#   y 0..11   top line: "M12 S2" (moves completed, stage) left; battery right: "B 87%", and when
#             low_battery "B LOW" in blink phase 1 (the percent, if known, in phase 0)
#   y 12..39  the time, big, centred, at the largest scale that fits: 3 for M:SS and S.t, 2 for
#             H:MM:SS (8 characters * 16 px = 128)
#   y 40..51  the run row: a solid bar while this side runs; while the clock is stopped, the state
#             ("READY", "PAUSE", "ADJ", "END 1-0"); on the side to move framed and pointed at
#             ("> PAUSE <"), so it is visible which side a resume (or the start, TK-C5) runs (its
#             running LED blinks too, see leds)
#   y 52..63  bottom line: the face's marks, "FLAG" (+ "1ST" on the flag that fell first while both
#             are down), "LOW" (TK-C17), "ST>" (stage added at a flag, TK-C13), "DEF" (default time,
#             TK-C6), "d5" (unused simple delay of the side to move, seconds rounded up),
#             "USED 1:23:45" while adjourned (the time used, TK-A3: envelope.used_ms); or `message`
#             instead ("SETTINGS DEFAULT", "LOG ERROR")
#
# The battery is on the top line so that a message never hides it (FIDE: battery level shown). Words
# are in the clock's language (faces/words.py), 21 characters a line; each fits in every language
# (tests/firmware/faces/test_words.py). The menu's reasons (an engine's refusal) are word-wrapped
# (menu_oled); only a text from outside the firmware's words (a message longer than a line) is cut.

OLED_W = const(128)
OLED_H = const(64)
_CHAR_W = const(6)  # the text font's cell (faces/glyphs.py)
_LINE_H = const(12)
_BIG = const(8)  # the big digits' cell, before scaling
_COLS = const(21)
_Y_TOP = const(0)
_Y_TIME = const(12)  # the time's box: rows 12..39 (28 rows)
_H_TIME = const(28)
_Y_RUN = const(40)  # (faces/matchfaces.py has the same rows)
_H_RUN = const(12)
_Y_BOTTOM = const(52)


def _scale_for(text, cell):  # (no default: its tuple would live in the heap)
    for scale in (3, 2):
        if len(text) * cell * scale <= OLED_W and (scale < 3 or cell == _BIG):
            return scale
    return 1


def _centred(text, scale, cell):
    x = (OLED_W - len(text) * cell * scale) // 2
    return x if x > 0 else 0


def battery_text(battery=None, low_battery=False, blink=0):
    """The battery text: "B 87%", "B 100%", "B 9%"; "B LOW" blinking with the percent when low; "" if unknown."""
    if low_battery and (blink or battery is None):
        return "B LOW" if blink else ""
    if battery is None:
        return ""
    b = int(battery)
    b = 0 if b < 0 else (100 if b > 100 else b)
    return "B %d%%" % b


def marks_text(clock, side):
    """The bottom line's marks of `side`'s face, the most needed first, each whole or, when the line's 21 characters
    have no room left for it, left out (the LEDs show them too): "USED 1:23:45" while adjourned (TK-A3: the time
    used, for the envelope; engine/envelope.py, loaded for it), "FLAG 1ST", "LOW", "ST>", "DEF", "d5"."""
    out = []
    if clock.state == _ADJOURNED:
        from sagatfw.engine.envelope import used_ms
        if used_ms(clock, side) >= 0:
            out.append(T("USED") + " " + time_text(used_ms(clock, side), 0, True))
    if clock.flag[side]:
        out.append(T("FLAG"))
        if first_of_two(clock, side):
            out.append(T("1ST"))
    if is_low(clock, side):
        out.append(T("LOW"))
    if clock.stage_mark[side]:
        out.append(T("ST>"))
    if clock.default_mark[side]:
        out.append(T("DEF"))
    if clock.side_to_move() == side and clock.state in (_RUNNING, _PAUSED, _ADJOURNED):
        d = clock.delay_remaining(side)
        if d > 0:
            out.append("d%d" % ((d + 999) // 1000))
    line = ""
    for mark in out:
        if len(line) + (1 if line else 0) + len(mark) <= _COLS:
            line = line + " " + mark if line else mark
    return line


def state_text(clock, result=None):
    """The run row's text while the clock is stopped ("" while it runs or is stopped by a flag)."""
    st = clock.state
    if st == _SETUP:
        return T("READY")
    if st == _PAUSED:
        return T("PAUSE")
    if st == _ADJOURNED:
        return T("ADJ")
    if st == _FINISHED:
        if result is None:
            return T("END")
        return T("END") + " " + (_C.RESULT_NAMES[result] if isinstance(result, int) else result)
    return ""


def oled(clock, side, tenths_below_ms=20000, battery=None, low_battery=False, blink=0, message=None, result=None):
    """Draw items of `side`'s 128x64 face (layout above). `battery`: percent or None; `result`: the
    entered result (index into clock.RESULT_NAMES, or its text), which the clock does not keep."""
    items = [("fill", 0, 0, OLED_W, OLED_H, 0)]  # type: list
    items.append(("text", 0, _Y_TOP, ("M%d S%d" % (clock.moves[side], clock.stage[side]))[:_COLS], 1))
    bat = battery_text(battery, low_battery, blink)
    if bat:
        items.append(("text", OLED_W - len(bat) * _CHAR_W, _Y_TOP, bat, 1))
    t = face_text(clock, side, tenths_below_ms)
    scale = _scale_for(t, _BIG)
    items.append(("big", _centred(t, scale, _BIG), _Y_TIME + (_H_TIME - _BIG * scale) // 2, t, scale))
    if clock.running == side:
        items.append(("fill", 0, _Y_RUN, OLED_W, _H_RUN, 1))
    else:
        st = state_text(clock, result)
        if st:
            if clock.state != _FINISHED and clock.side_to_move() == side:
                items.append(("fill", 0, _Y_RUN, OLED_W, _H_RUN, 1))
                items.append(("fill", 1, _Y_RUN + 1, OLED_W - 2, _H_RUN - 2, 0))
                st = "> " + st + " <"  # the side to move: framed, and pointed at
            items.append(("text", _centred(st, 1, _CHAR_W), _Y_RUN, st, 1))
    bottom = message[:_COLS] if message else marks_text(clock, side)
    if bottom:
        items.append(("text", 0, _Y_BOTTOM, bottom, 1))
    return items


# ------------------------------------------------------------------------------ menu texts
#
# The on-clock menu (ui/menu.py) shows short texts: on each TM1637 face at most four characters, on
# each OLED a line of up to 10 characters at scale 2 (21 at scale 1). A menu names the field being
# edited, `field` = (start, stop), character indexes into the text; in blink phase 0 that field is
# hidden (TM1637) or drawn blank above a steady underline (OLED), so the arbiter sees what PLUS and
# MINUS change.
#
# TM1637 alphabet: digits, letters (case folded; K, M, V, W, X are rough), space - _ = ? / + ' " ( )
# [ ]; anything else is blank. A '.' or ':' after a character lights that cell's point (on byte 1
# the colon of clock modules), so "1:23" shows as " 1:23" and "TI.L" as " TI.L" in three cells; a
# separator with no character before it takes a blank cell of its own. Texts shorter than four cells
# are right-aligned (as numbers are on a clock), longer ones show their first four cells.

# The segment byte of each ASCII code (0: blank): the digits (DIGITS), the letters of both cases
# A..Z, and the signs ' "(' ')' '-' '/' '=' '?' '[' ']' '_' '+'. A bytes constant: in flash when
# frozen (made at the import, it took heap).
SEG_TEXT = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"  # 0..15
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"  # 16..31
    b"\x00\x00\x22\x00\x00\x00\x00\x02\x39\x0f\x00\x46\x00\x40\x00\x52"  # 32..47: " ' ( ) + - /
    b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x00\x00\x00\x48\x00\x53"  # 48..63: 0..9 = ?
    b"\x00\x77\x7c\x39\x5e\x79\x71\x3d\x76\x30\x1e\x75\x38\x37\x54\x3f"  # 64..79: A..O
    b"\x73\x67\x50\x6d\x78\x3e\x1c\x2a\x76\x6e\x5b\x39\x00\x0f\x00\x08"  # 80..95: P..Z [ ] _
    b"\x00\x77\x7c\x39\x5e\x79\x71\x3d\x76\x30\x1e\x75\x38\x37\x54\x3f"  # 96..111: a..o
    b"\x73\x67\x50\x6d\x78\x3e\x1c\x2a\x76\x6e\x5b\x00\x00\x00\x00\x00"  # 112..127: p..z
)


def seg_char(code):
    """The TM1637 segment byte of the character with ASCII `code` (0, blank, if it has none)."""
    return SEG_TEXT[code] if 0 <= code < 128 else 0


def _is_sep(code):
    return code == 46 or code == 58  # '.' ':'


def cells4(text):
    """How many TM1637 cells `text` takes (separators ride on the cell before them). No allocation
    for bytes: a str's text[i] is a one-letter str, which MicroPython makes (a new qstr, an
    allocation) the first time that letter is seen, so the faces drawn with the heap locked pass
    their constant texts as bytes (text[i] an int)."""
    n = 0
    glyph = False
    for i in range(len(text)):
        c = text[i]
        if type(c) is not int:
            c = ord(c)
        if _is_sep(c) and glyph:
            glyph = False
        else:
            n += 1
            glyph = not _is_sep(c)
    return n


def text4(buf, text, field=None, blink=1):
    """Fill `buf` (a bytearray of 4) with the segment bytes of a short text (alphabet and layout
    above); `field` = (start, stop) character indexes hidden in blink phase 0. No allocation."""
    n = cells4(text)
    j = (4 - n if n < 4 else 0) - 1  # the cell being written
    a = -1
    b = -1
    if field is not None and not blink:
        a = field[0]
        b = field[1]
    for k in range(4):
        buf[k] = _SEG_BLANK
    glyph = False
    for i in range(len(text)):
        c = text[i]
        if type(c) is not int:  # (a str: see cells4)
            c = ord(c)
        if _is_sep(c) and glyph:
            buf[j] |= SEG_DP
            glyph = False
            continue
        j += 1
        if j >= 4:
            break
        if _is_sep(c):
            buf[j] = SEG_DP
            glyph = False
        else:
            buf[j] = _SEG_BLANK if a <= i < b else seg_char(c)
            glyph = True
    return buf


def menu_oled(text, field=None, blink=1, top=None, bottom=None):
    """Draw items of one 128x64 face in the menu: `text` big and centred (the text font at scale 2, or 1 to fit),
    its `field` underlined and blank in blink phase 0; `top` a small line (cut at 21), `bottom` one (a reason, up
    to 84 characters, is word-wrapped onto up to four lines from y 12, with `text` at scale 1 on the top line)."""
    items = [("fill", 0, 0, OLED_W, OLED_H, 0)]  # type: list
    scale = _scale_for(text, _CHAR_W)
    y = _Y_TIME + (_H_TIME - _LINE_H * scale) // 2
    lines = None
    if bottom and len(bottom) > _COLS:  # word-wrapped (a word longer than a line is split)
        lines = []
        line = ""
        for word in bottom.split():
            while len(word) > _COLS:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:_COLS])
                word = word[_COLS:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= _COLS:
                line += " " + word
            else:
                lines.append(line)
                line = word
        if line:
            lines.append(line)
        scale = 1
        y = _Y_TOP
        bottom = None
        top = None
    if top:
        items.append(("text", 0, _Y_TOP, top[:_COLS], 1))
    x = _centred(text, scale, _CHAR_W)
    shown = text
    if field is not None:
        a, b = field
        w = _CHAR_W * scale
        items.append(("fill", x + a * w, y + 10 * scale + 1, (b - a) * w, 2, 1))
        if not blink:
            shown = text[:a] + " " * (b - a) + text[b:]
    items.append(("text", x, y, shown[:_COLS], scale))
    if len(shown) > _COLS:  # longer than a line (a handicap's two controls): the rest below
        items.append(("text", 0, y + _LINE_H, shown[_COLS:], 1))
    if lines:
        for i in range(len(lines) if len(lines) < 4 else 4):
            items.append(("text", 0, _LINE_H + i * _LINE_H, lines[i], 1))
    elif bottom:
        items.append(("text", 0, _Y_BOTTOM, bottom, 1))
    return items


def menu_items(left_text, right_text, field=None, blink=1, detail=None):
    """Both OLED faces in the menu: (left items, right items). The left face shows what is being
    edited (with `detail`, e.g. a preset's name or why an action was refused, on its bottom line),
    the right face the value with its `field` (menu.Menu.view and .field)."""
    return (menu_oled(left_text, None, blink, T("MENU"), detail), menu_oled(right_text, field, blink))
