"""Results of every kind the firmware records, entered on the simulator in virtual time, for the tests of
`sagat logs verify --code` (tests/host/log): the scripts (a win, a draw, a flag, a default, with and
without the final kazans, a match's result) and the words the code line names each with, a flash
keyed from its first record, and the code the sim's faces showed."""

import json
import re

from simkit import cli

from sagat import image
from sagat.log import decode
from sagat.log.flash import read_image

KEY = "tournament key"
NEW = {"at": 0, "do": "new", "tc": "60", "first": "left"}
START = {"at": 1000, "do": "start"}
LEFT_MOVES = {"at": 5000, "do": "press", "side": "left"}  # then right's clock runs: its flag falls at 65 s


def _result(at, result, kazans=None):
    a = {"at": at, "do": "result", "result": result}
    if kazans:
        a["left_kazan"], a["right_kazan"] = kazans
    return a


# (the script, the words the line names the result with)
KINDS = {
    "win": ([NEW, START, LEFT_MOVES, _result(8000, "1-0")], "1-0"),
    "win_kazans": ([NEW, START, LEFT_MOVES, _result(8000, "0-1", (60, 85))], "0-1, kazans 60-85"),
    "flag": ([NEW, START, LEFT_MOVES, _result(70000, "1-0")], "1-0 by flag"),
    "flag_kazans": ([NEW, START, LEFT_MOVES, _result(70000, "1-0", (85, 60))], "1-0 by flag, kazans 85-60"),
    "flagged_side_wins": ([NEW, START, LEFT_MOVES, _result(70000, "0-1", (60, 85))],
                          "0-1 with right's flag down (TK-R7), kazans 60-85"),
    "draw": ([NEW, START, LEFT_MOVES, _result(8000, "1/2-1/2")], "1/2-1/2, a draw"),
    "draw_kazans": ([NEW, START, LEFT_MOVES, _result(8000, "1/2-1/2", (81, 81))], "1/2-1/2, a draw, kazans 81-81"),
    "draw_flag": ([NEW, START, LEFT_MOVES, _result(70000, "1/2-1/2", (70, 81))],
                  "1/2-1/2, a draw with right's flag down, kazans 70-81"),
    "default_left_wins": ([NEW, _result(500, "+/-")], "+/-: right did not appear, left wins by default (TK-R4)"),
    "default_right_wins": ([NEW, _result(500, "-/+")], "-/+: left did not appear, right wins by default (TK-R4)"),
    "both_absent": ([NEW, _result(500, "-/-")], "-/-: neither player appeared (TK-R4)"),
    "match": ([{"at": 0, "do": "new", "mode": "kokboru", "lead": 8}, {"at": 0, "do": "start"},
               {"at": 30000, "do": "score", "side": "left", "points": 4},
               {"at": 40000, "do": "result", "winner": "left"}], "left wins 4-0: the referee's entry"),
}


def keyed_flash(path, key=KEY):
    """A fresh sim flash image holding the arbiter key (as key.set leaves it): its log is keyed from seq 0."""
    fs = image.load(path)
    with fs.open("/key", "wb") as fh:
        fh.write(key.encode())
    image.save(fs, path)
    return str(path)


def played(capsys, tmp_path, lines, keyed=False, name="clock"):
    """The sim plays `lines` on a flash of its own in virtual time: (flash, the code its faces show)."""
    script = tmp_path / f"{name}.jsonl"
    script.write_text("".join(json.dumps(x) + "\n" for x in lines))
    flash = keyed_flash(tmp_path / f"{name}.img") if keyed else str(tmp_path / f"{name}.img")
    rc, out, err = cli(capsys, "sim", "--script", str(script), "--flash", flash, "--virtual")
    assert rc == 0, err
    codes = set(re.findall(r"CODE (\d{6})", out))
    assert len(codes) == 1, out  # (both faces show it)
    return flash, codes.pop()


def result_seq(flash, game=1):
    log = decode.read_segments(read_image(flash), replay=False)
    return log.results[game][-1].seq
