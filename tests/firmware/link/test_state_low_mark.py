# state's "low" is the faces' LOW (TK-C17, faces.is_low): not in a 5-minute blitz under the
# default 5-minute mark, from setup to 4:59; in a 10-minute game from 5:00 down. Both runtimes.
from bothrig import done, rig


def test_state_low_only_where_the_mark_counts():
    r = rig()
    r.ok("new", tc="300", first="left")
    st = r.ok("state")
    assert st["left"]["low"] is False and st["right"]["low"] is False
    r.ok("start")
    r.at(1000)
    assert r.ok("state")["left"]["low"] is False
    done()


def test_state_low_below_five_minutes_of_a_600_s_game():
    r = rig()
    r.ok("new", tc="600", first="left")
    r.ok("start")
    r.at(299000)
    assert r.ok("state")["left"]["low"] is False
    r.at(301000)
    st = r.ok("state")
    assert st["left"]["low"] is True and st["right"]["low"] is False
    done()
