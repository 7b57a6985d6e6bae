"""Match modes on the clock: a kok-boru bout and a kilithattu match
scripted end to end through `sagat sim --script --virtual --log-json` (the engine in App.step via
firmware/sagatfw/app/matchmode.py, its events in the journal as match records, log/matchrecords.py), restored
after power cuts, and read back by `sagat logs show`."""

import json

import pytest
from matchscripts import KILITHATTU, KOKBORU

from sagat.cli import main
from sagat.sim.script import SimError, actions_help, parse_script
from sagatfw.app.matchmode import lot_bit


def _script(path, lines):
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return str(path)


def _run(tmp_path, capsys, lines, name="m"):
    script = _script(tmp_path / f"{name}.jsonl", lines)
    out = tmp_path / f"{name}.log.jsonl"
    flash = tmp_path / f"{name}.img"
    code = main(["sim", "--script", script, "--flash", str(flash), "--virtual", "--log-json", str(out)])
    _, err = capsys.readouterr()
    assert code == 0, err
    events = [json.loads(line) for line in open(out)]
    return [e for e in events if e["type"] != "settings"], err, flash


def _brief(events):
    return [(e["type"], e["t"]) for e in events]


def test_a_kokboru_bout_end_to_end_is_logged_with_named_events(tmp_path, capsys):
    ev, err, flash = _run(tmp_path, capsys, KOKBORU)
    assert "refused" not in err, err
    assert ev[0] == {"game": 1, "seq": ev[0]["seq"], "t": 0, "wall": None, "type": "match", "mode": "kokboru",
                     "lead": 8}
    assert _brief(ev[1:]) == [
        ("period_start", 0), ("score", 30000), ("card", 60000), ("stoppage_start", 90000),
        ("stoppage_end", 100000), ("score", 120000), ("undo", 125000), ("score", 130000),
        ("period_end", 250000), ("break_start", 250000), ("break_end", 310000),
        ("period_start", 320000), ("score", 400000), ("score", 410000), ("period_end", 560000),
        ("period_start", 600000), ("card", 620000), ("score", 650000), ("result", 650000),
    ]
    assert all(e["game"] == 1 and e["mode"] == "kokboru" for e in ev)
    assert [e["seq"] for e in ev] == list(range(ev[0]["seq"], ev[0]["seq"] + len(ev)))  # one record each
    start, score, card, stop, stop_end, _, undo = ev[1:8]
    assert start["period_name"] == "1st half" and start["how"] == "referee" and start["length_ms"] == 240000
    assert score["side"] == "left" and score["points"] == 4 and score["entry"] == 1 and score["left"] == 4
    assert card["side"] == "right" and card["card"] == "warning" and card["entry"] == 2
    assert stop["stoppage"] == 1 and stop_end["length_ms"] == 10000 and stop_end["stopped_ms"] == 10000
    assert undo["side"] == "right" and undo["points"] == 2 and undo["entry"] == 3 and undo["right"] == 0
    assert ev[9]["match_ms"] == 240000 and ev[10]["length_ms"] == 60000 and ev[11]["early"] is False
    assert ev[12]["period_name"] == "2nd half" and ev[16]["period_name"] == "golden score"
    assert ev[16]["length_ms"] == 0  # golden score counts up
    result = ev[-1]
    assert result["winner"] == "right" and result["why"] == "golden_score"
    assert (result["left"], result["right"]) == (6, 7)
    assert result["match_ms"] == 50000
    # `sagat logs show` prints the match as a table of its own
    assert main(["logs", "show", "--image", str(flash)]) == 0
    table = capsys.readouterr().out
    assert "game 1: kokboru match (score sheet), lead 8" in table
    assert "result: right wins 6-7: the first score in golden score (KB-17)" in table
    assert "CARD right warning (entry 2)" in table


def test_a_kokboru_bout_comes_back_after_power_cuts_in_the_rest_and_in_golden_score(tmp_path, capsys):
    lines = KOKBORU[:9] + [
        {"at": 280000, "do": "power_cut", "off_ms": 5000},  # in the rest (t 250..310 s)
        # back at 285 s with t 280 s (the last checkpoint, every 15 s): from here t = at - 5 s; the
        # rest ended there (how long the power was off is not known), the 2nd half waits
        {"at": 300000, "do": "start"},  # t 295 s: the 2nd half, to t 535 s
        {"at": 370000, "do": "score", "side": "left", "points": 2},
        {"at": 380000, "do": "score", "side": "right", "points": 2},
        {"at": 570000, "do": "start"},  # golden score at t 565 s (the 2nd half ended level at 535 s)
        {"at": 590000, "do": "card", "side": "left", "kind": "warning"},
        {"at": 600000, "do": "power_cut", "off_ms": 3000},  # golden score running, 10 s after the card
        {"at": 610000, "do": "resume"},
        {"at": 620000, "do": "score", "side": "right", "points": 1},
    ]
    ev, err, _ = _run(tmp_path, capsys, lines)
    kinds = [e["type"] for e in ev]
    # the rest: the cut at t 285 s; the rest ends at its last checkpoint (every 15 s: t 280 s), never
    # longer than its 1:00 by the time without power, and the referee starts the 2nd half
    i = kinds.index("power_restore")
    assert _brief(ev[i - 2 : i + 3]) == [("period_end", 250000), ("break_start", 250000), ("power_restore", 280000),
                                         ("break_end", 280000), ("period_start", 295000)]
    assert ev[i]["period_name"] == "1st half" and ev[i]["stoppage"] == 0 and (ev[i]["left"], ev[i]["right"]) == (4, 4)
    assert ev[i]["break_ended"] and ev[i + 1]["power_cut"] and ev[i + 1]["length_ms"] == 30000
    assert "refused" not in err, err
    # golden score: back stopped at its last durable instant (the card: no checkpoint in the 10 s
    # after it), a stoppage the referee ends
    j = len(kinds) - 1 - kinds[::-1].index("power_restore")
    pr, resume, score, result = ev[j:]
    assert pr["period_name"] == "golden score" and pr["stoppage"] == 1 and pr["t"] == ev[j - 1]["t"]
    assert ev[j - 1]["type"] == "card"
    assert resume["type"] == "stoppage_end" and resume["stoppage"] == 1
    assert resume["length_ms"] == 610000 - 603000  # the time without power is in nothing
    assert pr["t"] == 590000 - 5000 and resume["t"] == pr["t"] + 7000
    assert score["type"] == "score" and result["type"] == "result" and result["why"] == "golden_score"
    assert result["winner"] == "right"


def test_a_kilithattu_match_end_to_end_innings_changeover_tie_extra_time_and_lots(tmp_path, capsys):
    ev, err, flash = _run(tmp_path, capsys, KILITHATTU, "kt")
    assert "refused" not in err, err
    assert ev[0]["type"] == "match" and ev[0]["mode"] == "kilithattu" and ev[0]["first"] == "left"
    assert ev[0]["changeover_ms"] == 60000 and ev[0]["method"] == "lot" and ev[0]["seed"] == 7
    lot1, lot2 = lot_bit(7, 1), lot_bit(7, 2)
    first_extra = ("left", "right")[lot1]
    assert _brief(ev[1:]) == [
        ("period_start", 0), ("score", 60000), ("stoppage_start", 120000), ("stoppage_end", 150000),
        ("score", 200000), ("period_end", 450000), ("break_start", 450000), ("break_end", 510000),
        ("period_start", 510000), ("score", 600000), ("score", 650000), ("score", 660000), ("undo", 670000),
        ("period_end", 930000), ("lot", 930000), ("period_start", 1000000), ("period_end", 1300000),
        ("break_start", 1300000), ("break_end", 1360000), ("period_start", 1360000), ("period_end", 1660000),
        ("lot", 1660000), ("result", 1660000), ("result", 1700000),
    ]
    by = {(e["type"], e["t"]): e for e in ev}
    assert by[("period_start", 0)]["side"] == "left" and by[("period_start", 0)]["period_name"] == "innings 1"
    assert by[("stoppage_end", 150000)]["stopped_ms"] == 30000
    assert by[("period_end", 450000)]["match_ms"] == 420000 and by[("period_end", 450000)]["stopped_ms"] == 30000
    inn2 = by[("period_start", 510000)]
    assert inn2["how"] == "clock" and inn2["side"] == "right" and inn2["period_name"] == "innings 2"
    assert by[("break_end", 510000)]["length_ms"] == 60000 and by[("break_end", 510000)]["early"] is False
    assert by[("undo", 670000)]["right"] == 2 and by[("undo", 670000)]["entry"] == 5
    lot = by[("lot", 930000)]
    assert lot["lot"] == 1 and lot["side"] == first_extra and (lot["left"], lot["right"]) == (2, 2)
    extra1 = by[("period_start", 1000000)]
    assert extra1["period_name"] == "extra 1" and extra1["side"] == first_extra and extra1["length_ms"] == 300000
    extra2 = by[("period_start", 1360000)]
    assert extra2["period_name"] == "extra 2" and extra2["how"] == "clock" and extra2["side"] != first_extra
    second = by[("lot", 1660000)]
    assert second["lot"] == 2 and second["side"] == ("left", "right")[lot2]
    by_lot, by_referee = ev[-2], ev[-1]
    assert by_lot["why"] == "lot" and by_lot["winner"] == second["side"]
    assert by_referee["why"] == "referee" and by_referee["winner"] is None  # a draw: the last result counts
    assert main(["logs", "show", "--image", str(flash), "--json"]) == 0
    shown = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e for e in shown if e["game"] == 1 and e["type"] != "settings"] == ev


def test_the_same_seed_draws_the_same_lots_and_a_power_cut_in_the_changeover_keeps_it(tmp_path, capsys):
    lines = list(KILITHATTU)
    lines.insert(6, {"at": 480000, "do": "power_cut", "off_ms": 2000})  # in the changeover (450..510 s)
    lines.insert(7, {"at": 490000, "do": "start"})  # the referee starts innings 2 (t 488 s)
    ev, err, _ = _run(tmp_path, capsys, lines, "cut")
    assert "refused" not in err, err
    kinds = [e["type"] for e in ev]
    i = kinds.index("power_restore")
    assert _brief(ev[i - 1 : i + 3]) == [("break_start", 450000), ("power_restore", 480000),
                                         ("break_end", 480000), ("period_start", 488000)]
    # the changeover ended at its last checkpoint (t 480 s, the cut's instant): 30 s taken, never
    # more than its 60 s by the time without power; innings 2 waited for the referee
    assert ev[i + 1]["power_cut"] and ev[i + 1]["length_ms"] == 30000 and ev[i + 2]["how"] == "referee"
    lots = [e for e in ev if e["type"] == "lot"]
    assert [e["side"] for e in lots] == [("left", "right")[lot_bit(7, 1)], ("left", "right")[lot_bit(7, 2)]]


def test_a_game_after_a_match_runs_as_before(tmp_path, capsys):
    lines = KOKBORU[:3] + [
        {"at": 39000, "do": "stoppage"},  # a new game or match replaces one whose time stands still
        {"at": 40000, "do": "new", "tc": "300", "first": "left"},
        {"at": 41000, "do": "start"},
        {"at": 45000, "do": "press", "side": "left"},
        {"at": 50000, "do": "result", "result": "1-0"},
    ]
    ev, err, _ = _run(tmp_path, capsys, lines, "after")
    assert "refused" not in err, err
    assert [(e["game"], e["type"]) for e in ev] == [(1, "match"), (1, "period_start"), (1, "score"),
                                                    (1, "stoppage_start"), (2, "game_start"), (2, "press"),
                                                    (2, "result")]
    assert ev[5]["left_ms"] == 296000


def test_match_script_lines_are_checked_before_anything_runs():
    ok = "\n".join(json.dumps(x) for x in KILITHATTU)
    actions, warnings = parse_script(ok)
    assert len(actions) == len(KILITHATTU) and not warnings
    bad = [
        ('{"at": 0, "do": "new", "mode": "polo"}', 'new: mode must be one of kokboru, kilithattu'),
        ('{"at": 0, "do": "new", "mode": "kokboru", "lead": 100}', 'new: lead must be a whole number 0..99'),
        ('{"at": 0, "do": "new", "mode": "kokboru", "first": "left"}', 'a kokboru match has no "first"'),
        ('{"at": 0, "do": "new", "mode": "kilithattu", "changeover_ms": 90000}',
         'new: changeover_ms must be a whole number 1000..60000'),
        ('{"at": 0, "do": "new", "mode": "kilithattu", "method": "coin"}',
         'new: method must be one of sudden, lot, draw, referee'),
        ('{"at": 0, "do": "new", "mode": "kokboru", "tc": "300"}', "not both"),
        ('{"at": 0, "do": "new"}', 'new: needs tc (a game) or mode (a match)'),
        ('{"at": 0, "do": "new", "tc": "300", "lead": 8}', 'new: lead is a match\'s option'),
        ('{"at": 0, "do": "new", "mode": "kokboru"}\n{"at": 1, "do": "press", "side": "left"}',
         "line 2: press is a game's action"),
        ('{"at": 0, "do": "new", "tc": "300"}\n{"at": 1, "do": "score", "side": "left", "points": 1}',
         "line 2: score is a match's action"),
        ('{"at": 0, "do": "new", "mode": "kokboru"}\n{"at": 1, "do": "result", "result": "1-0"}',
         'line 2: result needs "winner"'),
        ('{"at": 0, "do": "new", "mode": "kokboru"}\n{"at": 1, "do": "card", "side": "left", "kind": "yellow"}',
         'card: kind must be one of warning, red'),
    ]
    for text, message in bad:
        with pytest.raises(SimError) as e:
            parse_script(text, "s.jsonl")
        assert message in str(e.value), (text, str(e.value))
    help_text = actions_help()
    for word in ("score", "card", "stoppage", "undo", "mode", "seed", "winner"):
        assert word in help_text


def test_a_refused_match_action_is_a_warning_with_its_line(tmp_path, capsys):
    ev, err, _ = _run(tmp_path, capsys, [
        {"at": 0, "do": "new", "mode": "kokboru"},
        {"at": 0, "do": "score", "side": "left", "points": 4},  # not started
        {"at": 1000, "do": "start"},
        {"at": 2000, "do": "resume"},
        {"at": 3000, "do": "undo"},
    ], "refused")
    assert "line 2: score refused: not started" in err
    assert "line 4: resume refused: no stoppage" in err
    assert "line 5: undo refused: nothing to undo" in err
    assert [e["type"] for e in ev] == ["match", "period_start"]
