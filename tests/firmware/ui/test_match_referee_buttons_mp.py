# The referee's buttons at the field's corners (app/matchmode.py "the buttons"), on the unix port with
# the real app, journal and littlefs on a RAM flash: START acts on its press, a changeover is cut
# only by a second START, the toss entered with PLUS then a lever, the horn, KB-3's restart and the
# period clock's correction in a stoppage, a score entered after the half ended by time.
from appkit import FakeBoard, T, lever, tap
from flash import Flash, mount, unmount

from sagatfw.app.main import App
from sagatfw.engine import matchwords as M
from sagatfw.log import boot as journalboot
from sagatfw.ui import buttons as B

INN = 420000


def _app(mode, opts):
    mount(Flash(), fresh=True)
    app = App(FakeBoard())
    app.boot(T(0))
    app.new_match(mode, opts, T(0))
    return app


def _events(app, kind=None):
    return [e for e in journalboot.game_events(app.journal) if e["type"] not in ("match", "checkpoint")
            and (kind is None or e["type"] == kind)]


def _walk(app, start, end, step=500):
    for ms in range(start, end, step):
        app.step(T(ms))


def test_kb_16_start_stops_the_match_time_at_its_press_and_a_held_start_still_does():
    app = _app("kokboru", {"lead": 8})
    m = app.match.m
    tap(app, B.START, 1000, hold=300)  # the 1st half starts at the press (t = 0)
    tap(app, B.START, 11000, hold=600)  # pressed at t = 10.000 s, released at 10.600 s
    stop = _events(app, "stoppage_start")[0]
    assert stop["t"] == 10000 and stop["match_ms"] == 10000, stop  # charged at the press
    tap(app, B.START, 21000, hold=1200)  # held 1.2 s: the time runs again at the press, no more
    end = _events(app, "stoppage_end")[0]
    assert end["t"] == 20000 and end["length_ms"] == 10000 and m.state == M.RUNNING, end
    tap(app, B.START, 31000, hold=1500)  # a held START stops too
    assert m.state == M.STOPPED and _events(app, "stoppage_start")[-1]["t"] == 30000
    unmount()


def test_kt_4_4_start_in_the_changeover_asks_and_a_second_press_cuts_it():
    app = _app("kilithattu", {"first": "left", "changeover_ms": 60000})
    m = app.match.m
    tap(app, B.START, 0)
    _walk(app, 200, INN + 5000)
    assert m.state == M.BREAK
    tap(app, B.START, INN + 5000)  # one press: the changeover goes on, the faces ask
    assert m.state == M.BREAK and app.match.note(M.LEFT, T(INN + 5200)) == "START? again:cut"
    assert app.match.note4(T(INN + 5200)) == "St ?"
    app.step(T(INN + 8200))  # 3 s: the question lapses
    assert app.match.note(M.LEFT, T(INN + 8200)) is None
    tap(app, B.START, INN + 9000)
    assert m.state == M.BREAK
    tap(app, B.START, INN + 10000)  # the second press within 3 s: innings 2 starts now
    assert m.state == M.RUNNING and m.period == 1
    end = _events(app, "break_end")[-1]
    assert end["early"] and end["t"] == INN + 10000, end
    unmount()


def test_kt_4_6_the_toss_entered_with_plus_then_the_winners_lever():
    app = _app("kilithattu", {"first": "left", "changeover_ms": 1000})
    m = app.match.m
    tap(app, B.START, 0)
    lever(app, B.LEVER_LEFT, 1000)
    _walk(app, 2000, INN + 3000)
    lever(app, B.LEVER_RIGHT, INN + 3000)  # innings 2 (right's), started by the clock at 421 s
    _walk(app, INN + 4000, 2 * INN + 5000)
    assert m.state == M.READY and m.period == 2  # level: the clock drew lot 1
    drawn = m.entering
    tap(app, B.PLUS, 2 * INN + 7000)
    assert app.match.note4(T(2 * INN + 7200)) == "toSS"
    lever(app, 1 - drawn, 2 * INN + 7500)  # the coin: the other team enters first
    lots = _events(app, "lot")
    assert [(x["by"], x["side"]) for x in lots] == [("clock", ("left", "right")[drawn]),
                                                   ("toss", ("left", "right")[1 - drawn])], lots
    assert m.entering == 1 - drawn
    unmount()


def test_kt_4_4_the_horn_at_each_end_ten_seconds_before_a_break_ends_and_by_hand():
    app = _app("kilithattu", {"first": "left", "changeover_ms": 30000})
    board = app.board
    tap(app, B.START, 0)
    _walk(app, 200, INN + 30500, 100)
    horns = [(now, ms) for now, ms in board.beeps]
    assert (T(INN), 1500) in horns  # innings 1's end
    assert (T(INN + 20000), 200) in horns  # 10 s before the changeover ends
    assert (T(INN + 30000), 1500) in horns  # its end
    n = len(board.beeps)
    tap(app, B.PLUS, INN + 40000, hold=1100)  # PLUS held: the referee's horn
    assert board.beeps[n:] == [(T(INN + 41000), 1500)], board.beeps[n:]
    app.store.values["horn"] = False  # the horn's setting off: no horn at the end, the hand's still
    n = len(board.beeps)
    _walk(app, INN + 40500, 2 * INN + 31000, 500)
    assert board.beeps[n:] == []
    tap(app, B.PLUS, 2 * INN + 40000, hold=1100)
    assert len(board.beeps) == n + 1
    unmount()


def test_kb_3_restart_and_the_period_clock_corrected_from_the_buttons():
    app = _app("kokboru", {"lead": 8})
    m = app.match.m
    tap(app, B.START, 0)
    tap(app, B.START, 5000)  # a stoppage at 0:05
    assert m.match_ms() == 235000
    tap(app, B.PLUS, 6000)
    assert m.match_ms() == 236000
    tap(app, B.MINUS, 7000)
    tap(app, B.MINUS, 8000)
    assert m.match_ms() == 234000 and [e["face_ms"] for e in _events(app, "adjust")] == [236000, 235000, 234000]
    tap(app, B.MENU, 9000, hold=1200)  # MENU held in the stoppage: the false start's restart (KB-3)
    assert m.state == M.READY and m.match_ms() == 240000
    assert _events(app, "restart")[0]["discarded_ms"] == 6000
    tap(app, B.START, 20000)
    assert m.state == M.RUNNING and _events(app, "period_start")[-1]["t"] == 20000
    unmount()


def test_kb_7_a_carry_entered_after_the_half_ended_counts_for_it():
    app = _app("kokboru", {"lead": 8})
    m = app.match.m
    tap(app, B.START, 0)
    _walk(app, 200, 240300)
    assert m.state == M.BREAK
    lever(app, B.LEVER_LEFT, 240300)  # the carry ended at 3:59.5; the referee's keys after 4:00
    tap(app, B.PLUS, 240500)
    late = _events(app, "late_score")
    assert m.scores == [4, 0] and len(late) == 1 and late[0]["t"] == 240600 and late[0]["period"] == 0, late
    unmount()
