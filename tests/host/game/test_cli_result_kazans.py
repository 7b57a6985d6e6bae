"""A game's result with its final kazans from the PC (TK-R7, TK-R1, TK-R5, TK-C12): `sagat result 1-0 --kazans
82-79` against the firmware (its App under CPython, tests/kits/apprig.py, for the log and the round's report; `sagat
sim --serial` for the command itself), the counts in `sagat state`, `sagat logs show`, the report's table and
round.csv; nonsense refused as one line, never a traceback."""

import csv
import io
import json
import os

import pytest
from apprig import Rig, records
from simkit import Sim, cli

from sagat.cli import main
from sagat.cliutil import UserError
from sagat.commands.clock import faces_text
from sagat.commands.game import kazans


@pytest.fixture
def port(tmp_path):
    s = Sim(tmp_path, [])
    try:
        yield s.port
    finally:
        s.stop()


def test_tk_r7_sagat_result_takes_the_kazans_and_refuses_nonsense_in_one_line(port, capsys):
    for argv in (("new", "420"), ("start",), ("pause",)):
        assert cli(capsys, *argv, "--port", port)[0] == 0
    for bad, said in (("90-80", "162 kumalaks"), ("82", "two counts"), ("a-b", "two counts"), ("-5-3", "two counts"),
                      ("10-90", "right wins"), ("81-81", "TK-R5")):
        code, out, err = cli(capsys, "result", "1-0", f"--kazans={bad}", "--port", port)
        lines = err.strip().splitlines()
        assert code == 2 and out == "" and len(lines) == 1 and said in lines[0], (bad, err)
    code, out, err = cli(capsys, "result", "+/-", "--kazans", "0-0", "--port", port)
    assert code == 2 and "TK-R4" in err, err
    code, out, err = cli(capsys, "result", "left", "--kazans", "82-79", "--port", port)
    assert code == 2 and "a game's result" in err, err
    code, out, _ = cli(capsys, "result", "1-0", "--kazans", "82-79", "--port", port)
    assert code == 0 and out.splitlines()[1].endswith(", kazans 82-79"), out
    code, out, _ = cli(capsys, "state", "--json", "--port", port)
    st = json.loads(out)
    assert st["result"] == "1-0" and st["kazans"] == [82, 79], st
    code, out, _ = cli(capsys, "state", "--port", port)
    assert "1-0 kazans 82-79" in out, out


def test_tk_r1_the_kazans_option_reads_two_counts_of_the_board():
    assert kazans("82-79") == (82, 79) and kazans(" 0-162 ") == (0, 162)
    for bad in ("163-0", "100-63", "82", "82-79-1", "x-1", ""):
        with pytest.raises(UserError):
            kazans(bad)


def test_tk_a3_tk_p1_state_text_says_the_time_used_and_the_protest_window():
    st = {"state": "adjourned", "left": {"ms": 1000, "moves": 3, "used_ms": 4830000},
          "right": {"ms": 2000, "moves": 2, "used_ms": None}}
    assert faces_text(st).endswith("adjourned  used 1:20:30.000 | -"), faces_text(st)
    st = {"state": "finished", "left": {}, "right": {}, "result_code": "042917", "result": "0-1",
          "kazans": [70, 92], "protest_ms": 1741000}
    assert faces_text(st).endswith("result code 042917  0-1 kazans 70-92  protest 29:01 left"), faces_text(st)
    st["protest_ms"] = 0
    assert faces_text(st).endswith("protest time over")


def _finished_with_kazans(root):
    os.makedirs(root)
    rig = Rig(root)
    rig.ok("new", tc="60+1", first="left")
    rig.ok("start")
    rig.at(61000)  # left's flag: its win needs the counts (TK-R7)
    rig.ok("result", result="1-0", left_kazan=85, right_kazan=70)
    os.makedirs(os.path.join(root, "pulled"))
    records(root, os.path.join(root, "pulled", "records.bin"))
    return os.path.join(root, "pulled")


def test_tk_r7_logs_show_and_the_rounds_report_carry_the_kazans(tmp_path, capsys):
    src = tmp_path / "round"
    os.makedirs(src)
    os.rename(_finished_with_kazans(str(tmp_path / "clock1")), src / "board-1")
    code, out, _ = cli(capsys, "logs", "show", "--records", str(src / "board-1" / "records.bin"))
    assert code == 0 and "1-0, kazans 85-70" in out, out
    pairs = tmp_path / "pairings.csv"
    pairs.write_text("board,left,right\n1,Ержан,Мирас\n", encoding="utf-8")
    out_dir = tmp_path / "report"
    assert main(["report", str(src), "--pairings", str(pairs), "--out", str(out_dir)]) == 0
    capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO((out_dir / "round.csv").read_text(encoding="utf-8"))))
    assert [(r["result"], r["kazans"]) for r in rows] == [("1-0", "85-70")], rows
    index = (out_dir / "index.html").read_text(encoding="utf-8")
    assert "1-0 <small>85-70</small>" in index
    page = (out_dir / "board-1-game-1.html").read_text(encoding="utf-8")
    assert "1-0, kazans 85-70 (TK-R7)" in page
