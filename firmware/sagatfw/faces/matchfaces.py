# sagat: what the faces show for a match, from a match engine's view (engine/matchwords.py).
#
# Pure module, loaded only while a match is the active mode (faces/game.py serves the game clock). It
# reads the engine at its last call and never reads the time. The layouts (docs/match.md, "On the
# faces"):
#
# TM1637, two 4-digit faces side by side, as a scoreboard. A time always has its colon lit; the
# score face never lights it, so a score cannot be read as a time. What alternates does so every
# 2 s of the match's own t (m.t: no clock read here), in the states where t runs:
#   left face   the match time: M:SS of a period (down; up in golden score or a sudden period),
#               colon steady; in a stoppage (KB-16, KT-4.5) every other 2 s "P" and the
#               stoppage's length so far ("P0:12"); in a break "b" and the seconds left ("b 45",
#               KB-6, KT-4.4); "Lot" while a lot is due (KT-4.6); "End" once the result is in
#   right face  the score, left's - right's with a dash (" 4-0", "12-8", "4-12"; both 10 or
#               more: "1210", no room for the dash; each capped at 99), no colon; in a period,
#               a break or time over, 2 s of every 4 the period's code ("H1", "In 1", "rESt":
#               period_code), and when the period has stopped time, every other time the time added
#               back ("A 65": seconds, KT-4.5) in its place
#   LEDs        per side: running = the period runs (kilithattu: the entering team's, blinking
#               before its start; kok-boru:
#               both), blinking in a stoppage; flag (red) = a red card or a removal (KB-11, KB-12);
#               low (yellow) = a warning (KB-11); mark = the winner, after the result
#
# OLED, a 128x64 face per side (faces/game.py's draw items and rows, its text font's 6 px a character, 21 a line;
# the words in the clock's language, T):
#   top line    the period ("1ST HALF", "REST", "INNINGS 1") left; the side's cards right ("W",
#               "WW", "RED"), in kilithattu "IN" on the entering team's face
#   big         the side's score, scale 3, centred
#   run row     the match time: "> 3:12 <" framed while it runs; "STOP 0:12 3:12" in a stoppage
#               (its length, then the match time); "REST 0:45" in a break; "READY 4:00" before a
#               period; "LOT" when a lot is due; "WIN" / "LOSS" / "DRAW" and why once finished
#   bottom      a message, else in a period the period's stopped time ("STOPPED 1:05", KT-4.5)

from sagatfw import T
from sagatfw.engine import matchwords as M
from sagatfw.faces import game as F

# why a match ended (base.WHY_NAMES), short enough for "LOSS " and it on one line: each a word of its own, said
# after WIN / LOSS / DRAW in the case that goes there (kk ҰПАЙМЕН, ru ПО РАЗНИЦЕ), not the menu's value
# ("LEAD", "LOT", "REFEREE", "SUDDEN" name a setting, in the nominative)
_WHY = ("POINTS", "BY LEAD", "GOLDEN", "REMOVAL", "BY LOT", "", "BY REFEREE", "BY PAZHAM")


def _secs_up(ms):
    """Whole seconds, rounded up: a period's time never shows 0:00 while time remains."""
    return (ms + 999) // 1000


def time_text(m):
    """The match time as M:SS: counting down rounded up, counting up rounded down."""
    ms = m.match_ms()
    s = ms // 1000 if m.counts_up() else _secs_up(ms)
    return "%d:%02d" % (s // 60, s % 60)


def _two(n):
    return n if n < 99 else 99


def period_code(m):
    """The TM1637 code of the match's period, or of the break in one (docs/user-guide.md's tables):
    kok-boru's 1st half, 2nd half, golden score, rest; kilithattu's innings 1, 2, extra 1, 2,
    sudden, changeover. A constant (a tuple of constants is one: no allocation, no global), in
    bytes: text4 reads a str letter by letter, which can allocate (faces/game.py's cells4)."""
    i = (4 if m.MODE == "kilithattu" else 0) + (len(m.PERIOD_NAMES) if m.state == M.BREAK else m.period)
    return (b"H1", b"H2", b"GOLd", b"rESt", b"In 1", b"In 2", b"Et 1", b"Et 2", b"Sudn", b"ChAn")[i]


def tm1637(buf, m, side, blink=0):
    """Fill `buf` (4 bytes) with face `side`'s segments: LEFT the match time, RIGHT the score, each
    with what alternates with it (layout above). `blink` is unused (kept for the boards' call). One
    function, no helpers: each function of a module kept loaded while a match runs costs RAM."""
    st = m.state
    phase = m.t // 2000 % 4  # (0 in setup: t runs from the start)
    for i in range(4):
        buf[i] = 0
    if side == M.RIGHT:
        if st == M.RUNNING or st == M.STOPPED or st == M.BREAK or st == M.READY or st == M.OVER:
            if phase == 1 or (phase == 3 and not m.stopped_ms()):
                return F.text4(buf, period_code(m))
            if phase == 3:  # the time added back: the period's stopped time (KT-4.5), in seconds
                s = m.stopped_ms() // 1000
                if s > 999:
                    s = 999
                buf[0] = 0x77  # "A"
                buf[1] = F.DIGITS[s // 100] if s >= 100 else 0
                buf[2] = F.DIGITS[s // 10 % 10] if s >= 10 else 0
                buf[3] = F.DIGITS[s % 10]
                return buf
        # the score, right-aligned, a dash between where it fits; never the colon
        a = _two(m.scores[M.LEFT])
        b = _two(m.scores[M.RIGHT])
        j = 3
        buf[j] = F.DIGITS[b % 10]
        if b >= 10:
            j -= 1
            buf[j] = F.DIGITS[b // 10]
        if a < 10 or b < 10:  # (both of two digits: no room for the dash)
            j -= 1
            buf[j] = 0x40  # the dash: segment g
        j -= 1
        buf[j] = F.DIGITS[a % 10]
        if a >= 10:
            buf[j - 1] = F.DIGITS[a // 10]
        return buf
    if st == M.FINISHED:
        return F.text4(buf, b"End")
    if st == M.LOT:
        return F.text4(buf, b"Lot")
    if st == M.BREAK:
        s = _secs_up(m.break_ms())
        buf[0] = F.seg_char(98)  # "b"
        buf[2] = F.DIGITS[s // 10 % 10] if s >= 10 else 0
        buf[3] = F.DIGITS[s % 10]
        return buf
    if st == M.STOPPED and phase & 1:  # the stoppage's length so far (KB-16, KT-4.5): "P0:12"
        s = m.stoppage_ms() // 1000
        if s > 599:
            s = 599  # P9:59
        buf[0] = 0x73  # "P"
    else:
        ms = m.match_ms()
        s = ms // 1000 if m.counts_up() else _secs_up(ms)
        if s > 5999:
            s = 5999  # 99:59
        if s >= 600:
            buf[0] = F.DIGITS[s // 600]
    buf[1] = F.DIGITS[s // 60 % 10] | F.SEG_DP  # the colon: a time always has it
    buf[2] = F.DIGITS[s % 60 // 10]
    buf[3] = F.DIGITS[s % 10]
    return buf


def leds(m, side, blink=0):
    """Face `side`'s LEDs as a bitmask of faces.LED_*: the mark LED (LED_STAGE) is the winner."""
    mask = 0
    st = m.state
    runs = m.entering == side if m.entering != M.NONE else True
    if runs and (st == M.RUNNING or (st == M.STOPPED and blink)):
        mask |= F.LED_RUNNING
    elif (st == M.READY or st == M.SETUP) and blink and m.entering == side:
        mask |= F.LED_RUNNING  # kilithattu: the team that enters at the start, blinking before it
    if m.reds[side] or (m.why == M.WHY_REMOVAL and m.winner != side):
        mask |= F.LED_FLAG  # KB-12, KB-11: a red card, or removed after a second warning
    if m.warnings[side]:
        mask |= F.LED_LOW
    if st == M.FINISHED and m.winner == side:
        mask |= F.LED_STAGE
    return mask


def cards_text(m, side):
    """The side's cards on the OLED's top line: "W" per warning, "RED" for a red card."""
    if m.reds[side]:
        return T("RED")
    return T("W") * m.warnings[side]


def clock_text(ms, up=False):
    """A match time as M:SS as the faces show it: counting up (a stoppage, the stopped time)
    rounded down, counting down (a break, a period) rounded up. `sagat state` prints the same."""
    s = ms // 1000 if up else _secs_up(ms)
    return "%d:%02d" % (s // 60, s % 60)


def run_text(m, side):
    """The OLED's run row for face `side` (not framed; oled() frames it while the period runs)."""
    st = m.state
    if st == M.FINISHED:
        why = T(_WHY[m.why]) if m.why >= 0 and _WHY[m.why] else ""
        if m.winner == M.NONE:
            return T("DRAW") + " " + why if why else T("DRAW")
        return T("WIN" if m.winner == side else "LOSS") + " " + why
    if st == M.LOT:
        return T("LOT")
    if st == M.OVER:
        return T("TIME") + " " + time_text(m)
    if st == M.BREAK:
        return T(m.BREAK_NAME.upper()) + " " + clock_text(m.break_ms())
    if st == M.STOPPED:
        return T("STOP") + " " + clock_text(m.stoppage_ms(), True) + " " + time_text(m)
    if st == M.RUNNING:
        return time_text(m)
    return T("READY") + " " + time_text(m)


def oled(m, side, message=None):
    """Draw items (faces/game.py's) of face `side`'s 128x64 OLED for match `m` (layout above)."""
    items = [("fill", 0, 0, F.OLED_W, F.OLED_H, 0)]  # type: list
    st = m.state
    right = cards_text(m, side)
    if m.entering == side and st != M.FINISHED and st != M.BREAK:  # (in a changeover: the last innings')
        right = T("IN") + " " + right if right else T("IN")
    top = T((m.BREAK_NAME if st == M.BREAK else m.period_name()).upper())
    items.append(("text", 0, 0, top[:20 - len(right)], 1))
    if right:  # after the period: a line's items go left to right (the sim's text faces)
        items.append(("text", F.OLED_W - len(right) * 6, 0, right, 1))
    score = str(m.scores[side])
    items.append(("big", (F.OLED_W - len(score) * 24) // 2, 14, score, 3))
    run = run_text(m, side)
    if st == M.RUNNING:
        items.append(("fill", 0, 40, F.OLED_W, 12, 1))
        items.append(("fill", 1, 41, F.OLED_W - 2, 10, 0))
        run = "> " + run + " <"
    items.append(("text", (F.OLED_W - len(run[:21]) * 6) // 2, 40, run[:21], 1))
    if message:
        items.append(("text", 0, 52, message[:21], 1))
    elif st in (M.RUNNING, M.STOPPED, M.OVER) and m.stopped_ms():
        items.append(("text", 0, 52, T("STOPPED") + " " + clock_text(m.stopped_ms(), True), 1))  # KT-4.5
    return items
