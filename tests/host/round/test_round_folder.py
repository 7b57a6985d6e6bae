"""The round's folder is written and read in one module (sagat.round.folder): round.json as the hall
writes it (write_round) is what the report reads back (round_info), and a board's log folder's name
(board_folder) is read back (board_of) as the board and the clock it was written for."""

from __future__ import annotations

import json

import pytest

from sagat.round import folder


@pytest.mark.parametrize("number, uid, name", [
    (3, "e6614103e7", "board-03-e6614103e7"), (12, "sim-2", "board-12-sim-2"), (999, "a_b", "board-999-a_b"),
    (7, "a/../b c", "board-07-a____b_c"), (1, None, "board-01-clock"), (5, "x" * 60, "board-05-" + "x" * 40),
])
def test_a_board_folder_is_read_back_as_the_board_and_clock_it_names(number, uid, name):
    assert folder.board_folder(number, uid) == name
    assert folder.board_of(name) == (number, folder.folder_uid(uid))


@pytest.mark.parametrize("name", ["sagat-log", "board-", "board-x-aaa", "board-3x", "board", "myclock-board-3"])
def test_a_folder_the_hall_did_not_name_is_no_board(name):
    assert folder.board_of(name) is None


def test_a_row_without_a_folder_names_its_board_alone():
    assert folder.board_of("board-5") == (5, None)


def test_round_json_written_by_the_hall_is_read_back_by_the_report(tmp_path):
    trf = tmp_path / "event.trf"
    trf.write_text("012 Cup\n", encoding="utf-8")
    out = tmp_path / "round-2"
    event = {"name": "Cup", "round": 2, "date": "2026-12-07", "site": "Almaty", "trf": str(trf)}
    folder.write_round(str(out), event, "300+2", {3: ("Alice", "Bob"), 1: ("", "Dana")},
                       {3: "e6614103e7", 1: "sim/1"})
    assert sorted(p.name for p in out.iterdir()) == [folder.TRF_COPY, folder.ROUND_FILE]  # (no .new left)
    assert (out / folder.TRF_COPY).read_text(encoding="utf-8") == "012 Cup\n"
    info = folder.round_info([str(out)])
    assert info == {"event": "Cup", "site": "Almaty", "tc": "300+2", "round": 2, "date": "2026-12-07",
                    "pairings": {1: ("", "Dana"), 3: ("Alice", "Bob")}, "clocks": {1: "sim_1", 3: "e6614103e7"},
                    "trf": str(out / folder.TRF_COPY)}
    # each board's clock as its folder names it: the report finds the board's folder by it
    assert folder.board_folder(1, "sim/1") == "board-01-" + info["clocks"][1]
    with open(out / folder.ROUND_FILE, encoding="utf-8") as fh:
        assert list(json.load(fh)["pairings"]) == ["1", "3"]  # (by board)


def test_a_round_without_a_trf_names_none(tmp_path):
    folder.write_round(str(tmp_path), {"name": "Cup"}, None, {}, {})
    assert folder.round_info([str(tmp_path)]) == {"event": "Cup", "site": None, "tc": None, "round": None,
                                                  "date": None, "pairings": {}, "clocks": {}, "trf": None}
    assert not (tmp_path / folder.TRF_COPY).exists()
