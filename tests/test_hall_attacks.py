"""issue 16's attack review (/work/hall-attack-review.md), findings 5 to 9, each as it was done:
a clock answering garbage (the other boards go on; the bad one says so), a clock's uid used as a
path and a `$` in a report's title, "verified" without a key, Unicode digits in the pairings and in
a board's number, and actions the page hides (a result on a game never started, two starts at once)."""

from __future__ import annotations

import pytest

from sagat.cli import main
from sagat.hall import pairings as P

# ------------------------------------------------------------------- 8. pairings

@pytest.mark.parametrize("board", ["\u00b2", "\u0661", "1.0", "0x1", "\uff11", "1234"])
def test_pairings_take_ascii_board_numbers_only(tmp_path, board):
    path = tmp_path / "pairs.csv"
    path.write_text(f"board,left,right\n{board},A,B\n", encoding="utf-8")
    with pytest.raises(P.PairingsError, match="is not a board number 1..999"):
        P.read(str(path))


def test_a_superscript_board_is_one_line_from_the_command(tmp_path, capsys):
    path = tmp_path / "pairs.csv"
    path.write_text("board,left,right\n\u00b2,a,b\n", encoding="utf-8")
    assert main(["report", str(tmp_path), "--pairings", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "is not a board number" in err and len(err.strip().splitlines()) == 1
