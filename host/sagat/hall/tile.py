"""A board's tile as the page shows it (and as mqtt.py publishes it): its link, its clock's faces
or its match, its result and kazans, its log's pull and verdict, TK-P1's protest window, and its
alerts (each text with its code for the page: said.py)."""

from __future__ import annotations

from sagatfw.engine.clock import PROTEST_MS  # TK-P1: 30 min from the end of the game, as the clock counts
from sagatfw.faces.game import time_text

from .boards import ANY_MS, SIDE_INTS, BoardLink, PullState, cut_text
from .said import msg_of, said, with_msg


def board_view(b: BoardLink, pairing: tuple[str, str] | None, now_host: float) -> dict:
    """The board's tile: its players (`pairing`: the hall's, else its clock's own names), what
    its clock last said and how long ago (`now_host`: host ms now)."""
    with b.lock:
        st = b.state or {}
        link, error = b.link, b.error
        pulls = b.pulls
        sync = b.sync
        updated = b.updated
        start = b.start_report
    stale = updated is not None and now_host - updated > 2500 and pulls.state != "pulling"  # a pull: no polls
    if link == "up" and stale:
        link = "lost"
        error = error or said("err_no_state", "no state for {s} s", s="%.0f" % ((now_host - updated) / 1000))
    v: dict = {
        "number": b.number, "port": b.port, "source": b.source,
        "players": list(pairing) if pairing else None,
        "link": link, "error": error, **({"error_msg": msg_of(error)} if msg_of(error) else {}),
        "rtt_ms": round(sync.rtt, 1) if sync else None,
        "uid": cut_text(b.ident.get("uid")), "firmware": cut_text(b.ident.get("firmware")),
        "key_set": b.ident.get("key_set") if isinstance(b.ident.get("key_set"), bool) else None,
        "state": st.get("state"), "game": st.get("game"), "mode": st.get("mode") or "game",
        "running": st.get("running"), "battery": st.get("battery"), "low_battery": bool(st.get("low_battery")),
        "message": st.get("message"), "log_error": st.get("log_error"), "log_full": bool(st.get("log_full")),
        "result_code": st.get("result_code"), "armed": st.get("armed") is not None,
        "tc": _tc_text(st.get("tc")),  # the board's control, as its clock has it
        # how long ago its clock last answered (a lost link: the page says so, its faces greyed)
        "seen_ms": int(now_host - updated) if updated is not None else None,
        # the result entered (the clock's, else the pulled log's for a firmware without it in state)
        "result": _result_of(st, pulls),
        # its final kazans, left's and right's, when the arbiter entered them (TK-R7)
        "kazans": _kazans_of(st) if _result_of(st, pulls) else None,
        "pull": _pull_view(pulls),
        "start": start,
    }
    if st.get("mode"):
        v["match"] = _match_view(st)
        names = st.get("names")
        if names and not pairing:  # the clock's own (its log's), when the hall has no pairing for it
            v["players"] = [names["left"], names["right"]]
    else:
        tenths = b.settings.get("tenths_below_ms")
        if type(tenths) is not int or not 0 <= tenths <= ANY_MS:
            tenths = 20000
        faces = {}
        for side in ("left", "right"):
            f = st.get(side) or {}
            faces[side] = {
                "text": time_text(f.get("ms", 0), tenths, bool(f.get("countup"))) if f else "-",
                "ms": f.get("ms"), "moves": f.get("moves"), "stage": f.get("stage"),
                # which fell first shows once both are down (contract 2)
                "flag": f.get("flag") or 0, "first": st.get("first_flag") == side and all(
                    (st.get(x) or {}).get("flag") for x in ("left", "right")),
                "low": bool(f.get("low")), "default": bool(f.get("default")),
                "stage_mark": bool(f.get("stage_mark")), "delay_ms": f.get("delay_ms") or 0,
            }
        v["faces"] = faces
    protest = None
    if pulls.result_host is not None and st.get("state") == "finished":
        protest = max(0, int(PROTEST_MS - (now_host - pulls.result_host)))
    v["protest_ms"] = protest
    with b.lock:
        last = b.last_pull
    v["last_game"] = None
    if last is not None and now_host - last.result_host < PROTEST_MS:
        # the next game is set up, but TK-P1's 30 minutes of the last one still run: its verdict
        # and its window stay on the board until the window closes
        v["last_game"] = {"game": last.game, "pull": _pull_view(last),
                          "protest_ms": int(PROTEST_MS - (now_host - last.result_host))}
    alerts = []
    with b.lock:
        stranger, own, restored, key_problem = b.stranger, b.clock_uid, b.restored, b.key_problem
    if key_problem and link == "up":
        alerts.append(alert("key", key_problem))
    if stranger:
        alerts.append(alert("stranger", said(
            "alert_stranger", "another clock on this port ({clock}; the board's was {own}): assign it to the board "
            "before the hall acts on it", clock=stranger, own=own)))
    if restored:
        alerts.append(alert("restore", said("alert_restore", "power cut: the clock restored its game, paused; "
                                            "check the times before resuming (TK-C18)")))
    v["stranger"] = stranger
    v["restored"] = restored
    if link in ("lost", "unreachable"):
        alerts.append(alert("link", said("alert_unreachable", "clock unreachable") if link == "unreachable" else
                            said("alert_link_lost", "link lost")))
    elif link == "error":
        alerts.append(alert("link", said("alert_garbage", "garbage from the clock")))
    flags = [s for s in ("left", "right") if (st.get(s) or {}).get("flag")]
    v["flag_note"] = None
    if flags and not st.get("mode"):
        first = st.get("first_flag")
        text = "FLAG " + " ".join(s + (" (1st)" if s == first and len(flags) > 1 else "") for s in flags)
        if st.get("state") == "finished":  # the result is in: the flag is the game's story, not an alert
            v["flag_note"] = text
        else:
            alerts.append({"kind": "flag", "text": text})
    if st.get("low_battery"):
        alerts.append(alert("battery", said("alert_battery", "low battery")))
    if st.get("log_full"):
        alerts.append(alert("log", said("alert_log_full", "log full")))
    elif st.get("log_error"):
        alerts.append(alert("log", said("alert_log_error", "log error")))
    if pulls.state == "failed":
        alerts.append(alert("verify", said("alert_verify", "log: {why}", why=pulls.message)))
    v["alerts"] = alerts
    return v


def alert(kind: str, text) -> dict:
    """An alert on a board: its kind, its English text and, when it has one, its code for the page (msg)."""
    return with_msg({"kind": kind}, "text", text, "msg")


def _pull_view(p: PullState) -> dict:
    """A pull's state and its message (with its code for the page, msg, when it has one)."""
    return with_msg({"state": p.state}, "message", p.message, "msg")


def _kazans_of(st: dict) -> list[int] | None:
    """The clock's `kazans` of the result on its faces: two counts 0..162 (TK-R1), else None."""
    k = st.get("kazans")
    ok = isinstance(k, list) and len(k) == 2 and all(type(x) is int and 0 <= x <= 162 for x in k) and sum(k) <= 162
    return list(k) if ok else None


def _result_of(st: dict, pulls: PullState) -> str | None:
    """The game's result while its code is on the faces: the clock's `result`, else its pulled log's."""
    from sagatfw.engine.rules import RESULT_NAMES

    if st.get("mode") or not st.get("result_code"):
        return None
    r = st.get("result")
    if r is None and pulls.game == st.get("game") and pulls.code == st.get("result_code"):
        r = pulls.result
    return r if r in RESULT_NAMES else None


def _tc_text(tc) -> str | None:
    """A state's control as text: "300+2", or a handicap's two "300+2 | 180+2"."""
    if isinstance(tc, dict):
        left, right = cut_text(tc.get("left")), cut_text(tc.get("right"))
        return f"{left} | {right}" if left and right else None
    return cut_text(tc)


def _break_name(mode) -> str:
    """A match mode's break ("rest", "changeover": its engine's BREAK_NAME), "break" if unknown."""
    from sagatfw.log import matchrecords as matchlog

    i = matchlog.mode_index(mode) if isinstance(mode, str) else -1
    return matchlog.engine_class(i).BREAK_NAME if i >= 0 else "break"


def _break_text(mode, time: str) -> str:
    """A match's break and its countdown, "rest 0:45" (KB-6), "changeover 0:30" (KT-4.4)."""
    name = _break_name(mode)
    if name == "rest":
        return said("match_break_rest", "rest {time}", time=time)
    if name == "changeover":
        return said("match_break_changeover", "changeover {time}", time=time)
    return f"{name} {time}"


def _match_view(st: dict) -> dict:
    """A match's part of a board's view (the page's match tile): the period and its time, the
    scores and cards, the break's countdown in a break (KB-6, KT-4.4), the running stoppage in one
    (KB-16, KT-4.5) and the period's stopped time (the time added back, KT-4.5), the names the
    clock holds, the result."""
    state = st.get("state")
    stopped = st.get("stopped_ms") or 0
    names = st.get("names")
    brk = _break_text(st.get("mode"), time_text(st.get("break_ms") or 0, 0)) if state == "break" else None
    return {
        "period": st.get("period_name"), "state": state,
        "time": time_text(st.get("match_ms") or 0, 0, bool(st.get("counts_up"))),
        **{s: {k: (st.get(s) or {}).get(k) for k in SIDE_INTS} for s in ("left", "right")},
        "break": brk, **({"break_msg": msg_of(brk)} if msg_of(brk) else {}),
        "stoppage": time_text(st.get("stoppage_ms") or 0, 0, True) if state == "stopped" else None,
        "stopped": time_text(stopped, 0, True) if stopped else None,
        "names": [names["left"], names["right"]] if names else None,
        "winner": st.get("winner"), "why": st.get("why"),
    }
