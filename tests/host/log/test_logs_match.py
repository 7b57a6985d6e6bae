"""`sagat logs verify|show|export` on matches: a match's records are replayed through its
mode's engine, so a forged match record fails: with the arbiter key by the chain (an edit, or a log
re-chained without the key), without a key by the replay wherever the engine disagrees (a score
changed, an event removed, a period's end moved, a lot flipped against the match's seed).

The logs are whole matches played by the sim from scripts (tests/kits/matchscripts.py's); a keyed log
is the same records sealed under KEY from seq 0, as a clock with the key set from the start."""

import contextlib
import csv
import io
import json
import struct

import pytest
from matchlogkit import (
    ARG,
    LEFT,
    MATCH_EV,
    SIDE,
    STOPPED,
    VAL,
    T,
    copy,
    find,
    fix_crc,
    play,
    run_image,
    seal,
    verify,
    write,
)
from matchscripts import KILITHATTU, KOKBORU

from sagat.cli import main
from sagat.log import export
from sagatfw.app.matchmode import lot_bit
from sagatfw.log import records as R

KEY = "secret"
def _u16(rec, at, v):
    struct.pack_into("<H", rec, at, v)


@pytest.fixture(scope="module")
def bout(tmp_path_factory):
    """The kok-boru bout of matchscripts.py (a score, card, stoppage, undo, rest, golden score)."""
    tmp = tmp_path_factory.mktemp("bout")
    return _play_quiet(tmp, KOKBORU, "kb")


@pytest.fixture(scope="module")
def innings(tmp_path_factory):
    """The kilithattu match of matchscripts.py (changeovers, a tie, both lots, seed 7)."""
    tmp = tmp_path_factory.mktemp("kt")
    return _play_quiet(tmp, KILITHATTU, "kt")


class _Quiet:
    """A capsys stand-in for the module's fixtures: the sim's output (its final faces) goes into
    a buffer of its own, so it never reaches the capture of the test that first asks for them."""

    def __init__(self):
        self.buf = io.StringIO()

    def readouterr(self):
        return self.buf.getvalue(), ""


def _play_quiet(tmp, lines, name):
    quiet = _Quiet()
    with contextlib.redirect_stdout(quiet.buf):
        return play(tmp, quiet, lines, name)


# ------------------------------------------------------------------ authentic matches verify


@pytest.mark.parametrize("which", ["bout", "innings"])
def test_a_whole_match_verifies_through_its_engine_keyed_and_unkeyed(which, request, tmp_path, capsys):
    recs, flash = request.getfixturevalue(which)
    code, out, _ = run_image(capsys, flash)
    assert code == 0, out
    assert out.startswith("OK: ") and "match" in out.splitlines()[0]
    keyed = write(tmp_path, seal(copy(recs), KEY), "keyed")
    code, out, _ = verify(capsys, keyed, KEY)
    assert code == 0, out
    code, out, err = verify(capsys, keyed)  # keyed, no key given: one line says which option gives it
    assert code == 2 and out == "" and "--key KEY or --key-file FILE" in err, (out, err)


def test_matches_restored_after_power_cuts_verify(tmp_path, capsys):
    lines = KOKBORU[:9] + [
        {"at": 280000, "do": "power_cut", "off_ms": 5000},  # in the rest
        {"at": 350000, "do": "start"},
        {"at": 400000, "do": "score", "side": "left", "points": 2},
        {"at": 600000, "do": "start"},
        {"at": 630000, "do": "power_cut", "off_ms": 3000},  # golden score running
        {"at": 640000, "do": "resume"},
        {"at": 650000, "do": "score", "side": "right", "points": 1},
    ]
    _, flash = play(tmp_path, capsys, lines, "cut")
    code, out, _ = run_image(capsys, flash)
    assert code == 0, out
    kt = list(KILITHATTU)
    kt.insert(6, {"at": 480000, "do": "power_cut", "off_ms": 2000})  # in the changeover
    _, flash = play(tmp_path, capsys, kt, "ktcut")
    code, out, _ = run_image(capsys, flash)
    assert code == 0, out


def test_a_power_cut_in_a_stoppage_keeps_its_length_and_verifies(tmp_path, capsys):
    # the match checkpoints a stoppage too: cut 40 s into it, the board comes back at its last
    # checkpoint (t 15 s and 30 s into it), and the stoppage's logged length counts from its
    # start, less only the time since that checkpoint; `logs verify` accepts the power_restore
    lines = [
        {"at": 0, "do": "new", "mode": "kokboru", "lead": 8},
        {"at": 1000, "do": "start"},
        {"at": 20000, "do": "stoppage"},
        {"at": 60000, "do": "power_cut", "off_ms": 5000},
        {"at": 70000, "do": "resume"},
    ]
    _, flash = play(tmp_path, capsys, lines, "stopcut")
    code, out, _ = run_image(capsys, flash)
    assert code == 0, out
    assert main(["logs", "show", "--image", flash, "--json"]) == 0
    ev = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    pr = [e for e in ev if e["type"] == "power_restore"][0]
    end = [e for e in ev if e["type"] == "stoppage_end"][0]
    assert pr["t"] == 19000 + 30000, pr  # the checkpoint 30 s into the stoppage (t 19 s + 30 s)
    assert end["length_ms"] == 30000 + (70000 - 65000), end  # to the checkpoint, then from the restore


def test_a_game_after_a_match_and_a_match_after_a_game_both_replay(tmp_path, capsys):
    lines = [
        {"at": 0, "do": "new", "tc": "300", "first": "left"},
        {"at": 1000, "do": "start"},
        {"at": 5000, "do": "press", "side": "left"},
        {"at": 6000, "do": "result", "result": "1-0"},
    ] + [dict(x, at=x["at"] + 10000) for x in KOKBORU[:6]] + [
        {"at": 199000, "do": "stoppage"},  # a new game replaces a match whose time stands still
        {"at": 200000, "do": "new", "tc": "60", "first": "right"},
        {"at": 201000, "do": "start"},
    ]
    _, flash = play(tmp_path, capsys, lines, "mixed")
    code, out, _ = run_image(capsys, flash)
    assert code == 0, out
    assert "games 0, 1, 2, 3" in out


# ------------------------------------------------------------------ forgeries, with the key


def _forge_score(recs):
    """The first score (left 4) becomes the right rider's, every later score shifted to fit."""
    i = find(recs, "score")
    recs[i][SIDE] = 1
    for r in recs[i:]:
        if 0x20 <= r[1] <= 0x2B:
            left, right = struct.unpack_from("<HH", r, LEFT)
            struct.pack_into("<HH", r, LEFT, left - 4, right + 4)
    return i


def _remove_undo(recs):
    i = find(recs, "undo")
    del recs[i]
    return i


def _move_period_end(recs):
    """The 1st half ended 5 s sooner (and the rest with it): as if the stoppage had been shorter."""
    i = find(recs, "period_end")
    for j in (i, i + 1):  # period_end, break_start
        struct.pack_into("<I", recs[j], T, R.t_of(recs[j]) - 5000)
    return i


def _flip_lot(recs):
    """The first lot (the order of the extra time) drawn for the other team, the extra periods'
    entering teams with it."""
    i = find(recs, "lot")
    recs[i][SIDE] ^= 1
    for kind in ("period_start",):
        for j, r in enumerate(recs):
            if j > i and r[1] == MATCH_EV[kind] and r[SIDE] in (0, 1):
                r[SIDE] ^= 1
    return i


FORGERIES = {
    "score changed": ("bout", _forge_score),
    "event removed": ("bout", _remove_undo),
    "period end moved": ("bout", _move_period_end),
    "lot flipped": ("innings", _flip_lot),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_keyed_match_forgery_fails_the_chain(name, request, tmp_path, capsys):
    which, forge = FORGERIES[name]
    recs, _ = request.getfixturevalue(which)
    good = seal(copy(recs), KEY)
    # edited in place, CRC fixed: the MAC needs the key
    bad = copy(good)
    i = forge(bad)
    for r in bad:
        fix_crc(r)
    code, out, _ = verify(capsys, write(tmp_path, bad, "edited"), KEY)
    assert code == 1 and out.startswith("BROKEN at seq ")
    assert ("(missing)" if name == "event removed" else "(chain)") in out.splitlines()[0]
    seq = int(out.split()[3])
    assert seq <= R.seq_of(good[i]) + (name == "event removed")  # the record after the one removed
    # re-chained without the key: nothing links under it
    bad = copy(good)
    forge(bad)
    code, out, _ = verify(capsys, write(tmp_path, seal(bad), "rechained"), KEY)
    assert code == 1 and "no record links under the key given" in out


# ------------------------------------------------------------------ forgeries, no key: the engine


@pytest.mark.parametrize(
    "name, expect",
    [
        # 0-4 after the 1st score, 2-10 at the end of the 2nd half: the engine ends the bout on points
        ("score changed", "the log has period_start at t=600000, the engine has result at t=560000 (winner right, "
                          "points)"),
        ("event removed", "score at t=130000: right is 4 in the log, 6 by the engine"),
        ("period end moved", "the log has period_end at t=245000, the engine has nothing"),
        ("lot flipped", "the match's seed 7 draws"),
    ],
)
def test_unkeyed_match_forgery_is_caught_by_the_replay(name, expect, request, tmp_path, capsys):
    which, forge = FORGERIES[name]
    recs, _ = request.getfixturevalue(which)
    code, out, _ = verify(capsys, write(tmp_path, seal(copy(recs)), "good"))
    assert code == 0, out
    bad = copy(recs)
    forge(bad)
    code, out, _ = verify(capsys, write(tmp_path, seal(bad), "forged"))
    assert code == 1, out
    assert out.splitlines()[0] == "BROKEN"
    line = out.splitlines()[1]
    assert line.startswith("game 1 (kokboru match): seq " if which == "bout" else "game 1 (kilithattu match): seq ")
    assert expect in line, line


def test_a_flipped_lot_without_a_seed_is_caught_where_the_engine_disagrees(tmp_path, capsys):
    """A lot drawn from the board's true random source (no seed) cannot be checked by itself; the
    flipped order of the extra time is caught at the first score of the wrong team."""
    lines = [dict(x) for x in KILITHATTU]
    del lines[0]["seed"]
    recs, _ = play(tmp_path, capsys, lines[:11] + [{"at": 1100000, "do": "score", "side": "left", "points": 1},
                                                    {"at": 1110000, "do": "score", "side": "right", "points": 1}],
                    "noseed")
    # one of the two scores is refused (not the entering team): the other is logged
    bad = copy(recs)
    i = _flip_lot(bad)
    assert i
    code, out, _ = verify(capsys, write(tmp_path, seal(bad), "forged"))
    assert code == 1 and "not the entering team" in out, out


def test_a_flipped_second_lot_with_its_result_is_caught_by_the_seed(innings, tmp_path, capsys):
    recs, _ = innings
    bad = copy(recs)
    i = find(bad, "lot", 1)
    bad[i][SIDE] ^= 1
    bad[i + 1][SIDE] ^= 1  # the result it decided
    code, out, _ = verify(capsys, write(tmp_path, seal(bad), "forged"))
    assert code == 1
    want = ("left", "right")[lot_bit(7, 2)]
    assert f"lot 2 drew {('left', 'right')[1 - lot_bit(7, 2)]}, but the match's seed 7 draws {want}" in out


def test_a_removed_result_and_a_changed_why_are_caught(bout, tmp_path, capsys):
    recs, _ = bout
    bad = copy(recs)
    del bad[find(bad, "result")]  # the golden score's result (the match's last record)
    code, out, _ = verify(capsys, write(tmp_path, seal(bad), "noresult"))
    assert code == 1 and "the engine has result at t=650000 (winner right, golden_score), the log does not" in out, out
    bad = copy(recs)
    _u16(bad[find(bad, "result")], ARG, 0)  # "points" instead of golden score
    code, out, _ = verify(capsys, write(tmp_path, seal(bad), "why"))
    assert code == 1 and "why is 'points' in the log, 'golden_score' by the engine" in out, out


def test_a_stoppage_made_longer_is_caught(bout, tmp_path, capsys):
    recs, _ = bout
    bad = copy(recs)
    i = find(bad, "stoppage_end")
    struct.pack_into("<I", bad[i], T, R.t_of(bad[i]) + 2000)
    struct.pack_into("<I", bad[i], VAL, 12000)
    struct.pack_into("<I", bad[i], STOPPED, 12000)
    code, out, _ = verify(capsys, write(tmp_path, seal(bad), "stop"))
    assert code == 1 and "seq" in out and "score at t=120000: match_ms is" in out, out


def test_a_clock_event_in_a_match_and_a_bad_setup_are_problems_not_crashes(bout, tmp_path, capsys):
    recs, _ = bout
    bad = copy(recs)
    bad[find(bad, "card")][1] = 1  # a clock's press inside the match
    code, out, _ = verify(capsys, write(tmp_path, seal(bad), "press"))
    assert code == 1 and "press in a match" in out, out
    bad = copy(recs)
    setup = next(i for i, r in enumerate(bad) if r[1] == 0x30)
    _u16(bad[setup], ARG, 7)  # no such mode
    code, out, _ = verify(capsys, write(tmp_path, seal(bad), "mode"))
    assert code == 1 and "game 1" in out and "mode" in out, out
    for garbage in range(0x20, 0x31):  # every match type with random-ish fields: never a traceback
        bad = copy(recs)
        bad[5][1] = garbage
        struct.pack_into("<hI", bad[5], ARG, -3, 0)
        code, out, err = verify(capsys, write(tmp_path, seal(bad), "g"))
        assert code == 1 and "Traceback" not in err + out


# ------------------------------------------------------------------ the result code


def test_the_result_code_of_a_match(bout, tmp_path, capsys):
    recs, _ = bout
    good = seal(copy(recs), KEY)
    res = good[find(good, "result")]
    code = R.result_code(R.chain_of(res))
    path = write(tmp_path, good, "keyed")
    rc, out, _ = verify(capsys, path, KEY, "--game", "1", "--code", code)
    assert rc == 0 and (f"code {code}: game 1's result right wins 6-7: the first score in golden score (KB-17) at seq "
                        f"{R.seq_of(res)} is the one the faces showed") in out, out
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    rc, out, _ = verify(capsys, path, KEY, "--game", "1", "--code", wrong)
    assert rc == 1 and "is not the code of game 1's result" in out


# ------------------------------------------------------------------ the score sheet and the export


def _sheet_line(out, seq):
    return next(line for line in out.splitlines() if line.split()[:1] == [str(seq)])


def test_show_prints_a_match_as_a_score_sheet(bout, capsys):
    recs, flash = bout
    seq = {(kind, n): R.seq_of(recs[find(recs, kind, n)]) for kind, n in (
        ("period_start", 0), ("score", 0), ("card", 0), ("stoppage_end", 0), ("undo", 0), ("period_end", 0),
        ("break_start", 0), ("break_end", 0), ("period_start", 2), ("result", 0))}
    assert main(["logs", "show", "--image", flash, "--game", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("game 1: kokboru match (score sheet), lead 8 (a lead of more than 8 points wins at once")
    line = _sheet_line(out, seq[("period_start", 0)])
    assert "1st half" in line and "0:00.000" in line and "starts: 4:00 of match time, the referee's start" in line
    line = _sheet_line(out, seq[("score", 0)])  # its match time and the running score
    assert line.split()[1:] == ["0:30.000", "1st", "half", "0:30.000", "4-0", "SCORE", "left", "+4", "(entry", "1)"]
    assert "CARD right warning (entry 2)" in _sheet_line(out, seq[("card", 0)])
    line = _sheet_line(out, seq[("stoppage_end", 0)])
    assert "stoppage 1 ends after 0:10.000; 1st half stopped so far: 0:10.000" in line
    line = _sheet_line(out, seq[("undo", 0)])
    assert "1:55.000" in line and "4-0" in line and "UNDO entry 3: right +2 taken back" in line
    line = _sheet_line(out, seq[("period_end", 0)])
    assert "1st half ends: time up at 4:00.000 of match time, 0:10.000 stopped in all" in line
    assert "rest starts (1:00)" in _sheet_line(out, seq[("break_start", 0)])
    assert "rest ends after 1:00.000" in _sheet_line(out, seq[("break_end", 0)])
    assert "golden score starts: counts up, the first score wins" in _sheet_line(out, seq[("period_start", 2)])
    line = _sheet_line(out, seq[("result", 0)])
    assert "golden score" in line and "0:50.000" in line and "RESULT right wins 6-7" in line
    assert "periods: 1st half 4-4 (0:10.000 stopped); 2nd half 6-6; golden score 6-7" in out
    assert "result: right wins 6-7: the first score in golden score (KB-17)" in out


def test_show_names_the_lots_and_what_they_decided(innings, capsys):
    _, flash = innings
    assert main(["logs", "show", "--image", flash]) == 0
    out = capsys.readouterr().out
    first = ("left", "right")[lot_bit(7, 1)]
    won = ("left", "right")[lot_bit(7, 2)]
    assert "kilithattu match (score sheet), left enters first, changeover 1:00, a tie after the extra time: lot" in out
    assert f"LOT 1 (KT-4.6, the clock's draw): {first} enters first in the extra time" in out
    assert f"LOT 2 (KT-4.6, the clock's draw): {won} wins the lot" in out
    assert f"RESULT {won} wins 2-2: the lot after the extra time (KT-4.6, method lot)" in out
    assert "RESULT a draw 2-2: the referee's entry (it replaces the result before)" in out
    assert "by the clock at the changeover's end; right enters" in out
    assert out.rstrip().endswith("result: a draw 2-2: the referee's entry")


def test_show_names_the_result_an_undo_withdraws(tmp_path, capsys):
    _, flash = play(tmp_path, capsys, [
        {"at": 0, "do": "new", "mode": "kokboru", "lead": 3},
        {"at": 0, "do": "start"},
        {"at": 10000, "do": "score", "side": "left", "points": 4},  # a lead of 4 > 3: left wins at once
        {"at": 12000, "do": "undo"},  # the referee takes it back: the bout comes back stopped
        {"at": 15000, "do": "resume"},
    ], "withdraw")
    assert main(["logs", "show", "--image", flash]) == 0
    out = capsys.readouterr().out
    assert "UNDO entry 1: left +4 taken back; the result (left, lead) is withdrawn" in out
    assert "result: none in the log" in out
    code, out, _ = run_image(capsys, flash)
    assert code == 0, out


def test_export_csv_of_a_match_has_a_match_s_columns(bout, tmp_path, capsys):
    recs, flash = bout
    assert main(["logs", "export", "--image", flash, "--game", "1"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0]) == export.match_csv_fields()
    assert export.match_csv_fields()[-5:] == ["lead", "first", "changeover_ms", "method", "seed"]
    assert rows[0]["type"] == "match" and rows[0]["mode"] == "kokboru" and rows[0]["lead"] == "8"
    score = next(r for r in rows if r["type"] == "score")
    assert (score["period_name"], score["match_ms"], score["left"], score["right"], score["side"], score["points"],
            score["entry"]) == ("1st half", "30000", "4", "0", "left", "4", "1")
    result = rows[-1]
    assert (result["type"], result["winner"], result["why"]) == ("result", "right", "golden_score")
    # the whole log: game 0 (the boot's settings) and the match: the game's columns, then the match's
    assert main(["logs", "export", "--image", flash]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0])[: len(export.CSV_FIELDS)] == export.CSV_FIELDS and "period_name" in rows[0]
    assert rows[0]["type"] == "settings" and rows[-1]["why"] == "golden_score"
    assert main(["logs", "export", "--image", flash, "--format", "json", "--game", "1"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(events) == len(recs) - 1 and events[-1]["why"] == "golden_score"


def test_the_game_csv_is_unchanged_by_matches(tmp_path, capsys):
    _, flash = play(tmp_path, capsys, [
        {"at": 0, "do": "new", "tc": "300", "first": "left"},
        {"at": 1000, "do": "start"},
        {"at": 5000, "do": "press", "side": "left"},
    ], "game")
    assert main(["logs", "export", "--image", flash]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == ",".join(export.CSV_FIELDS) == (
        "game,seq,type,t,left_ms,right_ms,left_moves,right_moves,running,wall,side,by,order,stage,result,reason,tc,"
        "first,before,after,dropped,kazans")
