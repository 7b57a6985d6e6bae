"""`sagat report`: a page per game from pulled logs, and one page for the round.

Each game's page has the time-use plot of both sides per move (matplotlib, saved as PNG beside
it), the flag-fall certificate (who fell first, the exact instants by the clock's own ticks, the
wall time, what the chain, the key and the signed head prove, the result and its code) and the
events table; its clock record is beside it as PGN (pgn.py). The round's page is the results table
(board, players, result, code, verified, flags: one A4 page in print), also as round.csv, and the
round goes to the pairing program as round.trf (trf.py).

A source is what `sagat logs pull` (or the hall) wrote for one clock: a folder with records.bin
(and head.json), or a folder of such folders (the hall's --out, `board-03-<uid>` each)."""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
from urllib.parse import quote

from sagatfw.log import records as R

from ..log import problem as P
from ..log import pulled
from ..log.decode import LogError
from ..log.verify import UNVERIFIED, Verdict, verify
from . import lang as L
from .roundfile import ROUND_FILE, TRF_COPY, RoundFileError, round_info  # noqa: F401 (the hall's, the command's)
from .timeuse import can_plot, plot, turns  # noqa: F401 (turns: the tests')
from .timeuse import clock_text as _clock
from .timeuse import side_name as _side

CSS = """body{font:16px/1.4 system-ui,"DejaVu Sans",sans-serif;margin:2rem;max-width:70rem;color:#111}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #bbb;padding:.2rem .5rem;text-align:left}
th{background:#eee}.ok{color:#176c38;font-weight:700}.bad{color:#b3131b;font-weight:700}
.unkeyed{color:#9a5b00;font-weight:700}
.cert{border:3px double #333;padding:1rem 1.5rem;margin:1rem 0;background:#fafaf5}
.cert h2{margin-top:0}img{max-width:100%;border:1px solid #ccc}td.num{text-align:right}
.event{color:#444;margin-top:-.5rem}td.res{font-weight:700;white-space:nowrap}
@page{size:A4;margin:12mm}
@media print{body{margin:0;max-width:none;font-size:10pt}a{color:inherit;text-decoration:none}
.noprint{display:none}table{margin:.3rem 0;width:100%}td,th{padding:.05rem .3rem}h1{font-size:14pt;margin:0}}"""


class ReportError(Exception):
    """One line for the user."""


def _sources(paths: list[str], paired: bool = False) -> list[tuple[str, str]]:
    """(label, folder) of every pulled clock under the paths given (none is no error when the round
    has pairings: each paired board is then a "no log" row)."""
    out = []
    for p in paths:
        if os.path.isfile(os.path.join(p, "records.bin")):
            out.append((os.path.basename(os.path.abspath(p)), p))
            continue
        if not os.path.isdir(p):
            raise ReportError(f"{p}: no such folder (give a folder `sagat logs pull` or `sagat hall` wrote)")
        subs = sorted(d for d in os.listdir(p) if os.path.isfile(os.path.join(p, d, "records.bin")))
        if not subs and not paired:
            raise ReportError(f"{p} holds no pulled log (records.bin): give a folder `sagat logs pull` or "
                              f"`sagat hall` wrote")
        out += [(d, os.path.join(p, d)) for d in subs]
    return out


def _board(label: str) -> int | None:
    m = re.match(r"board-([0-9]+)", label)
    return int(m.group(1)) if m else None


def _board_title(label: str, lang: str = "en") -> str:
    """A game page's heading: "Board 8 (clock e6614103e7)" for a folder the hall named, else the folder."""
    m = re.fullmatch(r"board-0*([0-9]+)(?:-(.+))?", label)
    if not m:
        return label
    w = L.words(lang)
    return w("board_clock", n=m.group(1), clock=m.group(2)) if m.group(2) else w("board_title", n=m.group(1))


def _board_cell(label: str) -> str:
    """The index's board: its number, the clock's uid smaller (a folder the hall named), else the folder."""
    m = re.fullmatch(r"board-0*([0-9]+)(?:-(.+))?", label)
    if not m:
        return _e(label)
    return m.group(1) + (f" <small>{_e(m.group(2))}</small>" if m.group(2) else "")


SEALED = "this clock's log is sealed with an arbiter key: give --key/--key-file to verify it"


def check(v: Verdict) -> tuple[str, list[str], bool]:
    """(status, lines, sealed) of a log's verdict (log/verify.py): "verified" (under a key given),
    "unkeyed" (an intact chain without a key: no authorship), "sealed" (a keyed clock's log without
    its key: it cannot be checked, which is neither a broken log nor an unkeyed one) or "failed"."""
    if not v.sealed:
        return ("verified" if v.keyed else "unkeyed") if v.ok else "failed", v.lines, False
    if v.status == UNVERIFIED:
        return "sealed", [SEALED], True
    # what can be seen without the key: damage to the records themselves, a game the engine cannot
    # replay, a head that is not this log's (the chain and the head's MAC need the key)
    other = [p.line for p in v.problems if p.code not in (R.P_KEY, P.HEAD_SEALED, "gap")]
    return "failed", [SEALED + "; and without it, it is damaged:"] + other[:10], True


def _verdict(status: str, lang: str = "en") -> str:
    """The log's verdict as HTML: "verified" only under a key given (else anybody could have written it)."""
    w = L.words(lang)
    return {"verified": f"<span class=ok>{_e(w('verified'))}</span>",
            "unkeyed": f"<span class=unkeyed>{_e(w('unkeyed'))}</span>",
            "sealed": f"<span class=unkeyed>{_e(w('sealed'))}</span>"}.get(
        status, f"<span class=bad>{_e(w('failed'))}</span>")


def _e(x) -> str:
    return html.escape("" if x is None else str(x))


def _event_line(event: dict | None, lang: str = "en") -> str:
    """The event, the round and the date, as a heading's second line ('' when none is known)."""
    event = event or {}
    bits = [event.get("name"), L.words(lang)("round_n", n=event["round"]) if event.get("round") else None,
            L.date_text(event.get("date"), lang)]
    return " &middot; ".join(_e(b) for b in bits if b)


def _flags_text(flags: list[dict], lang: str = "en") -> str:
    """Who flagged, the first marked: "left (1st), right" (round.csv's: in English)."""
    if not flags:
        return ""
    order = sorted(flags, key=lambda e: e.get("order") or 99)
    first = L.words(lang)("first_mark")
    return ", ".join(_side(e["side"], lang) + (f" ({first})" if i == 0 and len(order) > 1 else "")
                     for i, e in enumerate(order))


def _game_page(label: str, players, game: int, evs: list[dict], log, verdict: tuple[str, list[str], bool],
               head_note: str, keys: list[bytes], png: str | None, event: dict | None = None,
               pgn_name: str | None = None, lang: str = "en") -> tuple[str, dict]:
    start = next((e for e in evs if e["type"] == "game_start"), None)
    setup = next((e for e in evs if e.get("tc")), start)
    result = [e for e in evs if e["type"] == "result"]
    flags = [e for e in evs if e["type"] == "flag"]
    status, lines, sealed = verdict  # (sealed: also a sealed log damaged where no key is needed to see it)
    res_rec = (log.results.get(game) or [None])[-1]
    code = R.result_code(res_rec[1]) if res_rec else None
    keyed = bool(res_rec and res_rec[3])
    w = L.words(lang)
    rows = []  # (the row's key, its heading, its text; the log's and the head's as HTML)
    if flags:
        first = min(flags, key=lambda e: e.get("order") or 99)
        rows.append(("first", w("fell_first"), w("fell_first_text", side=_side(first["side"], lang),
                                                 t=_clock(first["t"], lang))))
        for e in flags:
            rows.append(("flag", w("flag_n", n=e.get("order")),
                         w("flag_text", side=_side(e["side"], lang), t=_clock(e["t"], lang),
                           wall=e.get("wall") or w("not_synced"), seq=e["seq"])))
    else:
        rows.append(("flags", w("flags"), w("no_flag")))
    if result:
        r = result[-1]
        kz = w("kazans", k=_kazans(r.get("kazans"))) if _kazans(r.get("kazans")) else ""
        rows.append(("result", w("result"), w("result_text", result=r.get("result") or r.get("winner"), kazans=kz,
                                              t=_clock(r["t"], lang), wall=r.get("wall") or w("not_synced"),
                                              seq=r["seq"])))
    else:
        rows.append(("result", w("result"), w("no_result")))
    if code:
        why = w("code_keyed") if keyed else w("code_sealed") if sealed else w("code_unkeyed")
        rows.append(("code", w("result_code"), f"{code} ({why})"))
    shown = [w("sealed_why") + lines[0][len(SEALED):]] + lines[1:3] if sealed else lines[:3]
    rows.append(("log", w("log"), _verdict(status, lang) + ": " + _e("; ".join(shown))))
    if status == "sealed":
        pass  # the log's line says it: the key is needed
    elif keys:
        rows.append(("key", w("key"), w("key_ok") if status == "verified" else w("key_bad")))
    elif not sealed:
        rows.append(("key", w("key"), w("key_none")))
    rows.append(("head", w("head"), _e(head_note)))
    who = f"{_e(players[0])} &ndash; {_e(players[1])}" if players else ""
    tc = setup.get("tc") if setup else None
    if isinstance(tc, dict):  # a handicap: each side's control
        tc = f"{tc.get('left')} | {tc.get('right')}" if tc.get("left") != tc.get("right") else tc.get("left")
    title = w("game_title", board=_board_title(label, lang), game=game)
    cert = "".join(f"<tr><th>{_e(h)}</th><td>{v if k in ('log', 'head') else _e(v)}</td></tr>" for k, h, v in rows)
    table = "".join(
        "<tr>" + "".join(f"<td>{_e(x)}</td>" for x in (
            e["seq"], e["type"], _clock(e["t"], lang), _clock(e.get("left_ms") or 0, lang),
            _clock(e.get("right_ms") or 0, lang), f"{e.get('left_moves')}-{e.get('right_moves')}",
            _side(e["running"], lang) if e.get("running") else e.get("running"),
            _side(e.get("side") or e.get("by") or "", lang), e.get("wall") or "",
            _details(e))) + "</tr>" for e in evs if e["type"] != "checkpoint")
    line = _event_line(event, lang)
    plot_html = (f"<h2>{_e(w('time_use'))}</h2><img src=\"{_e(quote(os.path.basename(png)))}\" "
                 f"alt=\"{_e(w('time_use_alt'))}\">\n") if png else ""  # (none without matplotlib)
    first_side = (setup or {}).get("first")
    first_text = f" &middot; {_e(w('first_player', side=_side(first_side, lang)))}" if first_side else ""
    heads = "".join(f"<th>{_e(h)}</th>" for h in (
        w("ev_seq"), w("ev_event"), w("ev_t"), w("side_left"), w("side_right"), w("ev_moves"), w("ev_running"),
        w("ev_side"), w("ev_wall"), w("ev_details")))
    page = f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{_e(title)}</title>
<style>{CSS}</style></head><body>
<p><a href="index.html">&larr; {_e(w('back'))}</a></p>
<h1>{_e(title)}</h1>{f'<p class=event>{line}</p>' if line else ''}
<p>{who} &middot; {_e(w('tc', tc='' if tc is None else tc))}{first_text}{
    f' &middot; <a href="{_e(quote(pgn_name))}">{_e(w("pgn_link"))}</a>' if pgn_name else ''}</p>
<div class="cert"><h2>{_e(w('certificate'))}</h2><table>{cert}</table></div>
{plot_html}<h2>{_e(w('events'))}</h2><table><tr>{heads}</tr>{table}</table></body></html>"""
    summary = {"label": label, "game": game, "players": players,
               "result": (result[-1].get("result") or result[-1].get("winner")) if result else None,
               "kazans": result[-1].get("kazans") if result else None,
               "first_flag": min(flags, key=lambda e: e.get("order") or 99)["side"] if flags else None,
               "flags": _flags_text(flags), "flags_shown": _flags_text(flags, lang),
               "first": (setup or {}).get("first") or "left",
               "tc": tc if isinstance(tc, str) else None,
               "status": status, "verdict": lines[0], "code": code if keyed else None}
    return page, summary


def _details(e: dict) -> str:
    skip = {"game", "seq", "type", "t", "left_ms", "right_ms", "left_moves", "right_moves", "running", "side",
            "by", "wall"}
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in e.items() if k not in skip and v is not None)


STATUS_WORDS = {"verified": "verified", "unkeyed": "chain intact, authorship unproven", "sealed": "not checked",
                "failed": "NOT verified", "nolog": "no log"}
CSV_FIELDS = ("board", "left", "right", "result", "code", "log", "flags", "game", "clock", "kazans")



def _cell(text: str) -> str:
    """A name as a spreadsheet's text: one it would run as a formula (=, +, -, @, a tab or a CR first)
    gets a ' before it (OWASP's CSV injection advice)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _kazans(k) -> str:
    """The final kazans entered with the result (TK-R7), left's-right's ("82-79"), or ""."""
    return f"{k[0]}-{k[1]}" if isinstance(k, list) and len(k) == 2 else ""


def _csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for r in rows:
        left, right = r["players"] or ("", "")
        m = re.fullmatch(r"board-0*([0-9]+)(?:-(.+))?", r["label"])
        w.writerow((_cell(m.group(1) if m else r["label"]), _cell(left), _cell(right), r["result"] or "",
                    r["code"] or "", STATUS_WORDS.get(r["status"], r["status"]), r.get("flags") or "",
                    r["game"] if r["game"] is not None else "", _cell((m.group(2) or "") if m else ""),
                    _kazans(r.get("kazans"))))
    return buf.getvalue()


def _trf_games(rows: list[dict], pairings: dict) -> list[dict]:
    """One game per paired board for the pairing program: the board's round game (build's `round`
    rows), its result or none yet; a board with no log: the pairing with no result."""
    out = []
    for board in sorted(pairings):
        r = next((r for r in rows if _board(r["label"]) == board and r.get("round")), None)
        left, right = pairings[board]
        out.append({"board": board, "left": left, "right": right, "first": (r or {}).get("first") or "left",
                    "result": (r or {}).get("result")})
    return out


def _uid_of(label: str) -> str:
    m = re.fullmatch(r"board-0*[0-9]+-(.+)", label)
    return m.group(1) if m else label


def _round_games(played: list[tuple[str, int]], board: int, clocks: dict) -> tuple[str, int] | None:
    """Which of a paired board's played games (label, game) is the round's: its clock's last game (a
    clock's earlier games are earlier rounds'). The board's clock is the one the hall named for it
    (round.json's clocks); logs of two clocks for one board with none named: ReportError."""
    uids = sorted({_uid_of(label) for label, _g in played})
    mine = clocks.get(board)
    if mine is not None:
        played = [(label, g) for label, g in played if _uid_of(label) == mine]
    elif len(uids) > 1:
        raise ReportError(f"board {board}: these folders hold the logs of {len(uids)} clocks ({', '.join(uids)}): "
                          f"which one played the round is not known; report the round's clock's folder only")
    return max(played, key=lambda x: x[1]) if played else None


def _read(paths: list[str], keys: list[bytes], paired: bool, w) -> list[tuple]:
    """Each pulled clock's (label, log, verdict, head note, its played games' numbers)."""
    read = []
    for label, folder in _sources(paths, paired):
        try:
            v = verify(pulled.read_folder(folder), keys)
        except LogError as e:
            raise ReportError(str(e)) from None
        log, found = v.log, v.part(P.HEAD)
        head_note = w("head_none") if v.head is None and not found else w("head_ok")
        if found:
            head_note = "; ".join(w("head_sealed") if x.code == P.HEAD_SEALED else x.line for x in found)
        played = []
        for game in log.games():
            evs = log.shown(game=game)
            if any(e["type"] in ("game_start", "result") for e in evs) and not any(e["type"] == "match" for e in evs):
                played.append(game)  # (a game set up but never played: none; matches: their own table)
        read.append((label, log, check(v), head_note, played))
    return read


def _round_of(read: list[tuple], pairings: dict, clocks: dict) -> set[tuple[str, int]]:
    """The round's games (label, game): each board's (a folder without a board number: its own) clock's
    last game (_round_games). A paired board's logs of two clocks with none named: ReportError; an
    unpaired board's: none of its games is the round's (its games carry no round nor its date)."""
    by_board: dict = {}
    for label, _log, _v, _h, played in read:
        board = _board(label)
        by_board.setdefault(label if board is None else board, []).extend((label, g) for g in played)
    out = set()
    for b, played in by_board.items():
        try:
            found = _round_games(played, b, clocks)
        except ReportError:
            if b in pairings:
                raise
            found = None
        if found:
            out.add(found)
    return out


def build(paths: list[str], out_dir: str, keys: list[bytes], pairings: dict | None = None,
          event: dict | None = None, moves: str | None = None, source=None, clocks: dict | None = None,
          lang: str = "en") -> dict:
    """Write the round's index.html (the results table), round.csv, round.trf (with pairings), and a
    page, a PNG and a PGN per game into out_dir; returns figures. `event`: name, round, date, site,
    tc; `moves`: a scoresheet PGN's text (one game, or the round's games with their Board tags);
    `source`: the tournament the pairings came from (trf.Tournament), whose TRF the round updates
    (figures' trf_alerts: the pairs whose clock's result replaced the one the source had);
    `clocks`: each board's clock (its uid as in the folders' names), where the hall named one; `lang`:
    the pages' language (kk, ru, ky, en: lang.py; round.csv, round.trf and the PGN stay as they are).

    A paired board's players go on its round game alone: its clock's last game (_round_games); a
    clock's earlier games (a pull takes its whole log) are listed without players, never as the
    round's, and so are the games of a clock the hall did not name for the board."""
    from . import pgn

    L.check(lang)
    w = L.words(lang)
    pairings = pairings or {}
    clocks = clocks or {}
    event = dict(event or {})
    os.makedirs(out_dir, exist_ok=True)
    read = _read(paths, keys, bool(pairings), w)
    of_round = _round_of(read, pairings, clocks)
    plots = can_plot()  # without matplotlib: everything but the plots
    rows = []
    for label, log, verdict, head_note, played in read:
        board = _board(label)
        for game in played:
            evs = log.shown(game=game)
            mine = (label, game) in of_round  # the round's game: the pairing's players, the round's date
            players = pairings.get(board) if mine else None
            name = f"{label}-game-{game}"
            png = os.path.join(out_dir, name + ".png") if plots else None
            if png:
                plot(evs, png, w("game_title", board=_board_title(label, lang), game=game), lang)
            try:
                sheet = pgn.pick(moves, board, str(event["round"]) if event.get("round") else None) \
                    if moves is not None and mine else None
                # another game's date: the clock's own (UTC) when it was synced (pgn.game), else ????.??.??
                tags = {"Event": event.get("name") or "?", "Site": event.get("site") or "?",
                        "Date": event["date"].replace("-", ".") if mine and event.get("date") else None,
                        "Round": str(event.get("round") or "?") if mine else "?",
                        "Board": str(board) if board else "?",
                        "Left": players[0] if players else "?", "Right": players[1] if players else "?"}
                record = pgn.game(evs, tags, sheet)
            except pgn.PgnError as e:
                raise ReportError(f"{_board_title(label)}, game {game}: {e}") from None
            with open(os.path.join(out_dir, name + ".pgn"), "w", encoding="utf-8") as fh:
                fh.write(record)
            page, summary = _game_page(label, players, game, evs, log, verdict, head_note, keys, png, event,
                                       name + ".pgn", lang)
            with open(os.path.join(out_dir, name + ".html"), "w", encoding="utf-8") as fh:
                fh.write(page)
            summary["page"] = name + ".html"
            summary["pgn"] = name + ".pgn"
            summary["round"] = mine
            if board in pairings and not mine:
                summary["other"] = True  # a game of this board's clock, not the round's: no players
            rows.append(summary)
    # every paired board is in the table: one whose clock left no played game says so
    played = {_board(r["label"]) for r in rows if r.get("round")}
    missing = [b for b in sorted(pairings) if b not in played]
    for b in missing:
        rows.append({"label": f"board-{b}", "game": None, "players": pairings[b], "result": None,
                     "first_flag": None, "flags": "", "flags_shown": "", "code": None, "status": "nolog",
                     "page": None})
    rows.sort(key=lambda r: (_board(r["label"]) is None, _board(r["label"]) or 0, r["label"], r["game"] or 0))
    if not rows:
        raise ReportError("no game was played in these logs")
    body = "".join(
        f"<tr><td>{_board_cell(r['label'])}</td><td>{_e(' - '.join(r['players']) if r['players'] else '')}"
        f"{'<em>' + _e(w('earlier_game')) + '</em>' if r.get('other') else ''}</td>"
        + (f"<td class=res></td><td></td><td><span class=bad>{_e(w('no_log'))}</span>: {_e(w('no_log_why'))}"
           "</td><td></td><td class=num></td><td class=noprint></td></tr>" if r["status"] == "nolog" else
           f"<td class=res>{_e(r['result'] or w('none'))}"
           f"{' <small>' + _kazans(r.get('kazans')) + '</small>' if _kazans(r.get('kazans')) else ''}</td>"
           f"<td>{_e(r['code'] or '')}</td><td>{_verdict(r['status'], lang)}"
           f"{': ' + _e(w('sealed_why')) if r['status'] == 'sealed' else ''}</td><td>{_e(r['flags_shown'])}</td>"
           f"<td class=num>{r['game']}</td>"
           f"<td class=noprint><a href=\"{_e(quote(r['page']))}\">{_e(w('link_report'))}</a> "
           f"<a href=\"{_e(quote(r['pgn']))}\">PGN</a></td></tr>")
        for r in rows)
    heading = _event_line(event, lang)
    title = w("results") + (f": {event['name']}" if event.get("name") else "") + (
        ", " + w("round_n", n=event["round"]) if event.get("round") else "")
    heads = "".join(f"<th>{_e(w(k))}</th>" for k in (
        "col_board", "col_players", "col_result", "col_code", "col_log", "col_flags", "col_game"))
    index = f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{_e(title)}</title>
<style>{CSS}</style></head><body><h1>{_e(w('results'))}</h1>{f'<p class=event>{heading}</p>' if heading else ''}
<table><tr>{heads}<th class=noprint></th></tr>{body}</table>
<p class=noprint><a href="round.csv">round.csv</a>{' &middot; <a href="round.trf">round.trf</a>' if pairings else ''}
</p></body></html>"""
    with open(os.path.join(out_dir, "index.html"), "w", encoding="utf-8") as fh:
        fh.write(index)
    with open(os.path.join(out_dir, "round.csv"), "w", encoding="utf-8", newline="") as fh:
        fh.write(_csv(rows))
    trf_path, trf_alerts = None, []  # (a clock's result that replaced the pairing program's: trf.write)
    if pairings:  # the pairing program needs the players: no TRF of a round without pairings
        from . import trf

        try:
            text = trf.write({"name": event.get("name") or "?", "round": event.get("round") or 1,
                              "date": event.get("date"), "city": event.get("site"), "arbiter": event.get("arbiter"),
                              "tc": event.get("tc") or next((r["tc"] for r in rows if r.get("tc")), None)},
                             _trf_games(rows, pairings), source, trf_alerts)
        except trf.TrfError as e:
            raise ReportError(f"round.trf: {e}") from None
        trf_path = os.path.join(out_dir, "round.trf")
        trf.save(trf_path, text)
    return {"games": len(rows) - len(missing), "no_log": missing, "plots": plots,
            **{k: sum(1 for r in rows if r["status"] == k) for k in ("verified", "unkeyed", "sealed", "failed")},
            "index": os.path.join(out_dir, "index.html"), "csv": os.path.join(out_dir, "round.csv"),
            "trf": trf_path, "trf_alerts": trf_alerts, "pgn": [r["pgn"] for r in rows if r.get("pgn")]}
