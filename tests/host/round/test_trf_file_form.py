"""round.trf keeps its source's form: the line ends (CR LF, LF or CR), a UTF-8 BOM and a last line
without its end come back as they were; a file whose first line is a bare tag (`012` with no name) is
a TRF, not a CSV; a round's date given (--date) goes into tag 132 at the round's columns, over the
date the slot had."""

import pytest
from trfkit import player_line, read_trf

from sagat.round import pairings as pairings
from sagat.round import trf

LINES = ["012 Кубок", "### the players", "132" + " " * 88 + "25/03/12  25/03/13",
         player_line(1, "Ерлан", 0.0, [(2, "w", " ")]), player_line(2, "Пётр", 0.0, [(1, "b", " ")])]
GAME = [{"board": 1, "left": "Ерлан", "right": "Пётр", "first": "left", "result": "0-1"}]

FORMS = [("\r\n", "", True), ("\n", "", True), ("\r", "", True), ("\r\n", "\ufeff", True), ("\n", "\ufeff", True),
         ("\n", "", False)]


@pytest.mark.parametrize("eol, bom, last", FORMS, ids=["crlf", "lf", "cr", "bom-crlf", "bom-lf", "no-last-eol"])
def test_the_sources_line_ends_and_bom_come_back_as_they_were(tmp_path, eol, bom, last):
    path = tmp_path / "src.trf"
    path.write_bytes((bom + eol.join(LINES) + (eol if last else "")).encode("utf-8"))
    out = trf.write({"name": "x", "round": 1}, GAME, source=trf.read(str(path)))
    assert out.startswith("\ufeff") == bool(bom)
    body = out.removeprefix("\ufeff")
    assert body.endswith(eol) == last
    new = body.split(eol)
    if last:
        assert new.pop() == ""
    assert "\r" not in "".join(new) and "\n" not in "".join(new)  # no other line end anywhere
    assert len(new) == len(LINES)
    for was, got in zip(LINES, new, strict=True):
        if not was.startswith("001"):
            assert got == was  # the header and the comment, byte for byte
    _, players = read_trf("\n".join(new))
    assert players[1]["rounds"] == [(2, "w", "0")] and players[2]["rounds"] == [(1, "b", "1")]
    saved = tmp_path / "round.trf"
    trf.save(str(saved), out)
    assert saved.read_bytes() == out.encode("utf-8")


def test_a_round_date_given_overrides_the_date_its_slot_had(tmp_path):
    path = tmp_path / "src.trf"
    path.write_bytes(("\r\n".join(LINES) + "\r\n").encode("utf-8"))
    out = trf.write({"name": "x", "round": 2, "date": "2025-03-14"},
                    [dict(GAME[0], left="Ерлан", right="Пётр")], source=trf.read(str(path)))
    d132 = next(ln for ln in out.split("\r\n") if ln.startswith("132"))
    assert d132[91:99] == "25/03/12" and d132[101:109] == "25/03/14"  # round 1's as it was; round 2's the new


def test_a_trf_whose_first_line_is_a_bare_012_is_read_as_a_trf(tmp_path):
    path = tmp_path / "noname.trf"
    path.write_bytes(("\r\n".join(["012", *LINES[3:]]) + "\r\n").encode("utf-8"))
    assert pairings.read(str(path)) == {1: ("Ерлан", "Пётр")}
    boards, source, rnd = pairings.load(str(path))
    assert boards == {1: ("Ерлан", "Пётр")} and source is not None and rnd == 1
