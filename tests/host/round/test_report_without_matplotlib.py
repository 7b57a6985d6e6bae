"""`sagat report` without matplotlib (its plots' library, an extra): every page, the PGN, round.csv and
round.trf are written, the plots alone left out, and one line says so. matplotlib made unimportable in
the test (a None in sys.modules: `import matplotlib` raises ImportError); a game the simulator played in
virtual time (tests/kits/played.py); the command run in process (tests/kits/simkit.py's cli)."""

from __future__ import annotations

import io
import json
import os
import sys

import chess.pgn
from played import played_game
from simkit import cli


def _round(tmp_path, capsys):
    played_game(str(tmp_path))
    capsys.readouterr()  # (the sim's own lines)
    pairs = tmp_path / "pairings.csv"
    pairs.write_text("3,Асель,Бекзат\n", encoding="utf-8")
    return str(tmp_path / "logs"), str(pairs)


def test_without_matplotlib_the_report_writes_all_but_the_plots_and_says_so(tmp_path, capsys, monkeypatch):
    logs_dir, pairs = _round(tmp_path, capsys)
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "report"
    code, said, err = cli(capsys, "report", logs_dir, "--pairings", pairs, "--out", str(out))
    assert code == 0, err
    assert "round.csv, round.trf, 1 PGN" in said, said
    (note,) = err.strip().splitlines()
    assert "matplotlib" in note and "plot" in note, note
    names = sorted(os.listdir(out))
    assert names == ["board-03-sim-game-1.html", "board-03-sim-game-1.pgn", "index.html", "round.csv",
                     "round.trf"], names
    page = (out / "board-03-sim-game-1.html").read_text(encoding="utf-8")
    assert "<img" not in page and "fell first" in page  # the certificate without the plot
    game = chess.pgn.read_game(io.StringIO((out / "board-03-sim-game-1.pgn").read_text(encoding="utf-8")))
    assert game.headers["Result"] == "0-1" and game.headers["White"] == "Асель"
    code, said, err = cli(capsys, "report", logs_dir, "--pairings", pairs, "--out", str(out), "--json")
    assert code == 0 and json.loads(said)["plots"] is False


def test_with_matplotlib_the_report_says_nothing_of_it(tmp_path, capsys):
    logs_dir, pairs = _round(tmp_path, capsys)
    out = tmp_path / "report"
    code, said, err = cli(capsys, "report", logs_dir, "--pairings", pairs, "--out", str(out), "--json")
    assert code == 0 and err == "" and json.loads(said)["plots"] is True
    assert (out / "board-03-sim-game-1.png").is_file()
