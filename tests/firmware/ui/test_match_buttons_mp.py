# A referee runs a whole match from the clock's buttons alone (app/matchmode.py "the buttons"),
# on the unix port with the real app, journal and littlefs on a RAM flash: START starts a period
# and stops / restarts the match time, a lever opens a kok-boru score entry that a second press
# completes (PLUS 4, MINUS 2, the lever again 1, MENU a warning, MENU held a red card), MINUS held
# undoes, a kilithattu lever scores 1 at once; every press charged at its IRQ stamp.
from appkit import FakeBoard, T, lever, tap
from flash import Flash, mount, unmount

from sagatfw.app.main import App
from sagatfw.engine import matchwords as M
from sagatfw.faces.game import status_text  # noqa: E402
from sagatfw.log import boot as journalboot
from sagatfw.ui import buttons as B


def _app(mode, opts):
    mount(Flash(), fresh=True)
    board = FakeBoard()
    app = App(board)
    app.boot(T(0))
    app.new_match(mode, opts, T(0))
    return app


def _events(app):
    return [e for e in journalboot.game_events(app.journal) if e["type"] not in ("match", "checkpoint")]


def test_a_kokboru_bout_from_the_buttons_alone_kb_5_kb_7_kb_10_kb_11_kb_16_kb_17():
    app = _app("kokboru", {"lead": 8})
    m = app.match.m
    tap(app, B.START, 1000)  # the 1st half starts at START's press, 1000 (t = 0): not at its release
    assert m.state == M.RUNNING
    lever(app, B.LEVER_LEFT, 5000)  # left's entry opens...
    assert app.match.pending == M.LEFT and app.match.note(M.LEFT, T(5100)) == "+:4 -:2 L:1 M:W"
    tap(app, B.PLUS, 6000)  # ...PLUS: +4 (KB-7), at its release's IRQ stamp (6100: t = 5100)
    lever(app, B.LEVER_RIGHT, 8000)
    tap(app, B.MINUS, 8500)  # +2 for right (KB-8)
    lever(app, B.LEVER_LEFT, 10000)
    lever(app, B.LEVER_LEFT, 10500)  # the same lever again: +1 (KB-10)
    assert m.scores == [5, 2]
    lever(app, B.LEVER_RIGHT, 12000)
    tap(app, B.MENU, 12500)  # a warning for right (KB-11)
    assert m.warnings == [0, 1]
    tap(app, B.MINUS, 14000, hold=1200)  # MINUS held: undo the last entry (the warning)
    assert m.warnings == [0, 0]
    tap(app, B.START, 20000)  # a stoppage (KB-16)...
    assert m.state == M.STOPPED
    tap(app, B.START, 30000)  # ...and the restart; 10 s did not count
    assert m.state == M.RUNNING
    lever(app, B.LEVER_LEFT, 40000)  # an entry left open: nothing after 3 s
    app.step(T(43200))
    assert app.match.pending == M.NONE and m.scores == [5, 2]
    app.step(T(252000))  # 4:00 of match time from 1 s, 10 s stopped: the half ended at 251 s
    assert m.state == M.BREAK
    tap(app, B.START, 260000)  # the rest runs by itself (KB-6): refused, and the faces say why
    assert m.state == M.BREAK and app.match.note(M.LEFT, T(260200)) == "break running"
    assert app.match.note4(T(260200)) == "no"
    app.step(T(312000))
    tap(app, B.START, 315000)  # the 2nd half
    lever(app, B.LEVER_RIGHT, 316000)
    tap(app, B.PLUS, 316500)
    lever(app, B.LEVER_RIGHT, 317000)
    tap(app, B.MINUS, 317500)  # 5 - 8
    lever(app, B.LEVER_LEFT, 318000)
    tap(app, B.MINUS, 318500)  # 7 - 8
    lever(app, B.LEVER_LEFT, 319000)
    lever(app, B.LEVER_LEFT, 319400)  # 8 - 8
    app.step(T(556000))  # the 2nd half is over, level: golden score waits for the referee (KB-17)
    assert m.state == M.READY and m.period == 2
    tap(app, B.START, 560000)
    lever(app, B.LEVER_RIGHT, 565000)
    tap(app, B.PLUS, 565500)  # the first score wins at once
    assert m.state == M.FINISHED and m.winner == M.RIGHT and m.why == M.WHY_GOLDEN
    names = [e["type"] for e in _events(app)]
    assert names.count("score") == 8 and names.count("undo") == 1 and names.count("card") == 1, names
    assert names.count("stoppage_start") == 1 and names.count("stoppage_end") == 1
    assert names[-1] == "result"
    scores = [e for e in _events(app) if e["type"] == "score"]
    assert scores[0]["t"] == 5100 and scores[1]["t"] == 8600 - 1000  # at the presses' stamps
    unmount()


def test_a_red_card_from_the_buttons_removes_the_rider_kb_12():
    app = _app("kokboru", {"lead": 8})
    m = app.match.m
    tap(app, B.START, 0)
    lever(app, B.LEVER_LEFT, 2000)
    tap(app, B.MENU, 2500, hold=1200)  # MENU held: a red card
    assert m.reds == [1, 0] and m.state == M.FINISHED and m.winner == M.RIGHT
    unmount()


def test_a_kilithattu_lever_scores_one_at_once_kt_5_5():
    app = _app("kilithattu", {"first": "left"})
    m = app.match.m
    tap(app, B.START, 0)
    lever(app, B.LEVER_LEFT, 3000)  # the entering team's pazham: +1
    lever(app, B.LEVER_RIGHT, 4000)  # the other team does not score (refused, and said)
    assert m.scores == [1, 0] and app.match.refused is not None
    tap(app, B.START, 5000)  # a stoppage (KT-4.5)
    tap(app, B.START, 9000)
    assert m.state == M.RUNNING and m.stopped_ms() == 4000
    unmount()


def _reboot(app):
    """The power comes back: a new app on the same flash boots and restores the match."""
    board = FakeBoard()
    app2 = App(board)
    app2.boot(T(900000))
    return app2


def test_a_cut_long_after_the_last_event_restores_from_the_checkpoint_kb_16():
    # the match's checkpoints: a period that ran 40 s after its last event comes back stopped at
    # its last checkpoint (every 15 s), not at that event
    app = _app("kokboru", {"lead": 8})
    tap(app, B.START, 0)  # the 1st half from t = 0 (START's press)
    lever(app, B.LEVER_LEFT, 5000)
    tap(app, B.PLUS, 5500)
    for ms in range(6000, 46000, 100):
        app.step(T(ms))  # the power goes at 46 s: checkpoints at t 20.6 s and 35.6 s
    app2 = _reboot(app)
    m = app2.match.m
    assert m.state == M.STOPPED and m.scores == [4, 0], (m.state, m.scores)
    assert m.elapsed_ms() == 35600, m.elapsed_ms()  # the last checkpoint's, not the score's 5.6 s
    types = [e["type"] for e in _events(app2)]
    assert types[-2:] == ["stoppage_start", "power_restore"] or types[-1] == "power_restore", types
    unmount()


def test_a_cut_in_the_rest_ends_it_at_its_checkpoint_and_the_referee_starts_the_2nd_half_kb_6():
    app = _app("kokboru", {"lead": 8})
    tap(app, B.START, 0)
    for ms in range(200, 240000 + 40000, 100):
        app.step(T(ms))  # the half ended at 240 s; the power goes 40 s into the rest
    app2 = _reboot(app)
    m = app2.match.m
    assert m.state == M.READY and m.period == 1, (m.state, m.period)  # how long it was off is not known
    end = [e for e in _events(app2) if e["type"] == "break_end"][-1]
    assert end.get("power_cut") and 30000 <= end["length_ms"] <= 40000, end  # its checkpoint in the rest
    tap(app2, B.START, 900000 + 5000)
    assert m.state == M.RUNNING and m.period == 1
    unmount()


def test_a_forged_checkpoint_is_not_taken():
    # a checkpoint file that does not follow the log (another seq, a changed score) is ignored: the
    # match comes back at its last event
    import os

    app = _app("kokboru", {"lead": 8})
    tap(app, B.START, 0)
    for ms in range(200, 40000, 100):
        app.step(T(ms))
    path = app.journal.path("ckpt")
    with open(path, "rb") as f:
        rec = bytearray(f.read())
    rec[28] ^= 1  # the left score in the checkpoint (moves field)
    with open(path, "wb") as f:
        f.write(rec)
    app2 = _reboot(app)
    assert app2.match.m.elapsed_ms() == 0, app2.match.m.elapsed_ms()  # from its last record: the start
    os.remove(path)
    unmount()


def test_a_finished_match_shows_its_result_code_after_a_reboot_too_and_an_undo_withdraws_it():
    # as for a game: the result record's chain value mod 10^6 on the faces once it is durable, for
    # the scoresheet (`sagat logs verify --game N --code C`); an undo that withdraws the result
    # takes its code away
    app = _app("kokboru", {"lead": 8})
    m = app.match.m
    tap(app, B.START, 0)
    for i in range(3):  # 12 - 0: a lead of more than 8 (KB-14)
        lever(app, B.LEVER_LEFT, 2000 + 1000 * i)
        tap(app, B.PLUS, 2500 + 1000 * i)
    assert m.state == M.FINISHED and m.why == M.WHY_LEAD
    code = app.result_code()
    assert code is not None and len(code) == 6 and status_text(app) == "CODE " + code
    app2 = _reboot(app)
    assert status_text(app2) == "CODE " + code and app2.result_code() == code
    assert app2.match.m.state == M.FINISHED and app2.match.m.scores == [12, 0]  # (test_match_result_undo_and_reboot.py)
    unmount()
    app = _app("kokboru", {"lead": 8})
    m = app.match.m
    tap(app, B.START, 0)
    for i in range(3):
        lever(app, B.LEVER_LEFT, 2000 + 1000 * i)
        tap(app, B.PLUS, 2500 + 1000 * i)
    assert app.result_code() is not None
    tap(app, B.MINUS, 6000, hold=1200)  # undo the last +4: the lead win is withdrawn
    assert m.state != M.FINISHED and app.result_code() is None and status_text(app) is None
    unmount()


def test_kilithattu_time_over_is_decided_from_the_buttons_kt_4_6():
    # method "referee": a tie after the extra periods ends in OVER; a side's lever gives that side
    # the match, MENU held a draw - no PC needed
    app = _app("kilithattu", {"first": "left", "changeover_ms": 30000, "method": "referee"})
    m = app.match.m
    tap(app, B.START, 0)  # innings 1 (KT-4.4)
    t = 100
    while m.state != M.READY or m.period < 2:  # innings 1, the changeover, innings 2 (by itself), the lot
        t += 5000
        app.step(T(t))
        assert t < 30 * 60000, (m.state, m.period)
    assert m.period == 2 and m.lot_due == 0  # the lot was drawn and logged (KT-4.6): extra 1 waits
    tap(app, B.START, t + 1000)
    t += 1100
    while m.state != M.OVER:
        t += 5000
        app.step(T(t))
        assert t < 60 * 60000, (m.state, m.period)
    tap(app, B.START, t + 1000)  # START does nothing here
    assert m.state == M.OVER
    lever(app, B.LEVER_RIGHT, t + 3000)
    assert m.state == M.FINISHED and m.winner == M.RIGHT and m.why == M.WHY_REFEREE
    unmount()
