"""The round's report lists every paired board: a board with no log (its clock never pulled, a
folder missing, a clock that played no game) is a row that says so, with its players, not a board
that silently is not there. Logs made by the real App under CPython (tests/kits/apprig.py)."""

import os

from apprig import Rig, records

from sagat.cli import main


def _played(root):
    """A clock's folder as a pull leaves it: a finished game's records.bin."""
    os.makedirs(root)
    rig = Rig(root)
    rig.ok("new", tc="300", first="left")
    rig.ok("start")
    rig.at(2000)
    rig.ok("result", result="1-0")
    os.makedirs(os.path.join(root, "pulled"))
    records(root, os.path.join(root, "pulled", "records.bin"))
    return os.path.join(root, "pulled")


def _rows(index):
    return [r for r in index.split("<tr>")[2:]]


def test_a_paired_board_with_no_log_is_a_row_that_says_so(tmp_path, capsys):
    src = tmp_path / "round"
    os.makedirs(src)
    os.rename(_played(str(tmp_path / "clock1")), src / "board-1")
    os.makedirs(src / "board-3")  # a folder the hall made, with nothing pulled into it
    pairs = tmp_path / "pairings.csv"
    pairs.write_text("board,left,right\n1,Асель Нурланқызы,Бекзат Ержанұлы\n2,Айгерім,Дәулет\n3,Ержан,Мирас\n",
                     encoding="utf-8")
    out = tmp_path / "report"
    assert main(["report", str(src), "--pairings", str(pairs), "--out", str(out)]) == 0
    said, _ = capsys.readouterr()
    assert "2 paired boards with no log" in said, said
    index = (out / "index.html").read_text(encoding="utf-8")
    rows = _rows(index)
    assert len(rows) == 3, rows
    assert rows[0].startswith("<td>1</td>") and "Асель Нурланқызы - Бекзат Ержанұлы" in rows[0] and "1-0" in rows[0]
    for board, players, row in ((2, "Айгерім - Дәулет", rows[1]), (3, "Ержан - Мирас", rows[2])):
        assert row.startswith(f"<td>{board}</td>") and players in row and "no log" in row, row


def test_pairings_with_no_log_at_all_still_make_the_round_s_table(tmp_path, capsys):
    src = tmp_path / "round"
    os.makedirs(src / "board-1")
    pairs = tmp_path / "pairings.csv"
    pairs.write_text("1,A,B\n", encoding="utf-8")
    out = tmp_path / "report"
    assert main(["report", str(src), "--pairings", str(pairs), "--out", str(out)]) == 0
    rows = _rows((out / "index.html").read_text(encoding="utf-8"))
    assert len(rows) == 1 and "no log" in rows[0] and "A - B" in rows[0], rows


def test_a_game_page_is_headed_by_its_board_and_clock_not_the_folder_name(tmp_path, capsys):
    src = tmp_path / "round"
    os.makedirs(src)
    os.rename(_played(str(tmp_path / "clock8")), src / "board-08-e6614103e7")  # as the hall names it
    out = tmp_path / "report"
    assert main(["report", str(src), "--out", str(out)]) == 0
    page = next(p for p in os.listdir(out) if p.endswith(".html") and p != "index.html")
    text = (out / page).read_text(encoding="utf-8")
    assert "<h1>Board 8 (clock e6614103e7), game 1</h1>" in text, text[:600]
    assert "<title>Board 8 (clock e6614103e7), game 1</title>" in text
