"""`sagat pause` while a match is set up: the clock refuses a game's action, and the command's one
line says how a match's time stops. What tells it is the clock's refusal code and its state (a
match's mode), never the words of the refusal."""

from simkit import cli


def test_pause_while_a_match_is_set_up_says_a_stoppage_stops_its_time(sim, capsys):
    code, out, err = cli(capsys, "new", "--mode", "kokboru", "--port", sim.port)
    assert code == 0, err
    code, out, err = cli(capsys, "pause", "--port", sim.port)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, (out, err)
    assert lines[0].startswith("sagat: the clock refused: a kokboru match is set up"), err
    assert lines[0].endswith("; a match's time stops with `sagat stoppage`"), err


def test_pause_refused_in_a_game_says_nothing_of_a_match(sim, capsys):
    code, out, err = cli(capsys, "new", "420", "--port", sim.port)
    assert code == 0, err
    code, out, err = cli(capsys, "pause", "--port", sim.port)  # (set up, not running: nothing to pause)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("sagat: the clock refused: "), err
    assert "stoppage" not in lines[0], err
