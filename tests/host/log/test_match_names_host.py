"""A match's names on the PC (docs/match.md, "Names"): `sagat new --mode ... --names LEFT RIGHT`
against `sagat sim --serial` gives them to the clock, which keeps them in its log after the setup
record; `sagat logs show` prints them on the score sheet (and in --json, CSV), `sagat logs verify`
accepts the record only right after the setup, and a names record anywhere else (moved, or in a
game) is caught."""

import csv
import io
import json

from matchlogkit import copy, play, seal, verify, write
from simkit import cli

from sagat.log import decode, export
from sagat.log.flash import read_image
from sagatfw.log import names as N
from sagatfw.log import records as R

NAMES = ["Асан Үсөнов", "Usen"]
BOUT = [
    {"at": 0, "do": "new", "mode": "kokboru", "lead": 8, "names": NAMES},
    {"at": 1000, "do": "start"},
    {"at": 5000, "do": "score", "side": "left", "points": 4},
    {"at": 6000, "do": "result", "winner": "left"},
]


def _setup_at(recs):
    """Index of the match's setup record (T_MATCH, 0x30): its names follow it."""
    return next(i for i, r in enumerate(recs) if R.type_of(r) == 0x30)


def test_logs_show_names_the_riders_on_the_match_score_sheet(tmp_path, capsys):
    recs, flash = play(tmp_path, capsys, BOUT)
    i = _setup_at(recs)
    assert R.type_of(recs[i + 1]) == N.T_NAMES
    code, out, err = cli(capsys, "logs", "show", "--image", flash)
    assert code == 0, err
    head = next(line for line in out.splitlines() if "match (score sheet)" in line)
    assert head.endswith("; left Асан Үсөнов, right Usen"), head
    assert "names left Асан Үсөнов, right Usen" in out  # its own line, after the setup's
    code, out, err = cli(capsys, "logs", "verify", "--image", flash)
    assert code == 0, out + err
    log = decode.read_segments(read_image(flash))
    ev = [e for e in log.events if e["type"] == "names"]
    assert ev == [{"game": R.game_of(recs[i]), "seq": R.seq_of(recs[i + 1]), "type": "names", "t": 0, "wall": None,
                   "names": {"left": "Асан Үсөнов", "right": "Usen"}}]
    rows = list(csv.DictReader(io.StringIO(export.to_csv(log.shown(game=R.game_of(recs[i]))))))
    row = next(r for r in rows if r["type"] == "names")
    assert json.loads(row["names"]) == {"left": "Асан Үсөнов", "right": "Usen"}


def test_attack_a_names_record_moved_or_in_a_game_is_caught(tmp_path, capsys):
    recs, _ = play(tmp_path, capsys, BOUT)
    i = _setup_at(recs)
    moved = copy(recs)
    moved.insert(i + 3, moved.pop(i + 1))  # after the start and the score: not what a clock writes
    code, out, err = verify(capsys, write(tmp_path, seal(moved), "moved"))
    assert code != 0 and "names, not right after its setup record" in out + err, out + err
    twice = copy(recs)
    twice.insert(i + 2, bytearray(recs[i + 1]))  # a second names record
    code, out, err = verify(capsys, write(tmp_path, seal(twice), "twice"))
    assert code != 0 and "names, not right after its setup record" in out + err, out + err
    game, _ = play(tmp_path, capsys, [{"at": 0, "do": "new", "tc": "300"}, {"at": 1000, "do": "start"}], "g")
    forged = copy(game)
    g = R.game_of(game[-1])
    forged.insert(len(forged) - 1, bytearray(recs[i + 1]))  # a match's names in a game, before its start
    forged[-2][2:4] = g.to_bytes(2, "little")
    code, out, err = verify(capsys, write(tmp_path, seal(forged), "game"))
    assert code != 0 and "names" in out + err, out + err


def test_attack_a_names_record_that_is_not_text_shows_as_unreadable(tmp_path, capsys):
    recs, _ = play(tmp_path, capsys, BOUT)
    bad = copy(recs)
    bad[_setup_at(recs) + 1][N.NAMES_AT] = 0xFF  # not UTF-8
    path = write(tmp_path, seal(bad), "bad")
    log = decode.read_segments([("bad.bin", open(path, "rb").read())])
    assert [e["names"] for e in log.events if e["type"] == "names"] == [None]
    code, out, err = cli(capsys, "logs", "show", "--records", path)
    assert code == 0 and "names unreadable" in out, out + err


def test_sagat_new_names_the_riders_and_state_gives_them(sim, capsys):
    port = sim.port
    code, out, err = cli(capsys, "new", "--mode", "kokboru", "--names", "Asan", "Usen", "--port", port)
    assert code == 0 and out.strip().endswith("(Asan - Usen)"), (out, err)
    code, out, err = cli(capsys, "state", "--json", "--port", port)
    assert json.loads(out)["names"] == {"left": "Asan", "right": "Usen"}
    code, out, err = cli(capsys, "new", "--mode", "kokboru", "--names", "Ж" * 30, "Q" * 30, "--port", port)
    assert code == 0 and "39 bytes" in err and out.strip().endswith("(" + "Ж" * 9 + " - " + "Q" * 21 + ")")
    code, out, err = cli(capsys, "new", "300", "--names", "Asan", "Usen", "--port", port)
    assert code != 0 and "--names is a match's" in err
    code, out, err = cli(capsys, "new", "--mode", "kokboru", "--names", "A\tB", "C", "--port", port)
    assert code != 0 and "control characters" in err
