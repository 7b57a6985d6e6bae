# No time the clock keeps or logs can pass the log's range. The clock's events
# are an int array (signed 32-bit: 2^31 - 1 ms is 24.8 days) and records hold u32 ms; before these
# bounds `1/86400` with 110 moves wrapped the array, the restore failed and the game was lost.
#   - the parser refuses a repeating stage that adds more than MAX_BONUS (1 h) a move (`1/86400`);
#   - no face ever holds more than clock.MAX_FACE_MS (240 h): time credited past it (increments,
#     repeating stages, tie extensions, hourglass) is not added;
#   - a game's time t stops at clock.MAX_GAME_MS (10 days): a running or paused clock adjourns itself
#     there, and it cannot be resumed (enter the result, or set the game up again).
# Runs under CPython (where the int array raises OverflowError) and MicroPython (where it wraps).
from clockkit import Game, L, R, raises
from sagatfw.core import tcparse
from sagatfw.core import timecontrol as tcm
from sagatfw.engine import clock as C
from sagatfw.log.replay import replay

I32 = 2147483647
DAY = 86400000
STEP = 5 * DAY  # polls further apart than this would pass the ticks' range (2^29 ms)


def _fits(g):
    """Every ms value of every event so far is within 0..MAX_FACE_MS (faces) or MAX_GAME_MS (t)."""
    for e in g.log:
        assert 0 <= e["t"] <= C.MAX_GAME_MS, e
        for k in ("left_ms", "right_ms"):
            assert 0 <= e[k] <= C.MAX_FACE_MS, e
        for k in ("before", "after"):
            if k in e:
                assert 0 <= e[k]["ms"] <= C.MAX_FACE_MS, e


def test_bounds_fit_the_log_and_small_ints():
    assert C.MAX_FACE_MS < 2**30 and C.MAX_GAME_MS < 2**30  # a small int on every port: no allocation
    assert C.MAX_FACE_MS + C.MAX_GAME_MS <= I32  # a sum the engine forms still fits the int array
    assert C.MAX_MS <= C.MAX_FACE_MS  # a correction never passes the cap
    # one pass of the most stages, each at the most, is on a face at once without reaching the cap
    tc = tcparse.parse(":".join(["999/86400"] * (tcm.MAX_STAGES - 1) + ["86400"]))
    assert sum(s.time_ms for s in tc.stages) < C.MAX_FACE_MS


def test_parser_refuses_a_repeating_stage_that_adds_more_than_an_hour_a_move():
    for text in ("1/86400", "2/7201", "40/5400:1/86400", "300|1/86400"):
        msg = raises(ValueError, tcparse.parse_sides, text)
        assert msg.startswith("bad TimeControl ") and "3600 s a move" in msg and "repeats" in msg, msg
    assert "'1/86400'" in raises(ValueError, tcparse.parse, "1/86400")
    for text in ("24/86400", "1/3600", "40/7200:20/3600", "40/5400:1/3600", "999/86400"):
        tcparse.parse(text)  # at most an hour a move: accepted


def test_increments_over_many_moves_stop_at_the_face_cap():
    g = Game("86400+3600")
    g.start(0)
    t = 0
    for i in range(1400):  # 700 moves each at 1 h: 724 h without the cap (past 2^31 ms)
        t += 10
        assert g.press(L if i % 2 == 0 else R, t)
    assert g.clock.rem[L] == g.clock.rem[R] == C.MAX_FACE_MS  # each move's hour is added up to the cap
    assert g.log[-1]["type"] == "press" and g.log[-1]["right_ms"] == C.MAX_FACE_MS
    _fits(g)


def test_repeating_stage_over_many_moves_stops_at_the_face_cap():
    g = Game("24/86400")  # an hour a move, the most a repeating stage may add
    g.start(0)
    t = 0
    for i in range(1400):
        t += 10
        assert g.press(L if i % 2 == 0 else R, t)
    assert g.clock.stage[L] == 700 // 24 + 1
    assert C.MAX_FACE_MS - 10 * (700 % 24) == g.clock.rem[L]  # capped at the last stage, then 4 moves of 10 ms
    _fits(g)
    r = replay([_setup("24/86400")] + g.log)  # the engine reproduces the capped game from its log
    assert r.clock.rem == g.clock.rem


def test_tie_extensions_stop_at_the_face_cap_tk_c14():
    g = Game("60", extension_ms=50 * 3600000)  # 50 h per extension
    g.call("adjust", 0, R, ms=C.MAX_MS)  # 100 h on the right before the start
    g.start(0)
    t = 60000
    for _ in range(3):
        g.poll(t + 1)  # the running left side flags (no freeze for sudden death)
        assert g.clock.flag[L]
        assert g.call("extend", t + 2)
        t = t + 2 + g.clock.rem[L]
    assert g.clock.rem[R] == C.MAX_FACE_MS  # 100 h + 3 x 50 h: 250 h, held at 240 h
    assert g.of("extension")[-1]["right_ms"] == C.MAX_FACE_MS
    _fits(g)


def test_hourglass_with_extensions_and_corrections_stays_under_the_cap():
    g = Game("*86400", extension_ms=C.MAX_MS)
    g.call("adjust", 0, L, ms=C.MAX_MS)  # 100 h on each face before the start
    g.call("adjust", 0, R, ms=C.MAX_MS)
    g.start(0)
    t = C.MAX_MS
    g.poll(t)  # the left face ran out: its 100 h went to the right one (200 h)
    assert g.clock.flag[L] and g.clock.ms(R) == 2 * C.MAX_MS
    assert g.call("extend", t + 1)  # TK-C14: +100 h each: the right face would hold 300 h
    assert g.clock.ms(R) == C.MAX_FACE_MS and g.clock.ms(L) == C.MAX_MS
    g.poll(t + 1 + 3600000)  # an hour of the left side's time goes to the right: held at the cap
    assert g.clock.ms(R) == C.MAX_FACE_MS and g.clock.ms(L) == C.MAX_MS - 3600000
    assert g.press(L, t + 2 + 3600000)
    assert g.clock.rem[R] == C.MAX_FACE_MS and g.log[-1]["right_ms"] == C.MAX_FACE_MS
    _fits(g)


def test_count_up_game_adjourns_itself_at_the_game_bound():
    g = Game("-")
    g.start(0)
    t = 0
    while t < 26 * DAY:  # 26 days: t would pass 2^31 ms
        t += STEP
        g.poll(t)
    c = g.clock
    assert c.state == C.ADJOURNED and c.t == C.MAX_GAME_MS
    adj = g.of("adjourn")
    assert len(adj) == 1 and adj[0]["t"] == C.MAX_GAME_MS
    assert adj[0]["left_ms"] == C.MAX_GAME_MS and adj[0]["right_ms"] == 0  # left ran the whole time
    assert not g.call("resume_adjourned", t + 1)  # the game's time is used up: nothing runs again
    assert c.state == C.ADJOURNED and c.t == C.MAX_GAME_MS
    g.call("adjust", t + 2, R, ms=60000)  # corrections and the result still work, at the bound
    assert g.call("result", t + 3, 2)
    assert g.log[-1]["type"] == "result" and g.log[-1]["t"] == C.MAX_GAME_MS
    _fits(g)
    r = replay([_setup("-")] + g.log)  # the adjourn at the bound is the engine's own: it replays
    assert r.clock.state == C.FINISHED


def test_paused_and_flagged_games_stop_counting_at_the_bound():
    g = Game("300")
    g.start(0)
    g.pause(1000)
    t = 1000
    while t < 26 * DAY:
        t += STEP
        g.poll(t)
    assert g.clock.state == C.ADJOURNED and g.clock.t == C.MAX_GAME_MS
    assert g.of("adjourn")[0]["t"] == C.MAX_GAME_MS and g.clock.ms(L) == 299000
    _fits(g)
    f = Game("60+1")  # freeze on: the flag stops the clock, and its t stops at the bound too
    f.start(0)
    f.poll(61000)
    assert f.clock.state == C.FLAGGED
    t = 61000
    while t < 26 * DAY:
        t += STEP
        f.poll(t)
    assert f.clock.t == C.MAX_GAME_MS and not f.call("extend", t + 1)
    assert f.call("result", t + 2, 1) and f.log[-1]["t"] == C.MAX_GAME_MS
    _fits(f)


def test_move_count_stops_at_the_records_u16():
    g = Game("60+1")
    g.start(0)
    g.clock.moves[L] = C.MAX_LOG_MOVES - 1  # (65,534 real moves would make a slow test)
    assert g.press(L, 100) and g.clock.moves[L] == C.MAX_LOG_MOVES
    assert g.press(R, 200) and g.press(L, 300)  # the move still switches and credits the increment
    assert g.clock.moves[L] == C.MAX_LOG_MOVES and g.log[-1]["left_moves"] == C.MAX_LOG_MOVES
    assert g.clock.ms(L) == 60000 - 100 - 100 + 2000


def _setup(tc, first="left", **settings):
    """The game's setup record as the journal logs it (what Replay starts from)."""
    s = C.Settings(**settings)
    return {
        "type": "settings",
        "t": 0,
        "tc": tc,
        "first": first,
        "settings": {
            "freeze": s.freeze,
            "stage_advance": s.stage_advance,
            "extension_ms": s.extension_ms,
            "default_ms": s.default_ms,
            "low_time_ms": s.low_time_ms,
        },
    }
