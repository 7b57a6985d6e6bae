"""`sagat report`: a page per game from pulled logs, and one page for the round.

Each game's page has the time-use plot of both sides per move (matplotlib, saved as PNG beside
it), the flag-fall certificate (who fell first, the exact instants by the clock's own ticks, the
wall time, what the chain, the key and the signed head prove, the result and its code) and the
events table; its clock record is beside it as PGN (pgn.py). The round's page is the results table
(board, players, result, code, verified, flags: one A4 page in print), also as round.csv (pages.py),
and the round goes to the pairing program as round.trf (trf.py).

A source is what `sagat logs pull` (or the hall) wrote for one clock: a folder with records.bin
(and head.json), or a folder of such folders (the hall's --out, `board-03-<uid>` each)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from urllib.parse import quote

from sagatfw.log import records as R

from ..i18n import _, ngettext, speaking
from ..log import problem as problem
from ..log import pulled
from ..log.decode import LogError
from ..log.show import VALUE_WORDS, value_word
from ..log.verify import UNVERIFIED, Verdict, verify
from . import pages, pgn, trf
from .folder import board_of
from .pages import board_title, esc, event_line, flags_text, kazans_text, verdict_html
from .timeuse import can_plot, plot, stamp_text_in
from .timeuse import side_name as _side
from .words import check as check_lang
from .words import words


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
            raise ReportError(_("{folder}: no such folder (give a folder `sagat logs pull` or `sagat hall` wrote)")
                              .format(folder=p))
        subs = sorted(d for d in os.listdir(p) if os.path.isfile(os.path.join(p, d, "records.bin")))
        if not subs and not paired:
            raise ReportError(_("{folder} holds no pulled log (records.bin): give a folder `sagat logs pull` or "
                                "`sagat hall` wrote").format(folder=p))
        out += [(d, os.path.join(p, d)) for d in subs]
    return out


def _board(label: str) -> int | None:
    """The board of a folder the hall named (folder.board_of), None for another folder."""
    found = board_of(label)
    return found[0] if found else None


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
    other = [p.line for p in v.problems if p.code not in (R.P_KEY, problem.HEAD_SEALED, "gap")]
    return "failed", [SEALED + _("; and without it, it is damaged:")] + other[:10], True


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
    w = words(lang)
    rows = []  # (the row's key, its heading, its text; the log's and the head's as HTML)
    if flags:
        first = min(flags, key=lambda e: e.get("order") or 99)
        rows.append(("first", w("fell_first"), w("fell_first_text", side=_side(first["side"], lang),
                                                 t=stamp_text_in(first["t"], lang))))
        for e in flags:
            rows.append(("flag", w("flag_n", n=e.get("order")),
                         w("flag_text", side=_side(e["side"], lang), t=stamp_text_in(e["t"], lang),
                           wall=e.get("wall") or w("not_synced"), seq=e["seq"])))
    else:
        rows.append(("flags", w("flags"), w("no_flag")))
    if result:
        r = result[-1]
        kz = w("kazans", k=kazans_text(r.get("kazans"))) if kazans_text(r.get("kazans")) else ""
        rows.append(("result", w("result"), w("result_text", result=r.get("result") or r.get("winner"), kazans=kz,
                                              t=stamp_text_in(r["t"], lang), wall=r.get("wall") or w("not_synced"),
                                              seq=r["seq"])))
    else:
        rows.append(("result", w("result"), w("no_result")))
    if code:
        why = w("code_keyed") if keyed else w("code_sealed") if sealed else w("code_unkeyed")
        rows.append(("code", w("result_code"), f"{code} ({why})"))
    shown = [w("sealed_why") + lines[0][len(SEALED):]] + lines[1:3] if sealed else lines[:3]
    rows.append(("log", w("log"), verdict_html(status, lang) + ": " + esc("; ".join(shown))))
    if status == "sealed":
        pass  # the log's line says it: the key is needed
    elif keys:
        rows.append(("key", w("key"), w("key_ok") if status == "verified" else w("key_bad")))
    elif not sealed:
        rows.append(("key", w("key"), w("key_none")))
    rows.append(("head", w("head"), esc(head_note)))
    who = f"{esc(players[0])} &ndash; {esc(players[1])}" if players else ""
    tc = setup.get("tc") if setup else None
    if isinstance(tc, dict):  # a handicap: each side's control
        tc = f"{tc.get('left')} | {tc.get('right')}" if tc.get("left") != tc.get("right") else tc.get("left")
    title = w("game_title", board=board_title(label, lang), game=game)
    cert = "".join(f"<tr><th>{esc(h)}</th><td>{v if k in ('log', 'head') else esc(v)}</td></tr>" for k, h, v in rows)
    line = event_line(event, lang)
    plot_html = (f"<h2>{esc(w('time_use'))}</h2><img src=\"{esc(quote(os.path.basename(png)))}\" "
                 f"alt=\"{esc(w('time_use_alt'))}\">\n") if png else ""  # (none without matplotlib)
    first_side = (setup or {}).get("first")
    first_text = f" &middot; {esc(w('first_player', side=_side(first_side, lang)))}" if first_side else ""
    page = f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>{pages.CSS}</style></head><body>
<p><a href="index.html">&larr; {esc(w('back'))}</a></p>
<h1>{esc(title)}</h1>{f'<p class=event>{line}</p>' if line else ''}
<p>{who} &middot; {esc(w('tc', tc='' if tc is None else tc))}{first_text}{
    f' &middot; <a href="{esc(quote(pgn_name))}">{esc(w("pgn_link"))}</a>' if pgn_name else ''}</p>
<div class="cert"><h2>{esc(w('certificate'))}</h2><table>{cert}</table></div>
{plot_html}<h2>{esc(w('events'))}</h2>{_events_table(evs, lang)}</body></html>"""
    summary = {"label": label, "game": game, "players": players,
               "result": (result[-1].get("result") or result[-1].get("winner")) if result else None,
               "kazans": result[-1].get("kazans") if result else None,
               "first_flag": min(flags, key=lambda e: e.get("order") or 99)["side"] if flags else None,
               "flags": flags_text(flags), "flags_shown": flags_text(flags, lang),
               "first": (setup or {}).get("first") or "left",
               "tc": tc if isinstance(tc, str) else None,
               "status": status, "verdict": lines[0], "code": code if keyed else None}
    return page, summary


def _details(e: dict) -> str:
    skip = {"game", "seq", "type", "t", "left_ms", "right_ms", "left_moves", "right_moves", "running", "side",
            "by", "wall"}
    # (the log's field names as they are; a value said to a person, left, player, ..., in the page's language)
    said = {k: value_word(v) if isinstance(v, str) and v in VALUE_WORDS else v for k, v in e.items()}
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in said.items()
                     if k not in skip and v is not None)


def _events_table(evs: list[dict], lang: str) -> str:
    """A game's events as a table (its checkpoints left out): seq, event, the clock's t, both sides' times
    and moves, who runs, whose, the wall time, the rest."""
    w = words(lang)
    with speaking(lang):
        return _events_rows(evs, lang, w)


def _events_rows(evs: list[dict], lang: str, w) -> str:
    heads = "".join(f"<th>{esc(h)}</th>" for h in (
        w("ev_seq"), w("ev_event"), w("ev_t"), w("side_left"), w("side_right"), w("ev_moves"), w("ev_running"),
        w("ev_side"), w("ev_wall"), w("ev_details")))
    rows = "".join(
        "<tr>" + "".join(f"<td>{esc(x)}</td>" for x in (
            e["seq"], e["type"], stamp_text_in(e["t"], lang), stamp_text_in(e.get("left_ms") or 0, lang),
            stamp_text_in(e.get("right_ms") or 0, lang), f"{e.get('left_moves')}-{e.get('right_moves')}",
            _side(e["running"], lang) if e.get("running") else e.get("running"),
            _side(e.get("side") or e.get("by") or "", lang), e.get("wall") or "",
            _details(e))) + "</tr>" for e in evs if e["type"] != "checkpoint")
    return f"<table><tr>{heads}</tr>{rows}</table>"


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
    """The clock of a folder the hall named, else the folder's name."""
    found = board_of(label)
    return found[1] if found and found[1] else label


def _round_games(played: list[tuple[str, int]], board: int, clocks: dict) -> tuple[str, int] | None:
    """Which of a paired board's played games (label, game) is the round's: its clock's last game (a
    clock's earlier games are earlier rounds'). The board's clock is the one the hall named for it
    (round.json's clocks); logs of two clocks for one board with none named: ReportError."""
    uids = sorted({_uid_of(label) for label, _g in played})
    mine = clocks.get(board)
    if mine is not None:
        played = [(label, g) for label, g in played if _uid_of(label) == mine]
    elif len(uids) > 1:
        n = len(uids)
        raise ReportError(ngettext(
            "board {board}: these folders hold the logs of {n} clock ({clocks}): which one played the round "
            "is not known; report the round's clock's folder only",
            "board {board}: these folders hold the logs of {n} clocks ({clocks}): which one played the round "
            "is not known; report the round's clock's folder only", n).format(
            board=board, n=n, clocks=", ".join(uids)))
    return max(played, key=lambda x: x[1]) if played else None


def _read(paths: list[str], keys: list[bytes], paired: bool, lang: str) -> list[tuple]:
    """Each pulled clock's (label, log, verdict, head note, its played games' numbers); the verdict's
    lines in the pages' language."""
    read = []
    w = words(lang)
    for label, folder in _sources(paths, paired):
        try:
            with speaking(lang):  # (the page's OK line and problems as its other words: lang's)
                v = verify(pulled.read_folder(folder), keys, translate=True)
                verdict = check(v)
        except LogError as e:
            raise ReportError(str(e)) from None
        log, found = v.log, v.part(problem.HEAD)
        head_note = w("head_none") if v.head is None and not found else w("head_ok")
        if found:
            head_note = "; ".join(w("head_sealed") if x.code == problem.HEAD_SEALED else x.line for x in found)
        played = []
        for game in log.games():
            evs = log.shown(game=game)
            if any(e["type"] in ("game_start", "result") for e in evs) and not any(e["type"] == "match" for e in evs):
                played.append(game)  # (a game set up but never played: none; matches: their own table)
        read.append((label, log, verdict, head_note, played))
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
    the pages' language (kk, ru, ky, en: words.py; round.csv, round.trf and the PGN stay as they are).

    A paired board's players go on its round game alone: its clock's last game (_round_games); a
    clock's earlier games (a pull takes its whole log) are listed without players, never as the
    round's, and so are the games of a clock the hall did not name for the board."""
    check_lang(lang)
    job = _Job(out_dir, keys, pairings or {}, dict(event or {}), moves, can_plot(), lang)  # (no matplotlib: no plots)
    os.makedirs(out_dir, exist_ok=True)
    read = _read(paths, keys, bool(job.pairings), lang)
    of_round = _round_of(read, job.pairings, clocks or {})
    rows = [_write_game(job, label, game, log, verdict, head_note, (label, game) in of_round)
            for label, log, verdict, head_note, played in read for game in played]
    missing = _no_log(rows, job.pairings)
    rows.sort(key=lambda r: (_board(r["label"]) is None, _board(r["label"]) or 0, r["label"], r["game"] or 0))
    if not rows:
        raise ReportError(_("no game was played in these logs"))
    pages.write_index(out_dir, rows, job.event, job.pairings, lang)
    trf_path, trf_alerts = _write_trf(out_dir, rows, job.pairings, job.event, source)
    return {"games": len(rows) - len(missing), "no_log": missing, "plots": job.plots,
            **{k: sum(1 for r in rows if r["status"] == k) for k in ("verified", "unkeyed", "sealed", "failed")},
            "index": os.path.join(out_dir, "index.html"), "csv": os.path.join(out_dir, "round.csv"),
            "trf": trf_path, "trf_alerts": trf_alerts, "pgn": [r["pgn"] for r in rows if r.get("pgn")]}


@dataclass
class _Job:
    """What every game of a report shares: where its files go, the keys, the round (its pairings
    {board: (left, right)}, its event) and the scoresheets' moves, whether it plots, its language."""

    out_dir: str
    keys: list[bytes]
    pairings: dict
    event: dict
    moves: str | None
    plots: bool
    lang: str


def _write_game(job: _Job, label: str, game: int, log, verdict: tuple[str, list[str]], head_note: str,
                mine: bool) -> dict:
    """A played game's PNG (with matplotlib), PGN and page into the report's folder; its row of the
    results table. `mine`: the round's game (_round_of), which alone has the pairing's players."""
    board = _board(label)
    evs = log.shown(game=game)
    players = job.pairings.get(board) if mine else None
    name = f"{label}-game-{game}"
    png = os.path.join(job.out_dir, name + ".png") if job.plots else None
    if png:
        plot(evs, png, words(job.lang)("game_title", board=board_title(label, job.lang), game=game), job.lang)
    record = _pgn_record(job, label, game, evs, players, mine)
    with open(os.path.join(job.out_dir, name + ".pgn"), "w", encoding="utf-8") as fh:
        fh.write(record)
    page, row = _game_page(label, players, game, evs, log, verdict, head_note, job.keys, png, job.event,
                           name + ".pgn", job.lang)
    with open(os.path.join(job.out_dir, name + ".html"), "w", encoding="utf-8") as fh:
        fh.write(page)
    row.update(page=name + ".html", pgn=name + ".pgn", round=mine)
    if board in job.pairings and not mine:
        row["other"] = True  # a game of this board's clock, not the round's: no players
    return row


def _pgn_record(job: _Job, label: str, game: int, evs: list[dict], players, mine: bool) -> str:
    """A game's clock record as PGN (pgn.game), with its scoresheet's moves when --moves has the round's
    game of its board. The round's date is the round's game's alone: another game's is the clock's own
    (UTC) when it was synced, else ????.??.??."""
    board, event = _board(label), job.event
    try:
        sheet = pgn.pick(job.moves, board, str(event["round"]) if event.get("round") else None) \
            if job.moves is not None and mine else None
        tags = {"Event": event.get("name") or "?", "Site": event.get("site") or "?",
                "Date": event["date"].replace("-", ".") if mine and event.get("date") else None,
                "Round": str(event.get("round") or "?") if mine else "?",
                "Board": str(board) if board else "?",
                "Left": players[0] if players else "?", "Right": players[1] if players else "?"}
        return pgn.game(evs, tags, sheet)
    except pgn.PgnError as e:
        raise ReportError(_("{board}, game {game}: {error}").format(board=board_title(label), game=game,
                                                                     error=e)) from None


def _no_log(rows: list[dict], pairings: dict) -> list[int]:
    """Every paired board is in the table: a row for each one whose clock left no played game (added to
    rows); those boards."""
    played = {_board(r["label"]) for r in rows if r.get("round")}
    missing = [b for b in sorted(pairings) if b not in played]
    for b in missing:
        rows.append({"label": f"board-{b}", "game": None, "players": pairings[b], "result": None,
                     "first_flag": None, "flags": "", "flags_shown": "", "code": None, "status": "nolog",
                     "page": None})
    return missing


def _write_trf(out_dir: str, rows: list[dict], pairings: dict, event: dict, source) -> tuple[str | None, list]:
    """round.trf for the pairing program, which needs the players: none for a round without pairings.
    (its path or None, the clocks' results that replaced the pairing program's: trf.write's alerts)."""
    alerts: list = []
    if not pairings:
        return None, alerts
    try:
        text = trf.write({"name": event.get("name") or "?", "round": event.get("round") or 1,
                          "date": event.get("date"), "city": event.get("site"), "arbiter": event.get("arbiter"),
                          "tc": event.get("tc") or next((r["tc"] for r in rows if r.get("tc")), None)},
                         _trf_games(rows, pairings), source, alerts)
    except trf.TrfError as e:
        raise ReportError(f"round.trf: {e}") from None
    path = os.path.join(out_dir, "round.trf")
    trf.save(path, text)
    return path, alerts
