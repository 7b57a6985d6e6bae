"""Hypothesis properties of sagatfw.core.timecontrol (contract 1), CPython only.

The example-based tests are in tests/firmware/core/test_timecontrol.py (they also run under MicroPython).
"""

from hypothesis import example, given
from hypothesis import strategies as st

from sagatfw.core import tcparse
from sagatfw.core import timecontrol as tcm

ALPHABET = "0123456789+db/:*-jcx|? "


def parse_or_reject(text: str) -> None:
    """parse(text) returns a control whose canonical string re-parses equal, or raises ValueError."""
    try:
        tc = tcparse.parse(text)
    except ValueError as e:
        assert str(e).startswith("bad TimeControl "), str(e)
        return
    out = tcm.format(tc)
    again = tcparse.parse(out)
    assert again == tc, (text, out)
    assert tcm.format(again) == out


def parse_sides_or_reject(text: str) -> None:
    try:
        left, right = tcparse.parse_sides(text)
    except ValueError as e:
        assert str(e).startswith("bad TimeControl "), str(e)
        return
    out = tcm.format_sides(left, right)
    assert tcparse.parse_sides(out) == (left, right), (text, out)


# --- (a) fuzz: ValueError or a control that round-trips, never another exception ---


@given(st.text())
def test_fuzz_any_text(text: str) -> None:
    parse_or_reject(text)
    parse_sides_or_reject(text)


@given(st.text(alphabet=ALPHABET, max_size=40))
@example("40/5400+30:1800+30")
@example("600j30x5")
@example("1200c25/300")
@example("300+2|180+2")
@example("1" * 5000)
def test_fuzz_grammar_alphabet(text: str) -> None:
    parse_or_reject(text)
    parse_sides_or_reject(text)


# --- (b) generated valid controls format to a string that parses back equal ---

MODES = (tcm.SUDDEN, tcm.FISCHER, tcm.DELAY, tcm.BRONSTEIN)


@st.composite
def stage_lists(draw: st.DrawFn) -> tuple[list[tcm.Stage], bool]:
    """Stages obeying the grammar; also whether byo-yomi may follow (final stage: no moves, no bonus)."""
    n = draw(st.integers(1, tcm.MAX_STAGES))
    stages = []
    for i in range(n):
        final = i == n - 1
        moves = draw(st.integers(0 if final else 1, tcm.MAX_MOVES))
        most = tcm.MAX_SECONDS
        if final and moves:  # a repeating stage adds at most MAX_BONUS a move
            most = min(most, moves * tcm.MAX_BONUS)
        seconds = draw(st.integers(1 if i == 0 else 0, most))
        mode = draw(st.sampled_from(MODES))
        bonus = 0 if mode == tcm.SUDDEN else draw(st.integers(1, tcm.MAX_BONUS))
        stages.append(tcm.Stage(moves, seconds * 1000, mode, bonus * 1000))
    last = stages[-1]
    return stages, last.moves == 0 and last.mode == tcm.SUDDEN


@st.composite
def controls(draw: st.DrawFn) -> tcm.TimeControl:
    kind = draw(st.sampled_from((tcm.STAGES, tcm.STAGES, tcm.STAGES, tcm.HOURGLASS, tcm.COUNTUP)))
    if kind == tcm.COUNTUP:
        return tcm.TimeControl(tcm.COUNTUP)
    if kind == tcm.HOURGLASS:
        return tcm.TimeControl(tcm.HOURGLASS, [tcm.Stage(0, draw(st.integers(1, tcm.MAX_SECONDS)) * 1000)])
    stages, byo_ok = draw(stage_lists())
    byo = draw(st.sampled_from((tcm.BYO_NONE, tcm.BYO_JAPANESE, tcm.BYO_CANADIAN))) if byo_ok else tcm.BYO_NONE
    if byo == tcm.BYO_JAPANESE:
        ms = draw(st.integers(1, tcm.MAX_BONUS)) * 1000
        count = draw(st.integers(1, tcm.MAX_PERIODS))
    elif byo == tcm.BYO_CANADIAN:
        count = draw(st.integers(1, tcm.MAX_MOVES))
        ms = draw(st.integers(1, tcm.MAX_SECONDS)) * 1000
    else:
        ms = count = 0
    return tcm.TimeControl(tcm.STAGES, stages, byo, ms, count)


@given(controls())
def test_generated_controls_round_trip(tc: tcm.TimeControl) -> None:
    text = tcm.format(tc)
    back = tcparse.parse(text)
    assert back == tc, (text, back)
    assert tcm.format(back) == text
    assert str(tc) == text
    assert tcparse.parse("  " + text + "\n") == tc


def plays_together(left: tcm.TimeControl, right: tcm.TimeControl) -> bool:
    """The clock's rule for a pair: hourglass on both sides or on neither."""
    return (left.kind == tcm.HOURGLASS) == (right.kind == tcm.HOURGLASS)


@given(controls(), controls())
def test_generated_sides_round_trip(left: tcm.TimeControl, right: tcm.TimeControl) -> None:
    text = tcm.format_sides(left, right)
    assert ("|" in text) == (left != right)
    if not plays_together(left, right):
        try:
            tcparse.parse_sides(text)
        except ValueError as e:
            assert "hourglass needs hourglass on both sides" in str(e)
            return
        raise AssertionError(text)
    assert tcparse.parse_sides(text) == (left, right), text


@given(controls())
def test_generated_controls_helpers_are_consistent(tc: tcm.TimeControl) -> None:
    if tc.kind != tcm.STAGES:
        return
    n = len(tc.stages)
    assert tc.is_final(n) and not any(tc.is_final(i) for i in range(1, n))
    assert tc.has_next(n) == tc.repeats() == (tc.stages[-1].moves > 0)
    assert tc.first_ms() == tc.stages[0].time_ms
    assert tc.freeze_default() == any(s.mode != tcm.SUDDEN for s in tc.stages)
    for i in range(1, n + 3):
        assert tc.moves_before(i + 1) - tc.moves_before(i) == tc.stage(i).moves


# --- (c) canonical strings come back unchanged ---


def number(low: int, high: int) -> st.SearchStrategy[str]:
    return st.integers(low, high).map(str)


@st.composite
def canonical_strings(draw: st.DrawFn) -> str:
    """Strings written directly from the grammar (not via format), in canonical form."""
    kind = draw(st.sampled_from(("stages", "stages", "stages", "hourglass", "countup")))
    if kind == "countup":
        return "-"
    if kind == "hourglass":
        return "*" + draw(number(1, tcm.MAX_SECONDS))
    n = draw(st.integers(1, tcm.MAX_STAGES))
    parts = []
    for i in range(n):
        final = i == n - 1
        text = ""
        most = tcm.MAX_SECONDS
        if not final or draw(st.booleans()):
            moves = draw(st.integers(1, tcm.MAX_MOVES))
            text = str(moves) + "/"
            if final:  # a repeating stage adds at most MAX_BONUS a move
                most = min(most, moves * tcm.MAX_BONUS)
        text += draw(number(1 if i == 0 else 0, most))
        mark = draw(st.sampled_from(("", "+", "d", "b")))
        if mark:
            text += mark + draw(number(1, tcm.MAX_BONUS))
        parts.append(text)
    text = ":".join(parts)
    if "/" not in parts[-1] and not any(c in parts[-1] for c in "+db"):
        byo = draw(st.sampled_from(("", "j", "c")))
        if byo == "j":
            text += "j" + draw(number(1, tcm.MAX_BONUS)) + "x" + draw(number(1, tcm.MAX_PERIODS))
        elif byo == "c":
            text += "c" + draw(number(1, tcm.MAX_MOVES)) + "/" + draw(number(1, tcm.MAX_SECONDS))
    return text


@given(canonical_strings())
@example("420")
@example("1200")
@example("300+3")
@example("300d5")
@example("300b5")
@example("40/5400+30:1800+30")
@example("*60")
@example("-")
@example("40/7200:20/3600")
@example("600j30x5")
@example("1200c25/300")
def test_canonical_strings_format_unchanged(text: str) -> None:
    assert tcm.format(tcparse.parse(text)) == text


@given(canonical_strings(), canonical_strings())
def test_canonical_handicap_strings_format_unchanged(left: str, right: str) -> None:
    text = left if left == right else left + "|" + right
    if left.startswith("*") != right.startswith("*"):  # hourglass on one side only: the clock refuses it
        return
    assert tcm.format_sides(*tcparse.parse_sides(text)) == text
