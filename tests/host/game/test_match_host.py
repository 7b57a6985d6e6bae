"""Matches from the PC: a whole kok-boru bout and a kilithattu match driven only through
`sagat` commands against `sagat sim --serial --headless` (the firmware under MicroPython answering
on a real pseudo-terminal), the arbiter key's attacks on them, and the CLI's one-line errors."""

import json
import time

import pytest

from sagat.cli import main
from sagatfw.link import wire as W

KEY = "referee secret"


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def _ok(capsys, port, *argv, key=True):
    extra = ["--port", port] + (["--key", KEY] if key else [])
    code, out, err = _run(capsys, *argv, *extra)
    assert code == 0, (argv, err)
    return out


def _refused(capsys, port, *argv, key=True, code="refused"):
    extra = ["--port", port] + (["--key", KEY] if key else [])
    rc, out, err = _run(capsys, *argv, *extra)
    assert rc == 2 and out == "", (argv, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sagat: ") and code in lines[0], (argv, err)
    return lines[0]


def _state(capsys, port):
    return json.loads(_ok(capsys, port, "state", "--json", key=False))


def test_a_whole_kokboru_bout_from_the_pc_with_the_key(sim, tmp_path, capsys):
    port = sim.port
    _ok(capsys, port, "key", KEY, key=False)
    # the attack: a laptop on the cable without the key sets up, starts or scores nothing
    _refused(capsys, port, "new", "--mode", "kokboru", key=False, code="auth_required")
    out = _ok(capsys, port, "new", "--mode", "kokboru", "--lead", "8")
    assert out.startswith("next match: kokboru 1st half 4:00") and "left 0 - right 0" in out
    _refused(capsys, port, "start", key=False, code="auth_required")
    out = _ok(capsys, port, "start")
    assert "running" in out
    for argv in (("score", "left", "4"), ("card", "right", "red"), ("stoppage",), ("undo",), ("result", "left"),
                 ("new", "420")):
        _refused(capsys, port, *argv, key=False, code="auth_required")
    _refused(capsys, port, "call", "pause", key=True)  # a game's command: refused while a match is set up
    assert _state(capsys, port)["left"]["score"] == 0
    _ok(capsys, port, "score", "left", "4")
    out = _ok(capsys, port, "card", "right", "warning")
    assert "left 4 - right 0 W" in out
    _ok(capsys, port, "stoppage")
    # the stoppage's time runs (read as the clock's pass reads it: waited for, not guessed from a
    # sleep that a loaded machine's pass may outlast)
    deadline = time.monotonic() + 60
    st = _state(capsys, port)
    while st["stoppage_ms"] < 200 and time.monotonic() < deadline:
        time.sleep(0.1)
        st = _state(capsys, port)
    assert st["state"] == "stopped" and st["stoppage_ms"] >= 200 and st["right"]["warnings"] == 1
    assert "stopped" in _ok(capsys, port, "state", key=False)
    line = _refused(capsys, port, "stoppage")
    assert "a stoppage is on" in line
    _ok(capsys, port, "resume")
    _ok(capsys, port, "score", "right", "2")
    out = _ok(capsys, port, "undo")
    assert "left 4 - right 0" in out
    _refused(capsys, port, "score", "left", "3", code="bad_arg")  # KB-7..10: 4, 2 or 1
    _ok(capsys, port, "score", "left", "4")
    out = _ok(capsys, port, "score", "left", "1")  # 9-0: more than 8 ahead (KB-14)
    assert "winner left (a winning lead)" in out
    st = _state(capsys, port)
    assert st["state"] == "finished" and st["winner"] == "left" and st["why"] == "lead"
    assert st["left"]["score"] == 9 and st["stopped_ms"] >= 200
    # the score sheet on the flash: pulled and verified with the key
    out_dir = tmp_path / "pulled"
    _ok(capsys, port, "logs", "pull", "--out", str(out_dir))
    events = [json.loads(x) for x in (out_dir / "events.jsonl").read_text().splitlines()]
    kinds = [e["type"] for e in events if e.get("mode") == "kokboru"]
    assert kinds[0] == "match" and kinds[-1] == "result" and kinds.count("score") == 4 and "undo" in kinds
    assert "game_start" not in [e["type"] for e in events]
    code, out, err = _run(capsys, "logs", "verify", "--records", str(out_dir / "records.bin"), "--key", KEY)
    assert code == 0 and out.startswith("OK"), out + err


def test_a_kilithattu_match_from_the_pc_and_its_errors(sim, capsys):
    port = sim.port
    out = _ok(capsys, port, "new", "--mode", "kilithattu", "--first", "right", "--changeover", "30",
              "--method", "sudden", key=False)
    assert "innings 1 7:00" in out and "right enters" in out
    st = json.loads(_ok(capsys, port, "state", "--json", key=False))
    assert st["options"] == {"first": "right", "changeover_ms": 30000, "method": "sudden"}
    _ok(capsys, port, "start", key=False)
    _refused(capsys, port, "score", "left", "1", key=False)  # KT-5.5: the entering team scores
    _refused(capsys, port, "card", "left", "warning", key=False)  # no cards in kilithattu
    out = json.loads(_ok(capsys, port, "score", "right", "1", "--json", key=False))
    assert out["right"]["score"] == 1 and out["mode"] == "kilithattu"
    out = _ok(capsys, port, "result", "none", key=False)
    assert "draw (the referee's result)" in out
    # a game after it: sagat new TC ends the match mode, and the game's own commands work again
    _ok(capsys, port, "new", "60", key=False)
    assert "mode" not in _state(capsys, port)
    out = _ok(capsys, port, "start", key=False)
    assert out.startswith("running: left")
    _refused(capsys, port, "stoppage", key=False)  # no match set up
    out = _ok(capsys, port, "result", "1-0", key=False)
    assert out.startswith("finished")


@pytest.mark.parametrize("argv,needle", [
    (["new", "--mode", "kokboru", "420"], "takes no time control"),
    (["new", "--mode", "kokboru", "--method", "lot"], "--method is for kilithattu"),
    (["new", "--mode", "kilithattu", "--lead", "3"], "--lead is for kokboru"),
    (["new", "--mode", "kilithattu", "--changeover", "90"], "1..60 seconds"),
    (["new", "--lead", "3", "420"], "--lead is a match's option: give --mode kokboru"),
    (["new", "--method", "lot", "420"], "--method is a match's option: give --mode kilithattu"),
    (["new"], "needs a time control"),
    (["result", "maybe"], "left, right or none"),
])
def test_bad_match_input_is_one_line_before_any_port_is_opened(argv, needle, capsys):
    code, out, err = _run(capsys, *argv, "--port", "/nonexistent/port")
    assert code == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("argv", [["score", "middle", "4"], ["score", "left", "four"], ["card", "left", "yellow"]])
def test_usage_errors_of_match_commands_are_one_line(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("sagat")


def test_the_table_of_actions_has_the_match_commands():
    from sagatfw.ui import actions

    for cmd in ("score", "card", "stoppage", "undo"):
        assert actions.ACTIONS[cmd][2] == W.GAME and cmd not in W.COMMANDS
    assert {"mode", "lead", "changeover_ms", "method"} <= {s[0] for s in actions.ACTIONS["new"][3]}
    assert "winner" in {s[0] for s in actions.ACTIONS["result"][3]}
