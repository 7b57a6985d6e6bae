# The hall's round: `arm` starts the game set up at an instant of the board's own ticks,
# exactly there (charged from that instant however late the loop noticed it), across the ticks'
# wrap; a press stamped before the instant does nothing, one after it counts; `state` reports the
# board's ticks (the hall's link sync) and what is armed. TK-C5: the start starts the first player.
from flash import unmount
from protocolrig import KEY, Rig, T

from sagatfw.engine import clock as C
from sagatfw.log import boot as journalboot


def test_an_armed_start_starts_at_its_instant_across_the_wrap():
    rig = Rig()
    rig.ok("new", tc="300", first="right")
    at = T(6000)  # BASE is 5 s before the wrap: the armed instant is past it
    assert at < T(0)
    rig.at(1000)
    st = rig.ok("state")
    assert st["ticks"] == T(1000) and st["armed"] is None
    ans = rig.ok("arm", ticks=at)
    assert ans["state"] == "setup" and ans["running"] is None
    assert rig.ok("state")["armed"] == at
    assert rig.app.next_instant(T(1000)) == at  # the sim's virtual time steps right there
    rig.at(5999)
    assert rig.app.clock.state == C.SETUP
    rig.at(6037)  # the loop notices 37 ms late: the clock was started at 6000 all the same
    st = rig.ok("state")
    assert st["state"] == "running" and st["running"] == "right" and st["armed"] is None
    assert st["t"] == 37 and st["right"]["ms"] == 300000 - 37 and st["left"]["ms"] == 300000
    assert st["ticks"] == T(6037)
    starts = [e for e in journalboot.game_events(rig.app.journal) if e["type"] == "game_start"]
    assert len(starts) == 1 and starts[0]["t"] == 0
    unmount()


def test_presses_around_the_armed_instant():
    rig = Rig()
    rig.ok("new", tc="300", first="left")
    rig.ok("arm", ticks=T(2000))
    b = rig.app.buttons
    b.edge(C.LEFT, T(1990), True)  # before the start: nothing (the clock was not running)
    b.edge(C.LEFT, T(1990 + b.lockout_ms + 1), False)
    b.edge(C.LEFT, T(2300), True)  # after it, in the same pass of the loop: the first move
    b.edge(C.LEFT, T(2300 + b.lockout_ms + 1), False)
    rig.at(2500)
    c = rig.app.clock
    assert c.state == C.RUNNING and c.moves[C.LEFT] == 1 and c.running == C.RIGHT
    assert c.ms(C.LEFT) == 300000 - 300 and c.t == 500
    unmount()


def test_arm_is_refused_or_dropped_where_it_must_be():
    rig = Rig(key=KEY)
    rig.ok("new", KEY, tc="300", first="left")
    rig.err("arm", "auth_required", ticks=T(1000))
    msg = rig.err("arm", "bad_arg", KEY, ticks=T(0))["error"]["message"]
    assert msg.startswith("arm: ticks must be 1 ms to 10 min ahead"), msg
    rig.err("arm", "bad_arg", KEY, ticks=T(600001))
    rig.err("arm", "bad_arg", KEY, ticks=-1)
    rig.err("arm", "bad_arg", KEY)
    rig.ok("arm", KEY, ticks=T(600000))
    rig.ok("new", KEY, tc="420", first="left")  # a new game drops the armed start
    assert rig.app.armed is None
    rig.at(600000)
    assert rig.app.clock.state == C.SETUP
    rig.ok("arm", KEY, ticks=T(601000))
    rig.ok("settings.set", KEY, values={"tc": "600"})  # the game set up again: dropped too
    assert rig.app.armed is None
    rig.ok("arm", KEY, ticks=T(602000))
    rig.ok("start", KEY)  # start now: the armed one goes
    assert rig.app.armed is None and rig.app.clock.t == 0
    msg = rig.err("arm", "refused", KEY, ticks=T(603000))["error"]["message"]
    assert msg == "arm: the clock is running, not setup (TK-C5: an armed start starts a game set up)", msg
    rig.ok("result", KEY, result="1-0")
    rig.ok("new", KEY, mode="kokboru")
    assert "a kokboru match is set up" in rig.err("arm", "refused", KEY, ticks=T(604000))["error"]["message"]
    unmount()
