# issue 14 attacks on the app and the protocol (adversarial review), on the unix port with the
# real App, Server and journal over littlefs in RAM.
from flash import unmount
from test_protocol import Rig


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
