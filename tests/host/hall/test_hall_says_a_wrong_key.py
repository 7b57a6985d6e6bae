"""The hall finds out at each clock's link whether its arbiter key is the clock's, before any action,
and says so on the board: a clock keyed with another key (it would refuse every signed action of
the round), a keyed clock with a hall that has no key, and a clock with no key under a hall that has
one (its log proves no authorship). Real simulated clocks."""

from __future__ import annotations

from hallkit import until

from sagat.hall.core import Hall
from sagat.hall.sims import Sims

A = b"the key on the clocks"
B = b"another key"


def _alerts(hall):
    return [[a for a in b["alerts"] if a["kind"] == "key"] for b in hall.view()["boards"]]


def _up(hall, n):
    until(lambda: len(hall.boards) == n and all(b["link"] == "up" and b["state"] for b in hall.view()["boards"]),
          60, "clocks up")


def test_each_board_says_when_the_halls_key_is_not_its_clocks(tmp_path):
    sims = Sims(2, str(tmp_path / "sims"))
    ports = sims.start()
    try:
        first = Hall(key=A, discover=False)  # the event's key on both clocks (the hall gives it to its sims)
        for n, port in enumerate(ports, 1):
            first.add(port, "sim", n)
        _up(first, 2)
        until(lambda: all(b["key_set"] for b in first.view()["boards"]), 30, "keyed")
        assert _alerts(first) == [[], []]
        first.close()
        wrong = Hall(key=B, discover=False)  # a hall started with another key
        try:
            for n, port in enumerate(ports, 1):
                wrong.add(port, "port", n)
            _up(wrong, 2)
            for alerts in until(lambda: all(_alerts(wrong)) and _alerts(wrong), 30, "the wrong key said"):
                assert alerts[0]["text"].startswith("the hall's arbiter key is not this clock's"), alerts
            rep = wrong.set_up("300")  # (and indeed: the clocks refuse what it signs)
            assert rep["failed"] == 2 and "auth" in rep["boards"][1]["text"], rep
        finally:
            wrong.close()
        keyless = Hall(discover=False)  # no key at all, keyed clocks
        try:
            for n, port in enumerate(ports, 1):
                keyless.add(port, "port", n)
            _up(keyless, 2)
            alerts = until(lambda: all(_alerts(keyless)) and _alerts(keyless), 30, "no key said")
            assert alerts[0][0]["text"].startswith("this clock has an arbiter key and the hall none"), alerts
        finally:
            keyless.close()
    finally:
        sims.close()


def test_a_clock_without_a_key_under_a_keyed_hall_says_so(tmp_path):
    sims = Sims(1, str(tmp_path / "sims"))
    (port,) = sims.start()
    hall = Hall(key=A, discover=False)
    try:
        hall.add(port, "port", 1)  # not the hall's own sim: it does not give it the key
        _up(hall, 1)
        alerts = until(lambda: all(_alerts(hall)) and _alerts(hall), 30, "no key on the clock said")
        assert alerts[0][0]["text"].startswith("this clock has no arbiter key"), alerts
    finally:
        hall.close()
        sims.close()
