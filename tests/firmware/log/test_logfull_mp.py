# A full flash must never lose events in silence, on the real littlefs: a
# flash the game in progress really fills (a 64 KB image) says LOG FULL on the faces and in the
# protocol's state, the records that cannot be kept are counted, the result is still logged (the
# ballast goes for it) after a gap record with the count, and the clock never stops. (The attack of
# a 3-hour game checkpointing every second is test_checkpoint_file_mp.py; tests/kits/virtualsim.py
# drives the sim board in virtual time, as `sagat sim --virtual` does.)
import gc

from flash import Flash, mount, read_log, unmount
from virtualsim import boot, play, replays

from sagatfw.engine import clock as C
from sagatfw.faces import game as F
from sagatfw.faces.game import status_text  # noqa: E402

LOG = "/flash/log"
def _text_of(app, side):
    items = F.oled(app.clock, side, 0, 100, False, 0, status_text(app))
    return " ".join(i[3] for i in items if i[0] == "text")


def test_a_flash_the_game_fills_says_log_full_counts_the_loss_and_keeps_the_result():
    unmount()
    gc.collect()
    f = Flash(blocks=16)  # 64 KB: the game in progress fills it
    mount(f, fresh=True)
    app, board, _ = boot(0)
    from sagatfw.link.server import Server

    srv = Server(app, {"uid": "e6614103e7"}, board.ticks())
    script = [{"at": 0, "do": "new", "tc": "-"}, {"at": 0, "do": "start"}]
    play(app, board, script)
    j = app.journal
    assert j.room and not j.full  # the game's setup put the ballast on the flash
    t = 0
    moves = 0

    def press():
        nonlocal t, moves
        t += 2000
        moves += 1
        play(app, board, [{"at": t, "do": "press", "side": "left" if moves % 2 else "right"}])
        assert moves < 3000

    while not j.full:  # the game fills the flash: nothing older to remove
        press()
    assert status_text(app) == "LOG FULL" and "LOG FULL" in _text_of(app, C.LEFT)
    state = srv.c_state({}, board.ticks())
    assert state["log_full"] is True and state["message"] == "LOG FULL"
    while not j.gap:  # play on: littlefs still takes a few records, then the RAM backlog fills
        press()
    for _ in range(6):  # seven presses in all cannot be kept: counted, not made
        press()
    assert app.clock.moves[0] + app.clock.moves[1] == moves  # the clock never stopped
    assert j.gap == 7 and j.dropped == 7 and status_text(app) == "LOG FULL"
    assert len(j.backlog) == j.backlog_max - 6  # the last places wait for a record that must be kept
    dropped = j.gap
    from sagatfw.link import log as logcmds

    info = logcmds.l_info(srv, {}, board.ticks())
    assert info["log_full"] is True and info["dropped"] == dropped
    t += 1000
    play(app, board, [{"at": t, "do": "result", "result": "0-1"}])
    assert j.backlog == [] and j.gap == 0 and j.error is None  # the ballast made room for the result
    # the result code takes the faces for the scoresheet; state and log.info still say log_full
    assert app.clock.state == C.FINISHED and status_text(app) == "CODE " + j.result_code and j.full
    reader, events = read_log(j)
    assert reader.problems == [], reader.problems[:3]  # seq and chain run on through the gap
    gaps = [e for e in events if e["type"] == "gap"]
    assert len(gaps) == 1 and gaps[0]["dropped"] == dropped and gaps[0]["game"] == 1
    assert events[-1]["type"] == "result" and events[-1]["seq"] == gaps[0]["seq"] + 1
    presses = [e for e in events if e["type"] == "press"]
    assert len(presses) + dropped == moves
    assert gaps[0]["t"] == presses[-1]["t"] + 2000  # the loss began at the next press
    rp = replays(events, 1)
    assert rp.gap is not None and rp.gap["seq"] == gaps[0]["seq"]
    # a reboot: the finished game is not restored, nothing fails; the next game makes room again
    app, board, restored = boot(t + 5000)
    code = app.journal.durable_code()  # the finished game's code is back on the faces for the scoresheet
    assert not restored and code is not None and status_text(app) == "CODE " + code
    play(app, board, [{"at": t + 6000, "do": "new", "tc": "420"}])
    assert not app.journal.full and app.journal.room
    unmount()
