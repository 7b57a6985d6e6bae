# An attack on the log's room, on the real littlefs: checkpoint_ms=1000 and the 1 MB log
# bound on the sim's 1 MB flash, a 3-hour game. Checkpoints used to go into the chain, 64 bytes a
# second: the flash filled with the game in progress near its end, the last presses, the power
# restore and the result stayed in RAM and vanished, the log still verified, and a power cut
# restored the game to where the flash had filled. Now the checkpoint is one overwritten file:
# every record is in the log, and a reboot still comes back within checkpoint_ms of the cut.
# (Its own module: the 1 MB flash image needs the unix port's heap in one piece.)
import gc
import os

from flash import Flash, mount, read_log, unmount
from virtualsim import boot, play, replays

from sagatfw.engine import clock as C
from sagatfw.faces.game import status_text  # noqa: E402

MB = 1048576


def _image():
    img = bytearray(MB)  # erased flash, filled in pieces (b"\xff" * MB would need the heap twice)
    ff = b"\xff" * 4096
    for at in range(0, MB, 4096):
        img[at : at + 4096] = ff
    return img


def _log_bytes(j):
    return sum(os.stat(j.path(n))[6] for n in j.segments())


def test_three_hour_game_with_1s_checkpoints_keeps_every_record():
    unmount()
    gc.collect()
    f = Flash(blocks=256, image=_image())  # 1 MB, as the sim's flash image
    mount(f, fresh=True)
    app, board, _ = boot(0)
    app.set_settings({"checkpoint_ms": 1000, "log_max_bytes": 1048576}, board.ticks())  # from the next boot
    app, board, _ = boot(1000)
    assert app.journal.checkpoint_ms == 1000 and app.journal.max_bytes == 1048576
    script = [{"at": 1000, "do": "new", "tc": "5400+30"}, {"at": 1000, "do": "start"}]
    t = 1000
    for i in range(360):  # 3 hours: a move every 30 s
        t += 30000
        script.append({"at": t, "do": "press", "side": "left" if i % 2 == 0 else "right"})
    cut = t + 20500  # left has thought 20.5 s when the power goes
    script.append({"at": cut, "do": "power_cut", "off_ms": 4000})
    play(app, board, script)
    j = app.journal
    assert j.error is None and not j.full and j.backlog == [] and j.dropped == 0
    mid = _log_bytes(j)
    app, board, restored = boot(cut + 4000)
    c = app.clock
    assert restored and c.state == C.PAUSED and c.side_to_move() == C.LEFT
    # back within checkpoint_ms of the cut (TK-C18), not at the last press 20.5 s before it
    assert cut - 1000 <= c.t + 1000 <= cut, (c.t, cut)  # the game's t 0 was at virtual ms 1000
    assert c.ms(C.LEFT) == 5400000 - 20000 and c.ms(C.RIGHT) == 5400000
    t = cut + 6000
    script = [{"at": t, "do": "resume"}]
    for i in range(7):
        script.append({"at": t + 1000 * (i + 1), "do": "press", "side": "left" if i % 2 == 0 else "right"})
    script.append({"at": t + 10000, "do": "result", "result": "1-0"})
    play(app, board, script)
    j = app.journal
    assert j.error is None and not j.full and status_text(app) == "CODE " + j.result_code  # the result code
    reader, events = read_log(j)
    assert reader.problems == [], reader.problems[:3]
    mine = [e for e in events if e["game"] == 1]
    kinds = [e["type"] for e in mine]
    assert kinds.count("press") == 367 and kinds.count("power_restore") == 1
    assert kinds[-1] == "result" and mine[-1]["result"] == "1-0"
    assert "checkpoint" not in kinds and "gap" not in kinds
    rp = replays(events, 1)  # as `sagat logs verify` does: the engine reproduces the game
    assert rp.clock.state == C.FINISHED and rp.gap is None
    size = _log_bytes(j)
    assert size < 64 * 400, size  # the game's events only: 3 hours at 1 s checkpoints once took ~700 KB
    print("3-hour game, checkpoint_ms=1000: log %d bytes at the cut, %d at the end (%d records)"
          % (mid, size, reader.records))
    unmount()
