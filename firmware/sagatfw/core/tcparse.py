# sagat: the TimeControl parser (contract 1 of docs/design.md; the grammar is in core/timecontrol.py).
#
# Pure module. It is needed only while a control is being set (a new game, a setting, a preset, the
# menu, a log replayed): each caller imports it there, and the firmware forgets it again afterwards
# (sagatfw.forget), so a board's loop does not keep it in RAM.

from sagatfw.core.timecontrol import (
    BRONSTEIN,
    BYO_CANADIAN,
    BYO_JAPANESE,
    BYO_NONE,
    COUNTUP,
    DELAY,
    FISCHER,
    HOURGLASS,
    MAX_BONUS,
    MAX_MOVES,
    MAX_PERIODS,
    MAX_SECONDS,
    MAX_STAGES,
    STAGES,
    SUDDEN,
    Stage,
    TimeControl,
)

_BONUS_CHARS = "+db"  # core/timecontrol.py's marks of a bonus (its const takes no global there)

_BONUS_MODES = (FISCHER, DELAY, BRONSTEIN)
_STAGE_CHARS = "0123456789/:+dbjcx"  # every character a list of stages may contain
_FAIL = "bad TimeControl %r: "  # the start of every parse error


def _fail(text, why):
    raise ValueError(_FAIL % (text,) + why)


def _number(text, part, what, low, high, full):
    """Parse an unsigned decimal `part` in [low, high]; `what` names it in the error."""
    if not part:
        _fail(full, "missing %s" % what)
    # the part as the error shows it: once (a stage that is all this part names it by its text)
    shown = "%r" % (part,)
    named = what if what.endswith(shown) else what + " " + shown
    for ch in part:
        if ch < "0" or ch > "9":
            _fail(full, "%s is not a whole number" % named)
    if len(part) > 1 and part[0] == "0":
        _fail(full, "%s has a leading zero" % named)
    if not what.endswith(shown):
        what += " " + (part if len(part) <= 12 else part[:12] + "...")
    if len(part) > len(str(high)):  # before int(): no huge int (CPython refuses > 4300 digits)
        _fail(full, "%s is out of range %d..%d" % (what, low, high))
    value = int(part)
    if value < low or value > high:
        _fail(full, "%s is out of range %d..%d" % (what, low, high))
    return value


def _split_at_any(text, chars):
    """(head, char, tail) at the first of `chars` in text, or (text, '', '')."""
    for i in range(len(text)):
        if text[i] in chars:
            return text[:i], text[i], text[i + 1 :]
    return text, "", ""


def _parse_stage(part, number, final, full):
    where = "stage %d %r" % (number, part)
    if not part:
        _fail(full, "stage %d is empty" % number)
    byo = BYO_NONE
    byo_ms = 0
    byo_count = 0
    head, mark, tail = _split_at_any(part, "jc")
    if mark:
        if not final:
            _fail(full, "byo-yomi %r may only end the final stage" % (mark + tail))
        if mark == "j":
            secs, x, count = _split_at_any(tail, "x")
            if not x:
                _fail(full, "Japanese byo-yomi %r needs 'jSECONDSxPERIODS'" % (mark + tail))
            byo_ms = _number(full, secs, "byo-yomi period seconds in " + where, 1, MAX_BONUS, full) * 1000
            byo_count = _number(full, count, "byo-yomi period count in " + where, 1, MAX_PERIODS, full)
            byo = BYO_JAPANESE
        else:
            moves, slash, secs = _split_at_any(tail, "/")
            if not slash:
                _fail(full, "Canadian byo-yomi %r needs 'cMOVES/SECONDS'" % (mark + tail))
            byo_count = _number(full, moves, "byo-yomi move count in " + where, 1, MAX_MOVES, full)
            byo_ms = _number(full, secs, "byo-yomi seconds in " + where, 1, MAX_SECONDS, full) * 1000
            byo = BYO_CANADIAN
        part = head
    moves = 0
    head, slash, tail = _split_at_any(part, "/")
    if slash:
        moves = _number(full, head, "move count in " + where, 1, MAX_MOVES, full)
        part = tail
    elif not final:
        _fail(full, "%s needs a move count (MOVES/SECONDS): another stage follows it" % where)
    head, mark, tail = _split_at_any(part, _BONUS_CHARS)
    low = 1 if number == 1 else 0
    time_ms = _number(full, head, "seconds in " + where, low, MAX_SECONDS, full) * 1000
    mode = SUDDEN
    bonus_ms = 0
    if mark:
        names = ("increment", "delay", "Bronstein delay")
        i = _BONUS_CHARS.index(mark)
        bonus_ms = _number(full, tail, names[i] + " seconds in " + where, 1, MAX_BONUS, full) * 1000
        mode = _BONUS_MODES[i]
    if byo != BYO_NONE and (moves or mode != SUDDEN):
        _fail(full, "%s: byo-yomi cannot follow a move count or a bonus" % where)
    return Stage(moves, time_ms, mode, bonus_ms), byo, byo_ms, byo_count


_SPACE = " \t\r\n\v\f"


def parse(text):
    """Parse one side's TimeControl string. Raises ValueError naming the offending part."""
    if not isinstance(text, str):
        raise ValueError("bad TimeControl %r: not a string" % (text,))
    full = text
    text = text.strip(_SPACE)  # ASCII only, as MicroPython strips: CPython's strip() also takes
    if not text:  # Unicode spaces, and `sagat tc` would accept what the clock refuses
        _fail(full, "empty")
    if text == "-":
        return TimeControl(COUNTUP)
    if text[0] == "*":
        secs = _number(full, text[1:], "hourglass seconds", 1, MAX_SECONDS, full)
        return TimeControl(HOURGLASS, [Stage(0, secs * 1000)])
    if "|" in text:
        _fail(full, "'|' separates two sides' controls; use parse_sides")
    for ch in text:
        if ch not in _STAGE_CHARS:
            _fail(full, "unexpected character %r" % ch)
    parts = text.split(":")
    if len(parts) > MAX_STAGES:
        _fail(full, "%d stages, at most %d" % (len(parts), MAX_STAGES))
    stages = []
    byo = BYO_NONE
    byo_ms = 0
    byo_count = 0
    for i in range(len(parts)):
        final = i == len(parts) - 1
        stage, byo, byo_ms, byo_count = _parse_stage(parts[i], i + 1, final, full)
        stages.append(stage)
    last = stages[len(stages) - 1]
    if last.moves and last.time_ms // 1000 > last.moves * MAX_BONUS:
        # A repeating stage adds its time every MOVES moves for the rest of the game: at most an
        # hour a move, as an increment (MAX_BONUS). `1/86400` (a day a move) reached 2^31 ms in
        # 110 moves; the clock also holds every face under clock.MAX_FACE_MS.
        _fail(full, "stage %d %r repeats: it adds %d s every %d moves, at most %d s a move (%d s)" % (
            len(stages), parts[len(parts) - 1], last.time_ms // 1000, last.moves, MAX_BONUS, last.moves * MAX_BONUS))
    return TimeControl(STAGES, stages, byo, byo_ms, byo_count)


def parse_sides(text):
    """Parse "TC" (both sides) or "LEFT|RIGHT" (handicap): returns (left, right).

    The one parser of a game's control string: the app's setup (and so the boot), settings,
    presets, the menu and the host's `sagat tc` all go through it, so what it accepts the clock
    plays (clock.new_game refuses nothing it returns) and what it rejects nothing saves."""
    if not isinstance(text, str):
        raise ValueError("bad TimeControl %r: not a string" % (text,))
    parts = text.split("|")
    if len(parts) == 1:
        tc = parse(text)
        return tc, tc
    if len(parts) != 2:
        _fail(text, "at most one '|' (LEFT|RIGHT)")
    left = _parse_side(parts[0], "left", text)
    right = _parse_side(parts[1], "right", text)
    if (left.kind == HOURGLASS) != (right.kind == HOURGLASS):
        # the time one side uses goes to the other: both faces must be hourglass ones
        _fail(text, "hourglass needs hourglass on both sides")
    return left, right


def _parse_side(part, name, full):
    """parse(part), its error naming the side and the whole handicap string."""
    try:
        return parse(part)
    except ValueError as e:
        why = str(e)
    prefix = _FAIL % (part,)
    if why.startswith(prefix):
        why = why[len(prefix) :]
    _fail(full, "%s side: %s" % (name, why))
