"""A result code identifies a game on its clock: two simulated clocks (two flash images, two uids)
with the same short history (`+/-` entered before the start, TK-R4), unkeyed or keyed with one hall's
key, show different codes; `sagat logs verify --code` accepts each clock's own code and refuses the
other's, and a result record that names another clock than --clock says so."""

import os

import pytest
from codekit import KEY, KINDS, played, result_seq
from simkit import cli

from sagatfw.boards.simulator import sim_uid

SHORT = KINDS["default_left_wins"][0]


@pytest.fixture(params=[False, True], ids=["unkeyed", "keyed"])
def two(request, tmp_path, capsys):
    """Two sim clocks that played SHORT: [(flash, code, uid)]."""
    out = []
    for name in ("clock-1", "clock-2"):
        os.makedirs(tmp_path / name)
        flash, code = played(capsys, tmp_path / name, SHORT, request.param, name)
        out.append((flash, code, sim_uid(os.path.abspath(flash))))
    return out, (["--key", KEY] if request.param else [])


def test_two_clocks_with_one_history_show_different_codes(two):
    (f1, c1, u1), (f2, c2, u2) = two[0]
    assert u1 != u2 and c1 != c2, (c1, c2)


def test_verify_accepts_each_clocks_own_code_and_refuses_the_others(two, capsys):
    clocks, key = two
    for (flash, own, _), (_, other, _) in (clocks, clocks[::-1]):
        rc, out, _ = cli(capsys, "logs", "verify", "--image", flash, "--game", "1", "--code", own, *key)
        assert rc == 0 and f"code {own}: " in out.splitlines()[-1], out
        rc, out, _ = cli(capsys, "logs", "verify", "--image", flash, "--game", "1", "--code", other, *key)
        assert rc == 1 and out.startswith("BROKEN"), out
        assert (f"code: {other} is not the code of game 1's result in this log (seq {result_seq(flash)}, +/-: "
                f"right did not appear, left wins by default (TK-R4), gives {own}): the game was changed or cut, or "
                f"this is another clock's log") in out, out


def test_a_result_entered_on_another_clock_than_the_one_named_is_refused(two, capsys):
    (f1, c1, u1), (_, _, u2) = two[0]
    key = two[1]
    rc, out, _ = cli(capsys, "logs", "verify", "--image", f1, "--game", "1", "--code", c1, "--clock", u1, *key)
    assert rc == 0, out
    if key:  # under the key: the game as it was when its result was entered on that clock
        assert out.splitlines()[-1].endswith(f"as it was when its result was entered on clock {u1}"), out
    else:
        assert "not under an arbiter key" in out.splitlines()[-1], out
    rc, out, _ = cli(capsys, "logs", "verify", "--image", f1, "--game", "1", "--code", c1, "--clock", u2, *key)
    want = (f"code: game 1's result at seq {result_seq(f1)} was entered on another clock, not clock {u2}: this log is "
            f"another clock's, or the code is checked against the wrong clock")
    assert rc == 1 and want in out, out
