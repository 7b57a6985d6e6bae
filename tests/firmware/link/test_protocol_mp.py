# The serial protocol (contract 6, docs/protocol.md) on a real App over littlefs in RAM: every
# command, a whole game driven by requests and pulled back in chunks (decoded and chain-verified
# with the arbiter key), a pull resumed from the middle, erase rules, the arbiter's authority, the
# per-call budget, and a fuzz run: every bad line gets exactly one error and the clock keeps exact
# time, compared with a clock that got no garbage.
import binascii
import gc
import json
import random

from flash import unmount
from protocolrig import (  # noqa: E402,F401
    BASE,
    KEY,
    SEGMENT_RECORDS,
    UID,
    Rig,
    RootBoard,
    T,
    _at,
    _b64,
    _events,
    _faces,
    _keyed_journal,
    _real,
)

from sagatfw.app.main import App
from sagatfw.engine import clock as C
from sagatfw.faces.game import status_text  # noqa: E402
from sagatfw.link import auth as A
from sagatfw.link import pull as PL
from sagatfw.link import server as SV
from sagatfw.link import wire as W
from sagatfw.log import boot as journalboot
from sagatfw.log import records as R
from sagatfw.log.read import iso_utc

CODES = (
    "bad_json",
    "bad_utf8",
    "not_object",
    "line_too_long",
    "unknown_cmd",
    "bad_arg",
    "refused",
    "auth_required",
    "auth_failed",
    "busy",
    "internal",
)

# ------------------------------------------------------------------ commands


def test_identify_state_and_uptime():
    rig = Rig()
    rig.at(1000)
    rig.at(2500)
    r = rig.ok("identify")
    from sagatfw import VERSION

    assert r["firmware"] == VERSION and r["protocol"] == W.PROTOCOL == 2
    assert r["board"] == "test" and r["uid"] == "e6614103e7" and r["number"] == 12
    assert r["battery"] == 87 and r["low_battery"] is False and r["key_set"] is False
    assert r["uptime_ms"] == 2500 and r["max_line"] == 512 and r["max_records"] == W.MAX_RECORDS
    assert "log.read" in r["commands"] and "auth.challenge" in r["commands"]
    import gc

    # the heap after a collection while identify is served: what the test sees now, plus the
    # commands module identify runs in (dropped again after the feed), within a few KB
    gc.collect()
    total = gc.mem_alloc() + gc.mem_free()
    assert r["heap_used"] + r["heap_free"] == total
    assert gc.mem_alloc() <= r["heap_used"] <= gc.mem_alloc() + 16384, (r["heap_used"], gc.mem_alloc())
    s = rig.ok("state")
    assert s["state"] == "setup" and s["running"] is None and s["tc"] == "420" and s["first"] == "left"
    assert s["left"]["ms"] == 420000 and s["right"]["moves"] == 0 and s["left"]["stage"] == 1
    assert s["game"] == 0 and s["seq"] == 0  # the settings record at the first boot
    rig.ok("new", tc={"left": "300+2", "right": "180+2"}, first="right")
    rig.ok("start")
    rig.at(4000)
    s = rig.ok("state")
    assert s["state"] == "running" and s["running"] == "right" and s["t"] == 4000 - 2500
    assert s["right"]["ms"] == 180000 - 1500 and s["left"]["ms"] == 300000
    assert s["tc"] == {"left": "300+2", "right": "180+2"} and s["to_move"] == "right"
    assert s["game"] == 1 and s["first_flag"] is None and s["log_error"] is None
    unmount()


def test_settings_get_and_set():
    rig = Rig()
    v = rig.ok("settings.get")["values"]
    assert v["freeze"] is None and v["extension_ms"] == 300000 and v["tc"] == "420"
    r = rig.ok("settings.set", values={"freeze": False, "low_time_ms": 60000, "tc": "600+5"})
    assert r["values"]["freeze"] is False and r["values"]["tc"] == "600+5"
    assert rig.ok("settings.get")["values"]["low_time_ms"] == 60000
    assert rig.app.clock.tc[C.LEFT].first_ms() == 600000  # the set-up game follows tc
    rig.err("settings.set", "bad_arg", values={"freeze": "sometimes"})
    rig.err("settings.set", "bad_arg", values={"colour": "red"})
    rig.err("settings.set", "bad_arg", values=[1])
    rig.err("settings.set", "bad_arg")
    assert rig.ok("settings.get")["values"]["freeze"] is False  # nothing changed by the bad ones
    rig.ok("start")
    rig.err("settings.set", "refused", values={"sound": False})  # no key: refused by the state
    unmount()


def test_presets_list_and_set():
    rig = Rig()
    r = rig.ok("presets.list")
    names = [p["name"] for p in r["builtin"]]
    assert names[0] == "tk-blitz" and r["builtin"][0]["tc"] == "420" and r["user"] == [] and r["slots"] == 5
    rig.ok("presets.set", slot=1, name="club", tc="900+10")
    r = rig.ok("presets.list")
    assert r["user"][1] == {"slot": 1, "name": "club", "tc": "900+10"} and len(r["user"]) == 2
    rig.err("presets.set", "bad_arg", slot=5, name="x", tc="60")
    rig.err("presets.set", "bad_arg", slot=0, name="x", tc="60?")
    rig.err("presets.set", "bad_arg", slot=0, name="", tc="60")
    rig.err("presets.set", "bad_arg", slot="0", name="x", tc="60")
    # durable: a reboot reads them back
    app2 = App(RootBoard("/flash/"))
    app2.boot(T(0))
    assert app2.store.presets[1] == {"name": "club", "tc": "900+10"}
    unmount()


def test_game_commands_happy_paths_and_refusals():
    rig = Rig()
    rig.err("new", "bad_arg", tc="300+?", first="left")
    rig.err("new", "bad_arg", tc="300", first="middle")
    rig.err("new", "bad_arg", tc={"left": "300"})
    rig.ok("new", tc="10", first="left")
    r = rig.ok("late_install", elapsed_ms=1000)  # TK-C11: floor is the first-stage time itself
    assert r["left_ms"] == 10000
    rig.err("pause", "refused")
    rig.err("resume", "refused")
    rig.err("extend", "refused")
    rig.ok("start")
    rig.err("start", "refused")
    rig.err("late_install", "refused", elapsed_ms=1000)
    rig.err("adjust", "refused", side="left", ms=5000)  # running: pause first
    rig.err("new", "refused", tc="60", first="left")
    rig.at(2000)
    r = rig.ok("pause", by="arbiter")
    assert r["state"] == "paused" and r["left_ms"] == 8000
    rig.err("adjust", "bad_arg", side="left")
    rig.err("adjust", "bad_arg", side="left", ms=-1)
    rig.err("adjust", "bad_arg", side="left", stage=7)
    r = rig.ok("adjust", side="left", ms=3000, moves=4)
    assert r["left_ms"] == 3000 and rig.app.clock.moves[C.LEFT] == 4
    rig.at(5000)
    rig.ok("resume")
    rig.at(8001)  # left flags at 8000: freeze off for a sudden-death control, play goes on
    s = rig.ok("state")
    assert s["left"]["flag"] == 1 and s["first_flag"] == "left" and s["left"]["ms"] == 0
    r = rig.ok("extend")
    assert r["left_ms"] == 300000 and r["right_ms"] == 310000  # TK-C14: +5 min each, flag cleared
    assert rig.ok("state")["left"]["flag"] == 0
    rig.ok("adjourn")
    assert rig.ok("state")["state"] == "adjourned"
    rig.err("adjourn", "refused")
    rig.ok("resume_adjourned")
    rig.err("result", "bad_arg", result="2-0")
    r = rig.ok("result", result="1/2-1/2")
    assert r["state"] == "finished"
    ev = [e["type"] for e in journalboot.game_events(rig.app.journal)]
    assert ev == [
        "settings",
        "adjust",
        "adjust",
        "game_start",
        "pause",
        "adjust",
        "resume",
        "flag",
        "extension",
        "adjourn",
        "resume_adjourned",
        "result",
    ]
    unmount()


def test_time_sync_puts_wall_on_later_records():
    rig = Rig()
    r = rig.ok("time.sync", wall_ms=1718000000123)
    assert r["durable"] is True
    rig.ok("new", tc="60", first="left")
    rig.ok("start")
    rig.press(C.LEFT, 1500)
    rig.err("time.sync", "bad_arg", wall_ms=12)
    rig.err("time.sync", "bad_arg", wall_ms="now")
    ev = list(journalboot.game_events(rig.app.journal))
    assert ev[-1]["type"] == "press" and ev[-1]["wall"] == iso_utc(1718000001, 623)
    unmount()


# ------------------------------------------------------------------ a whole game, pulled


def _play(rig, key=None):
    """A game driven by protocol requests (presses through the button path), 40+ moves."""
    rig.ok("time.sync", key, wall_ms=1718000000000)
    rig.ok("new", key, tc="40/300+2:60+2", first="left")
    rig.ok("start", key)
    t = 0
    for i in range(46):
        t += 700 + (i * 37) % 900
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, t)
        if i == 20:
            rig.at(t + 100)
            rig.ok("pause", key, by="arbiter")
            rig.at(t + 5000)
            rig.ok("adjust", key, side="right", ms=100000, moves=30)
            rig.ok("resume", key)
            t += 5000
    rig.at(t + 500)
    rig.ok("result", key, result="1-0")
    return t


def test_whole_game_pulled_in_chunks_decodes_and_verifies_with_the_key():
    rig = Rig(key=KEY)
    assert rig.ok("identify")["key_set"] is True
    _play(rig, KEY)
    info = rig.ok("log.info")
    assert info["first"] == 0 and info["last"] == rig.app.journal.seq - 1 and info["segments"] >= 3
    n = info["last"] + 1 + info["segments"]  # every record, and each segment's anchor
    assert info["game"] == 1 and info["in_progress"] is None and info["bytes"] == n * 64
    recs, resps = rig.pull(0, 7)
    assert len(recs) == n and len(resps) == (info["last"] + 1 + 6) // 7 + 1  # 7 records a chunk
    assert [R.seq_of(r) for r in _real(recs)] == list(range(info["last"] + 1))
    assert all(R.type_of(recs[i]) == R.T_ANCHOR for i in range(0, n, SEGMENT_RECORDS))
    for r in resps[:-1]:
        data = _b64(r["data"])
        anchors = len([i for i in range(0, len(data), 64) if data[i + 1] == R.T_ANCHOR])
        assert r["count"] - anchors <= 7 and r["last"] == info["last"]
    events, rd = _events(recs, KEY)
    assert rd.problems == []  # every CRC, seq and chain link, keyed with the arbiter key
    game = [e for e in events if e["game"] == 1]
    assert game == list(journalboot.game_events(rig.app.journal, 1))  # the same as the journal reads it
    types = [e["type"] for e in game]
    assert types.count("press") == 46 and types[-1] == "result" and "adjust" in types and "stage" in types
    assert all(e["wall"] is not None for e in game)
    last = game[-1]
    c = rig.app.clock
    assert (last["left_ms"], last["right_ms"], last["left_moves"], last["right_moves"]) == (
        c.ms(C.LEFT),
        c.ms(C.RIGHT),
        c.moves[C.LEFT],
        c.moves[C.RIGHT],
    )
    # with another key the chain does not link: an edit by someone without the key shows
    _, bad = _events(recs, b"not the key")
    assert bad.problems and bad.problems[0][0] == R.P_CHAIN
    # one whole pull at the largest chunk gives the same bytes
    recs2, _ = rig.pull(0)
    assert recs2 == recs
    unmount()


def test_pull_resumes_from_the_middle():
    rig = Rig()
    _play(rig)
    full, _ = rig.pull(0)
    r = rig.ok("log.read", from_seq=0, max_records=10)
    assert r["from"] == 0 and r["next"] == 10 and r["count"] == 11  # the anchor and seq 0..9
    # the host vanishes here; the next pull starts where it stopped
    rest, _ = rig.pull(r["next"], 13)
    assert _b64(r["data"]) + b"".join(rest) == b"".join(full)
    for seq in (37, 44, 45, 46):  # (seq 45 begins the 4th segment: its anchor comes with it)
        mid, _ = rig.pull(seq, 5)
        assert R.seq_of(mid[0]) == seq and mid == full[_at(full, seq) :]
    # an anchor does not count as a record, and it comes with its record: a chunk never ends
    # with one, so `next` follows the chunk's records and a host asking ahead stays in step
    r = rig.ok("log.read", from_seq=40, max_records=5)
    assert r["count"] == 5 and r["next"] == 45 and R.type_of(_b64(r["data"])[-64:]) != R.T_ANCHOR
    r = rig.ok("log.read", from_seq=40, max_records=6)
    data = _b64(r["data"])
    assert r["count"] == 7 and r["next"] == 46 and R.type_of(data[5 * 64 : 6 * 64]) == R.T_ANCHOR
    r = rig.ok("log.read", from_seq=45, max_records=1)
    assert r["count"] == 2 and r["next"] == 46 and R.type_of(_b64(r["data"])[:64]) == R.T_ANCHOR
    last = R.seq_of(full[-1])
    r = rig.ok("log.read", from_seq=last + 1)
    assert r["count"] == 0 and r["data"] == "" and r["next"] == last + 1 and r["last"] == last
    r = rig.ok("log.read", from_seq=last)
    assert r["count"] >= 1 and r["next"] == last + 1
    rig.err("log.read", "bad_arg", from_seq=-1)
    rig.err("log.read", "bad_arg", from_seq=0, max_records=W.MAX_RECORDS + 1)
    rig.err("log.read", "bad_arg", from_seq=0, max_records=0)
    rig.err("log.read", "bad_arg", from_seq="0")
    unmount()


def test_pull_while_the_game_runs_reads_the_segment_being_written():
    rig = Rig()
    rig.ok("new", tc="300", first="left")
    rig.ok("start")
    got = []
    seq = 0
    for i in range(40):
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, 1000 * (i + 1))
        r = rig.ok("log.read", from_seq=seq, max_records=3)
        raw = _b64(r["data"])
        got += [raw[k * 64 : (k + 1) * 64] for k in range(r["count"])]
        seq = r["next"]
    recs, _ = rig.pull(seq)
    got += recs
    full, _ = rig.pull(0)
    assert got == full and len(_real(full)) == rig.app.journal.seq
    assert rig.app.clock.moves[C.LEFT] == 20 and rig.app.clock.state == C.RUNNING
    unmount()


def test_erase_refuses_the_game_in_progress_and_erases_finished_games():
    rig = Rig(key=KEY)
    _play(rig, KEY)  # game 1, finished
    g1_last = rig.app.journal.seq - 1
    rig.ok("new", KEY, tc="300", first="left")
    rig.ok("start", KEY)
    for i in range(30):
        rig.press(C.LEFT if i % 2 == 0 else C.RIGHT, 200000 + 1000 * i)
    full, _ = rig.pull(0)
    info = rig.ok("log.info")
    assert info["in_progress"] == 2 and info["first"] == 0
    rig.err("log.erase", "auth_required", upto_seq=info["last"], game=1)  # a key is set
    rig.err("log.erase", "refused", KEY, upto_seq=info["last"], game=2)  # the game in progress
    # only up to a seq: segments past it stay
    per = SEGMENT_RECORDS - 1  # records a segment holds besides its anchor
    r = rig.ok("log.erase", KEY, upto_seq=per * 2 - 1, game=1)
    assert r["erased"] == 2 and r["first"] == per * 2 and r["more"] is False
    while True:
        r = rig.ok("log.erase", KEY, upto_seq=info["last"], game=1)
        assert r["erased"] <= W.MAX_ERASE
        if not r["more"]:
            break
    first = r["first"]
    assert 0 < first <= g1_last + 1
    recs, _ = rig.pull(0)
    assert recs == full[_at(full, first) :]  # nothing of game 2 went, nothing was reordered
    assert any(R.game_of(x) == 1 for x in recs[:SEGMENT_RECORDS]) or R.game_of(recs[0]) == 2
    assert all(R.game_of(x) == 2 for x in recs[SEGMENT_RECORDS:])
    # the game goes on and is logged as before
    rig.press(C.LEFT, 240000)
    assert rig.app.journal.error is None
    rig.ok("result", KEY, result="0-1")
    names_before = rig.app.journal.segments()
    while rig.ok("log.erase", KEY, upto_seq=rig.app.journal.seq - 1, game=2)["more"]:
        pass
    names = rig.app.journal.segments()
    assert names == names_before[-1:]  # everything but the newest segment, which the journal writes
    rig.ok("new", KEY, tc="300", first="left")
    rig.ok("start", KEY)
    rig.press(C.LEFT, 250000)
    recs, _ = rig.pull(0)
    _, rd = _events(recs, KEY)
    assert rd.problems == [] and R.seq_of(recs[-1]) == rig.app.journal.seq - 1
    rig.err("log.erase", "bad_arg", KEY, upto_seq=-1, game=1)
    unmount()


# ------------------------------------------------------------------ authority


def test_authority_mid_game():
    rig = Rig()
    rig.ok("new", tc="300", first="left")
    rig.ok("start")
    rig.ok("pause")  # no key set: no authority needed (the arbiter should set one)
    rig.ok("resume")
    rig.err("key.set", "refused", key=KEY.hex())  # the key is set between games only
    rig.ok("result", result="1-0")
    rig.ok("key.set", key=KEY.hex())
    assert rig.ok("identify")["key_set"] is True and SV.load_key("/flash/") == KEY
    rig.err("new", "auth_required", tc="300", first="left")  # with a key, in every state
    rig.ok("new", KEY, tc="300", first="left")
    rig.ok("start", KEY)
    rig.at(1000)
    before = _faces(rig.app)
    rig.err("pause", "auth_required")
    rig.err("adjust", "auth_required", side="left", ms=1)
    rig.err("settings.set", "auth_required", values={"sound": False})
    rig.err("time.sync", "auth_required", wall_ms=1718000000000)
    rig.err("result", "auth_required", result="0-1")
    assert _faces(rig.app) == before
    rig.ok("state")  # reading needs nothing
    rig.ok("log.read", from_seq=0)
    # a correct MAC over the request and a fresh nonce
    req = rig.request("pause", by="arbiter")
    nonce = rig.ok("auth.challenge")["nonce"]
    assert len(nonce) == 32
    req["auth"] = A.sign(KEY, nonce, req, UID)
    line = json.dumps(req).encode() + b"\n"
    r = rig.lines(line)[0]
    assert r["ok"] is True and r["state"] == "paused"
    # replayed: the nonce was used up
    r = rig.lines(line)[0]
    assert r["ok"] is False and r["error"]["code"] == "auth_failed"
    rig.ok("auth.challenge")
    r = rig.lines(line)[0]  # an old MAC against a new nonce
    assert r["error"]["code"] == "auth_failed"
    # the wrong key fails, and uses up the nonce: the right MAC for it no longer passes
    req = rig.request("resume")
    nonce = rig.ok("auth.challenge")["nonce"]
    req["auth"] = A.sign(b"guess", nonce, req, UID)
    assert rig.lines(json.dumps(req).encode() + b"\n")[0]["error"]["code"] == "auth_failed"
    req["auth"] = A.sign(KEY, nonce, req, UID)
    assert rig.lines(json.dumps(req).encode() + b"\n")[0]["error"]["code"] == "auth_failed"
    # a MAC made for another clock (its id, with this clock's own nonce and the same key: clocks
    # on one hub) fails, and uses up the nonce
    req = rig.request("resume")
    nonce = rig.ok("auth.challenge")["nonce"]
    req["auth"] = A.sign(KEY, nonce, req, "e6614103e8")
    r = rig.lines(json.dumps(req).encode() + b"\n")[0]
    assert r["error"]["code"] == "auth_failed" and rig.ok("state")["state"] == "paused", r
    req["auth"] = A.sign(KEY, nonce, req, UID)
    assert rig.lines(json.dumps(req).encode() + b"\n")[0]["error"]["code"] == "auth_failed"
    # a MAC for another request (changed argument, changed id) fails
    req = rig.request("adjust", side="left", ms=1000)
    nonce = rig.ok("auth.challenge")["nonce"]
    req["auth"] = A.sign(KEY, nonce, req, UID)
    req["ms"] = 999999
    assert rig.lines(json.dumps(req).encode() + b"\n")[0]["error"]["code"] == "auth_failed"
    for bad in ("zz" * 32, "00", 5):
        req = rig.request("resume")
        rig.ok("auth.challenge")
        req["auth"] = bad
        assert rig.lines(json.dumps(req).encode() + b"\n")[0]["error"]["code"] == "auth_failed"
    assert rig.app.clock.state == C.PAUSED and rig.app.clock.rem[C.LEFT] == 299000
    rig.ok("resume", KEY)
    rig.err("key.set", "refused", KEY, key="00")  # mid-game, even with authority
    unmount()


def test_key_change_needs_the_old_key_and_rekeys_the_chain():
    rig = Rig(key=KEY)
    rig.err("key.set", "auth_required", key="abcd")
    rig.err("key.set", "bad_arg", KEY, key="xyz")
    rig.err("key.set", "bad_arg", KEY, key="ab" * 65)
    rig.ok("key.set", KEY, key=b"new key".hex())
    assert SV.load_key("/flash/") == b"new key"
    rig.ok("new", b"new key", tc="60", first="left")
    rig.ok("start", b"new key")
    rig.err("pause", "auth_failed", KEY)  # the old key no longer proves anything
    rig.ok("pause", b"new key")
    recs, _ = rig.pull(0)
    _, rd = _events(recs, [b"new key", KEY])
    assert rd.problems == []
    rig.ok("result", b"new key", result="1-0")
    rig.ok("key.set", b"new key", key="")  # cleared
    assert SV.load_key("/flash/") == b"" and rig.ok("identify")["key_set"] is False
    rig.ok("new", tc="60", first="left")
    rig.ok("start")
    rig.ok("pause")
    # the whole log verifies with every key it was written under: each change is a settings
    # record (origin key_set / key_cleared) chained under the key before it, and after the clear
    # the unkeyed records are accepted because that record, under the key, says so
    recs, _ = rig.pull(0)
    events, rd = _events(recs, [b"new key", KEY])
    assert rd.problems == []
    origins = [e["origin"] for e in events if e["type"] == "settings" and e.get("origin", "").startswith("key")]
    assert origins == ["key_set", "key_cleared"]
    # without that record an unkeyed continuation is still a break: drop it and relink the rest
    # unkeyed (what somebody without the key could make of the log)
    cleared = [R.seq_of(r) for r in recs if R.type_of(r) == C.EV_SETTINGS and R.arg_of(r) == R.ORIGIN_KEY_CLEARED]
    forged = []
    prev = None
    unkeyed = R.Chain(b"")
    for r in recs:
        r = bytearray(r)
        if R.seq_of(r) == cleared[0]:  # its place taken by a settings change of no key's
            r[26:28] = bytes((R.ORIGIN_CHANGED, 0))
        if R.seq_of(r) >= cleared[0]:
            R.seal(r, prev, unkeyed)
        forged.append(bytes(r))
        prev = R.chain_of(r)
    _, rd2 = _events(forged, [b"new key", KEY])
    assert [p[0] for p in rd2.problems][:1] == [R.P_KEY]
    unmount()


def test_a_key_change_the_flash_cannot_take_yet_goes_first_once_it_can():
    rig = Rig(key=KEY)
    j = rig.app.journal

    def failing():
        raise OSError(5)  # EIO: the flash refuses the write

    j._write_backlog = failing
    ans = rig.ok("key.set", KEY, key="")  # cleared: the key file changed, its record waits in RAM
    assert ans["key_set"] is False and ans["durable"] is False and len(j.backlog) == 1
    del j._write_backlog  # the flash works again
    rig.ok("new", tc="60", first="left")
    rig.ok("start")
    rig.ok("pause")
    recs, _ = rig.pull(0)
    events, rd = _events(recs, KEY)
    assert rd.problems == [] and not j.backlog
    kinds = [(e["type"], e.get("origin")) for e in events]
    assert kinds.index(("settings", "key_cleared")) < kinds.index(("game_start", None))
    unmount()


def test_reboot_keeps_the_key_and_the_chain():
    rig = Rig(key=KEY)
    rig.ok("new", KEY, tc="300+2", first="left")
    rig.ok("start", KEY)
    rig.press(C.LEFT, 3000)
    rig.at(20000)
    rig2 = Rig(key=KEY, fresh=False)  # power cut: the same flash, a new app
    assert rig2.app.clock.state == C.PAUSED
    rig2.err("resume", "auth_required")
    rig2.ok("resume", KEY)
    rig2.press(C.RIGHT, 2000)
    recs, _ = rig2.pull(0)
    events, rd = _events(recs, KEY)
    assert rd.problems == [] and "power_restore" in [e["type"] for e in events]
    unmount()


# ------------------------------------------------------------------ framing and budget


def test_framing_line_limits_blank_lines_and_crlf():
    rig = Rig()
    req = b'{"id":1,"cmd":"state"}'
    line = req + b" " * (W.MAX_LINE - 1 - len(req)) + b"\n"  # 512 bytes with its newline: accepted
    assert len(line) == W.MAX_LINE
    assert rig.lines(line)[0]["ok"] is True
    long = req + b" " * (W.MAX_LINE - len(req)) + b"\n"  # 513: too long
    r = rig.lines(long)
    assert len(r) == 1 and r[0]["id"] is None and r[0]["error"]["code"] == "line_too_long"
    huge = b"x" * 5000 + b"\n" + b'{"id":2,"cmd":"state"}\r\n'
    r = rig.lines(huge, chunks=[7, 300, 1, 4096])
    assert [x.get("id") for x in r] == [None, 2] and r[0]["error"]["code"] == "line_too_long"
    r = rig.lines(b"\n\n   \n\t\r\n" + b'{"id":"s1","cmd":"state"}\n\n')
    assert len(r) == 1 and r[0]["id"] == "s1"
    # byte by byte
    data = b'{"id":3,"cmd":"identify"}\n{"id":4,"cmd":"log.info"}\n'
    r = rig.lines(data, chunks=[1])
    assert [x["id"] for x in r] == [3, 4] and all(x["ok"] for x in r)
    # a partial line is held until its newline, whatever else happens meanwhile
    assert rig.send(b'{"id":5,"cmd":') == b""
    rig.at(100)
    r = rig.lines(b'"state"}\n')
    assert r[0]["id"] == 5 and r[0]["ok"]
    for text, code in (
        (b"hello", "bad_json"),
        (b'{"id":6,"cmd":"state"', "bad_json"),
        (b"[1,2]", "not_object"),
        (b"42", "not_object"),
        (b'{"id":7,"cmd":"st\xffate"}', "bad_utf8"),
        (b'{"id":8,"cmd":"state"}\x03', "bad_json"),
        (b'\x03{"id":9,"cmd":"state"}', "bad_json"),
        (b'{"id":10,"cmd":"dance"}', "unknown_cmd"),
        (b'{"id":11}', "bad_arg"),
        (b'{"cmd":"state"}', "bad_arg"),
        (b'{"id":1.5,"cmd":"state"}', "bad_arg"),
        (b'{"id":true,"cmd":"state"}', "bad_arg"),
        (b'{"id":12,"cmd":"state","extra":1}', "bad_arg"),
        (b'{"id":13,"cmd":["state"]}', "bad_arg"),
        # what MicroPython's json.loads takes and JSON does not: refused before anything is done
        (b'{"id":14 "cmd":"state"}', "bad_json"),
        (b'{"id":15,"cmd": ,"state"}', "bad_json"),
        (b'{"id":16,"cmd":"state",}', "bad_json"),
        (b'{"id":17,"cmd":"st\\qate"}', "bad_json"),
        (b'{"id":18,"cmd":"state"]', "bad_json"),
        (b'{"id":019,"cmd":"state"}', "bad_json"),
        (b'{"id":20,"cmd":"state","v":' + b"[" * 40 + b"]" * 40 + b"}", "bad_json"),
    ):
        r = rig.lines(text + b"\n")
        assert len(r) == 1 and r[0]["ok"] is False and r[0]["error"]["code"] == code, (text, r)
    r = rig.lines(b'{"id":10,"cmd":"dance"}\n')
    assert r[0]["id"] == 10
    # a game set up by a line that is not JSON is not set up
    r = rig.lines(b'{"id":21,"cmd":"new","tc":"300" "first":"right"}\n')
    assert r[0]["error"]["code"] == "bad_json" and "not JSON" in r[0]["error"]["message"], r
    assert rig.app.journal.game == 0 and rig.lines(b'{"id":22,"cmd":"state"}\n')[0]["state"] == "setup"
    assert rig.srv.internal_errors == 0
    unmount()


def test_bounded_work_per_call_and_a_host_that_stops_reading():
    rig = Rig()
    rig.ok("new", tc="300", first="left")
    rig.ok("start")
    data = b"".join(b'{"id":%d,"cmd":"state"}\n' % i for i in range(200))
    srv = rig.srv
    taken = srv.feed(data, T(0))
    assert taken == SV.IN_SIZE  # the rest stays with the transport
    # at most LINES_PER_FEED lines a feed, and none once more than OUT_LIMIT bytes wait (7 answers of
    # state, about 600 bytes each, are past it)
    n = srv.pending()
    out = srv.take_out(100000)
    first = out.count(b"\n")
    assert n and 1 <= first <= SV.LINES_PER_FEED
    assert first == SV.LINES_PER_FEED or len(out) > SV.OUT_LIMIT, (first, len(out))
    # the host stops reading: the clock goes on, answers pile up only to the limit
    i = taken
    biggest = 0
    for ms in range(0, 20000, 10):
        rig.app.step(T(ms))
        i += srv.feed(data[i:], T(ms))
        biggest = max(biggest, srv.pending())
        if ms % 1000 == 0 and ms < 5000:
            rig.press(C.LEFT if (ms // 1000) % 2 == 0 else C.RIGHT, ms)
    assert biggest <= SV.OUT_LIMIT + 1000 and srv.room() < SV.IN_SIZE and i < len(data)
    assert rig.app.clock.t == 20000 - 10 and rig.app.clock.moves[C.LEFT] == 3
    # it reads again: every request is answered, once, in order
    out = srv.take_out(100000)
    while i < len(data) or srv.has_work() or srv.pending():
        i += srv.feed(data[i:], T(20000))
        out += srv.take_out(100000)
    ids = [json.loads(x)["id"] for x in out.split(b"\n")[:-1]]
    assert ids == list(range(first, 200))
    # log reads are heavy: at most HEAVY_PER_FEED per call, and one whose records are still
    # waiting to be encoded (in the server's one buffer) holds the next line back until sent
    data = b"".join(b'{"id":%d,"cmd":"log.read","from_seq":0}\n' % i for i in range(5))
    srv.feed(data, T(20000))
    assert srv.take_out(100000).count(b"\n") == 1
    for _ in range(4):
        srv.feed(b"", T(20000))
        assert srv.take_out(100000).count(b"\n") == 1
    srv.feed(b'{"id":5,"cmd":"log.read","from_seq":999999}\n' * 4, T(20000))  # nothing to encode
    assert srv.take_out(100000).count(b"\n") == SV.HEAVY_PER_FEED
    rig.lines(b"")
    unmount()


def test_peek_and_sent_for_a_stream_that_takes_part_of_a_write():
    rig = Rig()
    srv = rig.srv
    rig.ok("start")
    for ms in range(1000, 25000, 1000):  # 20+ records: a log.read's data is encoded in pieces
        rig.press(C.LEFT if ms // 1000 % 2 else C.RIGHT, ms)
    srv.feed(b'{"id":1,"cmd":"identify"}\n{"id":2,"cmd":"state"}\n{"id":3,"cmd":"log.read","from_seq":0}\n'
             b'{"id":4,"cmd":"state"}\n', T(25000))
    total = srv.pending()
    out = bytearray()
    while srv.pending() or srv.has_work():
        view = srv.peek(50)
        n = 1 + len(out) % 37  # the stream takes a few bytes at a time
        n = min(n, len(view))
        out += bytes(view[:n])
        srv.sent(n)
        if not srv.pending():  # the line after a log.read waits until its data is taken
            srv.feed(b"", T(25000))
            total += srv.pending()
    answers = [json.loads(x) for x in bytes(out).split(b"\n")[:-1]]
    assert len(out) == total and [a["id"] for a in answers] == [1, 2, 3, 4]
    pulled = binascii.a2b_base64(answers[2]["data"])
    assert len(pulled) == answers[2]["count"] * R.RECORD_SIZE and answers[2]["count"] > 6
    assert all(not R.check(pulled[i : i + R.RECORD_SIZE]) for i in range(0, len(pulled), R.RECORD_SIZE))
    assert len(srv.peek(10)) == 0 and srv.take_out(10) == b""
    unmount()


def test_a_memory_error_while_a_pull_is_encoded_loses_nothing():
    # the records of a log.read are base64-encoded piece by piece as the stream takes them; a
    # MemoryError there (a full heap) must leave the queue whole: the next try sends them all
    rig = Rig()
    srv = rig.srv
    rig.ok("start")
    for ms in range(1000, 40000, 1000):
        rig.press(C.LEFT if ms // 1000 % 2 else C.RIGHT, ms)
    real = PL.binascii

    class Failing:
        calls = 0
        last_failed = False

        def b2a_base64(self, data):
            Failing.calls += 1
            last = len(data) < PL.PIECE  # 32 records: 5 pieces of 384 bytes, then 128
            if Failing.calls == 2 or (last and not Failing.last_failed):  # a middle one, the last one
                Failing.last_failed = Failing.last_failed or last
                raise MemoryError("memory allocation failed")
            return real.b2a_base64(data)

    srv.feed(b'{"id":1,"cmd":"log.read","from_seq":0,"max_records":32}\n{"id":2,"cmd":"state"}\n', T(40000))
    out = bytearray()
    failed = 0
    PL.binascii = Failing()
    try:
        for _ in range(100):
            if not (srv.pending() or srv.has_work()):
                break
            try:
                piece = srv.peek(100)
            except MemoryError:
                failed += 1
                continue
            out += bytes(piece)
            srv.sent(len(piece))
            if not srv.pending():
                srv.feed(b"", T(40000))
    finally:
        PL.binascii = real
    assert failed == 2 and srv.pending() == 0
    answers = [json.loads(x) for x in bytes(out).split(b"\n")[:-1]]
    assert [a["id"] for a in answers] == [1, 2] and answers[0]["count"] == 35
    pulled = binascii.a2b_base64(answers[0]["data"])
    assert len(pulled) == 35 * R.RECORD_SIZE
    # each segment's anchor (it carries the seq of the record after it), then its records
    recs = [pulled[i : i + R.RECORD_SIZE] for i in range(0, len(pulled), R.RECORD_SIZE)]
    # (with 16-record segments: three anchors and the 32 records asked for)
    assert [R.seq_of(r) for r in _real(recs)] == list(range(32))
    assert [i for i, r in enumerate(recs) if R.type_of(r) == R.T_ANCHOR] == [0, SEGMENT_RECORDS, 2 * SEGMENT_RECORDS]
    unmount()


def test_idle_feed_allocates_nothing():
    # the transport calls feed(b"", now) on every pass of the loop: with nothing to do it must not
    # allocate (the loop's heap_lock budget), a partial line held or not
    import micropython

    rig = Rig()
    rig.ok("new", tc="300", first="left")
    rig.ok("start")
    srv = rig.srv
    srv.feed(b'{"id":1,"cmd":', T(10))
    gc.collect()
    micropython.heap_lock()
    try:
        for ms in range(11, 200):
            srv.feed(b"", T(ms))
            srv.pending()
            srv.has_work()
            srv.room()
    finally:
        micropython.heap_unlock()
    assert srv.internal_errors == 0 and srv.pending() == 0
    r = rig.lines(b'"state"}\n')
    assert r[0]["id"] == 1 and r[0]["ok"] and srv.uptime == 199
    unmount()


def test_changing_commands_leave_ram_after_their_feed():
    # the loop keeps only the reading half of the protocol: sagatfw.link.commands is loaded for a
    # request that changes the clock and dropped at the end of that feed, so a pull or a state
    # request never has it in RAM, and loading it again costs nothing that stays
    import sys

    import sagatfw

    rig = Rig()
    rig.ok("new", tc="300", first="left")
    assert "sagatfw.link.commands" not in sys.modules and "commands" not in sagatfw.__dict__
    assert rig.srv.cmds is None
    rig.ok("start")
    rig.ok("pause", by="arbiter")
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(3):
        rig.ok("resume")
        rig.ok("pause", by="arbiter")
        rig.ok("state")
    gc.collect()
    assert "sagatfw.link.commands" not in sys.modules
    assert gc.mem_alloc() - before < 512, gc.mem_alloc() - before
    # a pull's log.info and log.head: link/log.py, loaded without link/commands.py and dropped the same way
    rig.ok("log.info")
    rig.ok("log.head", nonce="ab" * 16)
    assert "sagatfw.link.log" not in sys.modules and "sagatfw.link.commands" not in sys.modules
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(3):
        rig.ok("log.info")
        rig.ok("log.head", nonce="ab" * 16)
    gc.collect()
    assert "sagatfw.link.log" not in sys.modules and "logcmds" not in sagatfw.__dict__
    assert gc.mem_alloc() - before < 512, gc.mem_alloc() - before
    unmount()


# ------------------------------------------------------------------ fuzz


def _rand(n):
    return random.getrandbits(n)


def _pick(seq):
    return seq[_rand(16) % len(seq)]


BAD_REQUESTS = (
    {"cmd": "pause", "by": "nobody"},
    {"cmd": "pause", "by": 3},
    {"cmd": "adjust", "side": "middle", "ms": 5},
    {"cmd": "adjust", "side": "left", "ms": -1},
    {"cmd": "adjust", "side": "left", "ms": "5"},
    {"cmd": "adjust", "side": "left", "ms": True},
    {"cmd": "adjust", "side": "left", "ms": 1.5},
    {"cmd": "adjust", "side": "left", "moves": 10**30},
    {"cmd": "adjust", "side": "left"},
    {"cmd": "late_install", "elapsed_ms": -5},
    {"cmd": "late_install"},
    {"cmd": "result", "result": "2-0"},
    {"cmd": "result"},
    {"cmd": "new", "tc": 5},
    {"cmd": "new", "tc": {"left": "60"}},
    {"cmd": "new", "tc": "60", "first": "up"},
    {"cmd": "settings.set", "values": {"freeze": "maybe"}},
    {"cmd": "settings.set", "values": []},
    {"cmd": "presets.set", "slot": 99, "name": "x", "tc": "60"},
    {"cmd": "presets.set", "slot": 0, "name": 5, "tc": "60"},
    {"cmd": "time.sync", "wall_ms": -1},
    {"cmd": "time.sync", "wall_ms": None},
    {"cmd": "log.read", "from_seq": -1},
    {"cmd": "log.read", "from_seq": 0, "max_records": 0},
    {"cmd": "log.read", "from_seq": 0, "max_records": 10**6},
    {"cmd": "log.erase", "upto_seq": "x", "game": 0},
    {"cmd": "log.erase", "upto_seq": 5},
    {"cmd": "key.set", "key": "zz"},
    {"cmd": "key.set", "key": 1234},
    {"cmd": "start", "extra": 1},
    {"cmd": "state", "verbose": True},
    {"cmd": 7},
    {"cmd": None},
    {"cmd": ""},
)


def _fuzz_line():
    """One bad line (no newline in it, never blank)."""
    k = _rand(4)
    if k == 0:  # random bytes
        n = 1 + _rand(7)
        b = bytearray(_rand(8) % 0xDE + 0x21 for _ in range(1))
        for _ in range(n):
            c = _rand(8)
            b.append(c if c != 10 else 11)
        return bytes(b)
    if k == 1:  # a very long line
        return b"{" + b"\x03x\xff" * (171 + _rand(10) * 3) + b"}"
    if k == 2:  # invalid UTF-8 in a request
        return b'{"id":%d,"cmd":"state","x":"\xc3\x28\xff"}' % _rand(10)
    if k == 3:  # a Ctrl-C in a request, in mid-game
        req = b'{"id":%d,"cmd":"pause","by":"arbiter"}' % _rand(10)
        at = _rand(6) % len(req)
        return req[:at] + b"\x03" + req[at:]
    if k == 4:  # unknown commands
        return json.dumps({"id": _rand(12), "cmd": _pick(("reboot", "exec", "log.write", "START", "pause "))}).encode()
    if k == 5:  # truncated
        req = b'{"id":%d,"cmd":"adjust","side":"left","ms":1}' % _rand(10)
        return req[: 1 + _rand(6) % (len(req) - 1)]
    if k == 6:  # JSON but not an object
        return _pick((b"[1,2]", b"42", b'"pause"', b"null", b"true", b"[]"))
    if k == 7:
        return b"\x03"
    req = dict(_pick(BAD_REQUESTS))  # wrong types and ranges
    if _rand(3):
        req["id"] = _rand(16)
    elif _rand(1):
        req["id"] = _pick((1.5, [1], {"a": 1}, True, "x" * 80))
    return json.dumps(req).encode()


def _script():
    """(ms, side) presses of a 300+2 game: 60 moves, thinking 0.4..3 s."""
    t = 0
    out = []
    for i in range(60):
        t += 400 + (i * 997) % 2600
        out.append((t, C.LEFT if i % 2 == 0 else C.RIGHT))
    return out


class _Answers:
    """Checks answer lines as they come: each a JSON error with a known code."""

    def __init__(self):
        self.buf = b""
        self.n = 0
        self.codes = {}

    def take(self, srv):
        self.buf += srv.take_out(100000)
        lines = self.buf.split(b"\n")
        self.buf = lines.pop()
        for line in lines:
            r = json.loads(line)
            assert r["ok"] is False and r["error"]["code"] in CODES and r["error"]["message"], r
            code = r["error"]["code"]
            self.codes[code] = self.codes.get(code, 0) + 1
            self.n += 1


def _fuzz_game(key):
    random.seed(20240601)
    ref = Rig("/flash", key=key, blocks=32)
    fz = Rig("/flash2", key=key, blocks=32)
    for rig in (ref, fz):
        rig.ok("new", key or None, tc="300+2", first="left")
        rig.ok("start", key or None)
    sent = 0
    answers = _Answers()
    last = 0
    for ms, side in _script():
        # garbage between the presses, fed at instants between them
        lines = [_fuzz_line() if key == b"" else _unauthorized(fz) for _ in range(55)]
        stream = b"".join(x + b"\n" for x in lines)
        sent += len(lines)
        i = 0
        at = last
        while i < len(stream):
            if at < ms - 1:
                at += 1
            for rig in (ref, fz):
                rig.app.step(T(at))
            n = 1 + _rand(9) % 300
            i += fz.srv.feed(stream[i : i + n], T(at))
            ref.srv.feed(b"", T(at))
            answers.take(fz.srv)
            assert _faces(fz.app) == _faces(ref.app)
        while fz.srv.has_work():
            fz.srv.feed(b"", T(at))
            answers.take(fz.srv)
        last = ms
        for rig in (ref, fz):
            rig.press(side, ms)
        answers.take(fz.srv)
        assert _faces(fz.app) == _faces(ref.app)
    assert answers.n == sent and answers.buf == b"", (answers.n, sent)  # exactly one answer per line
    assert fz.srv.internal_errors == 0 and "internal" not in answers.codes
    assert fz.app.clock.moves[C.LEFT] == 30 and fz.app.clock.state == C.RUNNING
    # the same log, byte for byte, as the clock that got no garbage
    a, _ = ref.pull(0)
    b, _ = fz.pull(0)
    assert a == b
    unmount("/flash2")
    unmount("/flash")
    return sent, answers.codes


def test_fuzz_garbage_mid_game_keeps_exact_time():
    sent, codes = _fuzz_game(b"")
    assert sent >= 3000
    for code in ("bad_json", "bad_utf8", "not_object", "line_too_long", "unknown_cmd", "bad_arg"):
        assert codes.get(code, 0) > 10, codes


GOOD_MUTATIONS = (
    {"cmd": "pause", "by": "host"},
    {"cmd": "adjust", "side": "left", "ms": 1},
    {"cmd": "result", "result": "1-0"},
    {"cmd": "new", "tc": "60", "first": "left"},
    {"cmd": "settings.set", "values": {"sound": False}},
    {"cmd": "time.sync", "wall_ms": 1718000000000},
    {"cmd": "presets.set", "slot": 0, "name": "x", "tc": "60"},
    {"cmd": "extend"},
    {"cmd": "adjourn"},
    {"cmd": "log.erase", "upto_seq": 10**6, "game": 0},
    {"cmd": "key.set", "key": "00"},
)


def _unauthorized(rig):
    """A well-formed request that would change the game, without the key's proof."""
    req = dict(_pick(GOOD_MUTATIONS))
    req["id"] = _rand(16)
    k = _rand(2)
    if k == 1:
        req["auth"] = "%064x" % _rand(30)  # a guess
    elif k == 2:
        req["auth"] = A.sign(b"a guessed key", "00" * 16, req, UID)
    return json.dumps(req).encode()


def test_fuzz_unauthorized_changes_mid_game_change_nothing():
    sent, codes = _fuzz_game(KEY)
    assert set(codes) == {"auth_required", "auth_failed"} and min(codes.values()) > 100


# ------------------------------------------------------------ attacks


def _store_state(rig):
    app = rig.app
    return (json.dumps(app.store.values), json.dumps(app.store.presets), _faces(app), app.journal.seq,
            app.journal.sync_wall_ms, SV.load_key("/flash/"))


def test_with_a_key_nothing_changes_without_it_in_any_state():
    # Attack 5: a player's friend with a laptop and the USB cable, the key set. Before: a finished
    # game's result could be changed, and in setup `adjust` (100 h before the start), `new`,
    # `settings.set`, `presets.set` and `time.sync` needed no key.
    rig = Rig(key=KEY)
    changes = (
        ("adjust", {"side": "left", "ms": C.MAX_MS}),
        ("new", {"tc": "5", "first": "right"}),
        ("settings.set", {"values": {"extension_ms": 0}}),
        ("presets.set", {"slot": 0, "name": "x", "tc": "1"}),
        ("time.sync", {"wall_ms": 1718000000000}),
        ("late_install", {"elapsed_ms": 1000}),
        ("result", {"result": "0-1"}),
        ("start", {}),
        ("key.set", {"key": ""}),
        ("log.erase", {"upto_seq": 0, "game": 0}),
        ("log.head", {"nonce": "00" * 16}),  # a read, but signed with the key: only for its holder
    )
    reads = (("identify", {}), ("state", {}), ("settings.get", {}), ("presets.list", {}), ("log.info", {}),
             ("log.read", {"from_seq": 0}), ("auth.challenge", {}))

    def attack(state):
        before = _store_state(rig)
        for cmd, args in changes:
            rig.err(cmd, "auth_required", **args)
        assert _store_state(rig) == before, state
        for cmd, args in reads:
            rig.ok(cmd, **args)  # reading never needs the key
        assert rig.ok("state")["state"] == state

    rig.ok("new", KEY, tc="300", first="left")
    attack("setup")
    rig.ok("start", KEY)
    rig.at(1000)
    attack("running")
    rig.ok("pause", KEY)
    attack("paused")
    rig.ok("result", KEY, result="1-0")
    attack("finished")
    events = [e for e in journalboot.game_events(rig.app.journal) if e["type"] == "result"]
    assert [e["result"] for e in events] == ["1-0"]  # the finished game's result stands
    unmount()


def _head(rig, nonce):
    return rig.ok("log.head", rig.key or None, nonce=nonce)


def test_log_head_is_the_last_durable_record_signed_over_the_hosts_nonce():
    rig = Rig(key=KEY)
    rig.ok("new", KEY, tc="300", first="left")
    rig.ok("start", KEY)
    rig.press(C.LEFT, 1000)
    nonce = "ab" * 16
    h = _head(rig, nonce)
    recs, _ = rig.pull(0)
    last = _real(recs)[-1]
    assert h["seq"] == R.seq_of(last) and h["link"] == binascii.hexlify(R.chain_of(last)).decode()
    assert h["key_set"] is True and h["uid"] == "e6614103e7"
    assert h["first"] == 0
    assert h["mac"] == A.hex_text(A.hmac_sha256(KEY, A.head_message(nonce, h["uid"], 0, h["seq"], h["link"])))
    # a fresh nonce, a fresh MAC: an old answer cannot be replayed for a new pull
    h2 = _head(rig, "cd" * 16)
    assert h2["seq"] == h["seq"] and h2["mac"] != h["mac"]
    # the head moves with the log (only durable records: a record in RAM is not in it yet)
    rig.press(C.RIGHT, 2000)
    assert _head(rig, nonce)["seq"] == rig.app.journal.seq - 1
    rig.app.journal.backlog.append(b"x" * 64)  # as if a record waited for the flash
    assert _head(rig, nonce)["seq"] == rig.app.journal.seq - 1
    rig.app.journal.backlog.pop()
    rig.err("log.head", "auth_required", nonce=nonce)  # nobody but the key's holder gets a signed head
    rig.err("log.head", "bad_arg", KEY, nonce="short")
    rig.err("log.head", "bad_arg", KEY, nonce="zz" * 16)
    rig.err("log.head", "bad_arg", KEY)
    unmount()
    rig = Rig()  # no key: the head is stated, not signed
    h = _head(rig, nonce)
    assert h["mac"] is None and h["key_set"] is False
    unmount()


def test_result_code_is_shown_and_derived_from_the_result_record():
    rig = Rig(key=KEY)
    rig.ok("new", KEY, tc="300", first="left")
    rig.ok("start", KEY)
    rig.press(C.LEFT, 1000)
    assert rig.ok("state")["result_code"] is None
    rig.ok("result", KEY, result="1-0")
    st = rig.ok("state")
    recs, _ = rig.pull(0)
    res = [r for r in recs if R.type_of(r) == C.EV_RESULT][-1]
    code = R.result_code(R.chain_of(res))
    assert st["result_code"] == code and len(code) == 6 and code.isdigit()
    assert status_text(rig.app) == "CODE " + code  # on both faces, for the scoresheet
    rig.ok("new", KEY, tc="300", first="left")  # the next game: the code goes
    assert rig.ok("state")["result_code"] is None and status_text(rig.app) is None
    unmount()
