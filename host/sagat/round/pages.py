"""The report's pages: the style and the pieces every page shows (a log's verdict, the event's line, a
board's heading), and the round's index, index.html (the results table: board, players, result, code,
verified, flags, one A4 page in print) with its round.csv. A game's page is report.py's (its
flag-fall certificate is made of the log's verdict)."""

from __future__ import annotations

import csv
import html
import io
import os
from urllib.parse import quote

from .folder import board_of
from .timeuse import side_name
from .words import date_text, words

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

STATUS_WORDS = {"verified": "verified", "unkeyed": "chain intact, authorship unproven", "sealed": "not checked",
                "failed": "NOT verified", "nolog": "no log"}
CSV_FIELDS = ("board", "left", "right", "result", "code", "log", "flags", "game", "clock", "kazans")


def esc(x) -> str:
    """A text as HTML (None: nothing)."""
    return html.escape("" if x is None else str(x))


def board_title(label: str, lang: str = "en") -> str:
    """A game page's heading: "Board 8 (clock e6614103e7)" for a folder the hall named, else the folder."""
    found = board_of(label)
    if not found:
        return label
    w = words(lang)
    return w("board_clock", n=found[0], clock=found[1]) if found[1] else w("board_title", n=found[0])


def board_cell(label: str) -> str:
    """The index's board: its number, the clock's uid smaller (a folder the hall named), else the folder."""
    found = board_of(label)
    if not found:
        return esc(label)
    return str(found[0]) + (f" <small>{esc(found[1])}</small>" if found[1] else "")


def verdict_html(status: str, lang: str = "en") -> str:
    """The log's verdict as HTML: "verified" only under a key given (else anybody could have written it)."""
    w = words(lang)
    return {"verified": f"<span class=ok>{esc(w('verified'))}</span>",
            "unkeyed": f"<span class=unkeyed>{esc(w('unkeyed'))}</span>",
            "sealed": f"<span class=unkeyed>{esc(w('sealed'))}</span>"}.get(
        status, f"<span class=bad>{esc(w('failed'))}</span>")


def event_line(event: dict | None, lang: str = "en") -> str:
    """The event, the round and the date, as a heading's second line ('' when none is known)."""
    event = event or {}
    bits = [event.get("name"), words(lang)("round_n", n=event["round"]) if event.get("round") else None,
            date_text(event.get("date"), lang)]
    return " &middot; ".join(esc(b) for b in bits if b)


def flags_text(flags: list[dict], lang: str = "en") -> str:
    """Who flagged, the first marked: "left (1st), right" (round.csv's: in English)."""
    if not flags:
        return ""
    order = sorted(flags, key=lambda e: e.get("order") or 99)
    first = words(lang)("first_mark")
    return ", ".join(side_name(e["side"], lang) + (f" ({first})" if i == 0 and len(order) > 1 else "")
                     for i, e in enumerate(order))


def kazans_text(k) -> str:
    """The final kazans entered with the result (TK-R7), left's-right's ("82-79"), or ""."""
    return f"{k[0]}-{k[1]}" if isinstance(k, list) and len(k) == 2 else ""


def write_index(out_dir: str, rows: list[dict], event: dict, pairings: dict, lang: str) -> None:
    """index.html (in lang) and round.csv (in English) of the round's rows into out_dir."""
    with open(os.path.join(out_dir, "index.html"), "w", encoding="utf-8") as fh:
        fh.write(_index_page(rows, event, pairings, lang))
    with open(os.path.join(out_dir, "round.csv"), "w", encoding="utf-8", newline="") as fh:
        fh.write(_csv(rows))


def _index_row(r: dict, lang: str) -> str:
    """A row of the results table: a game's, or a paired board's with no log."""
    w = words(lang)
    return (
        f"<tr><td>{board_cell(r['label'])}</td><td>{esc(' - '.join(r['players']) if r['players'] else '')}"
        f"{'<em>' + esc(w('earlier_game')) + '</em>' if r.get('other') else ''}</td>"
        + (f"<td class=res></td><td></td><td><span class=bad>{esc(w('no_log'))}</span>: {esc(w('no_log_why'))}"
           "</td><td></td><td class=num></td><td class=noprint></td></tr>" if r["status"] == "nolog" else
           f"<td class=res>{esc(r['result'] or w('none'))}"
           f"{' <small>' + kazans_text(r.get('kazans')) + '</small>' if kazans_text(r.get('kazans')) else ''}</td>"
           f"<td>{esc(r['code'] or '')}</td><td>{verdict_html(r['status'], lang)}"
           f"{': ' + esc(w('sealed_why')) if r['status'] == 'sealed' else ''}</td><td>{esc(r['flags_shown'])}</td>"
           f"<td class=num>{r['game']}</td>"
           f"<td class=noprint><a href=\"{esc(quote(r['page']))}\">{esc(w('link_report'))}</a> "
           f"<a href=\"{esc(quote(r['pgn']))}\">PGN</a></td></tr>"))


def _index_page(rows: list[dict], event: dict, pairings: dict, lang: str) -> str:
    """The round's page: its results table, and links to round.csv (and round.trf, with pairings)."""
    w = words(lang)
    body = "".join(_index_row(r, lang) for r in rows)
    heading = event_line(event, lang)
    title = w("results") + (f": {event['name']}" if event.get("name") else "") + (
        ", " + w("round_n", n=event["round"]) if event.get("round") else "")
    heads = "".join(f"<th>{esc(w(k))}</th>" for k in (
        "col_board", "col_players", "col_result", "col_code", "col_log", "col_flags", "col_game"))
    return f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>{CSS}</style></head><body><h1>{esc(w('results'))}</h1>{f'<p class=event>{heading}</p>' if heading else ''}
<table><tr>{heads}<th class=noprint></th></tr>{body}</table>
<p class=noprint><a href="round.csv">round.csv</a>{' &middot; <a href="round.trf">round.trf</a>' if pairings else ''}
</p></body></html>"""


def _cell(text: str) -> str:
    """A name as a spreadsheet's text: one it would run as a formula (=, +, -, @, a tab or a CR first)
    gets a ' before it (OWASP's CSV injection advice)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for r in rows:
        left, right = r["players"] or ("", "")
        found = board_of(r["label"])
        board, clock = (str(found[0]), found[1] or "") if found else (r["label"], "")
        w.writerow((_cell(board), _cell(left), _cell(right), r["result"] or "", r["code"] or "",
                    STATUS_WORDS.get(r["status"], r["status"]), r.get("flags") or "",
                    r["game"] if r["game"] is not None else "", _cell(clock), kazans_text(r.get("kazans"))))
    return buf.getvalue()

