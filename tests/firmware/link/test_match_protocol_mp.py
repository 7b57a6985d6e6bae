# A match over the serial protocol (contract 6, docs/protocol.md "Matches") on a real App
# over littlefs in RAM: `new` with a mode, the referee's commands, `state` as a scoreboard, every
# game command that would act on the clock refused while a match is set up, the arbiter's
# authority on every changing match command, and the match's code out of RAM after each feed.
import gc
import sys

from flash import unmount
from protocolrig import KEY, Rig

import sagatfw
from sagatfw.log import boot as journalboot


def _types(rig):
    return [e["type"] for e in journalboot.game_events(rig.app.journal)]


def test_attack_a_game_start_during_a_match_never_starts_the_clock():
    # before: `start` went to the game clock (commands.start) while a match was set up: the log's
    # match got a game_start record and the clock ran behind the match's faces
    from protocolrig import T


    rig = Rig()
    rig.app.new_match("kokboru", {"lead": 8}, T(0))  # set up as the buttons or a script do
    st = rig.ok("start")
    assert st["mode"] == "kokboru" and st["state"] == "running" and st["period_name"] == "1st half"
    assert rig.app.clock.state == 0  # the game clock stays set up (C.SETUP)
    assert "game_start" not in _types(rig)
    for cmd, args in (("pause", {"by": "arbiter"}), ("extend", {}),
                      ("late_install", {"elapsed_ms": 1000}), ("adjourn", {}), ("resume_adjourned", {}),
                      ("settings.set", {"values": {"sound": False}})):
        r = rig.err(cmd, "refused", **args)
        assert "match is set up" in r["error"]["message"], r
    rig.err("result", "bad_arg", result="1-0")  # a match's result is a winner
    r = rig.err("adjust", "bad_arg", side="left", ms=5000)  # a match's adjust is its period's clock
    assert "ms only" in r["error"]["message"], r
    rig.err("adjust", "refused", ms=5000)  # while the half runs: a stoppage first (KB-16)
    rig.err("new", "refused", tc="300", first="left")  # the half runs: a stoppage first
    assert rig.app.clock.state == 0 and rig.app.match.m.state == 2
    unmount()


def test_attack_score_without_the_key():
    rig = Rig(key=KEY)
    rig.err("new", "auth_required", mode="kokboru")
    rig.ok("new", KEY, mode="kokboru")
    rig.err("start", "auth_required")
    rig.ok("start", KEY)
    rig.at(1000)
    changes = (("score", {"side": "left", "points": 4}), ("card", {"side": "right", "kind": "red"}),
               ("stoppage", {}), ("resume", {}), ("undo", {}), ("start", {}), ("result", {"winner": "left"}),
               ("new", {"mode": "kilithattu"}), ("new", {"tc": "300"}))
    before = _types(rig)
    for cmd, args in changes:
        rig.err(cmd, "auth_required", **args)
    assert _types(rig) == before
    st = rig.ok("state")  # reading never needs it
    assert st["left"]["score"] == 0 and st["right"]["reds"] == 0 and st["state"] == "running"
    rig.ok("score", KEY, side="left", points=4)
    assert rig.ok("state")["left"]["score"] == 4
    rig.err("key.set", "refused", KEY, key="")  # the match is in progress
    rig.err("maintenance", "refused", KEY)
    rig.err("log.erase", "refused", KEY, upto_seq=1000, game=rig.app.journal.game)
    unmount()


def test_a_kokboru_bout_over_the_protocol():
    rig = Rig()
    r = rig.ok("new", mode="kokboru", lead=8)
    assert r["state"] == "setup" and r["options"] == {"lead": 8} and r["winner"] is None
    rig.ok("start")
    rig.at(30000)
    rig.ok("score", side="left", points=4)
    rig.at(60000)
    r = rig.ok("card", side="right", kind="warning")
    assert r["right"]["warnings"] == 1
    rig.at(90000)
    rig.ok("stoppage")
    rig.at(95000)
    st = rig.ok("state")
    assert st["state"] == "stopped" and st["stoppage_ms"] == 5000 and st["match_ms"] == 240000 - 90000
    rig.err("stoppage", "refused")
    rig.at(100000)
    r = rig.ok("resume")
    assert r["stopped_ms"] == 10000 and r["stoppage_ms"] == 0
    rig.at(120000)
    rig.ok("score", side="right", points=2)
    r = rig.ok("undo")
    assert r["right"]["score"] == 0 and r["undoable"] == 2
    rig.err("score", "bad_arg", side="left", points=3)  # KB-7..10: 4, 2 or 1
    rig.err("score", "bad_arg", side="middle", points=4)
    rig.err("card", "bad_arg", side="left", kind="yellow")
    rig.ok("score", side="left", points=4)
    r = rig.ok("score", side="left", points=1)  # 9-0: a lead of more than 8 (KB-14)
    assert r["state"] == "finished" and r["winner"] == "left" and r["why"] == "lead"
    rig.err("score", "refused", side="left", points=1)
    types = _types(rig)
    assert types[0] == "match" and types[-1] == "result" and "game_start" not in types
    assert types.count("score") == 4 and types.count("undo") == 1 and types.count("card") == 1
    # finished: a game may follow (its new ends the match mode)
    rig.ok("new", tc="300", first="left")
    assert rig.app.match is None and rig.ok("state")["state"] == "setup" and "mode" not in rig.ok("state")
    unmount()


def test_kilithattu_options_state_and_refusals():
    rig = Rig()
    rig.err("new", "bad_arg", mode="kilithattu", lead=8)
    rig.err("new", "bad_arg", mode="kilithattu", changeover_ms=61000)
    rig.err("new", "bad_arg", mode="kilithattu", method="coin")
    rig.err("new", "bad_arg", mode="kilithattu", first="middle")
    rig.err("new", "bad_arg", mode="chess")
    rig.err("new", "bad_arg", mode="kokboru", tc="300")
    rig.err("new", "bad_arg", tc="300", lead=8)  # a match's option without a mode is never ignored
    assert rig.app.match is None
    rig.err("score", "refused", side="left", points=1)  # no match
    r = rig.ok("new", mode="kilithattu", first="right", changeover_ms=30000, method="sudden")
    assert r["options"] == {"first": "right", "changeover_ms": 30000, "method": "sudden"}
    assert r["entering"] == "right" and r["period_name"] == "innings 1" and r["match_ms"] == 420000
    rig.ok("start")
    rig.at(1000)
    rig.err("score", "refused", side="left", points=1)  # KT-5.5: the entering team only
    rig.err("card", "refused", side="left", kind="warning")  # no cards in kilithattu
    r = rig.ok("score", side="right", points=1)
    assert r["right"]["score"] == 1
    rig.at(421000)  # innings 1 over: the changeover runs by itself
    st = rig.ok("state")
    assert st["state"] == "break" and st["break_ms"] == 29000 and st["period_name"] == "innings 1"
    rig.err("new", "refused", mode="kokboru")  # a break runs
    rig.ok("start")  # ends the changeover early (KT-4.4)
    st = rig.ok("state")
    assert st["period_name"] == "innings 2" and st["entering"] == "left"
    r = rig.ok("result", winner="none")
    assert r["state"] == "finished" and r["winner"] == "none" and r["why"] == "referee"
    unmount()


def test_match_commands_leave_ram_after_their_feed():
    rig = Rig()
    rig.ok("new", mode="kokboru")
    rig.ok("start")
    assert "sagatfw.link.matchproto" not in sys.modules and "matchcmds" not in sagatfw.__dict__
    assert "sagatfw.link.commands" not in sys.modules
    gc.collect()
    before = gc.mem_alloc()
    for i in range(3):
        rig.at(1000 * (i + 1))
        rig.ok("score", side="left", points=1)
        rig.ok("state")
        rig.ok("identify")
    gc.collect()
    assert "sagatfw.link.matchproto" not in sys.modules and "sagatfw.link.commands" not in sys.modules
    assert gc.mem_alloc() - before < 512, gc.mem_alloc() - before
    unmount()


def test_a_match_restored_after_a_reboot_answers_the_protocol():
    rig = Rig(key=KEY)
    rig.ok("new", KEY, mode="kokboru")
    rig.ok("start", KEY)
    rig.at(10000)
    rig.ok("score", KEY, side="right", points=2)
    rig2 = Rig(key=KEY, fresh=False)  # the same flash, a new boot: the match comes back stopped
    st = rig2.ok("state")
    assert st["mode"] == "kokboru" and st["state"] == "stopped" and st["right"]["score"] == 2
    rig2.err("resume", "auth_required")
    rig2.ok("resume", KEY)
    assert rig2.ok("state")["state"] == "running"
    unmount()


def test_a_games_adjust_still_needs_its_side_and_a_matchs_sets_the_period_clock_kb_16():
    rig = Rig()
    rig.ok("new", tc="300", first="left")
    r = rig.err("adjust", "bad_arg", ms=5000)
    assert "needs side" in r["error"]["message"], r
    rig.ok("new", mode="kokboru", lead=8)
    rig.ok("start")
    rig.at(10000)
    rig.ok("stoppage")
    st = rig.ok("adjust", ms=200000)  # the referee's watch: 3:20 left
    assert st["match_ms"] == 200000, st
    rig.ok("restart")
    st = rig.ok("state")
    assert st["state"] == "ready" and st["match_ms"] == 240000, st
    unmount()
