# A match's team or rider names (docs/match.md, "Names"): given to `new` with a mode, kept in the
# clock's log in a T_NAMES record right after the match's setup record (log/names.py), shown by
# `state`; after a reboot `state` reads them from the log once. Names that are not text are
# refused before anything changes; a game takes none. MicroPython only (littlefs in RAM).
import gc
import json
import sys

from flash import unmount
from protocolrig import KEY, UID, Rig

from sagatfw.link import auth as A
from sagatfw.link import wire as W
from sagatfw.log import names as N
from sagatfw.log import records as R


def _game_records(rig):
    recs, _ = rig.pull()
    g = rig.app.journal.game
    return [r for r in recs if R.type_of(r) != R.T_ANCHOR and R.game_of(r) == g]


def test_names_given_to_new_are_logged_after_the_setup_and_shown_by_state():
    rig = Rig(key=KEY)
    st = rig.ok("new", KEY, mode="kokboru", lead=8, names=["Асан", "Usen"])
    assert st["names"] == {"left": "Асан", "right": "Usen"}
    recs = _game_records(rig)
    assert [R.type_of(r) for r in recs[:2]] == [0x30, N.T_NAMES]  # log/matchrecords.py T_MATCH, then the names
    assert R.seq_of(recs[1]) == R.seq_of(recs[0]) + 1 and R.t_of(recs[1]) == 0
    assert N.names_of(N.names_text(recs[1])) == ("Асан", "Usen")
    rig.ok("start", KEY)
    rig.at(5000)
    assert rig.ok("score", KEY, side="left", points=4)["names"] == {"left": "Асан", "right": "Usen"}
    assert len(rig.app.match.names) == len("Асан".encode()) + 1 + 4  # RAM: the record's bytes, no more
    assert "sagatfw.log.names" not in sys.modules  # its code left RAM with the request
    unmount()


def test_names_come_back_after_a_reboot_from_the_log():
    rig = Rig(key=KEY)
    rig.ok("new", KEY, mode="kilithattu", first="right", names=["Team Ala-Too", "Team Issyk-Kul"])
    rig.ok("start", KEY)
    rig.at(3000)
    rig.ok("score", KEY, side="right", points=1)
    rig2 = Rig(key=KEY, fresh=False)  # the power goes and comes back: the match restored, stopped
    assert getattr(rig2.app.match, "names", None) is None  # not known yet: read at the first state
    st = rig2.ok("state")
    assert st["state"] == "stopped" and st["names"] == {"left": "Team Ala-Too", "right": "Team Issyk-Kul"}
    assert rig2.app.match.names == b"Team Ala-Too\x00Team Issyk-Kul"  # kept: read once a match
    rig2.app.match.names = b"Someone\x00Else"  # (what a second read would replace)
    assert rig2.ok("state")["names"] == {"left": "Someone", "right": "Else"}
    unmount()


def test_a_match_without_names_has_none_after_a_reboot_too():
    rig = Rig()
    assert rig.ok("new", mode="kokboru")["names"] is None
    rig.ok("new", mode="kokboru", names=["", ""])  # both empty: none, and no record
    assert [R.type_of(r) for r in _game_records(rig)] == [0x30]
    assert getattr(rig.app.match, "names", None) is None  # nothing in RAM for a match without names
    rig2 = Rig(fresh=False)
    assert rig2.ok("state")["names"] is None and rig2.srv.match_names == rig2.app.journal.game  # read once
    unmount()


def test_long_names_are_cut_on_a_character_boundary():
    rig = Rig()
    st = rig.ok("new", mode="kokboru", names=["Ж" * 30, "Q" * 30])  # 60 + 30 bytes: 39 for both
    left, right = st["names"]["left"], st["names"]["right"]
    assert left == "Ж" * 9 and right == "Q" * 21  # left half the room (19 bytes: 9 letters), right the rest
    rig2 = Rig(fresh=False)
    assert rig2.ok("state")["names"] == {"left": left, "right": right}
    unmount()


def test_attack_names_that_are_not_text_are_refused_and_nothing_changes():
    rig = Rig()
    rig.ok("new", mode="kokboru")
    seq = rig.app.journal.seq
    for bad in ([1, "x"], "Asan", ["Asan"], ["Asan", "Usen", "Ali"], ["A\x00B", "C"], ["A\nB", "C"], [None, "C"],
                {"left": "A", "right": "B"}):
        r = rig.err("new", "bad_arg", mode="kilithattu", names=bad)
        assert "names" in r["error"]["message"], r
    r = rig.err("new", "bad_arg", tc="300", names=["Asan", "Usen"])  # a game takes no names
    assert "names" in r["error"]["message"] and "mode" in r["error"]["message"]
    assert rig.app.journal.seq == seq and rig.app.match.m.MODE == "kokboru"
    assert rig.ok("state")["names"] is None
    gc.collect()
    unmount()


def test_a_signed_new_in_raw_utf8_with_the_names_cut_as_the_host_sends_it_is_taken():
    # the host (sagat.client) cuts the names with fit_names before it signs and sends its line in
    # UTF-8: the clock reads the letters as they are, and the MAC covers the canonical form
    south, north = "Оңтүстік Қазақстан облысының құрамасы", "Солтүстік Қазақстан облысының құрамасы"
    kept = N.names_of(N.fit_names(south, north))
    rig = Rig(key=KEY)
    nonce = rig.ok("auth.challenge")["nonce"]
    req = {"id": 77, "cmd": "new", "mode": "kokboru", "names": [kept[0], kept[1]]}
    req["auth"] = A.sign(KEY, nonce, req, UID)
    line = json.dumps(req).encode()  # MicroPython's json writes the letters as they are: UTF-8
    assert kept[0].encode() in line and b"\\u" not in line and len(line) < W.MAX_LINE
    got = rig.lines(line + b"\n")
    assert got[0]["ok"] is True and got[0]["names"] == {"left": kept[0], "right": kept[1]}, got
    assert rig.ok("state")["names"] == {"left": kept[0], "right": kept[1]}
    unmount()
