# sagat: what the faces show for a match, from a match engine's view (modes/base.py).
#
# Pure module, loaded only while a match is the active mode (faces.py serves the game clock). It
# reads the engine at its last call and never reads the time. The layouts (docs/match.md, "On the
# faces"):
#
# TM1637, two 4-digit faces side by side, as a scoreboard:
#   left face   the match time: M:SS of a period (down; up in golden score or a sudden period),
#               colon steady while it runs, blinking in a stoppage (KB-16, KT-4.5); in a break
#               "b" and the seconds left ("b 45", KB-6, KT-4.4); "Lot" while a lot is due
#               (KT-4.6); "End" once the result is in
#   right face  the score, left's : right's ("12:08", each capped at 99), colon steady
#   LEDs        per side: running = the period runs (kilithattu: the entering team's, blinking
#               before its start; kok-boru:
#               both), blinking in a stoppage; flag (red) = a red card or a removal (KB-11, KB-12);
#               low (yellow) = a warning (KB-11); mark = the winner, after the result
#
# OLED, a 128x64 face per side (faces.py's draw items and rows):
#   top line    the period ("1ST HALF", "REST", "INNINGS 1") left; the side's cards right ("W",
#               "WW", "RED"), in kilithattu "IN" on the entering team's face
#   big         the side's score, scale 3, centred
#   run row     the match time: "> 3:12 <" framed while it runs; "STOP 0:12 3:12" in a stoppage
#               (its length, then the match time); "REST 0:45" in a break; "READY 4:00" before a
#               period; "LOT" when a lot is due; "WIN" / "LOSS" / "DRAW" and why once finished
#   bottom      a message, else in a period the period's stopped time ("STOPPED 1:05", KT-4.5)

from sagatfw import faces as F
from sagatfw.modes import base as M

# why a match ended (base.WHY_NAMES), short enough for "LOSS " and it on one line
_WHY = ("POINTS", "LEAD", "GOLDEN", "REMOVAL", "LOT", "", "REFEREE", "SUDDEN")


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


def tm1637(buf, m, side, blink=0):
    """Fill `buf` (4 bytes) with face `side`'s segments: LEFT the match time, RIGHT the score."""
    st = m.state
    if side == M.RIGHT:
        a = _two(m.scores[M.LEFT])
        b = _two(m.scores[M.RIGHT])
        buf[0] = F.DIGITS[a // 10] if a >= 10 else 0
        buf[1] = F.DIGITS[a % 10] | F.SEG_DP
        buf[2] = F.DIGITS[b // 10]
        buf[3] = F.DIGITS[b % 10]
        if b < 10:
            buf[2] = F.DIGITS[0]  # "12:08": the right score keeps two digits after the colon
        return buf
    if st == M.FINISHED:
        return F.text4(buf, "End")
    if st == M.LOT:
        return F.text4(buf, "Lot")
    if st == M.BREAK:
        s = _secs_up(m.break_ms())
        buf[0] = F.seg_char(98)  # "b"
        buf[1] = 0
        buf[2] = F.DIGITS[s // 10 % 10] if s >= 10 else 0
        buf[3] = F.DIGITS[s % 10]
        return buf
    ms = m.match_ms()
    s = ms // 1000 if m.counts_up() else _secs_up(ms)
    mins = s // 60
    if mins > 99:
        mins = 99
    buf[0] = F.DIGITS[mins // 10] if mins >= 10 else 0
    buf[1] = F.DIGITS[mins % 10]
    buf[2] = F.DIGITS[s % 60 // 10]
    buf[3] = F.DIGITS[s % 10]
    if st != M.STOPPED or blink:
        buf[1] |= F.SEG_DP  # the colon: steady while the time runs or waits, blinking in a stoppage
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
        return "RED"
    return "W" * m.warnings[side]


def clock_text(ms, up=False):
    """A match time as M:SS as the faces show it: counting up (a stoppage, the stopped time)
    rounded down, counting down (a break, a period) rounded up. `sagat state` prints the same."""
    s = ms // 1000 if up else _secs_up(ms)
    return "%d:%02d" % (s // 60, s % 60)


def run_text(m, side):
    """The OLED's run row for face `side` (not framed; oled() frames it while the period runs)."""
    st = m.state
    if st == M.FINISHED:
        why = _WHY[m.why] if m.why >= 0 else ""
        if m.winner == M.NONE:
            return "DRAW " + why if why else "DRAW"
        return ("WIN " if m.winner == side else "LOSS ") + why
    if st == M.LOT:
        return "LOT"
    if st == M.OVER:
        return "TIME " + time_text(m)
    if st == M.BREAK:
        return m.BREAK_NAME.upper() + " " + clock_text(m.break_ms())
    if st == M.STOPPED:
        return "STOP " + clock_text(m.stoppage_ms(), True) + " " + time_text(m)
    if st == M.RUNNING:
        return time_text(m)
    return "READY " + time_text(m)


def oled(m, side, message=None):
    """Draw items (faces.py's) of face `side`'s 128x64 OLED for match `m` (layout above)."""
    items = [("fill", 0, 0, F.OLED_W, F.OLED_H, 0)]  # type: list
    st = m.state
    right = cards_text(m, side)
    if m.entering == side and st != M.FINISHED and st != M.BREAK:  # (in a changeover: the last innings')
        right = "IN " + right if right else "IN"
    top = m.BREAK_NAME if st == M.BREAK else m.period_name()
    items.append(("text", 0, 0, top.upper()[:15 - len(right)], 1))
    if right:  # after the period: a line's items go left to right (the sim's text faces)
        items.append(("text", F.OLED_W - len(right) * 8, 0, right, 1))
    score = str(m.scores[side])
    items.append(("text", (F.OLED_W - len(score) * 24) // 2, 16, score, 3))
    run = run_text(m, side)
    if st == M.RUNNING:
        items.append(("fill", 0, 44, F.OLED_W, 10, 1))
        items.append(("fill", 1, 45, F.OLED_W - 2, 8, 0))
        run = "> " + run + " <"
    items.append(("text", (F.OLED_W - len(run[:16]) * 8) // 2, 45, run[:16], 1))
    if message:
        items.append(("text", 0, 56, message[:16], 1))
    elif st in (M.RUNNING, M.STOPPED, M.OVER) and m.stopped_ms():
        items.append(("text", 0, 56, "STOPPED " + clock_text(m.stopped_ms(), True), 1))  # KT-4.5
    return items
