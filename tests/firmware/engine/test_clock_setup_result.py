# A result entered before the start (a forfeit, TK-R4) happens at t = 0 - the
# game never started - and the clock's time base starts at that instant, not at the board's boot.
# (The protest window of TK-P1 runs from the result's wall time, which the journal derives from it.)
from clockkit import NEAR_WRAP, Game
from sagatfw.engine import clock as C


def test_result_in_setup_is_at_t0_and_time_counts_from_it():
    for base in (0, NEAR_WRAP):
        g = Game("420", base=base)
        uptime = 3 * 3600 * 1000  # the board has been on for 3 h
        g.call("result", uptime, 3)
        assert g.log[-1]["type"] == "result" and g.log[-1]["t"] == 0
        c = g.clock
        assert c.state == C.FINISHED and c.t == 0
        assert c.last == g.now(uptime)  # the time base is the result's instant, not ticks 0
        g.poll(uptime + 5000)
        assert c.t == 5000  # what happens after the result counts from it
        g.call("result", uptime + 6000, 4)  # entered again (the last one counts): 6 s after
        assert g.log[-1]["t"] == 6000 and g.log[-1]["result"] == "-/+"


def test_menu_result_in_setup_is_logged_at_t0_with_the_wall_time_of_its_instant():
    # the on-clock menu's RESULT (a forfeit, TK-R4) on a real App and journal, 2 h after the boot
    from menukit import Rig, go_to, open_arbiter

    from sagatfw.log.read import iso_utc
    from sagatfw.ui import buttons as B
    from sagatfw.ui import menu as MN

    rig = Rig("420")
    try:
        wall = 1718000000000
        rig.app.journal.time_sync(rig.app.clock, wall, 0)  # Unix ms `wall` at ticks 0 (the boot)
        rig.t = 7200000
        rig.app.step(rig.t)
        open_arbiter(rig, MN.A_RESULT)
        rig.press(B.START)
        go_to(rig, 3)  # "+/-"
        entered = rig.t + 100  # a short press acts at its release, 100 ms after the press (the rig)
        rig.press(B.START)
        assert rig.state() == C.FINISHED
        res = rig.log("result")
        assert len(res) == 1 and res[0]["result"] == "+/-" and res[0]["t"] == 0
        ms = wall + entered
        assert res[0]["wall"] == iso_utc(ms // 1000, ms % 1000), (res[0]["wall"], iso_utc(ms // 1000, ms % 1000))
    finally:
        rig.close()
