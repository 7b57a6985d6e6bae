"""`sagat logs export`: a log's events as CSV (a game's columns, a match's, or both) or JSON lines."""

from __future__ import annotations

import csv
import io
import json

import sagatfw

# (kazans: a result's final kazan counts, "85-60", left's first, when they were entered: TK-R7)
CSV_FIELDS = ["game", "seq", "type", "t", "left_ms", "right_ms", "left_moves", "right_moves", "running", "wall",
              "side", "by", "order", "stage", "result", "reason", "tc", "first", "before", "after", "dropped",
              "kazans"]


# A match's columns (sagatfw/log/matchrecords.py decode): each event's fields, then the setup's: every
# mode's options (sagatfw.MODES, in their order, each name once) and the lots' seed.
MATCH_EVENT_CSV_FIELDS = ["game", "seq", "type", "t", "wall", "mode", "period", "period_name", "match_ms",
                          "stopped_ms", "left", "right", "side", "points", "card", "entry", "how", "length_ms",
                          "early", "stoppage", "lot", "winner", "why", "names"]


def match_csv_fields() -> list[str]:
    """A match's CSV columns: the events' fields, every registered mode's options, the seed."""
    options = [k for e in sagatfw.MODES for k in e[2]]
    return MATCH_EVENT_CSV_FIELDS + [k for i, k in enumerate(options) if k not in options[:i]] + ["seed"]


def csv_fields(events: list[dict]) -> list[str]:
    """The CSV's columns: a game's (CSV_FIELDS, as before matches) when no event is a match's; a
    match's (match_csv_fields) when every game shown is a match; both when a log holds both (the
    game's columns first, then the match's that a game has not: a row fills those that apply)."""
    matches = {e["game"] for e in events if e["type"] == "match" or "period" in e}
    if not matches:
        return CSV_FIELDS
    match_fields = match_csv_fields()
    if all(e["game"] in matches for e in events):
        return match_fields
    return CSV_FIELDS + [k for k in match_fields if k not in CSV_FIELDS]


def to_csv(events: list[dict]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=csv_fields(events), extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for e in events:
        row = dict(e)
        for k in ("before", "after", "tc", "names"):
            if isinstance(row.get(k), dict):
                row[k] = json.dumps(row[k], sort_keys=True)
        k = row.get("kazans")  # (as the firmware's decoder gives them: [left's, right's])
        if isinstance(k, list) and len(k) == 2:
            row["kazans"] = f"{k[0]}-{k[1]}"
        w.writerow(row)
    return out.getvalue()


def to_json_lines(events: list[dict]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)
