"""`sagat state` prints a match's times as its faces show them: a time counting up (the stoppage,
the time stopped this period, a period counting up) rounded down, one counting down (the period,
a break) rounded up. Before, the PC rounded every time up: `stopped 0:09` beside `STOPPED 0:08`."""

import pytest

from sagat.commands.clock import match_text
from sagatfw.faces import matchfaces as matchfaces


@pytest.mark.parametrize("ms, up, shown", [
    (8500, True, "0:08"), (8500, False, "0:09"), (0, True, "0:00"), (0, False, "0:00"),
    (999, True, "0:00"), (1, False, "0:01"), (60000, True, "1:00"), (239001, False, "4:00"),
])
def test_the_faces_round_a_time_up_or_down_by_its_direction(ms, up, shown):
    assert matchfaces.clock_text(ms, up) == shown


def _state(**kw):
    st = {"mode": "kilithattu", "period_name": "innings 1", "match_ms": 100500, "counts_up": False,
          "state": "stopped", "left": {"score": 0}, "right": {"score": 0}}
    st.update(kw)
    return st


def test_state_prints_the_stoppage_and_the_stopped_time_as_the_faces_count_them_up():
    line = match_text(_state(stoppage_ms=8500, stopped_ms=12900))
    assert "stopped 0:08" in line and "stopped 0:12 this period" in line, line
    assert f"innings 1 {matchfaces.clock_text(100500)}" in line and "1:41" in line, line  # counting down: up


def test_state_prints_a_period_counting_up_rounded_down_and_a_break_rounded_up():
    line = match_text(_state(state="running", match_ms=100500, counts_up=True))
    assert "innings 1 1:40 (counting up)" in line, line
    line = match_text(_state(state="break", break_ms=29100))
    assert "break 0:30 left" in line, line


def test_a_state_without_times_prints_zeros_not_an_error():
    line = match_text(_state(match_ms=None, stoppage_ms="x"))
    assert "innings 1 0:00" in line and "stopped 0:00" in line, line
