"""`sagat logs verify` holds a game's result record to what the clock itself enters (the firmware's
`engine/kazans.py`: TK-R1, TK-R4, TK-R5, TK-R7, TK-C12, with the flag the engine's replay has down):
every result the simulator enters in virtual time verifies clean, and a result record the clock
refuses to enter, resealed into an unkeyed log on real littlefs, is a problem that names the record
and why, in the user's language, with exit 1."""

import struct

import pytest
from codekit import KINDS, NEW, START, _result, played
from imagekit import edit_image
from simkit import cli

from sagatfw.engine import clock as C
from sagatfw.log import records as R

LEFT_MOVES = {"at": 5000, "do": "press", "side": "left"}
RIGHT_MOVES = {"at": 7000, "do": "press", "side": "right"}
# results the clock enters beyond codekit's (a win by kazans on a board played out, a resignation mid-game,
# right flagged at exactly 81, whose win is the arbiter's call)
MORE = {
    "kazans_win": [NEW, START, LEFT_MOVES, RIGHT_MOVES, _result(9000, "1-0", (95, 67))],
    "resignation": [NEW, START, LEFT_MOVES, RIGHT_MOVES, _result(9000, "0-1")],
    "flagged_at_81_wins": [NEW, START, LEFT_MOVES, _result(70000, "0-1", (70, 81))],
}
GENUINE = {**{k: v[0] for k, v in KINDS.items() if k != "match"}, **MORE}


@pytest.mark.parametrize("kind", list(GENUINE))
def test_every_result_the_clock_enters_verifies_clean(kind, tmp_path, capsys):
    flash, _ = played(capsys, tmp_path, GENUINE[kind])
    rc, out, _ = cli(capsys, "logs", "verify", "--image", flash)
    assert rc == 0 and out.startswith("OK: "), out


def _forged(tmp_path, capsys, kind, result=None, kazans=None):
    """The sim's image of GENUINE[kind] with its result record changed to `result` and the kazans
    `kazans` ((left, right), or "none"), the unkeyed chain resealed after it (anybody can): (image, seq)."""
    tmp_path = tmp_path / f"{kind}-{result}-{kazans}"  # (a played flash of its own)
    tmp_path.mkdir()
    flash, _ = played(capsys, tmp_path, GENUINE[kind])
    seqs = []

    def forge(segs):
        prev = R.ZERO_CHAIN
        chain = R.Chain(b"")
        for name in sorted(segs):
            seg = segs[name]
            for at in range(0, len(seg), R.RECORD_SIZE):
                rec = memoryview(seg)[at : at + R.RECORD_SIZE]
                if rec[1] == R.T_ANCHOR:  # the link before its segment, as resealed
                    R.pack_anchor(rec, R.game_of(rec), R.seq_of(rec), prev)
                    continue
                if rec[1] == C.EV_RESULT:
                    seqs.append(R.seq_of(rec))
                    if result is not None:
                        struct.pack_into("<H", rec, 26, C.RESULT_NAMES.index(result))
                    if kazans == "none":
                        rec[R.PAYLOAD : R.PAYLOAD + 3] = bytes(3)
                    elif kazans is not None:
                        rec[R.PAYLOAD : R.PAYLOAD + 3] = bytes((1, *kazans))
                prev = R.seal(rec, prev, chain)

    bad = edit_image(flash, tmp_path / "forged.img", forge)
    assert len(seqs) == 1
    return bad, seqs[0]


def _verify_says(capsys, image, line):
    rc, out, _ = cli(capsys, "logs", "verify", "--image", image)
    assert rc == 1 and out.startswith("BROKEN"), out
    assert line in out.splitlines(), out


def test_kazans_beyond_the_boards_162_are_a_problem(tmp_path, capsys):
    bad, seq = _forged(tmp_path, capsys, "win", kazans=(200, 200))
    _verify_says(capsys, bad, f"game 1: seq {seq}: the result 1-0 with kazans 200-200 is not one the clock enters: "
                              f"the kazans are two counts of 0 to 162, left's then right's")


def test_kazans_that_add_up_past_162_are_a_problem(tmp_path, capsys):
    bad, seq = _forged(tmp_path, capsys, "win", kazans=(100, 70))
    _verify_says(capsys, bad, f"game 1: seq {seq}: the result 1-0 with kazans 100-70 is not one the clock enters: "
                              f"kazans 100-70: more than the 162 kumalaks of the board (TK-R1)")


def test_a_win_for_the_side_with_fewer_kazans_than_its_opponents_82_is_a_problem(tmp_path, capsys):
    bad, seq = _forged(tmp_path, capsys, "win", kazans=(60, 90))
    _verify_says(capsys, bad, f"game 1: seq {seq}: the result 1-0 with kazans 60-90 is not one the clock enters: "
                              f"kazans 60-90: right has more than 81, so right wins (TK-R1, TK-R7)")


def test_the_flagged_sides_win_without_kazans_is_a_problem(tmp_path, capsys):
    # the clock enters right's win with right's flag down only with the kazans that say why (TK-R7)
    bad, seq = _forged(tmp_path, capsys, "flagged_side_wins", kazans="none")
    _verify_says(capsys, bad, f"game 1: seq {seq}: the result 0-1 without kazans is not one the clock enters: "
                              f"right's flag is down: a draw or right's win needs the final kazans (TK-R7, TK-C12)")


def test_the_flagged_sides_draw_under_81_is_a_problem(tmp_path, capsys):
    bad, seq = _forged(tmp_path, capsys, "draw_flag", kazans=(90, 70))
    _verify_says(capsys, bad, f"game 1: seq {seq}: the result 1/2-1/2 with kazans 90-70 is not one the clock "
                              f"enters: kazans 90-70: left has more than 81, so left wins (TK-R1, TK-R7)")
    bad, seq = _forged(tmp_path, capsys, "draw_flag", kazans=(80, 80))
    _verify_says(capsys, bad, f"game 1: seq {seq}: the result 1/2-1/2 with kazans 80-80 is not one the clock "
                              f"enters: right's flag is down and right's kazan holds 80, under 81: right lost (TK-C12)")


def test_kazans_on_a_forfeit_are_a_problem(tmp_path, capsys):
    bad, seq = _forged(tmp_path, capsys, "default_left_wins", kazans=(90, 10))
    _verify_says(capsys, bad, f"game 1: seq {seq}: the result +/- with kazans 90-10 is not one the clock enters: "
                              f"the kazans go with a game played (1-0, 0-1, 1/2-1/2), not with a forfeit (TK-R4)")


def test_a_win_with_81_81_is_a_problem(tmp_path, capsys):
    bad, seq = _forged(tmp_path, capsys, "draw_kazans", result="1-0")
    _verify_says(capsys, bad, f"game 1: seq {seq}: the result 1-0 with kazans 81-81 is not one the clock enters: "
                              f"kazans 81-81 are a draw (TK-R5)")


def test_a_forged_result_that_the_replay_does_not_reach_is_still_checked(tmp_path, capsys):
    # its game's setup cut off (the log begins at an anchor): what the result says by itself is checked
    bad, seq = _forged(tmp_path, capsys, "draw_kazans", result="0-1")

    def cut(segs):
        (name,) = segs
        seg = segs[name]
        first = next(at for at in range(0, len(seg), R.RECORD_SIZE) if R.seq_of(seg[at : at + 64]) == seq)
        before = R.chain_of(seg[first - R.RECORD_SIZE : first])
        R.pack_anchor(memoryview(seg)[first - R.RECORD_SIZE : first], 1, seq, before)
        del seg[: first - R.RECORD_SIZE]

    cut_img = edit_image(bad, tmp_path / "cut.img", cut)
    _verify_says(capsys, cut_img, f"game 1: seq {seq}: the result 0-1 with kazans 81-81 is not one the clock "
                                  f"enters: kazans 81-81 are a draw (TK-R5)")


WORDS = {  # the line's words in each language (its catalogue's)
    "kk_KZ.UTF-8": "қазан",
    "ru_RU.UTF-8": "казан",
    "ky_KG.UTF-8": "казан",
}


@pytest.mark.parametrize("language", list(WORDS))
def test_the_problem_is_said_in_the_users_language(language, lang, tmp_path, capsys):
    bad, seq = _forged(tmp_path, capsys, "win", kazans=(60, 90))
    lang(language)
    rc, out, _ = cli(capsys, "logs", "verify", "--image", bad)
    line = next(x for x in out.splitlines() if "60-90" in x)
    assert rc == 1 and f"{seq}" in line and WORDS[language] in line.lower(), out
    assert "is not one the clock enters" not in out and "so right wins" not in out, out


@pytest.mark.parametrize("code, parts, said", [
    ("kazans_draw", None, "kazans 81-81 are a draw (TK-R5)"),
    ("flag_lost", {"side": "left", "kazan": 80}, "left's flag is down and left's kazan holds 80, under 81: left lost "
                                                   "(TK-C12)"),
    ("a_newer_clocks_code", None, "a newer clock's own English"),
], ids=["a code", "a code said by its part", "a code this sagat does not know"])
def test_the_problem_is_said_by_the_checks_reason_code_not_by_its_english(code, parts, said, monkeypatch):
    # the check's English may change (a newer firmware's words): the line says the reason code the check raises
    # with it, the one the clock sends for such a result, in sagat/reasons.py's words; an unknown code, the text
    from sagat.log import resultcheck

    def check(clock, result, lk, rk):
        raise ValueError("a newer clock's own English", code, *([parts] if parts else []))

    # (the kazans module resultcheck holds: a test before may have loaded sagatfw's modules anew)
    monkeypatch.setattr(resultcheck.kazans, "check", check)
    line = resultcheck.problem(1, {"result": "1-0", "kazans": [81, 81], "seq": 7})
    assert line == f"game 1: seq 7: the result 1-0 with kazans 81-81 is not one the clock enters: {said}", line
