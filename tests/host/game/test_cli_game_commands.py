"""A game from the PC in the `sagat` command's own words, against `sagat sim --serial --headless`
(the firmware under MicroPython on a real pseudo-terminal): `sagat pause` beside start and resume,
`sagat result` printing the code for the scoresheet, and `sagat settings` in the menu's order and
taking each value as its setting wants it (`tc=420` is a control, `freeze=auto` the menu's word)."""

import json

import pytest
from simkit import Sim

from sagat.cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def _ok(capsys, port, *argv):
    code, out, err = _run(capsys, *argv, "--port", port)
    assert code == 0, (argv, err)
    return out


def _one_line_error(capsys, port, *argv):
    code, out, err = _run(capsys, *argv, "--port", port)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and lines[0].startswith("sagat: "), (argv, out, err)
    return lines[0]


def _state(capsys, port):
    return json.loads(_ok(capsys, port, "state", "--json"))


@pytest.fixture
def port(tmp_path):
    s = Sim(tmp_path, [])
    try:
        yield s.port
    finally:
        s.stop()


@pytest.fixture(scope="module")
def shared_port(tmp_path_factory):
    s = Sim(tmp_path_factory.mktemp("settings"), [])
    try:
        yield s.port
    finally:
        s.stop()


def test_pause_stops_a_running_game_as_the_arbiter_and_resume_goes_on(port, capsys):
    _ok(capsys, port, "new", "420")
    line = _one_line_error(capsys, port, "pause")  # nothing runs yet
    assert "only a running clock is paused; the clock's state: setup" in line, line
    assert "running" in _ok(capsys, port, "start")
    out = _ok(capsys, port, "pause")
    assert out.startswith("paused: "), out
    st = _state(capsys, port)
    assert st["state"] == "paused" and st["running"] is None
    assert "left running" in _ok(capsys, port, "resume")


def test_a_pull_counts_records_by_seq_and_the_segment_anchors_apart(port, capsys, tmp_path):
    """A pull's line explains its figures: seq 0..5 are six records, and the segment's anchor (no seq
    of its own) is counted apart, not as a seventh; the arbiter's pause is logged as the arbiter's."""
    _ok(capsys, port, "new", "420")
    _ok(capsys, port, "start")
    _ok(capsys, port, "pause")
    out = _ok(capsys, port, "logs", "pull", "--out", str(tmp_path / "log")).strip()
    last = _state(capsys, port)["seq"]
    assert out.startswith(f"{last + 1} new records (seq 0..{last}) + 1 segment anchor, "), out
    events = [json.loads(line) for line in (tmp_path / "log" / "events.jsonl").read_text().splitlines()]
    assert [e["by"] for e in events if e["type"] == "pause"] == ["arbiter"], events
    again = _ok(capsys, port, "logs", "pull", "--out", str(tmp_path / "log")).strip()
    assert again.startswith("no new records"), again


def test_pause_of_a_match_says_a_match_stops_with_a_stoppage(port, capsys):
    _ok(capsys, port, "new", "--mode", "kokboru")
    _ok(capsys, port, "start")
    line = _one_line_error(capsys, port, "pause")
    assert "sagat stoppage" in line and "match is set up" in line, line
    assert _state(capsys, port)["state"] == "running"  # the match's time runs on


def test_result_prints_the_code_for_the_scoresheet(port, capsys):
    _ok(capsys, port, "new", "420")
    _ok(capsys, port, "start")
    _ok(capsys, port, "pause")
    out = _ok(capsys, port, "result", "1-0").splitlines()
    assert out[0].startswith("finished: "), out
    st = _state(capsys, port)
    assert len(st["result_code"]) == 6 and st["result_code"].isdigit(), st
    assert out[1] == f"result code {st['result_code']} (game {st['game']})", out
    ans = json.loads(_ok(capsys, port, "result", "0-1", "--json"))  # a replaced result: its own code
    assert ans["result_code"] == _state(capsys, port)["result_code"] and ans["game"] == st["game"]


def test_settings_are_listed_in_the_menus_order_with_freeze_as_the_menu_shows_it(port, capsys):
    from sagatfw.log import settings
    from sagatfw.ui import editors

    lines = _ok(capsys, port, "settings").splitlines()
    keys = [line.split(" = ")[0] for line in lines]
    first = [row[2] for row in editors.SETTINGS]
    assert keys[:len(first)] == first, keys
    assert keys[len(first):] == [k for k in settings.SCHEMA if k not in first], keys
    assert lines[0] == "freeze = AUTO", lines
    out = _ok(capsys, port, "settings", "freeze=on", "sound=off", "tc=420", "brightness=2")
    assert "freeze = ON" in out and "sound = false" in out and 'tc = "420"' in out and "brightness = 2" in out
    values = json.loads(_ok(capsys, port, "settings", "--json"))
    assert values["freeze"] is True and values["sound"] is False and values["tc"] == "420"
    assert "freeze = OFF" in _ok(capsys, port, "settings", "freeze=OFF")
    assert "freeze = AUTO" in _ok(capsys, port, "settings", "freeze=auto")
    assert 'tc = "300+2"' in _ok(capsys, port, "settings", "tc=300+2")


@pytest.mark.parametrize("assign, needle", [
    ("brightness=9", "brightness is 0..7, not 9"),
    ("brightness=bright", "brightness is a whole number 0..7"),
    ("freeze=maybe", "freeze is auto, on or off"),
    ("sound=loud", "sound is on or off"),
    ("first=middle", "first is one of left, right"),
    ("tc=300x", "bad TimeControl '300x'"),
    ("nosuch=1", "unknown setting"),
    ("brightness", "is not KEY=VALUE"),
])
def test_a_bad_setting_is_one_line_and_nothing_changes(shared_port, capsys, assign, needle):
    port = shared_port
    before = json.loads(_ok(capsys, port, "settings", "--json"))
    line = _one_line_error(capsys, port, "settings", assign)
    assert needle in line, line
    assert json.loads(_ok(capsys, port, "settings", "--json")) == before


def test_after_a_reboot_the_code_shown_at_setup_is_named_for_its_game(tmp_path, capsys):
    """The faces show the last result's code again after every boot, with the next game at setup:
    `info` and `state` say whose code it is, so it is never copied as the next game's."""
    sim = Sim(tmp_path, [])
    try:
        _ok(capsys, sim.port, "new", "420")
        _ok(capsys, sim.port, "start")
        _ok(capsys, sim.port, "pause")
        _ok(capsys, sim.port, "result", "1-0")
        code = _state(capsys, sim.port)["result_code"]
        assert f"moves 0-0  finished  result code {code}" in _ok(capsys, sim.port, "state")
    finally:
        sim.stop()
    sim = Sim(tmp_path, [])  # the same flash image: the clock switched on again
    try:
        st = _state(capsys, sim.port)
        assert st["state"] == "setup" and st["result_code"] == code and st["game"] == 1, st
        assert _ok(capsys, sim.port, "state").rstrip().endswith(f"setup  game 1's result code {code}")
        game = [line for line in _ok(capsys, sim.port, "info").splitlines() if line.startswith("game ")]
        assert game and game[0].endswith(f"game 1's result code {code}"), game
    finally:
        sim.stop()
