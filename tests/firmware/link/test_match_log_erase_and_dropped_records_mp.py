# Attacks on the match app and the protocol (adversarial review), on the unix port with the
# real App, Server and journal over littlefs in RAM.
from flash import unmount
from protocolrig import Rig


def test_attack_log_erase_of_a_match_set_up_loses_the_match():
    # before: a match set up (its setup record logged) but not started was not "in progress" for
    # log.erase (matchcmds' _busy starts at the referee's start, and the game clock's guard counts
    # only a game's setup): once the setup record sat in an older segment, log.erase removed it and
    # the match's later records had no setup: after a reboot the match was gone
    rig = Rig()
    rig.ok("new", mode="kokboru", lead=8)
    j = rig.app.journal
    j.resume = None  # the next record opens a new segment (as after a full one)
    rig.ok("time.sync", wall_ms=1700000000000)
    r = rig.err("log.erase", "refused", upto_seq=100000, game=j.game)
    rig.ok("start")
    rig.at(10000)
    rig.ok("score", side="left", points=4)
    rig2 = Rig(fresh=False)  # a reboot
    assert rig2.app.match is not None, r  # the match comes back
    assert rig2.ok("state")["left"]["score"] == 4
    unmount()


def test_attack_a_match_with_dropped_records_is_not_restored_silently_wrong():
    # before: matchapp.restore read only the match's own records and passed over a gap record (the
    # clock's log could not take the records for a while and dropped them): a dropped score is an
    # operation, so the replay went on without it and the match came back with the wrong score,
    # and no word of it (a game's restore stops at a gap: journalboot raises)
    rig = Rig()
    rig.ok("new", mode="kokboru", lead=0)
    rig.ok("start")
    j = rig.app.journal
    j.opened = False  # the log cannot be written: the records wait in the backlog, then are dropped
    for i in range(j.backlog_max + 2):
        rig.at(1000 + i * 100)
        rig.call("score", side="left", points=1)
    j.opened = True
    rig.at(20000)  # the backlog and the gap record are written
    rig.ok("score", side="right", points=4)
    left = rig.app.match.m.scores[0]
    rig2 = Rig(fresh=False)  # a reboot
    m = rig2.app.match.m if rig2.app.match is not None else None
    assert m is None or m.scores[0] == left, (left, m.scores)  # never back with a wrong score
    unmount()
