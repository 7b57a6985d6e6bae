# A match's result withdrawn and a finished match rebooted, on the real App over littlefs in RAM,
# with the protocol (MicroPython only):
#   - an undo that withdraws a result: the time since the result is the stoppage's (KB-16,
#     KT-4.5), in `state` and in the log;
#   - a finished match comes back after a reboot as it ended (its result record, no replay): the
#     faces and `state` show the final score, who won and why, until the next game or match.
import gc

from flash import unmount
from protocolrig import Rig

from sagatfw.faces import matchfaces as MF
from sagatfw.faces.game import status_text
from sagatfw.log import boot as journalboot
from sagatfw.log.journal import Journal


def _events(rig, kind=None):
    return [e for e in journalboot.game_events(rig.app.journal) if kind is None or e["type"] == kind]


def test_an_undo_40_s_after_the_result_it_withdraws_logs_those_40_s_as_stopped_time_kb_16():
    rig = Rig()
    rig.ok("new", mode="kokboru", lead=3)
    rig.ok("start")
    rig.at(10000)
    st = rig.ok("score", side="left", points=4)  # a lead of 4 > 3 (KB-14): left wins at once
    assert st["state"] == "finished" and st["winner"] == "left" and st["why"] == "lead"
    rig.at(50000)  # the referee sees the mistake 40 s later
    st = rig.ok("undo")
    assert st["state"] == "stopped" and st["winner"] is None
    assert st["stoppage_ms"] == 40000 and st["stopped_ms"] == 40000  # the match was stopped meanwhile
    assert st["match_ms"] == 240000 - 10000  # and no match time was lost
    start = _events(rig, "stoppage_start")[-1]
    assert start["t"] == 50000 and start["length_ms"] == 40000 and start["stopped_ms"] == 40000
    rig.at(55000)
    st = rig.ok("resume")
    assert st["state"] == "running" and st["stopped_ms"] == 45000
    end = _events(rig, "stoppage_end")[-1]
    assert end["length_ms"] == 45000 and end["stopped_ms"] == 45000
    rig.at(240000 + 45000)  # the half ends at 4:00 of match time plus every stopped ms
    assert _events(rig, "period_end")[-1]["t"] == 285000
    gc.collect()
    unmount()


_KEEP = ("mode", "state", "options", "period", "period_name", "match_ms", "counts_up", "break_ms", "stoppage_ms",
         "stopped_ms", "left", "right", "entering", "lot_due", "winner", "why", "message", "game", "seq")


def _faces(app):
    m = app.match.m
    return [bytes(MF.tm1637(bytearray(4), m, s, 0)) for s in (0, 1)] + [MF.leds(m, s, 0) for s in (0, 1)] + [
        MF.oled(m, s, None) for s in (0, 1)]


def _bout(rig):
    rig.ok("new", mode="kokboru", lead=8)
    rig.ok("start")
    rig.at(5000)
    rig.ok("card", side="left", kind="warning")
    rig.at(8000)
    rig.ok("stoppage")
    rig.at(12000)
    rig.ok("resume")
    for i in range(3):
        rig.at(20000 + 1000 * i)
        rig.ok("score", side="right", points=4 if i < 2 else 1)  # 0-9: a lead of more than 8 (KB-14)


def test_a_finished_bout_comes_back_after_a_reboot_with_its_score_winner_why_and_code_kb_14():
    rig = Rig()
    _bout(rig)
    before = rig.ok("state")
    assert before["state"] == "finished" and before["winner"] == "right" and before["why"] == "lead"
    faces = _faces(rig.app)
    code = rig.app.result_code()
    assert code is not None and before["message"] == "CODE " + code
    rig2 = Rig(fresh=False)  # the power goes and comes back
    app = rig2.app
    assert app.match is not None and app.match.m.state == 7  # FINISHED
    after = rig2.ok("state")
    for k in _KEEP:
        assert after[k] == before[k], (k, after[k], before[k])
    assert after["right"] == {"score": 9, "warnings": 0, "reds": 0}
    assert after["left"] == {"score": 0, "warnings": 1, "reds": 0}
    assert after["undoable"] == 0  # what undo could take back is not kept over a reboot
    assert _faces(app) == faces and status_text(app) == "CODE " + code and app.result_code() == code
    n = len(list(journalboot.game_events(app.journal)))
    rig2.err("undo", "refused")  # the result stands; another result can be entered
    rig2.at(3000)
    assert rig2.ok("result", winner="none")["why"] == "referee"
    assert len(list(journalboot.game_events(app.journal))) == n + 1
    rig2.ok("new", tc="300", first="left")  # the next game: the match leaves the clock
    assert app.match is None and rig2.ok("state")["state"] == "setup"
    for mod in ("sagatfw.app.matchmode", "sagatfw.engine.matchwords", "sagatfw.engine.matchbase",
                "sagatfw.engine.kokboru"):
        assert mod not in __import__("sys").modules, mod
    unmount()


def test_a_finished_kilithattu_match_by_lot_comes_back_with_its_entering_team_kt_4_6():
    rig = Rig()
    rig.ok("new", mode="kilithattu", first="right", changeover_ms=1000, method="lot")
    from sagatfw.app import matchmode as matchapp

    rig.app.match.seed = 11  # the lots from a seed, as a script's
    rig.ok("start")
    rig.at(1000)
    rig.ok("score", side="right", points=1)
    rig.at(420000 + 2000)
    rig.ok("score", side="left", points=1)
    for ms in range(430000, 2000000, 30000):
        rig.at(ms)  # innings 2 ends level: lot 1; the extra time waits for the referee
        if rig.app.match.m.state == 1 and rig.app.match.m.period == 2:
            rig.ok("start")
    st = rig.ok("state")
    assert st["state"] == "finished" and st["why"] == "lot", st
    assert st["winner"] == ("left", "right")[matchapp.lot_bit(11, 2)]
    rig2 = Rig(fresh=False)
    after = rig2.ok("state")
    for k in _KEEP:
        assert after[k] == st[k], (k, after[k], st[k])
    unmount()


def test_a_long_finished_match_is_not_replayed_at_boot():
    # a finished game is not replayed at boot (docs/design.md, "Budgets"), nor a finished match:
    # it is read from its setup and its last records, however long it was
    rig = Rig(blocks=256)
    rig.ok("new", mode="kokboru", lead=0)
    rig.ok("start")
    for i in range(200):  # 400 records: a score and its undo, every 0.5 s
        rig.at(1000 + 500 * i)
        rig.ok("score", side="left", points=1)
        rig.ok("undo")
    rig.at(120000)
    rig.ok("score", side="left", points=2)
    rig.ok("result", winner="left")
    read = [0]
    real = Journal.read_segment

    def counted(self, name, buf):
        for rec in real(self, name, buf):
            read[0] += 1
            yield rec

    Journal.read_segment = counted
    try:
        rig2 = Rig(fresh=False)
    finally:
        Journal.read_segment = real
    st = rig2.ok("state")
    assert st["state"] == "finished" and st["left"]["score"] == 2 and st["why"] == "referee"
    # the boot read the newest segment, the first records of the others and the game's first
    # segment up to its setup: far fewer than the game's 400-odd records, each read once
    print("records read at boot", read[0])
    assert read[0] < 400, read[0]
    unmount()


def test_a_refused_match_of_the_other_mode_gives_the_game_clock_its_queue_back():
    # App.new_match drops the other mode's match (and its engine) before loading the new mode's:
    # a refused option then must not leave the game clock without its event queue
    from protocolrig import T

    from sagatfw.engine import clock as C

    rig = Rig()
    rig.ok("new", mode="kokboru")
    assert len(rig.app.clock.events) == 0  # a match holds the game clock's queue
    # over the protocol (and the menu, the scripts) the table refuses a bad option before anything
    # changes: the kok-boru match stays
    rig.err("new", "bad_arg", mode="kilithattu", method="coin")
    assert rig.app.match is not None and rig.app.match.m.MODE == "kokboru"
    # a caller of App.new_match with a value only the engine refuses: the match is dropped first
    # (for RAM), and the game clock gets its queue back
    try:
        rig.app.new_match("kilithattu", {"method": "coin"}, T(0))
        raise AssertionError("a bad method was taken")
    except ValueError:
        pass
    assert rig.app.match is None and len(rig.app.clock.events) == C.EV_SIZE * C.EV_CAPACITY
    rig.ok("new", tc="300", first="left")
    rig.ok("start")
    rig.press(0, 2000)
    assert rig.ok("state")["left"]["moves"] == 1
    unmount()


def test_a_match_write_that_finds_no_ram_for_its_file_waits_and_is_written_later():
    # a match opens one littlefs file at a time where it can (log/matchwrite.py commit): the segment is
    # closed after a new match's setup and after a restore; a write whose file buffer cannot be
    # found (MemoryError) keeps its records in RAM (LOG ERROR) and is tried again, never a failed
    # step, and it appends to the same segment then
    from sagatfw.log import segments as SG  # where the journal opens its segment files

    rig = Rig()
    rig.ok("new", mode="kokboru")
    j = rig.app.journal
    assert j.file is None and j.resume is not None  # closed after the setup record and the ballast
    segments = j.segments()
    rig.ok("start")
    assert j.file is not None  # then open while the match runs, as a game's

    def no_ram(*args):
        raise MemoryError("memory allocation failed")

    rig2 = Rig(fresh=False)  # a reboot: the match restored, its segment closed again
    j = rig2.app.journal
    assert j.file is None and j.resume is not None
    SG.open = no_ram
    try:
        rig2.at(2000)
        st = rig2.ok("resume")  # the restore's stoppage ends: its record cannot be written yet
        assert st["state"] == "running" and st["log_error"] is not None and len(j.backlog) == 1
        assert st["message"] == "LOG ERROR" and j.resume is not None
    finally:
        del SG.open
    rig2.at(4000)  # the retry (every second)
    assert not j.backlog and j.error is None and rig2.ok("state")["message"] is None
    assert j.segments() == segments  # appended to the same segment
    assert [e["type"] for e in journalboot.game_events(rig2.app.journal)][-2:] == ["power_restore", "stoppage_end"]
    unmount()


def test_a_match_checkpoint_takes_the_segment_s_buffer_and_gives_it_back():
    # one file at a time: the segment is closed for the checkpoint (whose 1.2 KB buffer is then the
    # segment's) and opened again after it, so neither looks for a second buffer in the heap
    rig = Rig()
    rig.ok("new", mode="kokboru")
    rig.ok("start")
    j = rig.app.journal
    assert j.file is not None
    segments = j.segments()
    for ms in range(1000, 47000, 500):
        rig.at(ms)  # checkpoints at t 15 s, 30 s and 45 s
    assert j.file is not None and j.resume is None  # open again for the next write
    with open(j.path("ckpt"), "rb") as f:
        assert len(f.read()) == 64
    rig.ok("score", side="left", points=4)
    assert j.segments() == segments  # the same segment, appended to
    rig2 = Rig(fresh=False)  # a reboot: the bout comes back at its score's record (after the checkpoint)
    st = rig2.ok("state")
    assert st["state"] == "stopped" and st["left"]["score"] == 4 and st["match_ms"] == 240000 - 46500
    unmount()
