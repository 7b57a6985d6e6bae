"""A match's result withdrawn and a finished match rebooted, through the simulator and `sagat logs` (the
engine's side runs on both runtimes in tests/firmware/engine/test_match_result_undo_and_reboot.py, the app's in
tests/firmware/app/test_match_result_undo_and_reboot_mp.py):

- an undo that withdraws a result 40 s after it: those 40 s are the stoppage's (KB-16, KT-4.5) in
  the log, the score sheet and `sagat logs verify`, which replays the engine; a log that hides them
  fails;
- a finished match comes back after a reboot from its result record, which holds the match's final
  view (the cards, the entering team): verify checks that view against the engine's.
"""

import json
import struct

from matchlogkit import MATCH_EV, VAL, copy, find, fix_crc, play, run_image, seal, verify, write

from sagat.cli import main
from sagatfw.log import records as R

WITHDRAWN = [
    {"at": 0, "do": "new", "mode": "kokboru", "lead": 3},
    {"at": 0, "do": "start"},
    {"at": 10000, "do": "score", "side": "left", "points": 4},  # a lead of 4 > 3 (KB-14): left wins
    {"at": 50000, "do": "undo"},  # 40 s later the referee withdraws it: the bout comes back stopped
    {"at": 55000, "do": "resume"},
    {"at": 60000, "do": "score", "side": "right", "points": 2},
]


def _events(flash):
    from sagat.log import decode
    from sagat.log.flash import read_image

    log = decode.read_segments(read_image(str(flash)))
    return [e for e in log.shown() if e.get("game") == 1]


def test_the_time_between_a_result_and_its_undo_is_logged_as_stopped_time_and_verifies_kb_16(tmp_path, capsys):
    recs, flash = play(tmp_path, capsys, WITHDRAWN, "withdrawn")
    evs = _events(flash)
    start = [e for e in evs if e["type"] == "stoppage_start"][-1]
    end = [e for e in evs if e["type"] == "stoppage_end"][-1]
    assert (start["t"], start["length_ms"], start["stopped_ms"], start["match_ms"]) == (50000, 40000, 40000, 10000)
    assert (end["t"], end["length_ms"], end["stopped_ms"]) == (55000, 45000, 45000)
    score = [e for e in evs if e["type"] == "score"][-1]
    assert score["match_ms"] == 15000 and score["stopped_ms"] == 45000  # t 60 s = 15 s played + 45 s stopped
    code, out, _ = run_image(capsys, flash)
    assert code == 0, out
    assert main(["logs", "show", "--image", flash, "--game", "1"]) == 0
    sheet = capsys.readouterr().out
    assert "UNDO entry 1: left +4 taken back; the result (left, lead) is withdrawn" in sheet
    assert "stoppage 1: match time stopped since the result, 0:40.000 ago" in sheet, sheet
    assert "stoppage 1 ends after 0:45.000; 1st half stopped so far: 0:45.000" in sheet
    assert "periods:" not in sheet  # the withdrawn result ended no period
    assert "result: none in the log" in sheet
    # keyed, the same records verify
    keyed = write(tmp_path, seal(copy(recs), "k"), "keyed")
    assert verify(capsys, keyed, "k")[0] == 0


def test_a_log_that_hides_the_time_since_the_result_fails_verification(tmp_path, capsys):
    recs, _ = play(tmp_path, capsys, WITHDRAWN, "forged")
    # the forger makes the stoppage start at the undo (length 0) and shortens it to 5 s, and fits
    # the stopped totals after it: the engine still says the match was stopped at the result
    forged = copy(recs)
    i = find(forged, "stoppage_start")
    struct.pack_into("<I", forged[i], VAL, 0)
    struct.pack_into("<I", forged[i], R.PAYLOAD, 0)
    for rec in forged[i + 1:]:
        if 0x20 <= rec[1] < 0x30:
            if rec[1] == MATCH_EV["stoppage_end"]:
                struct.pack_into("<I", rec, VAL, 5000)
            struct.pack_into("<I", rec, R.PAYLOAD, 5000)
    for rec in forged:
        fix_crc(rec)
    path = write(tmp_path, seal(forged), "forged")  # re-chained unkeyed: only the replay can tell
    code, out, _ = verify(capsys, path)
    assert code == 1, out
    assert "seq %d: stoppage_start at t=50000: stopped_ms is 0 in the log, 40000 by the engine" % i in out, out
    # the length alone zeroed (the totals kept): caught too
    forged = copy(recs)
    struct.pack_into("<I", forged[i], VAL, 0)
    fix_crc(forged[i])
    code, out, _ = verify(capsys, write(tmp_path, seal(forged), "forged2"))
    assert code == 1 and "stoppage_start at t=50000: length_ms is 0 in the log, 40000 by the engine" in out, out


def test_the_score_sheet_json_names_the_stoppage_s_length_so_far(tmp_path, capsys):
    _, flash = play(tmp_path, capsys, WITHDRAWN, "json")
    assert main(["logs", "show", "--image", flash, "--game", "1", "--json"]) == 0
    evs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    starts = [e for e in evs if e["type"] == "stoppage_start"]
    assert [(e["stoppage"], e["length_ms"]) for e in starts] == [(1, 40000)]


def test_a_result_record_holds_the_final_view_and_a_forged_one_fails_verification(tmp_path, capsys):
    from matchscripts import KOKBORU

    lines = KOKBORU + [{"at": 660000, "do": "power_cut", "off_ms": 5000},  # after the result: shown again
                       {"at": 700000, "do": "undo"}]  # refused after the reboot (match over)
    recs, flash = play(tmp_path, capsys, lines, "final")
    res = [e for e in _events(flash) if e["type"] == "result"]
    assert len(res) == 1 and res[0]["winner"] == "right" and res[0]["why"] == "golden_score"
    assert res[0]["warnings"] == [1, 1] and res[0]["reds"] == [0, 0] and res[0]["entering"] is None
    assert [e["type"] for e in _events(flash)][-1] == "result"  # nothing logged at the reboot
    code, out, _ = run_image(capsys, flash)
    assert code == 0, out
    forged = copy(recs)
    i = find(forged, "result")
    forged[i][R.PAYLOAD + 4] = 0  # left's warning taken off the final view
    fix_crc(forged[i])
    code, out, _ = verify(capsys, write(tmp_path, seal(forged), "forged-final"))
    assert code == 1 and "result at t=650000: warnings is [0, 1] in the log, [1, 1] by the engine" in out, out


def test_the_firmware_s_copies_of_the_match_record_codes_agree_with_matchlog():
    # log/matchwrite.py (the match's records written) and app/setup.py (read at its restore) keep
    # matchlog's codes as their own constants (matchlog's names would be RAM beside a match: the
    # heap after a match's restore): they must stay the same
    from sagatfw.app import setup as matchsetup
    from sagatfw.engine import matchwords as M
    from sagatfw.log import matchrecords as matchlog
    from sagatfw.log import matchwrite

    assert (matchwrite._EV_BASE, matchwrite._EV_BASE + M.EV_RESULT, matchwrite._T_MATCH) == (
        matchlog.EV_BASE, matchlog.EV_RESULT, matchlog.T_MATCH)
    assert (matchwrite._SETUP, matchwrite._FINAL) == (matchlog.SETUP, matchlog.FINAL)
    # the journal's wall() takes a match's engine as it takes the game's clock: set up is 0 in both
    from sagatfw.engine import clock as C

    assert M.SETUP == C.SETUP
    assert (matchsetup._EV_BASE, matchsetup._EV_RESULT, matchsetup._T_MATCH) == (
        matchlog.EV_BASE, matchlog.EV_RESULT, matchlog.T_MATCH)
    assert (matchsetup._FINAL, matchsetup._FINAL_AT) == (matchlog.FINAL, matchlog.FINAL_AT)

