"""What the hall wrote of its round beside the pulled logs, read for `sagat report` (round.json: the
event, the round, the date, the control, the pairings and each board's clock; core.Hall.save_round
writes it, and pairings.trf beside it when the pairings came from the pairing program's TRF)."""

from __future__ import annotations

import json
import os
import re

from . import MAX_ROUND, is_date

ROUND_FILE = "round.json"  # written by the hall into its --out (core.Hall.save_round)
TRF_COPY = "pairings.trf"  # beside it: the pairing program's TRF the hall's pairings came from


class RoundFileError(Exception):
    """One line for the user."""


def round_info(paths: list[str]) -> dict:
    """What the hall wrote of its round beside the logs (round.json: the event, the round, the date,
    the control, the pairings and each board's clock), from the first source folder that has it, or
    whose hall's folder has it (a board's folder given alone: the hall's is the folder it is in); {}
    if none. RoundFileError naming the file and what in it is not what the hall writes. Its "trf" is
    the path of the hall's copy of the pairing program's TRF when round.json names one (the file may
    be gone since: the caller looks)."""
    for p in [x for given in paths for x in (given, *_hall_of(given))]:
        path = os.path.join(p, ROUND_FILE)
        if not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as fh:
                info = json.load(fh)
        except (OSError, ValueError) as e:
            raise RoundFileError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
        if not isinstance(info, dict):
            raise RoundFileError(f"{path} is not the hall's round file")

        def bad(what: str, path: str = path):
            return RoundFileError(f"{path}: {what}")

        for k in ("event", "site", "tc"):
            if info.get(k) is not None and (not isinstance(info[k], str) or len(info[k]) > 200):
                raise bad(f"its {k} is not a text")
        rnd = info.get("round")
        if rnd is not None and (type(rnd) is not int or not 1 <= rnd <= MAX_ROUND):
            raise bad(f"its round is not a round number 1..{MAX_ROUND}")
        if info.get("date") is not None and not is_date(info["date"]):
            raise bad("its date is not YYYY-MM-DD")
        out = {"event": info.get("event"), "site": info.get("site"), "tc": info.get("tc"), "round": rnd,
               "date": info.get("date"), "pairings": {}, "clocks": {},
               "trf": os.path.join(p, TRF_COPY) if info.get("trf") == TRF_COPY else None}
        for key, want in (("pairings", "board: [left, right]"), ("clocks", "board: the clock's uid")):
            table = info.get(key) or {}
            if not isinstance(table, dict):
                raise bad(f"its {key} are not {want}")
            for k, v in table.items():
                if not (isinstance(k, str) and re.fullmatch(r"[1-9][0-9]{0,2}", k)):
                    raise bad(f"{key}: {k!r} is not a board number 1..999")
                if key == "pairings" and not (isinstance(v, list) and len(v) == 2 and all(
                        isinstance(x, str) and x.strip() for x in v)):
                    raise bad(f"pairings: board {k}'s are not [left, right], two names")
                if key == "clocks" and not (isinstance(v, str) and re.fullmatch(r"[A-Za-z0-9_-]{1,40}", v)):
                    raise bad(f"clocks: board {k}'s is not a clock's uid")
                out[key][int(k)] = tuple(v) if key == "pairings" else v
        return out
    return {}


def _hall_of(folder: str) -> list[str]:
    """The folder a pulled log's folder is in (the hall's, where it pulls each board: board-03-<uid>)."""
    if not os.path.isfile(os.path.join(folder, "records.bin")):
        return []
    return [os.path.dirname(os.path.abspath(folder))]
