# Tests of sagatfw.core.timecontrol: contract 1 of docs/design.md (TimeControl strings) and the built-in presets.
#
# Plain functions and bare asserts: pytest runs this file under CPython and tests/mprun.py runs the same
# file under the MicroPython unix port, so it uses nothing MicroPython lacks.
from sagatfw.core import presets, tcparse
from sagatfw.core import timecontrol as tcm

S = 1000  # ms per second

SUDDEN = tcm.SUDDEN
FISCHER = tcm.FISCHER
DELAY = tcm.DELAY
BRONSTEIN = tcm.BRONSTEIN


# --- helpers ---


def fields(stage):
    return (stage.moves, stage.time_ms, stage.mode, stage.bonus_ms)


def canonical(text):
    """parse(text), checking that it formats back to exactly text and re-parses equal."""
    tc = tcparse.parse(text)
    out = tcm.format(tc)
    assert out == text, "%r formats as %r" % (text, out)
    assert str(tc) == text
    assert tcparse.parse(out) == tc
    return tc


def check(text, kind, stages, byo=tcm.BYO_NONE, byo_ms=0, byo_count=0):
    """The parsed fields of `text`, exactly; `stages` as (moves, time_ms, mode, bonus_ms) tuples."""
    tc = canonical(text)
    assert tc.kind == kind, (text, tc.kind)
    got = [fields(s) for s in tc.stages]
    assert got == stages, (text, got)
    assert tc.byo == byo, (text, tc.byo)
    assert tc.byo_ms == byo_ms, (text, tc.byo_ms)
    assert tc.byo_count == byo_count, (text, tc.byo_count)
    return tc


def error(fn, arg):
    """The message of the ValueError fn(arg) raises; fails if it raises nothing."""
    try:
        fn(arg)
    except ValueError as e:
        return str(e)
    raise AssertionError("%r was accepted" % (arg,))


def check_errors(fn, table):
    for text, needles in table:
        msg = error(fn, text)
        head = "bad TimeControl %r: " % (text,)
        assert msg.startswith(head), (text, msg)
        for needle in needles:
            assert needle in msg, "%r: %r lacks %r" % (text, msg, needle)


# --- every notation of contract 1, parsed field by field ---


def test_sudden_death_tk_blitz():
    check("420", tcm.STAGES, [(0, 420 * S, SUDDEN, 0)])


def test_sudden_death_tk_rapid():
    check("1200", tcm.STAGES, [(0, 1200 * S, SUDDEN, 0)])


def test_fischer_increment():
    check("300+3", tcm.STAGES, [(0, 300 * S, FISCHER, 3 * S)])


def test_simple_delay():
    check("300d5", tcm.STAGES, [(0, 300 * S, DELAY, 5 * S)])


def test_bronstein_delay():
    check("300b5", tcm.STAGES, [(0, 300 * S, BRONSTEIN, 5 * S)])


def test_two_stages_with_carry_over():
    check("40/5400+30:1800+30", tcm.STAGES, [(40, 5400 * S, FISCHER, 30 * S), (0, 1800 * S, FISCHER, 30 * S)])


def test_hourglass():
    check("*60", tcm.HOURGLASS, [(0, 60 * S, SUDDEN, 0)])


def test_no_limit():
    check("-", tcm.COUNTUP, [])


def test_repeating_final_stage():
    check("40/7200:20/3600", tcm.STAGES, [(40, 7200 * S, SUDDEN, 0), (20, 3600 * S, SUDDEN, 0)])


def test_single_repeating_stage():
    check("40/300", tcm.STAGES, [(40, 300 * S, SUDDEN, 0)])


def test_three_stages_mixed_bonuses():
    check(
        "40/7200d5:20/3600b10:900+30",
        tcm.STAGES,
        [(40, 7200 * S, DELAY, 5 * S), (20, 3600 * S, BRONSTEIN, 10 * S), (0, 900 * S, FISCHER, 30 * S)],
    )


def test_later_stage_may_add_no_time():
    # "then the rest of the game on what is left, +30 s a move": stage 2 adds 0 s
    check("40/5400:0+30", tcm.STAGES, [(40, 5400 * S, SUDDEN, 0), (0, 0, FISCHER, 30 * S)])


def test_japanese_byoyomi():
    check("600j30x5", tcm.STAGES, [(0, 600 * S, SUDDEN, 0)], tcm.BYO_JAPANESE, 30 * S, 5)


def test_canadian_byoyomi():
    check("1200c25/300", tcm.STAGES, [(0, 1200 * S, SUDDEN, 0)], tcm.BYO_CANADIAN, 300 * S, 25)


def test_byoyomi_after_several_stages():
    check(
        "40/5400:1800j60x3",
        tcm.STAGES,
        [(40, 5400 * S, SUDDEN, 0), (0, 1800 * S, SUDDEN, 0)],
        tcm.BYO_JAPANESE,
        60 * S,
        3,
    )


def test_limits_are_accepted():
    check("86400", tcm.STAGES, [(0, 86400 * S, SUDDEN, 0)])
    check("1+3600", tcm.STAGES, [(0, 1 * S, FISCHER, 3600 * S)])
    check("999/86400:1", tcm.STAGES, [(999, 86400 * S, SUDDEN, 0), (0, 1 * S, SUDDEN, 0)])
    check("*86400", tcm.HOURGLASS, [(0, 86400 * S, SUDDEN, 0)])
    check("1j3600x99", tcm.STAGES, [(0, 1 * S, SUDDEN, 0)], tcm.BYO_JAPANESE, 3600 * S, 99)
    check("1c999/86400", tcm.STAGES, [(0, 1 * S, SUDDEN, 0)], tcm.BYO_CANADIAN, 86400 * S, 999)
    eight = ":".join(["40/300"] * 8)
    tc = canonical(eight)
    assert len(tc.stages) == 8


def test_surrounding_whitespace_is_ignored():
    for text in (" 420", "420 ", "\t420\n", " - ", " *60 "):
        tc = tcparse.parse(text)
        assert tc == tcparse.parse(text.strip())
        assert tcm.format(tc) == text.strip()


def test_equality():
    assert tcparse.parse("300+3") == tcparse.parse("300+3")
    assert tcparse.parse("300+3") != tcparse.parse("300+2")
    assert tcparse.parse("300+3") != tcparse.parse("300d3")
    assert tcparse.parse("40/300") != tcparse.parse("300")
    assert tcparse.parse("600j30x5") != tcparse.parse("600j30x4")
    assert tcparse.parse("600j30x5") != tcparse.parse("600")
    assert tcparse.parse("*60") != tcparse.parse("60")
    assert tcparse.parse("-") == tcparse.parse("-")
    assert tcparse.parse("420") != "420"
    assert tcm.Stage(40, 1000, FISCHER, 2000) == tcm.Stage(40, 1000, FISCHER, 2000)
    assert tcm.Stage(40, 1000) != tcm.Stage(40, 1000, FISCHER, 2000)
    assert tcm.Stage(40, 1000) != (40, 1000, 0, 0)


def test_repr_shows_the_canonical_string():
    assert repr(tcparse.parse(" 300+3 ")) == "TimeControl('300+3')"
    assert repr(tcm.Stage(40, 5400000, FISCHER, 30000)) == "Stage(40, 5400000, 1, 30000)"


def test_built_timecontrol_formats():
    tc = tcm.TimeControl(
        tcm.STAGES, [tcm.Stage(40, 5400 * S, FISCHER, 30 * S), tcm.Stage(0, 1800 * S, FISCHER, 30 * S)]
    )
    assert tcm.format(tc) == "40/5400+30:1800+30"
    assert tcparse.parse("40/5400+30:1800+30") == tc
    assert tcm.format(tcm.TimeControl(tcm.COUNTUP)) == "-"
    assert tcm.format(tcm.TimeControl(tcm.HOURGLASS, [tcm.Stage(0, 90 * S)])) == "*90"
    tc = tcm.TimeControl(tcm.STAGES, [tcm.Stage(0, 600 * S)], tcm.BYO_CANADIAN, 300 * S, 25)
    assert tcm.format(tc) == "600c25/300"


def test_constants_are_distinct():
    assert len(set([tcm.SUDDEN, tcm.FISCHER, tcm.DELAY, tcm.BRONSTEIN])) == 4
    assert len(set([tcm.STAGES, tcm.HOURGLASS, tcm.COUNTUP])) == 3
    assert len(set([tcm.BYO_NONE, tcm.BYO_JAPANESE, tcm.BYO_CANADIAN])) == 3
    assert tcm.MAX_STAGES == 8


# --- handicap: a control per side ---


def test_parse_sides_handicap():
    left, right = tcparse.parse_sides("300+2|180+2")
    assert [fields(s) for s in left.stages] == [(0, 300 * S, FISCHER, 2 * S)]
    assert [fields(s) for s in right.stages] == [(0, 180 * S, FISCHER, 2 * S)]
    assert left.kind == tcm.STAGES and right.kind == tcm.STAGES
    assert tcm.format_sides(left, right) == "300+2|180+2"
    assert tcparse.parse_sides(tcm.format_sides(left, right)) == (left, right)


def test_parse_sides_one_control_for_both():
    left, right = tcparse.parse_sides("40/5400+30:1800+30")
    assert left == right == tcparse.parse("40/5400+30:1800+30")
    assert tcm.format_sides(left, right) == "40/5400+30:1800+30"


def test_format_sides_collapses_equal_sides():
    left, right = tcparse.parse_sides("300|300")
    assert left == right
    assert tcm.format_sides(left, right) == "300"


def test_parse_sides_mixed_kinds_and_whitespace():
    left, right = tcparse.parse_sides(" 40/5400+30:1800+30 | 600j30x5 ")
    assert left == tcparse.parse("40/5400+30:1800+30")
    assert right.byo == tcm.BYO_JAPANESE and right.first_ms() == 600 * S
    assert tcm.format_sides(left, right) == "40/5400+30:1800+30|600j30x5"
    left, right = tcparse.parse_sides("*60|*90")  # hourglass: on both sides or on neither (the clock's rule)
    assert left.kind == right.kind == tcm.HOURGLASS and tcm.format_sides(left, right) == "*60|*90"
    check_errors(tcparse.parse_sides, [
        ("40/5400+30:1800+30|*60", ["hourglass needs hourglass on both sides"]),
        ("*60|-", ["hourglass needs hourglass on both sides"]),
        ("*60|", ["right side", "empty"]),
    ])
    left, right = tcparse.parse_sides("-|600j30x5")
    assert left.kind == tcm.COUNTUP and right.byo == tcm.BYO_JAPANESE
    assert tcm.format_sides(left, right) == "-|600j30x5"
    assert tcm.format_sides(right, left) == "600j30x5|-"


# --- the questions the clock asks ---


def test_helpers_two_stages():
    tc = tcparse.parse("40/5400+30:1800+30")
    assert tc.stage(1) is tc.stages[0]
    assert tc.stage(2) is tc.stages[1]
    assert tc.stage(3) is tc.stages[1]
    assert not tc.is_final(1)
    assert tc.is_final(2)
    assert tc.is_final(3)
    assert not tc.repeats()
    assert tc.has_next(1)
    assert not tc.has_next(2)
    assert tc.moves_before(1) == 0
    assert tc.moves_before(2) == 40
    assert tc.first_ms() == 5400 * S
    assert tc.freeze_default()


def test_helpers_repeating_final_stage():
    tc = tcparse.parse("40/7200:20/3600")
    assert tc.repeats()
    assert tc.stage(2) is tc.stages[1]
    assert tc.stage(5) is tc.stages[1]
    assert not tc.is_final(1)
    assert tc.is_final(2)  # its time running out is a flag, even though it repeats
    assert tc.is_final(4)
    assert tc.has_next(1)
    assert tc.has_next(2)
    assert tc.has_next(9)
    assert tc.moves_before(1) == 0
    assert tc.moves_before(2) == 40
    assert tc.moves_before(3) == 60
    assert tc.moves_before(4) == 80
    assert tc.moves_before(10) == 40 + 8 * 20
    assert tc.first_ms() == 7200 * S
    assert not tc.freeze_default()


def test_helpers_single_repeating_stage():
    tc = tcparse.parse("40/300")
    assert tc.repeats()
    assert tc.is_final(1)
    assert tc.has_next(1)
    assert tc.stage(3) is tc.stages[0]
    assert tc.moves_before(3) == 80
    assert tc.first_ms() == 300 * S


def test_helpers_three_stages():
    tc = tcparse.parse("40/7200:20/3600:900+30")
    assert [tc.is_final(n) for n in (1, 2, 3, 4)] == [False, False, True, True]
    assert [tc.has_next(n) for n in (1, 2, 3)] == [True, True, False]
    assert [tc.moves_before(n) for n in (1, 2, 3)] == [0, 40, 60]
    assert tc.stage(3).mode == FISCHER
    assert not tc.repeats()
    assert tc.freeze_default()  # a bonus in any stage


def test_helpers_sudden_death():
    tc = tcparse.parse("420")
    assert tc.stage(1) is tc.stages[0]
    assert tc.stage(2) is tc.stages[0]
    assert tc.is_final(1)
    assert not tc.repeats()
    assert not tc.has_next(1)
    assert tc.moves_before(1) == 0
    assert tc.first_ms() == 420 * S
    assert not tc.freeze_default()


def test_helpers_hourglass_and_countup():
    hg = tcparse.parse("*60")
    assert hg.first_ms() == 60 * S
    assert not hg.repeats()
    assert not hg.has_next(1)
    assert not hg.freeze_default()
    up = tcparse.parse("-")
    assert up.first_ms() == 0
    assert not up.repeats()
    assert not up.has_next(1)
    assert not up.freeze_default()


def test_freeze_default_follows_increment_or_delay():
    on = ("300+3", "300d5", "300b5", "40/5400+30:1800+30", "40/7200:3600+30", "40/300d2:20/300")
    off = ("420", "1200", "40/7200:20/3600", "*60", "-", "600j30x5", "1200c25/300")
    for text in on:
        assert tcparse.parse(text).freeze_default(), text
    for text in off:
        assert not tcparse.parse(text).freeze_default(), text


# --- presets ---


def test_presets_table():
    assert len(presets.PRESETS) >= 20
    names = [p[0] for p in presets.PRESETS]
    assert len(set(names)) == len(names), "duplicate preset names"
    for p in presets.PRESETS:
        assert len(p) == 3, p
        name, text, desc = p
        assert name and text and desc, p
        assert name == name.strip() and " " not in name and "|" not in name, p


def test_presets_toguz_kumalak_first():
    first = presets.PRESETS[:5]
    for name, _text, _desc in first:
        assert name.startswith("tk-"), name
    assert presets.PRESETS[0][0] == "tk-blitz" and presets.PRESETS[0][1] == "420"
    assert presets.PRESETS[1][0] == "tk-rapid" and presets.PRESETS[1][1] == "1200"
    assert "TK-B3" in presets.PRESETS[0][2] and "TK-B3" in presets.PRESETS[1][2]


def test_presets_parse_and_round_trip():
    for name, text, _desc in presets.PRESETS:
        tc = tcparse.parse(text)
        assert tcm.format(tc) == text, (name, text)
        assert tcparse.parse(tcm.format(tc)) == tc, name


def test_presets_cover_every_kind():
    tcs = [tcparse.parse(p[1]) for p in presets.PRESETS]
    kinds = set([tc.kind for tc in tcs])
    assert kinds == set([tcm.STAGES, tcm.HOURGLASS, tcm.COUNTUP])
    modes = set([s.mode for tc in tcs for s in tc.stages])
    assert modes == set([SUDDEN, FISCHER, DELAY, BRONSTEIN])
    byos = set([tc.byo for tc in tcs])
    assert byos == set([tcm.BYO_NONE, tcm.BYO_JAPANESE, tcm.BYO_CANADIAN])
    assert [tc for tc in tcs if len(tc.stages) > 1 and not tc.repeats()]
    assert [tc for tc in tcs if tc.repeats()]


def test_preset_lookup():
    assert presets.preset("tk-blitz") == "420"
    assert presets.preset("tk-rapid") == "1200"
    for name, text, _desc in presets.PRESETS:
        assert presets.preset(name) == text, name
    assert presets.preset("no-such-preset") is None
    assert presets.preset("") is None
    assert presets.preset("420") is None


def test_preset_names_are_not_controls():
    # `sagat tc NAME` looks a name up first: no name may also be a valid control string
    for name, _text, _desc in presets.PRESETS:
        error(tcparse.parse, name)


# --- malformed strings: ValueError naming the offending part ---

BAD = (
    ("?", ["unexpected character '?'"]),
    ("", ["empty"]),
    ("   ", ["empty"]),
    ("abc", ["unexpected character 'a'"]),
    ("jazz", ["unexpected character 'a'"]),
    ("+3", ["missing seconds in stage 1"]),
    ("300+", ["missing increment seconds in stage 1"]),
    ("300d", ["missing delay seconds in stage 1"]),
    ("300b", ["missing Bronstein delay seconds in stage 1"]),
    ("40/", ["missing seconds in stage 1 '40/'"]),
    ("/300", ["missing move count in stage 1"]),
    ("300:40/300", ["stage 1 '300'", "needs a move count"]),
    ("300+3:", ["stage 1 '300+3'", "needs a move count"]),
    ("300+3d2", ["increment seconds", "'3d2' is not a whole number"]),
    ("300++3", ["increment seconds", "'+3' is not a whole number"]),
    ("300+0", ["increment seconds", "0 is out of range 1..3600"]),
    ("300+3601", ["increment seconds", "3601 is out of range 1..3600"]),
    ("300+03", ["increment seconds", "'03' has a leading zero"]),
    ("0", ["seconds in stage 1 '0' is out of range 1..86400"]),
    ("40/0", ["seconds in stage 1", "0 is out of range 1..86400"]),
    ("86401", ["seconds in stage 1", "'86401' is out of range 1..86400"]),
    ("99999999", ["seconds in stage 1", "'99999999' is out of range 1..86400"]),
    ("1" * 5000, ["seconds in stage 1", "is out of range 1..86400"]),
    ("40/" + "9" * 40, ["seconds in stage 1", "is out of range 1..86400"]),
    ("-5", ["unexpected character '-'"]),
    ("--", ["unexpected character '-'"]),
    ("3.5", ["unexpected character '.'"]),
    ("300 +3", ["unexpected character ' '"]),
    ("300D5", ["unexpected character 'D'"]),
    ("300J30X5", ["unexpected character 'J'"]),
    ("\u0663\u0660\u0660", ["unexpected character"]),
    ("0300", ["seconds in stage 1", "'0300' has a leading zero"]),
    ("0/300", ["move count in stage 1", "0 is out of range 1..999"]),
    ("1000/300", ["move count in stage 1", "1000 is out of range 1..999"]),
    ("*0", ["hourglass seconds", "0 is out of range 1..86400"]),
    ("*", ["missing hourglass seconds"]),
    ("*60+3", ["hourglass seconds", "'60+3' is not a whole number"]),
    ("*-5", ["hourglass seconds", "'-5' is not a whole number"]),
    ("300x", ["seconds in stage 1 '300x' is not a whole number"]),  # the value once there, not twice
    ("1/2/3", ["seconds in stage 1", "'2/3' is not a whole number"]),
    ("40//300", ["seconds in stage 1", "'/300' is not a whole number"]),
    ("40/5400:", ["stage 2 is empty"]),
    ("40/300:20/300:", ["stage 3 is empty"]),
    (":300", ["stage 1 is empty"]),
    ("300j30", ["Japanese byo-yomi 'j30'", "jSECONDSxPERIODS"]),
    ("300jx5", ["missing byo-yomi period seconds"]),
    ("300j0x5", ["byo-yomi period seconds", "0 is out of range 1..3600"]),
    ("300j30x0", ["byo-yomi period count", "0 is out of range 1..99"]),
    ("300j30x100", ["byo-yomi period count", "100 is out of range 1..99"]),
    ("300j30x5j30x5", ["byo-yomi period count", "'5j30x5' is not a whole number"]),
    ("300c5", ["Canadian byo-yomi 'c5'", "cMOVES/SECONDS"]),
    ("300c/300", ["missing byo-yomi move count"]),
    ("300c0/300", ["byo-yomi move count", "0 is out of range 1..999"]),
    ("300c5/0", ["byo-yomi seconds", "0 is out of range 1..86400"]),
    ("40/300j30x5", ["stage 1 '40/300j30x5'", "byo-yomi cannot follow a move count or a bonus"]),
    ("300+2j30x5", ["stage 1 '300+2j30x5'", "byo-yomi cannot follow a move count or a bonus"]),
    ("40/300c25/300", ["byo-yomi cannot follow a move count or a bonus"]),
    ("300j30x5:300", ["byo-yomi 'j30x5' may only end the final stage"]),
    ("40/300c25/300:300", ["byo-yomi 'c25/300' may only end the final stage"]),
    (":".join(["40/300"] * 9), ["9 stages, at most 8"]),
    ("300|", ["'|' separates two sides' controls", "parse_sides"]),
    ("300+2|180+2", ["'|' separates two sides' controls", "parse_sides"]),
)

BAD_SIDES = (
    ("300|", ["right side: empty"]),
    ("|300", ["left side: empty"]),
    ("|", ["left side: empty"]),
    ("a|b|c", ["at most one '|'"]),
    ("||", ["at most one '|'"]),
    ("300+|180", ["left side: missing increment seconds in stage 1 '300+'"]),
    ("300|180+", ["right side: missing increment seconds in stage 1 '180+'"]),
    ("300|*0", ["right side: hourglass seconds 0 is out of range"]),
    ("?|300", ["left side: unexpected character '?'"]),
    ("", ["empty"]),
    ("300+", ["missing increment seconds in stage 1"]),
)


def test_malformed_strings_table_is_large():
    assert len(BAD) >= 30


def test_malformed_strings_raise_value_error_naming_the_part():
    check_errors(tcparse.parse, BAD)


def test_malformed_sides_raise_value_error_naming_the_part():
    check_errors(tcparse.parse_sides, BAD_SIDES)


def test_malformed_strings_fail_in_parse_sides_too():
    for text, needles in BAD:
        if "|" in text:
            continue
        msg = error(tcparse.parse_sides, text)
        for needle in needles:
            assert needle in msg, (text, msg, needle)


def test_non_strings_are_rejected():
    for value in (None, 300, 3.5, b"300", ["300"], ("300",), {"left": "300"}):
        for fn in (tcparse.parse, tcparse.parse_sides):
            msg = error(fn, value)
            assert "not a string" in msg, (value, msg)
            assert msg.startswith("bad TimeControl "), msg


def _twice(msg):
    """A quoted value said twice in a row in msg ("'300x' '300x'"), or None."""
    parts = msg.split("'")
    for i in range(1, len(parts) - 1, 2):
        q = "'" + parts[i] + "'"
        if q + " " + q in msg:
            return q
    return None


def test_a_malformed_string_names_no_value_twice_in_a_row():
    # "seconds in stage 1 '300x' '300x' is not a whole number" said the value twice
    for text, _ in BAD:
        msg = error(tcparse.parse, text)
        assert _twice(msg) is None, (text, msg)
    for text, _ in BAD_SIDES:
        msg = error(tcparse.parse_sides, text)
        assert _twice(msg) is None, (text, msg)
