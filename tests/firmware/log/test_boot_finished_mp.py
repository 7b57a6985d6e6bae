# A finished game is not replayed at boot, however long it was: the boot finds its
# result record at the log's end (log/boot.py open_log) and sets up the next game at once, showing the
# result code as before. An interrupted game is still replayed (tests/firmware/log/test_powercut_mp.py).
import time

from appkit import FakeBoard, T
from flash import Flash, mount, unmount

from sagatfw.app.main import App
from sagatfw.faces.game import status_text  # noqa: E402
from sagatfw.log import boot as journalboot


def _boot(fresh):
    if fresh:
        mount(Flash(blocks=256), fresh=True)
    app = App(FakeBoard())
    t0 = time.ticks_ms()
    app.boot(T(0))
    return app, time.ticks_diff(time.ticks_ms(), t0)


def test_a_long_finished_game_boots_without_its_replay():
    app, _ = _boot(True)
    app.new_game("600+5", "left", T(0))
    app.start(T(0))
    ms = 0
    for i in range(600):  # 600 moves: about 600 press records in 5 segments
        ms += 900
        app.buttons.edge(i % 2, T(ms), True)
        app.step(T(ms + 1))
        app.buttons.edge(i % 2, T(ms + 100), False)
        app.step(T(ms + 101))
    app.result("1-0", T(ms + 1000))
    code = app.journal.result_code
    assert code is not None and app.journal.seq > 600
    replayed = []
    real = journalboot.game_events

    def counted(j, game=None):
        replayed.append(game)
        return real(j, game)

    journalboot.game_events = counted
    try:
        app2, ms_finished = _boot(False)
    finally:
        journalboot.game_events = real
    assert replayed == [], replayed  # nothing of the finished game was read back into a clock
    assert app2.clock.state == 0 and status_text(app2) == "CODE " + code  # the next game, the code shown
    print("boot after a finished %d-record game: %d ms (unix port, RAM flash)" % (app.journal.seq, ms_finished))
    unmount()


def test_the_result_code_comes_back_on_every_boot_of_a_clock_never_configured():
    """A clock whose settings were never saved boots on the defaults (the settings' notice is
    logged at each boot); the last game's result code is what the faces say after every boot."""
    app, _ = _boot(True)
    assert status_text(app) == "SETTINGS DEFAULT"
    app.start(T(0))  # the default game: nothing saved to the settings file
    app.result("1-0", T(5000))
    code = app.journal.result_code
    assert code is not None and status_text(app) == "CODE " + code
    for _ in range(3):  # power off and on, three times
        app, _ = _boot(False)
        assert status_text(app) == "CODE " + code, status_text(app)
    unmount()
