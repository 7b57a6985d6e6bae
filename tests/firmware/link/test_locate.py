# `locate`: the clock shows where it stands in the hall. A read (no key needed, nothing logged, the
# game untouched): for 5 s `state` says "locating", a second locate starts the 5 s again. What the
# faces and the buzzer do is the boards' (tests/firmware/boards). Both runtimes (bothrig.py).
from bothrig import KEY, done, rig


def test_locate_lasts_five_seconds_and_a_second_one_starts_them_again():
    r = rig()
    r.at(1000)
    assert r.ok("state")["locating"] is False
    assert r.ok("locate")["locate_ms"] == 5000
    assert r.app.next_face is not None
    r.at(5999)
    assert r.ok("state")["locating"] is True
    r.ok("locate")  # at 5999: until 10999
    r.at(10998)
    assert r.ok("state")["locating"] is True
    r.at(10999)
    assert r.ok("state")["locating"] is False and r.app.locate_until is None
    done()


def test_locate_needs_no_key_changes_no_game_and_logs_nothing():
    r = rig(KEY)
    r.ok("new", KEY, tc="600", first="left")
    r.ok("start", KEY)
    r.at(3000)
    before = r.ok("state")
    ans = r.ok("locate")  # unsigned, on a keyed clock, while the game runs
    assert ans["locate_ms"] == 5000
    after = r.ok("state")
    assert after["locating"] is True and after["seq"] == before["seq"]
    assert after["state"] == "running" and after["left"]["ms"] == before["left"]["ms"]
    assert "locate" in r.ok("identify")["commands"]
    r.err("locate", "bad_arg", seconds=10)
    done()


def test_state_says_locating_in_a_match_too():
    r = rig()
    r.ok("new", mode="kokboru")
    r.ok("locate")
    assert r.ok("state")["locating"] is True
    done()
