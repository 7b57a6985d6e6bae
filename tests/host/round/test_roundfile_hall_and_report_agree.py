"""What a round may hold is one definition (sagat.round.folder.problem): what `sagat hall` starts
with, `sagat report` reads from the round.json the hall wrote (a bye with an empty name, in the CSV or
the TRF; an --event and a --site of 200 characters; a TRF round of 999 boards; round 999; a handicap
control of 239 characters), and what neither can take the hall refuses at its start in one line, in
the arbiter's language (an --event or --site over 200 characters, a TRF round of 1000 boards, an
unplayed round 1000). A round.json nested past the bounded JSON reader is one line too.

The hall runs as the arbiter starts it (a subprocess, browserkit.start_hall), the report in process
(simkit.cli: no traceback, no internal error)."""

from __future__ import annotations

import csv
import io
import json
import os
import socket
import subprocess
import sys

import pytest
from browserkit import start_hall, stop_hall
from hallkit import until
from simkit import cli
from trfkit import player_line, read_trf

from conftest import ROOT


def _csv(rows: list[dict]):
    return {r["board"]: (r["left"], r["right"]) for r in rows}


def _report(capsys, folder):
    """`sagat report FOLDER` of the hall's folder: (its index page, round.csv's rows, round.trf's text)."""
    code, out, err = cli(capsys, "report", str(folder))
    assert code == 0 and not err, (code, out, err)
    rep = folder / "report"
    rows = list(csv.DictReader(io.StringIO((rep / "round.csv").read_text(encoding="utf-8"))))
    return (rep / "index.html").read_text(encoding="utf-8"), rows, (rep / "round.trf").read_bytes().decode("utf-8")


def _hall(tmp_path, *args, sims=0):
    """`sagat hall` started with args (and `sims` simulated clocks, keyed as an event's) and stopped:
    the folder it wrote its round.json in."""
    out = tmp_path / "round"
    clocks = ["--sim", str(sims), "--key", "the arbiter's key"] if sims else []
    proc, _url, _t = start_hall(["--out", str(out), *clocks, *args], sims, cwd=str(tmp_path))
    stop_hall(proc, sims)
    assert (out / "round.json").is_file()
    return out


def _refused(tmp_path, *args, lang=None):
    """`sagat hall` args refused at its start: its one line (a hall that starts instead is stopped)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]))
    if lang:
        env["LANGUAGE"] = lang
    try:
        done = subprocess.run([sys.executable, "-m", "sagat", "hall", "--no-usb", "--no-browser", "--http-port",
                               str(port), "--out", str(tmp_path / "refused"), *args], capture_output=True,
                              text=True, env=env, cwd=str(tmp_path), timeout=60)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"sagat hall started: {e.stderr}") from None
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout, done.stderr)
    (line,) = done.stderr.splitlines()
    assert line.startswith("sagat: ") and "Traceback" not in line and "internal error" not in line, line
    assert not (tmp_path / "refused" / "round.json").exists()
    return line


def _trf(tmp_path, pairs: list[tuple[str, str]], rnd=1, name="round.trf"):
    """A TRF whose round `rnd` pairs White 2k-1 and Black 2k by names, no result yet (the rounds
    before it: no one paired)."""
    lines = ["012 Кубок"]
    for k, (white, black) in enumerate(pairs):
        w, b = 2 * k + 1, 2 * k + 2
        blank = [(0, "", "")] * (rnd - 1)
        lines += [player_line(w, white, 0, blank + [(b, "w", "")]), player_line(b, black, 0, blank + [(w, "b", "")])]
    path = tmp_path / name
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return str(path)


def test_a_bye_with_an_empty_name_in_the_csv_is_reported(tmp_path, capsys):
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("board,left,right\n1,Алма,Бота\n2,,Dana\n", encoding="utf-8")
    folder = _hall(tmp_path, "--pairings", str(pairs), "--round", "4", sims=2)
    _index, rows, trf = _report(capsys, folder)
    assert _csv(rows) == {"1": ("Алма", "Бота"), "2": ("", "Dana")}, rows
    _tags, players = read_trf(trf)
    assert "Dana" in {p["name"] for p in players.values()}, players


def test_a_bye_with_an_empty_name_in_the_trf_is_reported(tmp_path, capsys):
    folder = _hall(tmp_path, "--pairings", _trf(tmp_path, [("Алма", "Бота"), ("", "Dana")]))
    _index, rows, trf = _report(capsys, folder)
    assert _csv(rows) == {"1": ("Алма", "Бота"), "2": ("", "Dana")}, rows
    _tags, players = read_trf(trf)  # the pairing program's file, its round 1 still paired
    assert {p["name"]: p["rounds"][0][0] for p in players.values()} == {"Алма": 2, "Бота": 1, "": 4, "Dana": 3}


def test_an_event_and_a_site_of_200_characters_are_reported(tmp_path, capsys):
    event, site = "Қ" * 200, "Т" * 200
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("1,Алма,Бота\n", encoding="utf-8")
    folder = _hall(tmp_path, "--event", event, "--site", site, "--round", "2", "--pairings", str(pairs))
    index, _rows, trf = _report(capsys, folder)
    assert event in index
    tags, _players = read_trf(trf)
    assert tags["012"] == [event] and tags["022"] == [site], tags


@pytest.mark.parametrize("option", ["--event", "--site"])
def test_an_event_or_a_site_over_200_characters_is_refused_at_the_start(tmp_path, capsys, option):
    line = _refused(tmp_path, option, "Қ" * 201)
    assert line == f"sagat: {option} is 201 characters long: at most 200", line
    # the report takes what the hall takes: its own --event or --site alike
    code, _out, err = cli(capsys, "report", str(tmp_path), option, "Қ" * 201)
    assert code == 2 and err == line + "\n", err


def test_a_trf_round_of_999_boards_is_reported(tmp_path, capsys):
    names = [(f"White {k}", f"Black {k}") for k in range(1, 1000)]
    folder = _hall(tmp_path, "--pairings", _trf(tmp_path, names))
    _index, rows, trf = _report(capsys, folder)
    assert len(rows) == 999 and rows[-1]["board"] == "999", rows[-1]
    _tags, players = read_trf(trf)
    assert len(players) == 1998


def test_a_trf_round_of_1000_boards_is_refused_at_the_start(tmp_path):
    path = _trf(tmp_path, [(f"White {k}", f"Black {k}") for k in range(1, 1001)])
    line = _refused(tmp_path, "--pairings", path)
    assert line == (f"sagat: {path}: round 1's pairings: 1 board beyond 999 (board 1000): a board's number is "
                    f"1..999, as a clock's own"), line
    said = _refused(tmp_path, "--pairings", path, lang="kk")  # in the arbiter's language
    assert said != line and path in said and "1000" in said and "999" in said, said


def test_an_unplayed_round_999_is_reported(tmp_path, capsys):
    folder = _hall(tmp_path, "--pairings", _trf(tmp_path, [("Алма", "Бота")], rnd=999))
    index, rows, trf = _report(capsys, folder)
    assert _csv(rows) == {"1": ("Алма", "Бота")} and "999" in index
    _tags, players = read_trf(trf)
    assert {p["name"]: p["rounds"][998][:2] for p in players.values()} == {"Алма": (2, "w"), "Бота": (1, "b")}


def test_an_unplayed_round_1000_is_refused_at_the_start(tmp_path):
    path = _trf(tmp_path, [("Алма", "Бота")], rnd=1000)
    line = _refused(tmp_path, "--pairings", path)
    assert line == (f"sagat: {path}: round 1000 is not a round number 1..999 (TRF-2026 counts rounds in 3 "
                    f"digits)"), line


def test_a_handicap_control_of_239_characters_set_up_in_the_hall_is_reported(tmp_path, capsys):
    """The longest control a clock takes (8 stages a side, each at its bounds) is in round.json as
    the hall set it up, and the report reads it (round.trf's 122 names it)."""
    from sagat.hall.core import Hall
    from sagat.hall.sims import Sims

    side = ":".join(["999/86400+3600"] * 8)
    tc = side + "|" + side.replace("999/", "998/", 1)
    sims = Sims(1, str(tmp_path / "sims"))
    folder = tmp_path / "round"
    hall = Hall(out_dir=str(folder), discover=False, pairings={1: ("Алма", "Бота")}, event={"round": 1})
    try:
        hall.add(sims.start()[0], "sim", 1)
        hall.start()
        until(lambda: hall.view()["boards"] and hall.view()["boards"][0]["state"], 60, "the clock up")
        assert hall.set_up(tc)["done"] == 1 and len(hall.tc) == 239
    finally:
        hall.close()
        sims.close()
    _index, _rows, trf = _report(capsys, folder)
    tags, _players = read_trf(trf)
    assert tags.get("122"), tags


def test_a_nested_round_json_is_one_line(tmp_path, capsys):
    (tmp_path / "round.json").write_text('{"a":' * 100000, encoding="utf-8")
    code, _out, err = cli(capsys, "report", str(tmp_path))
    assert code == 2, err
    (line,) = err.splitlines()
    assert line == f"sagat: cannot read {tmp_path / 'round.json'}: JSON nested deeper than 64 levels", line


@pytest.mark.parametrize("info, why", [
    ({"event": "Қ" * 201}, "its event is 201 characters long: at most 200"),
    ({"site": "Т" * 201}, "its site is 201 characters long: at most 200"),
    ({"round": 1000}, "its round is not a round number 1..999"),
    ({"pairings": {str(b): ["A", "B"] for b in range(998, 1003)}},
     "pairings: 3 boards beyond 999 (from board 1000)"),
    ({"clocks": {"1000": "aaa"}}, "clocks: '1000' is not a board number 1..999"),
    ({"tc": "300+2|abc"}, "its tc is not a time control the clock takes"),
])
def test_a_round_json_beyond_what_a_round_may_hold_is_one_line(tmp_path, capsys, info, why):
    """What no hall writes (it refuses such a round at its start, or its page never sets it up)."""
    (tmp_path / "round.json").write_text(json.dumps(info), encoding="utf-8")
    code, _out, err = cli(capsys, "report", str(tmp_path))
    assert code == 2, err
    (line,) = err.splitlines()
    assert line.startswith(f"sagat: {tmp_path / 'round.json'}: ") and why in line, line
