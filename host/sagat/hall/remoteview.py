"""Another hall's board as this hall shows it (mqtt.py receives it): rebuilt from the fields the
page shows, each of its type (text cut short, alerts of known kinds, codes of the page's table);
what a remote hall says it verified is shown as its report, never as verified here."""

from __future__ import annotations

import math
import re

from .said import Said, msg_of, said, with_msg
from .tile import alert

LINKS = ("opening", "up", "lost", "unreachable", "error")  # (boards.py: error, its clock answers garbage)
ALERT_KINDS = ("link", "flag", "battery", "log", "verify", "number")
PULL_STATES = ("idle", "pulling", "retrying", "failed", "unkeyed")  # (and "verified": a remote hall's report)
WORD = re.compile(r"[a-z_]{1,20}")  # a state, a mode
# the codes of a remote hall's pull message shown (inside "reported by hall ..."), by its pull's state
REPORTED = {"verified": ("log_verified", "pull_verified_code"),
            "failed": ("pull_failed", "pull_failed_tries", "pull_not_verified")}


def _text(x, n: int) -> str | None:
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (str, int, float)):
        return None
    return str(x)[:n]


def _int(x, lo: int = -(2 ** 53), hi: int = 2 ** 53) -> int | None:
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        return None
    return x


def _num(x) -> float | int | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or abs(x) > 1e12:
        return None
    return x


def _word(x) -> str | None:
    return x if isinstance(x, str) and WORD.fullmatch(x) else None


def _dict(x) -> dict:
    return x if isinstance(x, dict) else {}


KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")
MSG_NAMES = 8  # a code's names, at most (the hall's have 5)


def _msg(x, depth: int = 0) -> dict | None:
    """A remote hall's code for a text (said.py's msg), rebuilt: a key, and names whose values are
    numbers, short texts or codes (4 deep at most); None for anything else. The page says only the
    codes it knows (hall.js), and a remote hall's text is its word whatever its code says."""
    if not isinstance(x, dict) or depth > 4 or not isinstance(x.get("key"), str) or not KEY.fullmatch(x["key"]) \
            or len(x) > MSG_NAMES + 1:
        return None
    out: dict = {"key": x["key"]}
    for name, v in x.items():
        if name == "key":
            continue
        if not isinstance(name, str) or not WORD.fullmatch(name):
            return None
        if isinstance(v, dict):
            v = _msg(v, depth + 1)
        elif isinstance(v, str):
            v = v[:120]
        elif _num(v) is None:
            v = None
        if v is None:
            return None
        out[name] = v
    return out


def _said(text: str | None, msg) -> str | None:
    """A remote hall's text with its code (rebuilt), a Said, when it has one it may say."""
    m = _msg(msg)
    if text is None or m is None:
        return text
    out = Said(text)
    out.msg = m
    return out


def remote_view(view: dict, hall: str, number: int) -> dict:
    """A board's view as another hall published it, rebuilt from the fields the page shows, each
    of its type: nothing else passes (the page is the arbiter's, its buttons sign)."""
    pull = _dict(view.get("pull"))
    pstate, pmsg = pull.get("state"), _text(pull.get("message"), 120) or ""
    # whatever a remote hall says of its log is its word: its text never stands alone ("unkeyed"
    # with the text "verified ..." read as verified), nor its code
    if pstate == "idle":
        pmsg = ""
    elif pstate == "pulling":
        pmsg = said("remote_pulling", "pulling the log at hall {hall}", hall=hall)
    elif pstate == "retrying":
        pmsg = said("remote_retrying", "pulling the log at hall {hall} (its link failed: trying again)", hall=hall)
    elif pstate == "unkeyed":
        pmsg = said("remote_unkeyed", "chain intact, authorship unproven, reported by hall {hall}: not verified here",
                    hall=hall)
    else:  # "failed" (its own words), "verified" or anything else: "reported"
        words = (pmsg or (pstate if isinstance(pstate, str) else ""))[:120]
        code = _dict(pull.get("msg"))  # (its words' code, only one of its state's: never "verified" for a failure)
        if pmsg and code.get("key") in REPORTED.get(pstate, ()):
            words = _said(words, code)
        pmsg = said("remote_reported", "{said}, reported by hall {hall}: not verified here", said=words, hall=hall)
        if pstate not in PULL_STATES:
            pstate = "reported"
    players = view.get("players")
    start = view.get("start")
    v = {
        "number": f"{hall}:{number}", "hall": hall, "source": "mqtt",
        "port": _text(view.get("port"), 64), "uid": _text(view.get("uid"), 40),
        "firmware": _text(view.get("firmware"), 40), "key_set": view.get("key_set") is True,
        "players": [_text(p, 64) or "" for p in players[:2]] if isinstance(players, list) and len(players) == 2
        else None,
        "link": view.get("link") if view.get("link") in LINKS else "lost",
        "error": _said(_text(view.get("error"), 200), view.get("error_msg")),
        "rtt_ms": _num(view.get("rtt_ms")),
        "state": _word(view.get("state")), "game": _int(view.get("game"), 0),
        "mode": _word(view.get("mode")) or "game",
        "running": view.get("running") if view.get("running") in ("left", "right") else None,
        "battery": _int(view.get("battery"), 0, 100), "low_battery": view.get("low_battery") is True,
        "message": _text(view.get("message"), 80), "log_error": _text(view.get("log_error"), 80),
        "log_full": view.get("log_full") is True, "result_code": _text(view.get("result_code"), 16),
        "flag_note": _text(view.get("flag_note"), 40),
        "armed": view.get("armed") is True,
        "pull": with_msg({"state": pstate}, "message", pmsg, "msg"),
        "start": {"armed": _dict(start).get("armed") is True, "dev_ms": _num(_dict(start).get("dev_ms")),
                  "err_ms": _num(_dict(start).get("err_ms")),
                  "exact": _dict(start).get("exact") if isinstance(_dict(start).get("exact"), bool) else None}
        if isinstance(start, dict) else None,
        "protest_ms": _int(view.get("protest_ms"), 0),
    }
    match = view.get("match")
    if isinstance(match, dict):
        def side(s):
            s = _dict(s)
            return {"score": _int(s.get("score"), 0, 9999) or 0, "warnings": _int(s.get("warnings"), 0, 9) or 0,
                    "reds": _int(s.get("reds"), 0, 9) or 0}
        v["match"] = {"period": _text(match.get("period"), 32), "time": _text(match.get("time"), 16) or "-",
                      "left": side(match.get("left")), "right": side(match.get("right")),
                      "winner": match.get("winner") if match.get("winner") in ("left", "right", "none") else None,
                      "why": _text(match.get("why"), 64), "state": _word(match.get("state")),
                      "break": _said(_text(match.get("break"), 32), match.get("break_msg")),
                      "stoppage": _text(match.get("stoppage"), 16),
                      "stopped": _text(match.get("stopped"), 16)}
    else:
        faces = _dict(view.get("faces"))
        v["faces"] = {}
        for s in ("left", "right"):
            f = _dict(faces.get(s))
            v["faces"][s] = {
                "text": _text(f.get("text"), 16) or "-", "ms": _num(f.get("ms")),
                "moves": _int(f.get("moves"), 0, 99999), "stage": _int(f.get("stage"), 0, 99),
                "flag": _int(f.get("flag"), 0, 2) or 0, "first": f.get("first") is True, "low": f.get("low") is True,
                "default": f.get("default") is True, "stage_mark": f.get("stage_mark") is True,
                "delay_ms": _int(f.get("delay_ms"), 0) or 0,
            }
    alerts = view.get("alerts")
    v["alerts"] = [alert(a["kind"], _said(_text(a.get("text"), 80) or "", a.get("msg")))
                   for a in (alerts if isinstance(alerts, list) else [])
                   if isinstance(a, dict) and a.get("kind") in ALERT_KINDS][:8]
    if msg_of(v["error"]):
        v["error_msg"] = msg_of(v["error"])
    if isinstance(match, dict) and msg_of(v["match"]["break"]):
        v["match"]["break_msg"] = msg_of(v["match"]["break"])
    return v
