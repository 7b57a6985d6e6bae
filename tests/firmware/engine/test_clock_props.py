"""Hypothesis properties of the clock engine (CPython), and the consts rules.py copies from clock.py."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from clockkit import NEAR_WRAP, Game, L, R
from sagatfw.core.ticks import TICKS_MAX, ticks_add
from sagatfw.engine import clock as C
from sagatfw.log.read import take_events

durations = st.lists(st.integers(min_value=0, max_value=20000), min_size=1, max_size=60)
bases = st.sampled_from([0, NEAR_WRAP, TICKS_MAX, 123456789])  # ticks at the start


@given(durations, st.integers(min_value=1, max_value=30), bases)
def test_fischer_remaining_is_initial_plus_increments_minus_time_used(moves, inc, base):
    g = Game(f"3600+{inc}", base=base)
    g.start(0)
    t = 0
    used = [0, 0]
    done = [0, 0]
    side = L
    for d in moves:
        t += d
        used[side] += d
        assert g.press(side, t)
        done[side] += 1
        side = 1 - side
        for s in (L, R):
            assert g.ms(s, t) == 3600000 + inc * 1000 * done[s] - used[s]


@given(durations, st.integers(min_value=1, max_value=10), st.sampled_from("+db"))
def test_single_stage_modes_match_a_reference_model(moves, bonus, mark):
    """Per turn of d ms: Fischer credits `bonus`, delay charges d - bonus (if positive),
    Bronstein refunds min(d, bonus); a side that reaches zero flags (no freeze) and gets nothing."""
    start = 30000
    g = Game(f"30{mark}{bonus}", freeze=False)
    g.start(0)
    b = bonus * 1000
    rem = [start, start]
    flagged = [False, False]
    t = 0
    side = L
    for d in moves:
        charge = max(0, d - b) if mark == "d" else d
        if charge >= rem[side] and not flagged[side]:
            flagged[side] = True  # the flag fell inside this turn
        rem[side] = 0 if flagged[side] else rem[side] - charge
        if not flagged[side]:
            if mark == "+":
                rem[side] += b
            elif mark == "b":
                rem[side] += min(d, b)
        t += d
        g.press(side, t)
        side = 1 - side
        assert g.both(t) == tuple(rem)
    assert sorted(e["side"] for e in g.of("flag")) == [("left", "right")[s] for s in (L, R) if flagged[s]]


ops = st.lists(
    st.tuples(
        st.sampled_from(
            ["press_l", "press_r", "poll", "pause", "resume", "adjust", "extend", "adjourn", "unadjourn", "result"]
        ),
        st.integers(min_value=0, max_value=400000),
        st.integers(min_value=0, max_value=700000),
    ),
    max_size=40,
)
controls = st.sampled_from(
    ["60", "60+2", "30d3", "30b3", "2/20:10", "2/20+1:2/10", "*30", "-", "20j5x2", "20c2/10", "60|30+5"]
)


@settings(max_examples=300)
@given(controls, ops, st.booleans(), st.booleans(), bases)
# a correction to 0:00 in a non-final stage by flag: the stage is added at the correction, so the
# resume changes no time (tests/firmware/engine/test_clock_corners.py says it directly)
@example("2/20:10", [("pause", 1000, 0), ("adjust", 1000, 0), ("resume", 1000, 0)], False, True, 0)
# the same before byo-yomi: the period starts at the correction (Japanese and Canadian)
@example("20j5x2", [("pause", 1000, 0), ("adjust", 1000, 0), ("resume", 1000, 0)], False, False, 0)
@example("20c2/10", [("pause", 1000, 0), ("adjust", 1000, 0), ("resume", 1000, 0)], False, False, 0)
def test_any_sequence_keeps_times_non_negative_and_events_ordered(tc, seq, freeze, by_flag, base):
    left, _, right = tc.partition("|")
    g = Game(left, right or None, freeze=freeze, stage_advance="flag" if by_flag else "moves", base=base)
    g.start(0)
    t = 0
    hourglass = tc.startswith("*")
    total = 60000  # hourglass: the sum of both faces, changed only by the arbiter
    for op, dt, value in seq:
        t += dt
        before = g.both(t)
        arbiter_before = len(g.of("adjust")) + len(g.of("extension"))
        flag_before = g.clock.flag[L] or g.clock.flag[R]
        paused = g.clock.state != C.RUNNING
        if op == "press_l":
            g.press(L, t)
        elif op == "press_r":
            g.press(R, t)
        elif op == "poll":
            g.poll(t)
        elif op == "pause":
            g.pause(t)
            if not paused:
                assert g.both(t) == before  # a pause never changes either time
        elif op == "resume":
            g.resume(t)
            assert g.both(t) == before
        elif op == "adjust":
            if g.clock.state not in (C.RUNNING, C.FINISHED):
                g.call("adjust", t, value % 2, ms=value)
        elif op == "extend":
            g.call("extend", t)
        elif op == "adjourn":
            g.call("adjourn", t)
        elif op == "unadjourn":
            g.call("resume_adjourned", t)
        elif op == "result":
            g.call("result", t, value % 5)
        left_ms, right_ms = g.both(t)
        assert left_ms >= 0 and right_ms >= 0
        if hourglass:
            arbiter = len(g.of("adjust")) + len(g.of("extension"))
            if arbiter != arbiter_before:
                total = left_ms + right_ms
            elif flag_before or g.clock.flag[L] or g.clock.flag[R]:
                # a flagged side gains nothing (contract 2): what the other side uses is gone
                assert left_ms + right_ms <= total
                total = left_ms + right_ms
            assert left_ms + right_ms == total  # hourglass: the sum is constant
    ts = [e["t"] for e in g.log]
    assert ts == sorted(ts)
    assert all(e["t"] <= t for e in g.log)
    orders = [e["order"] for e in g.of("flag")]
    assert orders == list(range(1, len(orders) + 1))
    for e in g.log:
        assert e["left_ms"] >= 0 and e["right_ms"] >= 0


@given(st.lists(st.integers(min_value=1, max_value=50000), min_size=1, max_size=30), st.integers(1, 200000))
def test_hourglass_sum_constant(moves, pause_at):
    g = Game("*90", freeze=False)
    g.start(0)
    t = 0
    side = L
    def check(at):
        both = g.both(at)
        if g.clock.flag[L] or g.clock.flag[R]:  # a flagged side stays at zero, gains nothing
            assert sum(both) <= 180000 and 0 in both
        else:
            assert sum(both) == 180000

    for i, d in enumerate(moves):
        for k in range(0, d, max(1, d // 3)):
            check(t + k)
        t += d
        g.press(side, t)
        side = 1 - side
        if i == 3:
            g.pause(t)
            t += pause_at
            check(t)
            g.resume(t)
    check(t + 10**7)


@given(st.lists(st.integers(min_value=1, max_value=9000), min_size=2, max_size=40), st.integers(1, 5000))
def test_flag_instant_does_not_depend_on_polling(moves, step):
    def flags(poll_step):
        g = Game("120", freeze=False)
        g.start(0)
        t = 0
        side = L
        for d in moves:
            k = t
            while k + poll_step < t + d:
                k += poll_step
                g.poll(k)
            t += d
            g.press(side, t)
            side = 1 - side
        g.poll(t + 10**6)
        return [(e["type"], e["side"], e["t"]) for e in g.log if e["type"] in ("flag", "low_time")]

    assert flags(step) == flags(10**9)


# However far apart two calls are, `advance` never raises and the events equal
# those of advancing in small steps; a clock without a sink stops whole at a full queue.
gap_controls = st.sampled_from(
    ["1j1x99", "2j1x99", "1c1/1", "5/1:1/1:1/1:1/1:1/1:1/1:1/1:60", "1", "*1", "1/1:1j1x50", "3/2:60c5/3"]
)


def _play_in_one(tc, settings, base, presses, gap, sink):
    c = C.Clock()
    c.new_game(tc, settings=settings)
    got = []
    if sink:

        class Sink:
            def _log(self, now):
                got.extend(take_events(c))

        c.sink = Sink()
    c.start(base)
    t = 0
    for d in presses:
        t += d
        while not c.advance(ticks_add(base, t)):
            assert not sink
            got.extend(take_events(c))
        c.press(c.running if c.running != C.NONE else L, ticks_add(base, t))
        got.extend(take_events(c))
    while not c.advance(ticks_add(base, t + gap)):
        assert not sink
        got.extend(take_events(c))
    got.extend(take_events(c))
    return got, (c.t, c.ms(L), c.ms(R), c.stage, c.moves, c.flag, c.state)


@settings(max_examples=200, deadline=None)
@given(
    gap_controls,
    st.booleans(),
    st.integers(min_value=0, max_value=40000),
    st.lists(st.integers(min_value=0, max_value=3000), max_size=6),
    st.integers(min_value=0, max_value=200000),
    st.integers(min_value=200, max_value=1000),
    bases,
    st.booleans(),
)
def test_advance_over_any_gap_never_raises_and_equals_small_steps(tc, freeze, low, presses, gap, step, base, sink):
    settings_ = C.Settings(freeze=freeze, low_time_ms=low, default_ms=1000 + low)
    one, end_one = _play_in_one(tc, settings_, base, presses, gap, sink)
    c = C.Clock()
    c.new_game(tc, settings=settings_)
    small = []
    c.start(base)
    t = 0
    k = 0
    for d in presses + [None]:
        end = t + (gap if d is None else d)
        while k + step < end:
            k += step
            assert c.advance(ticks_add(base, k))  # a small step never fills the queue
            small.extend(take_events(c))
        k = end
        assert c.advance(ticks_add(base, end))
        if d is not None:
            c.press(c.running if c.running != C.NONE else L, ticks_add(base, end))
        small.extend(take_events(c))
        t = end
    assert one == small
    assert end_one == (c.t, c.ms(L), c.ms(R), c.stage, c.moves, c.flag, c.state)


def test_the_rules_private_consts_are_the_clocks_words():
    """rules.py copies the words of clock.py it uses as private consts (`_EV_STAGE` for
    `EV_STAGE`), which take no RAM on MicroPython: each must be its clock.py twin. Under CPython
    const() is the identity, so they are the module's attributes here."""
    from sagatfw.engine import rules

    twins = {n: v for n, v in vars(rules).items() if n[:1] == "_" and n[1:2].isupper() and isinstance(v, int)}
    assert len(twins) >= 20, twins
    assert {n: getattr(C, n[1:], None) for n in twins} == twins
    # the rules' own words are read through clock.py, and its operations are the Clock's methods
    assert (C.MAX_MS, C.RESULT_NAMES, C.REASON_NAMES, C.Settings) == (
        rules.MAX_MS, rules.RESULT_NAMES, rules.REASON_NAMES, rules.Settings)
    assert C.Clock.adjust is rules.adjust and C.Clock.extend is rules.extend


def test_the_faces_private_states_are_the_clocks_words():
    """faces/game.py keeps the clock's states it reads as private consts too (`_PAUSED`): no
    entries in its module's dict. Each must be its clock.py twin."""
    from sagatfw.faces import game

    twins = {n: getattr(game, n) for n in ("_SETUP", "_RUNNING", "_PAUSED", "_ADJOURNED", "_FINISHED")}
    assert {n: getattr(C, n[1:], None) for n in twins} == twins


def test_the_parsers_bonus_marks_are_timecontrols():
    """core/timecontrol.py's bonus marks are a private const (no global on MicroPython); the parser
    (core/tcparse.py) keeps their twin."""
    from sagatfw.core import tcparse, timecontrol

    assert tcparse._BONUS_CHARS == timecontrol._BONUS_CHARS == "+db"


def test_the_envelopes_private_max_is_the_rules_max():
    """engine/envelope.py copies rules.MAX_MS as a private const (it cannot import rules, which imports it):
    under CPython const() is the identity, so it is the module's attribute here."""
    from sagatfw.engine import envelope, rules

    assert envelope._MAX_MS == rules.MAX_MS
