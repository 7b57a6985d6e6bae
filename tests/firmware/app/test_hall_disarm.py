# The hall's Pause all in the arming window: `disarm` drops an armed start before its instant (the
# game stays set up at the instant), does nothing harmful when nothing is armed, and once the armed
# instant has started the game it is refused with the state, so the hall knows the round began.
# Signed like `arm`; neither is logged. TK-C5. Both runtimes (bothrig.py).
from bothrig import KEY, T, done, rig

from sagatfw.engine import clock as C


def test_a_disarmed_start_never_starts():
    r = rig()
    r.ok("new", tc="300", first="left")
    r.at(1000)
    r.ok("arm", ticks=T(6000))
    seq = r.ok("state")["seq"]
    ans = r.ok("disarm")
    assert ans["armed"] is None and ans["state"] == "setup"
    st = r.ok("state")
    assert st["armed"] is None and st["seq"] == seq  # not logged, as arm is not
    assert r.app.next_instant(T(1000)) is None
    r.at(6000)
    r.at(9000)
    assert r.app.clock.state == C.SETUP and r.ok("state")["state"] == "setup"
    done()


def test_disarm_with_nothing_armed_is_done_and_changes_nothing():
    r = rig()
    r.ok("new", tc="300", first="left")
    assert r.ok("disarm")["armed"] is None
    assert r.ok("disarm")["armed"] is None  # again: Pause all may send it twice
    assert r.app.clock.state == C.SETUP
    done()


def test_disarm_after_the_armed_instant_is_refused_and_the_game_runs():
    r = rig()
    r.ok("new", tc="300", first="left")
    r.at(1000)
    r.ok("arm", ticks=T(2000))
    r.at(2010)
    err = r.err("disarm", "refused")["error"]["message"]
    assert err.startswith("disarm: the clock is running, not setup"), err
    st = r.ok("state")
    assert st["state"] == "running" and st["running"] == "left" and st["t"] == 10
    done()


def test_disarm_needs_the_key_as_arm_does():
    r = rig(KEY)
    r.ok("new", KEY, tc="300", first="left")
    r.ok("arm", KEY, ticks=T(60000))
    r.err("disarm", "auth_required")
    assert r.app.armed == T(60000)
    assert r.ok("disarm", KEY)["armed"] is None and r.app.armed is None
    r.err("disarm", "bad_arg", KEY, ticks=T(60000))  # it takes no argument
    done()


def test_a_refused_new_leaves_the_armed_start_as_it_was():
    # a refused action changes nothing: a `new` with a bad control must not cancel the round's start
    r = rig()
    r.ok("new", tc="300", first="left")
    r.at(1000)
    r.ok("arm", ticks=T(5000))
    r.err("new", "bad_arg", tc="bad!!")
    r.err("new", "bad_arg", mode="kokboru", lead=500)
    assert r.ok("state")["armed"] == T(5000)
    r.at(5000)
    assert r.app.clock.state == C.RUNNING  # started at its instant, as armed
    done()
