# The log's time range on the unix port with littlefs: games whose times once passed the log's range
# (2^31 ms) - an hour a move for 700 moves each, a count-up game left running for 26 days - keep
# every logged time in range (faces held at clock.MAX_FACE_MS, the game's time stopped at
# clock.MAX_GAME_MS), and a reboot restores them. (On MicroPython the int array wrapped silently:
# the restore then failed and the game was lost.)
from appkit import FakeBoard, T
from flash import Flash, mount, unmount

from sagatfw.app.main import App
from sagatfw.engine import clock as C
from sagatfw.faces.game import status_text  # noqa: E402

DAY = 86400000
I32 = 2147483647


def _boot(fresh):
    if fresh:
        mount(Flash(), fresh=True)
    app = App(FakeBoard())
    app.boot(T(0))
    return app


def _in_range(app):
    """Read back every record (chain and CRC checked), each event's times within the bounds;
    returns the last few events (the whole list would not fit the test's heap)."""
    from sagatfw.log import read as logread
    from sagatfw.log.records import RECORD_SIZE

    j = app.journal
    reader = logread.Reader(b"", True)
    last = []
    buf = bytearray(RECORD_SIZE)

    def check(got):
        for e in got if isinstance(got, tuple) else (got,):
            for k in ("t", "left_ms", "right_ms"):
                assert 0 <= e[k] <= I32, e  # the log's range (the clock's int array)
            last.append(e)
            if len(last) > 8:
                last.pop(0)

    for name in j.segments():
        for rec in j.read_segment(name, buf):
            got = reader.feed(rec, name)
            if got is not None:
                check(got)
    got = reader.finish()
    if got is not None:
        check(got)
    assert not reader.problems, reader.problems
    return last


def test_an_hour_a_move_for_700_moves_each_is_logged_in_range_and_restored():
    app = _boot(True)
    app.set_settings({"checkpoint_ms": 600000}, T(0))
    app.new_game("86400+3600", "left", T(0))
    app.start(T(0))
    ms = 0
    for i in range(1400):
        ms += 20
        side = C.LEFT if i % 2 == 0 else C.RIGHT
        assert app.clock.press(side, T(ms))
        app.step(T(ms))
    assert app.journal.error is None
    faces = (app.clock.ms(C.LEFT), app.clock.ms(C.RIGHT), app.clock.moves[C.LEFT], app.clock.moves[C.RIGHT])
    last = _in_range(app)
    assert last[-1]["type"] == "press" and last[-1]["left_ms"] == faces[0]
    app2 = App(FakeBoard())  # the power goes off and on
    assert app2.boot(T(ms + 5000)) is True and status_text(app2) is None
    c = app2.clock
    assert c.state == C.PAUSED and (c.ms(C.LEFT), c.ms(C.RIGHT), c.moves[C.LEFT], c.moves[C.RIGHT]) == faces
    assert app2.resume(T(ms + 6000)) and app2.clock.press(C.LEFT, T(ms + 7000))
    assert faces[:2] == (C.MAX_FACE_MS, C.MAX_FACE_MS)  # each side's hours held at the cap (240 h)
    unmount()


def test_a_count_up_game_running_26_days_adjourns_at_the_bound_and_is_restored():
    app = _boot(True)
    app.new_game("-", "left", T(0))
    app.start(T(0))
    ms = 0
    while ms < 26 * DAY:  # the loop at least every 5 days (the ticks reach 6.2)
        ms += 5 * DAY
        app.step(T(ms))
    c = app.clock
    assert c.state == C.ADJOURNED and c.t == C.MAX_GAME_MS
    assert c.ms(C.LEFT) == C.MAX_GAME_MS and c.ms(C.RIGHT) == 0
    events = _in_range(app)
    assert [e["t"] for e in events if e["type"] == "adjourn"] == [C.MAX_GAME_MS]
    assert c.t <= C.MAX_FACE_MS and c.ms(C.LEFT) <= C.MAX_FACE_MS
    app2 = App(FakeBoard())
    assert app2.boot(T(ms + 1000)) is True
    c2 = app2.clock
    assert c2.state == C.ADJOURNED and c2.t == C.MAX_GAME_MS and c2.ms(C.LEFT) == C.MAX_GAME_MS
    assert not app2.resume_adjourned(T(ms + 2000))  # the game's time is used up
    assert app2.result("1/2-1/2", T(ms + 3000))
    events = _in_range(app2)
    assert events[-1]["type"] == "result" and events[-1]["t"] == C.MAX_GAME_MS
    unmount()
