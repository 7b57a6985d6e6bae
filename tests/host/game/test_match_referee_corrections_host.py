"""The referee's corrections of a match from the PC (`sagat restart`, `sagat match-time`, `sagat toss`)
against `sagat sim --serial --headless` on a real pseudo-terminal: each signed, logged and shown by
`sagat logs show`; a bad time or a correction the state refuses is one line, never a traceback."""

import json

import pytest
from simkit import cli

from sagat.cli import main

KEY = "referee secret"


def _ok(capsys, port, *argv, key=True):
    code, out, err = cli(capsys, *argv, "--port", port, *(["--key", KEY] if key else []))
    assert code == 0, (argv, err)
    return out


def _one_line_error(capsys, port, *argv, key=True):
    code, out, err = cli(capsys, *argv, "--port", port, *(["--key", KEY] if key else []))
    lines = err.strip().splitlines()
    assert code != 0 and out == "" and len(lines) == 1 and lines[0].startswith("sagat: "), (argv, code, out, err)
    return lines[0]


def _state(capsys, port):
    return json.loads(_ok(capsys, port, "state", "--json", key=False))


def test_kb_3_restart_and_the_period_clock_from_the_pc(sim, tmp_path, capsys):
    port = sim.port
    _ok(capsys, port, "key", KEY, key=False)
    _ok(capsys, port, "new", "--mode", "kokboru", "--lead", "8")
    _ok(capsys, port, "start")
    assert "auth_required" in _one_line_error(capsys, port, "restart", key=False)
    assert "call a stoppage of the period first" in _one_line_error(capsys, port, "match-time", "3:20")  # the time runs
    _ok(capsys, port, "stoppage")
    with pytest.raises(SystemExit) as bad:  # argparse's usage error: one line, status 2
        main(["match-time", "3:75", "--port", port, "--key", KEY])
    err = capsys.readouterr().err.strip().splitlines()
    assert bad.value.code == 2 and len(err) == 1 and "'3:75' is not a time" in err[0], err
    _ok(capsys, port, "match-time", "3:20")
    assert _state(capsys, port)["match_ms"] == 200000
    _ok(capsys, port, "restart")
    st = _state(capsys, port)
    assert st["state"] == "ready" and st["match_ms"] == 240000, st
    assert "this game has no lot" in _one_line_error(capsys, port, "toss", "left")
    out_dir = tmp_path / "pulled"
    _ok(capsys, port, "logs", "pull", "--out", str(out_dir))
    events = [json.loads(x) for x in (out_dir / "events.jsonl").read_text().splitlines()]
    kinds = [(e["type"], e.get("face_ms"), e.get("discarded_ms")) for e in events if e.get("mode") == "kokboru"]
    assert ("adjust", 200000, None) in kinds and any(k[0] == "restart" and k[2] > 0 for k in kinds), kinds
    code, out, err = cli(capsys, "logs", "verify", "--records", str(out_dir / "records.bin"), "--key", KEY)
    assert code == 0 and out.startswith("OK"), out + err
    code, out, err = cli(capsys, "logs", "show", "--records", str(out_dir / "records.bin"), "--key", KEY)
    assert "ADJUST: the referee sets the 1st half's clock to 3:20" in out, out
    assert "RESTART (KB-3): the 1st half back to its start" in out, out


def test_kt_4_6_the_toss_from_the_pc_is_refused_with_no_lot(sim, capsys):
    port = sim.port
    _ok(capsys, port, "new", "--mode", "kilithattu", "--first", "left", key=False)
    assert "no lot is due" in _one_line_error(capsys, port, "toss", "left", key=False)
