# The app on the unix port with littlefs on a RAM flash: presses through the real button path
# (bounce, simultaneous and wrong-side presses, a press storm), beeps, faces refresh rate, boot with
# bad settings, restore after a cut, and an idle step that allocates nothing.
import gc

import micropython
from appkit import FakeBoard, T, tap
from boardkit import say
from flash import Flash, mount, unmount

from sagatfw.app.main import App
from sagatfw.core.ticks import TICKS_MAX, ticks_add
from sagatfw.engine import clock as C
from sagatfw.faces.game import status_text  # noqa: E402
from sagatfw.log import boot as journalboot
from sagatfw.ui import buttons as B


def _app(tc="300+2", fresh=True, settings=None):
    if fresh:
        mount(Flash(), fresh=True)
    board = FakeBoard()
    app = App(board)
    app.boot(T(0))
    if settings:
        app.set_settings(settings, T(0))
    app.new_game(tc, "left", T(0))
    return app, board


def _edge(app, button, ms, pressed=True):
    app.buttons.edge(button, T(ms), pressed)


def _presses(app):
    return [(e["side"], e["t"]) for e in _log(app) if e["type"] == "press"]


def _log(app):
    return [e for e in journalboot.game_events(app.journal)]


def test_bounce_burst_is_one_switch_charged_at_the_first_edge():
    app, board = _app()
    app.start(T(1000))
    for i in range(12):  # a bouncing lever: 12 edges in 6 ms
        _edge(app, B.LEVER_LEFT, 4000 + i // 2, i % 2 == 0)
    _edge(app, B.LEVER_LEFT, 4100, False)
    app.step(T(4200))
    assert _presses(app) == [("left", 3000)]
    assert app.clock.ms(C.LEFT) == 300000 - 3000 + 2000
    unmount()


def test_wrong_side_and_simultaneous_presses():
    app, board = _app()
    app.start(T(0))
    _edge(app, B.LEVER_RIGHT, 1000)  # right is not running: TK-C9
    _edge(app, B.LEVER_RIGHT, 1050, False)
    app.step(T(1100))
    assert _presses(app) == []
    _edge(app, B.LEVER_RIGHT, 2003)  # both levers together: the earlier stamp wins
    _edge(app, B.LEVER_LEFT, 2000)
    _edge(app, B.LEVER_LEFT, 2080, False)
    _edge(app, B.LEVER_RIGHT, 2090, False)
    app.step(T(2200))
    assert _presses(app) == [("left", 2000)] and app.clock.running == C.RIGHT
    _edge(app, B.LEVER_RIGHT, 5000)
    app.step(T(5001))
    assert _presses(app) == [("left", 2000), ("right", 5000)]
    unmount()


def test_waiting_sides_touch_does_not_swallow_the_real_press():
    app, board = _app()
    app.start(T(0))
    _edge(app, B.LEVER_RIGHT, 1000)  # right (waiting) touches its lever: nothing (TK-C9)
    _edge(app, B.LEVER_LEFT, 1003)  # left's real press 3 ms later counts
    app.step(T(1100))
    assert _presses(app) == [("left", 1003)] and app.clock.running == C.RIGHT
    unmount()


def test_press_charged_at_irq_stamp_however_late_the_loop():
    app, board = _app()
    app.start(T(0))
    app.step(T(1000))
    _edge(app, B.LEVER_LEFT, 1500)  # the loop only gets to it 800 ms later
    app.step(T(2300))
    assert _presses(app) == [("left", 1500)]
    assert app.clock.ms(C.RIGHT) == 300000 - 800
    unmount()


def test_press_storm_cannot_wedge_the_loop():
    app, board = _app()
    app.start(T(0))
    t = 0
    for i in range(1000):  # 1000 edges in 1 s on both levers, the loop stepping every 10 ms
        t += 1
        _edge(app, i % 2, t, (i // 2) % 2 == 0)
        if i % 10 == 0:
            app.step(T(t))
    app.step(T(t + 100))
    app.step(T(t + 5000))
    assert app.clock.state == C.RUNNING
    ps = _presses(app)
    assert 0 < len(ps) <= 1000 // 60 + 2  # at most one per lockout
    assert all(ps[i][0] != ps[i + 1][0] for i in range(len(ps) - 1))  # strictly alternating sides
    unmount()


def test_beep_at_flag_and_stage_and_sound_off():
    app, board = _app("1/10:20")
    app.start(T(0))
    _edge(app, B.LEVER_LEFT, 1000)
    app.step(T(1000))  # left completes stage 1: stage event, a short beep
    assert len(board.beeps) == 1 and board.beeps[0][1] < 400
    app.step(T(11000))  # right flags at 10000
    assert len(board.beeps) == 2 and board.beeps[1][1] >= 400
    app2, board2 = _app("10", settings={"sound": False})
    app2.start(T(0))
    app2.step(T(20000))
    assert app2.clock.flag[C.LEFT] and board2.beeps == []
    unmount()


def test_faces_show_after_a_boot_at_ticks_past_2_29():
    # next_face = 0 is in the future for ticks in 2^29 .. 2^30 (a board
    # soft-reset after 6.2 days of uptime, or the sim started at that base): no faces
    from sagatfw.core.ticks import TICKS_HALF

    for boot in (TICKS_HALF, TICKS_HALF + 777, TICKS_MAX - 50):
        mount(Flash(), fresh=True)
        board = FakeBoard()
        app = App(board)
        app.boot(boot)
        app.step(boot)
        assert board.shows == [boot], (boot, board.shows)
        for ms in range(5, 1000, 5):  # across the wrap for the last base
            app.step(ticks_add(boot, ms))
        assert len(board.shows) >= 10, (boot, len(board.shows))
        unmount()


def test_two_presses_in_one_step_each_durable_before_the_next_is_applied():
    # a step longer than the lockout (two OLED frames and a flush) takes both
    # levers' presses; the first switching press's record is on the flash before the second press
    # is applied (log/journal.py, DESIGN's flash budget)
    app, board = _app()
    app.start(T(0))
    app.step(T(10))
    clock = app.clock
    seen = []
    real = clock.press

    def press(side, now):
        seen.append((side, app.journal.head_seq, app.journal.seq, len(app.journal.backlog)))
        return real(side, now)

    clock.press = press
    _edge(app, B.LEVER_LEFT, 1000)
    _edge(app, B.LEVER_LEFT, 1070, False)
    _edge(app, B.LEVER_RIGHT, 1100)
    _edge(app, B.LEVER_RIGHT, 1170, False)
    _edge(app, B.LEVER_LEFT, 1200)
    app.step(T(1300))  # one step takes all three
    assert [s[0] for s in seen] == [C.LEFT, C.RIGHT, C.LEFT]
    for i in (1, 2):
        side, head, nxt, waiting = seen[i]
        assert waiting == 0 and head == nxt - 1, seen  # the press before is durable: nothing waits
    assert seen[1][1] > seen[0][1] and seen[2][1] > seen[1][1]
    assert _presses(app) == [("left", 1000), ("right", 1100), ("left", 1200)]
    unmount()


def test_more_instants_in_one_step_than_the_event_queue_holds_are_all_logged_and_restored():
    # 60 byo-yomi periods in one step pass through the clock's sink to the
    # journal; the log replays (a power cut brings the game back where it was)
    app, board = _app("1j1x99", settings={"freeze": False})
    app.start(T(0))
    app.step(T(60000))
    st = [e["t"] for e in _log(app) if e["type"] == "stage"]
    assert st == [1000 * k for k in range(1, 61)]
    assert app.clock.t == 60000 and app.clock.stage[C.LEFT] == 61
    board2 = FakeBoard()
    app2 = App(board2)
    assert app2.boot(T(70000))  # restored from the log, paused
    assert app2.clock.state == C.PAUSED and app2.clock.stage[C.LEFT] == 61
    assert app2.clock.sink is not None and app2.clock.t == 60000
    unmount()


def test_faces_refresh_ten_times_a_second():
    app, board = _app("15")  # under 20 s: tenths show
    app.start(T(0))
    del board.shows[:]
    for ms in range(0, 2000, 5):
        app.step(T(ms))
    assert len(board.shows) >= 20
    unmount()


def test_idle_step_allocates_nothing():
    app, board = _app("600+5")
    app.start(T(0))
    _edge(app, B.LEVER_LEFT, 500)
    app.step(T(600))
    gc.collect()
    micropython.heap_lock()
    try:
        for ms in range(601, 699, 3):  # between two face refreshes, nothing to log
            app.step(T(ms))
    finally:
        micropython.heap_unlock()
    assert app.clock.running == C.RIGHT
    unmount()


def test_boot_with_corrupt_settings_says_so_and_plays():
    mount(Flash(), fresh=True)
    with open("/flash/settings.json", "w") as f:
        f.write("{garbage")
    board = FakeBoard()
    app = App(board)
    app.boot(T(0))
    assert status_text(app) == "SETTINGS DEFAULT" and app.clock.tc[0].first_ms() == 420000  # TK-B3 blitz
    ev = _log(app)
    assert ev and ev[-1]["type"] == "settings" and ev[-1]["origin"] == "defaults_corrupt"
    app.start(T(10))
    app.step(T(20))
    assert app.clock.state == C.RUNNING
    unmount()


def test_reboot_restores_the_game_paused():
    app, board = _app("600+5")
    app.start(T(0))
    _edge(app, B.LEVER_LEFT, 3000)
    app.step(T(3000))
    app.step(T(20000))  # at least 15 s since the last record: a checkpoint (right has used 17 s)
    # power cut: a new app on the same flash, ticks restart
    board2 = FakeBoard()
    app2 = App(board2)
    assert app2.boot(T(0))
    c = app2.clock
    assert c.state == C.PAUSED and c.side_to_move() == C.RIGHT
    assert c.ms(C.RIGHT) == 600000 - 17000 and c.ms(C.LEFT) == 600000 - 3000 + 5000
    app2.start_pause(T(1000))  # the arbiter resumes (TK-C18)
    assert c.state == C.RUNNING and c.running == C.RIGHT
    unmount()


def test_a_restore_that_fails_starts_clean_and_says_so_even_out_of_memory():
    import sys

    app, board = _app("600+5")
    app.start(T(0))
    _edge(app, B.LEVER_LEFT, 3000)
    app.step(T(3000))
    seq = app.journal.seq
    real_clock = C.Clock
    for failure in (MemoryError("memory allocation failed"), ValueError("replay mismatch")):
        # App.boot calls log/boot.py's restore: the module's function patched in takes its place
        # (imported here, so App.boot imports this one; each boot forgets it, the next imports it anew)
        from sagatfw.log import boot as journalboot

        real_restore = journalboot.restore

        def restore(j, clock, now, failure=failure):
            from sagatfw.log import replay  # noqa: F401 - loaded, as the real replay loads it
            clock.new_game("5+0", None, C.RIGHT)  # half replayed
            raise failure

        made = []  # for each Clock made: was the replay's code still in RAM?

        def clock(made=made):
            made.append("sagatfw.log.replay" in sys.modules)
            return real_clock()

        journalboot.restore = restore
        C.Clock = clock
        try:
            board2 = FakeBoard()
            app2 = App(board2)
            assert app2.boot(T(0)) is False  # no exception: the clock boots
        finally:
            journalboot.restore = real_restore
            C.Clock = real_clock
        assert made == [False, False]  # App's, then the clean one: made after the replay was freed
        assert status_text(app2) == "RESTORE FAILED" and "log restore failed" in board2.notes[0]
        c = app2.clock
        # the settings' control and first side, not the half replay's 5 s with right to move
        assert c.state == C.SETUP and c.to_move == C.LEFT and c.ms(C.LEFT) > 5000 and c.moves == [0, 0]
        assert app2.journal.seq >= seq  # the log keeps the interrupted game: nothing is erased
    # and the real restore still finds the game
    board3 = FakeBoard()
    app3 = App(board3)
    assert app3.boot(T(0)) and app3.clock.state == C.PAUSED
    unmount()


def test_a_log_that_cannot_be_opened_leaves_the_clock_playing_and_the_log_untouched():
    import os

    app, board = _app("600+5")
    app.start(T(0))
    for ms in range(1000, 20000, 1000):
        tap(app, B.LEVER_LEFT if ms // 1000 % 2 else B.LEVER_RIGHT, ms)
    before = {n: open("/flash/log/" + n, "rb").read() for n in os.listdir("/flash/log")}
    def fails(j, keyfile=None):
        raise MemoryError("memory allocation failed")  # e.g. listing a huge log in a small heap

    # App.boot calls log/boot.py's open_log: imported here (after the first boot forgot the
    # module), App.boot imports this one, whose function patched in takes its place
    from sagatfw.log import boot as journalboot

    real = journalboot.open_log
    journalboot.open_log = fails
    try:
        board2 = FakeBoard()
        app2 = App(board2)
        assert app2.boot(T(0)) is False  # the clock boots: no exception
    finally:
        journalboot.open_log = real
    assert status_text(app2) == "LOG ERROR" and "log open failed" in board2.notes[0]
    app2.start(T(0))  # a game is played, unlogged, and the faces keep saying so
    for ms in range(1000, 5000, 1000):
        tap(app2, B.LEVER_LEFT if ms // 1000 % 2 else B.LEVER_RIGHT, ms)
    assert app2.clock.moves[C.LEFT] + app2.clock.moves[C.RIGHT] == 4 and status_text(app2) == "LOG ERROR"
    assert app2.journal.error == "log not opened"
    after = {n: open("/flash/log/" + n, "rb").read() for n in os.listdir("/flash/log")}
    assert after == before  # not a byte of the log was written over (a seq 0 would replace a segment)
    unmount()


def test_menu_button_opens_the_menu_and_leaving_it_frees_its_code():
    import sys

    app, board = _app("300+2")
    _edge(app, B.MENU, 1000)
    _edge(app, B.MENU, 1100, False)
    app.step(T(1200))
    assert app.menu is not None and app.menu.active and "sagatfw.ui.menu" in sys.modules
    assert "sagatfw.ui.editors" in sys.modules  # its value editors, loaded with it
    left, right = app.menu.view(T(1200))
    assert left and right
    _edge(app, B.MENU, 2000)  # held: MENU long leaves the menu
    app.step(T(3100))
    _edge(app, B.MENU, 3200, False)
    app.step(T(3300))
    assert app.menu is None and "sagatfw.ui.menu" not in sys.modules
    assert "sagatfw.ui.editors" not in sys.modules  # leaving the menu frees its editors too
    app.start_pause(T(4000))  # the game starts as set up: the menu changed nothing
    assert app.clock.state == C.RUNNING and app.clock.ms(C.LEFT) == 300000
    unmount()


def test_menu_never_opens_while_the_clock_runs():
    app, board = _app("300+2")
    app.start(T(0))
    _edge(app, B.MENU, 1000)
    _edge(app, B.MENU, 1100, False)
    app.step(T(1200))
    assert app.menu is None and app.clock.state == C.RUNNING
    unmount()


def test_power_cut_after_a_new_game_comes_back_to_the_new_game():
    app, board = _app("600")
    app.start(T(0))
    _edge(app, B.LEVER_LEFT, 1000)
    app.step(T(1000))
    app.pause(C.BY_ARBITER, T(2000))
    app.new_game("300+2", "right", T(3000))  # the arbiter abandons the paused game
    app2 = App(FakeBoard())  # power cut, boot on the same flash
    app2.boot(T(0))
    c = app2.clock
    assert c.state == C.SETUP and c.first == C.RIGHT and c.tc[0].first_ms() == 300000
    unmount()


def test_settings_refuse_a_lockout_the_buttons_cannot_take():
    app, board = _app("600")
    for bad in (0, 1000):
        try:
            app.set_settings({"lockout_ms": bad}, T(0))
        except ValueError:
            pass
        else:
            raise AssertionError(bad)
    app.set_settings({"lockout_ms": 500}, T(0))
    app2 = App(FakeBoard())
    app2.boot(T(0))
    assert app2.buttons.lockout_ms == 500
    unmount()


def test_real_time_script_stamps_presses_at_their_instants_when_the_loop_stalls():
    # `sagat sim --serial --script` plays a script in real time. If the machine stalls the loop
    # (here: 300 ms between two reads of the clock), the presses due meanwhile must still be
    # stamped at their scripted instants, as pin IRQs would be, not bunched into one lockout.
    from sagatfw.boards import sim, simulator

    mount(Flash(), fresh=True)
    board = sim.Board(None, True)
    app = App(board)
    clock_ms = [1000000]

    def fake_ms():
        clock_ms[0] += 1
        return clock_ms[0]

    class Stalling:
        @staticmethod
        def sleep(s):
            clock_ms[0] += 300  # every wait of the loop loses 300 ms

    real = sim.ms_now, simulator.ms_now, sim.time, simulator.time  # the board's clock and the runner's
    sim.ms_now = simulator.ms_now = fake_ms
    sim.time = simulator.time = Stalling
    try:
        app.boot(board.ticks())
        actions = [(1, {"at": 0, "do": "start"})]
        for i in range(20):  # presses 100 ms apart: three fall inside every stall
            actions.append((i + 2, {"at": 100 * (i + 1), "do": "press", "side": "left" if i % 2 == 0 else "right"}))
        simulator.run_real(app, board, iter(actions), 0)
    finally:
        sim.ms_now, simulator.ms_now, sim.time, simulator.time = real
    c = app.clock
    assert c.moves[C.LEFT] + c.moves[C.RIGHT] == 20, c.moves  # every press counted
    unmount()


def test_the_loop_says_error_then_clears_it_after_clean_refreshes():
    # before: a step that raised (an I2C glitch) set "ERROR" for good, and on an OLED
    # face it takes the bottom line where FLAG, LOW and DEF go. Now it stands 3 s of clean
    # refreshes (after the last failure), then the faces say again what they said before.
    import asyncio

    from sagatfw.app import main as app_main

    app, board = _app()
    say(app, "CODE 123456")  # what the faces said before the glitch
    fails = [3]
    now = [T(0)]
    passes = [0]
    said = []

    class Stop(BaseException):
        pass

    def show(a, t):
        if fails[0] > 0:
            fails[0] -= 1
            raise OSError(5)

    def ticks():
        passes[0] += 1
        if passes[0] > 200:
            raise Stop()
        now[0] = ticks_add(now[0], 50)  # a pass every 50 ms of board time: a refresh every 2
        return now[0]

    step = app.step

    def recording(t):
        try:
            step(t)
        finally:
            said.append(status_text(app))

    board.show = show
    board.ticks = ticks
    app.step = recording
    try:
        asyncio.run(app_main._loop(app))
    except Stop:
        pass
    errors = [i for i, m in enumerate(said) if m == "ERROR"]
    assert errors and errors == list(range(errors[0], errors[-1] + 1)), said  # one stretch
    assert 58 <= len(errors) <= 70, len(errors)  # 3 failing refreshes, then 30 clean ones (60 passes)
    assert said[-1] == "CODE 123456" and any(n.startswith("step failed") for n in board.notes)
    unmount()
