"""What the hall composes itself reaches the page in the page's language (host/sagat/hall/said.py): every
text the server makes for the page (a pull's verdict, an action's report and its refusals, a board's link
and key notes, the MQTT bridge's) carries a code beside its English, {"key": ..., its names}, which the page
(static/words.js) says with its table; the English text stays what the API always gave.

Attacks: a code the server sends that a table lacks, or with other names than the table's text; an
English text of the server's that is not the English table's (the page would say something else than
the API); a code the page would not say (it shows the English then); a server text made without a code
(an f-string raised as a HallError); a remote hall's code that is not a code (the page's table is not
the remote hall's to pick freely); and over HTTP against a real hall of simulated clocks, every code in
its answers and its state, said in English, is its English text, and in Kazakh is Kazakh."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browserkit import start_hall, stop_hall
from hallkit import until

from sagat.hall import acts, boardacts, core, mqtt, mqttlink, remoteview, said, web
from sagat.hall.said import Said
from sagat.i18n import LANGUAGES

HALL = Path(web.__file__).parent
STATIC = HALL / "static"
NAMES = re.compile(r"\{([a-z_]+)\}")


def _table(lang: str) -> dict:
    return json.loads((STATIC / "lang" / f"{lang}.json").read_text(encoding="utf-8"))


def _calls() -> list[tuple[str, int, str, str, set]]:
    """Every said(...) in the hall's source: (file, line, key, English text, names given)."""
    out = []
    for path in sorted(HALL.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "said":
                where = f"{path.name}:{node.lineno}"
                # the key and the text spelled out (a key built at run time would escape the tables' check)
                assert len(node.args) == 2 and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                                   for a in node.args), where
                assert all(k.arg is not None for k in node.keywords), f"{where}: said(**names): spell them out"
                out.append((path.name, node.lineno, node.args[0].value, node.args[1].value,
                            {k.arg for k in node.keywords}))
    return out


def _codes() -> dict[str, tuple[str, set]]:
    codes: dict[str, tuple[str, set]] = {}
    for where, line, key, text, names in _calls():
        assert codes.setdefault(key, (text, names)) == (text, names), f"{where}:{line}: {key} said two ways"
    return codes


def _js_said() -> set[str]:
    js = (STATIC / "words.js").read_text(encoding="utf-8")
    m = re.search(r"const SAID = new Set\(\[(.*?)\]\);", js, re.S)
    assert m, "words.js: const SAID = new Set([...]);"
    return set(re.findall(r'\bk\(\s*"([^"]+)"\s*\)', m.group(1)))


def say(msg, table: dict, depth: int = 0) -> str | None:
    """words.js's sayCode(): a code in a table's words (None: a key the page does not say)."""
    if isinstance(msg, str):
        return msg
    if isinstance(msg, (int, float)) and not isinstance(msg, bool):
        return str(msg)
    if depth > 6 or not isinstance(msg, dict) or msg.get("key") not in _SAID:
        return None
    names = {}
    for name, v in msg.items():
        if name != "key":
            names[name] = say(v, table, depth + 1)
            if names[name] is None:
                return None
    text = table.get(msg["key"], _EN.get(msg["key"], msg["key"]))
    return NAMES.sub(lambda m: names.get(m.group(1), m.group(0)), text)


_EN = _table("en")
_SAID = _js_said()


def test_every_code_the_server_sends_is_in_every_table_with_its_names():
    codes = _codes()
    assert len(codes) > 100  # (the scan found the hall's sentences)
    tables = {lang: _table(lang) for lang in LANGUAGES}
    for key, (text, names) in codes.items():
        assert set(NAMES.findall(text)) == names, (key, text, names)  # each name filled, none left over
        # the English table's text is the API's, word for word: the page in English says what the API says
        assert tables["en"].get(key) == text, (key, text, tables["en"].get(key))
        for lang, table in tables.items():
            assert isinstance(table.get(key), str) and table[key].strip(), (lang, key)
            assert set(NAMES.findall(table[key])) == names, (lang, key, table[key])


def test_the_page_says_every_code_the_server_sends_and_no_other():
    assert _SAID == set(_codes()), set(_codes()) ^ _SAID


def test_every_action_has_its_name_said():
    # "board 3: adjust": each action the hall takes from the page has its word in the report
    assert set(boardacts.CMDS) == (set(acts.GAME_ACTS) | set(acts.MATCH_ACTS)) - {"first"}
    assert all(isinstance(v, Said) and str(v) == k for k, v in boardacts.CMDS.items())


# what a server text made without a code looks like: a HallError, LinkError, Garbage of a literal or an
# f-string, and a view's dict with such a text
_RAISED = ("HallError", "HallBusy", "LinkError", "Garbage")
_FIELDS = ("text", "message", "error", "note", "what", "break")
# the texts left in English on purpose (docs: the page never shows them)
_LEFT = {
    ("web.py", "error"): ("this hall answers to", "refused: the hall takes actions only from its own page",
                          "pages are open on the hall already", "the hall's actions take a JSON body"),
    ("tile.py", "text"): ("FLAG ",),  # (flagText() says a board's flags in the page's words)
    ("roundstart.py", "LinkError"): ("not started (the clock is",),  # (the round's measure: not on the page)
}


def _literal(node) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp):
        return (_literal(node.left) or "") + (_literal(node.right) or "") or None
    return None


def test_no_server_text_escapes_its_code():
    found = []
    for path in sorted(HALL.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args:
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                text = _literal(node.args[0])
                if name in _RAISED and text:
                    found.append((path.name, name, text))
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    text = _literal(v)
                    if isinstance(k, ast.Constant) and k.value in _FIELDS and text:
                        found.append((path.name, k.value, text))
    left = [(f, what, text) for f, what, text in found
            if not any(p in text for p in _LEFT.get((f, "LinkError" if what in _RAISED else what), ()))]
    assert left == [], left


def test_a_said_says_in_english_what_its_text_is_and_nests():
    s = said.said("skip_not_set_up", "not set up (the clock is {state})", state=said.state("finished"))
    assert s == "not set up (the clock is finished)" and isinstance(s, str)
    assert s.msg == {"key": "skip_not_set_up", "state": {"key": "state_finished"}}
    kk = _table("kk")
    assert say(s.msg, _EN) == s and say(s.msg, kk) == "дайындалмаған (сағат: аяқталды)"
    assert said.state("break") == "break" and said.msg_of(said.state("break")) is None  # (a word the page has not)
    many = said.joined([said.said("err_no_board", "no board {n}", n=n) for n in (1, 2, 3)], ", ")
    assert many == "no board 1, no board 2, no board 3" and say(many.msg, kk) == "1-тақта жоқ, 2-тақта жоқ, 3-тақта жоқ"
    assert said.joined([]) is None and said.joined(["a"]) == "a"
    assert said.msg_of(f"{s}") is None and said.msg_of(s[:5]) is None  # a text made from it: plain, no code
    assert said.text_of(core.HallError(s)) is s and said.text_of(core.HallError("x")) == "x"
    # every state and side the hall names, in each language
    for w in list(said.STATES.values()) + [said.side("left"), said.side("right")]:
        assert say(w.msg, _EN) == w
        for lang in ("kk", "ru", "ky"):
            assert say(w.msg, _table(lang)) not in (None, str(w)), (lang, w)


def test_a_remote_halls_codes_are_rebuilt():
    pytest.importorskip("paho.mqtt")
    sub = mqtt.Subscriber("mqtt://127.0.0.1:1", "main")
    sub.error = None  # (as connected)
    code = {"key": "alert_battery"}
    deep = {"key": "err_board", "n": 1, "why": {"key": "err_board", "n": 1, "why": {"key": "err_board", "n": 1, "why": {
        "key": "err_board", "n": 1, "why": {"key": "err_board", "n": 1, "why": {"key": "err_no_answer"}}}}}}
    view = {"number": 3, "link": "lost", "state": "running", "mode": "game", "error": "no answer in time",
            "error_msg": {"key": "err_no_answer", "evil": True},  # a name's value neither a number nor a text
            "pull": {"state": "verified", "message": "verified (code 1)", "msg": {"key": "pull_verified_code",
                                                                                  "code": "1"}},
            "alerts": [{"kind": "battery", "text": "low battery", "msg": code},
                       {"kind": "log", "text": "log full", "msg": {"key": "Alert-1"}},
                       {"kind": "log", "text": "log error", "msg": deep},
                       {"kind": "log", "text": "x", "msg": {"key": "alert_verify", "why": "y" * 500}},
                       {"kind": "log", "text": "x", "msg": ["alert_log_full"]},
                       {"kind": "log", "text": "x", "msg": dict({"key": "err_busy"},
                                                                **{f"n{i}": 1 for i in "abcdefghi"})},  # (9 names)
                       {"kind": "log", "text": "x", "msg": {"key": "err_busy", "<b>": 1}}],
            "match": None}
    v = remoteview.remote_view(view, "annex", 3)
    assert v["alerts"][0] == {"kind": "battery", "text": "low battery", "msg": code}
    assert [a.get("msg") for a in v["alerts"][1:3]] == [None, None]  # not a key; nested too deep
    assert v["alerts"][3]["msg"] == {"key": "alert_verify", "why": "y" * 120}  # (a text cut short)
    assert all("msg" not in a for a in v["alerts"][4:])
    assert v["error"] == "no answer in time" and "error_msg" not in v
    # what a remote hall verified is its word: its code is said inside "reported by hall annex"
    assert v["pull"] == {"state": "reported", "message": "verified (code 1), reported by hall annex: not verified here",
                         "msg": {"key": "remote_reported", "hall": "annex",
                                 "said": {"key": "pull_verified_code", "code": "1"}}}
    assert say(v["pull"]["msg"], _EN) == v["pull"]["message"]
    assert say(v["pull"]["msg"], _table("ru")) == "проверен (код 1), по данным зала annex: здесь не проверен"
    # a failure whose code says "verified": its words stand, without that code
    lie = remoteview.remote_view(dict(view, pull={"state": "failed", "message": "pull failed: x",
                                            "msg": {"key": "log_verified"}}), "annex", 3)
    assert lie["pull"]["msg"] == {"key": "remote_reported", "hall": "annex", "said": "pull failed: x"}
    # a remote board's own error, its code kept while its hall is heard
    sub._take("sagat/hall/annex/board/4", json.dumps(dict(view, link="unreachable", error="the clock is not connected",
                                                          error_msg={"key": "err_not_connected"})).encode())
    (b4,) = [b for b in sub.views() if b["number"] == "annex:4"]
    assert b4["error_msg"] == {"key": "err_not_connected"} and say(b4["error_msg"], _table("kk")) == "сағат қосылмаған"
    # the subscriber's own words on a remote board: the hall's silence, said in the page's language
    sub._take("sagat/hall/annex/board/3", json.dumps(dict(view, link="up")).encode())
    sub.link_error = mqttlink.no_broker("broker-pc", 1883)
    (b, _b4) = sub.views()
    assert b["error_msg"]["key"] == "remote_stale" and say(b["error_msg"], _EN) == b["error"]
    assert b["error"].startswith("no broker at broker-pc:1883: hall annex's last state")
    assert b["alerts"][-1] == {"kind": "link", "text": "broker lost: its last state",
                               "msg": {"key": "alert_broker_lost"}}
    assert say(sub.error.msg, _table("kk")) == "broker-pc:1883 мекенжайында брокер жоқ"
    json.dumps(b, allow_nan=False)


# ------------------------------------------------------------------ a real hall over HTTP

KEY = b"hall arbiter key"


def _pairs(x):
    """(English text, its code) of every text with a code in an answer of the hall (any depth)."""
    if isinstance(x, list):
        for y in x:
            yield from _pairs(y)
    elif isinstance(x, dict):
        for field, value in x.items():
            if isinstance(value, str) and isinstance(x.get(field + "_msg"), dict):
                yield value, x[field + "_msg"]
        if isinstance(x.get("msg"), dict):
            text = next(x[f] for f in ("message", "text", "error") if isinstance(x.get(f), str))
            yield text, x["msg"]
        for field, value in x.items():
            if not field.endswith("msg"):
                yield from _pairs(value)


def _said_right(answer, seen: list) -> None:
    """Every code in an answer: in English its text; in each other language the page's words (no
    English sentence left)."""
    def keys(m):
        if isinstance(m, dict):
            seen.append(m.get("key"))
            for v in m.values():
                keys(v)

    for text, msg in _pairs(answer):
        keys(msg)
        assert say(msg, _EN) == text, (msg, text)
        for lang in ("kk", "ru", "ky"):
            other = say(msg, _table(lang))
            assert other is not None and (other != text or msg["key"] in ("list_comma", "list_semicolon")), \
                (lang, msg, other)


def _post(url: str, path: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url + path.lstrip("/"), json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def _state(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state", timeout=10) as r:
        return json.load(r)


@pytest.fixture(scope="module")
def hall2():
    tmp = tempfile.mkdtemp(prefix="sagat-hall-said-")
    key_file = os.path.join(tmp, "key")
    with open(key_file, "wb") as fh:
        fh.write(KEY)
    try:
        proc, url, _t0 = start_hall(["--sim", "2", "--key-file", key_file, "--out", os.path.join(tmp, "logs"),
                                     "--timeout", "10"], 2)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    yield url
    stop_hall(proc, 2)
    shutil.rmtree(tmp, ignore_errors=True)


def test_a_real_halls_answers_carry_their_codes(hall2):
    url, seen = hall2, []
    # refusals: the page's language, the English beside it
    st, ans = _post(url, "/api/setup", {"tc": "nonsense+"})
    assert st == 400 and ans["msg"]["key"] == "err_bad_tc" and ans["msg"]["why"] == ans["error"], ans
    _said_right(ans, seen)
    st, ans = _post(url, "/api/setup", {"tc": ""})
    assert st == 400 and ans == {"error": "give a time control, e.g. 420 or tk-blitz", "msg": {"key": "err_give_tc"}}
    st, ans = _post(url, "/api/board/9/act", {"cmd": "pause"})
    assert st == 400 and ans == {"error": "no board 9", "msg": {"key": "err_no_board", "n": 9}}
    st, ans = _post(url, "/api/board/1/act", {"cmd": "adjust", "side": "left", "ms": 1, "evil": 1})
    assert st == 400 and ans["msg"] == {"key": "err_takes", "n": 1, "cmd": "adjust", "names": "side, ms, moves, stage",
                                        "extra": "evil"}, ans
    _said_right(ans, seen)
    st, ans = _post(url, "/api/board/annex:1/result", {"result": "1-0"})
    assert st == 400 and ans["msg"] == {"key": "err_other_hall", "board": "annex:1", "hall": "annex",
                                        "there": {"key": "there_result"}}, ans
    _said_right(ans, seen)
    # the actions' reports
    st, ans = _post(url, "/api/setup", {"tc": "600"})
    assert st == 200 and ans["what"] == "set up 600" and ans["what_msg"] == {"key": "what_set_up", "what": "600"}
    _said_right(ans, seen)
    until(lambda: all(b["state"] == "setup" for b in _state(url)["boards"]), 30, "both set up")
    st, ans = _post(url, "/api/board/1/result", {"result": "+/-"})  # a forfeit before the start (TK-R4)
    assert st == 200 and ans["done"] == 1, ans
    assert ans["what_msg"] == {"key": "what_result", "n": 1, "result": "+/-"}
    _said_right(ans, seen)
    # its log pulled and verified: the pull's verdict with its code, and the result code in it
    b1 = until(lambda: next((b for b in _state(url)["boards"] if b["number"] == 1 and b["pull"]["state"] == "verified"),
                            None), 60, "board 1's log verified")
    assert b1["pull"]["msg"] == {"key": "pull_verified_code", "code": b1["result_code"]}, b1["pull"]
    assert say(b1["pull"]["msg"], _table("kk")) == f"расталды (код {b1['result_code']})"
    # pause all: board 1 finished, board 2 in setup: both skipped, each with its clock's state said
    st, ans = _post(url, "/api/pause", {})
    assert st == 200 and ans["what_msg"] == {"key": "what_pause_all"} and ans["skipped"] == 2, ans
    assert ans["boards"]["1"] == {"ok": None, "text": "finished", "msg": {"key": "state_finished"}}
    assert ans["boards"]["2"]["msg"] == {"key": "state_setup"}
    _said_right(ans, seen)
    # start round: board 1 is not set up; board 2 starts
    st, ans = _post(url, "/api/start", {})
    assert st == 200 and ans["done"] == 1 and ans["what_msg"] == {"key": "what_start_round"}, ans
    assert ans["boards"]["1"]["msg"] == {"key": "skip_not_set_up", "state": {"key": "state_finished"}}
    assert say(ans["boards"]["1"]["msg"], _table("ru")) == "не подготовлены (часы: окончена)"
    _said_right(ans, seen)
    # a correction the clock refuses: by its reason code (docs/protocol.md, hall/refusals.py), its state said too
    until(lambda: any(b["number"] == 2 and b["state"] == "running" for b in _state(url)["boards"]), 30, "board 2 runs")
    st, ans = _post(url, "/api/board/2/act", {"cmd": "extend"})  # TK-C14 needs a flag down
    assert st == 200 and ans["failed"] == 1 and "refused" in ans["boards"]["2"]["text"], ans
    assert ans["boards"]["2"]["msg"] == {"key": "err_clock_refused", "reason": {
        "key": "why_no_flag", "state": {"key": "state_running"}}} and ans["what_msg"] == {
        "key": "what_act", "n": 2, "cmd": {"key": "cmd_extend"}}
    _said_right(ans, seen)
    st, ans = _post(url, "/api/board/2/act", {"cmd": "first", "side": "right"})
    assert st == 400 and ans["msg"] == {"key": "err_first_before_start", "n": 2, "state": {"key": "state_running"}}
    _said_right(ans, seen)
    # the state the page reads: every code in it right too (the action shown, the pull)
    view = _state(url)
    assert view["action"]["what_msg"]["key"] == "what_act"
    _said_right(view, seen)
    assert {"err_bad_tc", "err_takes", "what_set_up", "pull_verified_code", "state_finished",
            "skip_not_set_up", "what_act", "cmd_extend"} <= set(seen)
