"""The round's folder: what the hall writes of its round beside the pulled logs and `sagat report`
reads there (round.json: the event, the round, the date, the control, the pairings and each board's
clock; pairings.trf beside it when the pairings came from the pairing program's TRF), and the name
of each board's log folder (board-03-<uid>): one function writes each, one reads it.

One definition of a round (`problem`) serves both ends: the hall's start refuses what it cannot hold
(its options: cliutil.check_round; its pairings file: pairings.load), and the report reads round.json
by it, so a round the hall started with is never one its report refuses."""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil

from ..i18n import _, ngettext

ROUND_FILE = "round.json"  # written by the hall into its --out (write_round)
TRF_COPY = "pairings.trf"  # beside it: the pairing program's TRF the hall's pairings came from
MAX_ROUND = 999  # a round's number: TRF-2026 counts rounds in 3 digits
MAX_TEXT = 200  # the event's name and the site: a heading's line, the TRF's 012 and 022, the PGN's tags
MAX_BOARD = 999  # a board's number: a clock's own is 1..999 (the hall's boards.py) and the page acts on 3 digits
BOARD_FOLDER = re.compile(r"board-0*([0-9]+)(?:-(.+))?")  # board_folder's names (and a row's "board-3")


def is_date(text) -> bool:
    """A round's date as the hall, the report and round.json take it: YYYY-MM-DD, a real date."""
    if not isinstance(text, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def folder_uid(uid) -> str:
    """A clock's uid as its log folder names it (board-03-<this>): the clock's text, a name only."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", str(uid or "clock"))[:40]


def board_folder(number: int, uid) -> str:
    """The folder the hall pulls board `number`'s clock `uid` into: board-03-<uid> (board_of reads it)."""
    return f"board-{number:02d}-{folder_uid(uid)}"


def board_of(name: str) -> tuple[int, str | None] | None:
    """(board, the clock's uid or None) of a folder board_folder named ("board-03-e6614103e7": (3,
    "e6614103e7"); "board-3": (3, None)), None for any other name (a folder `sagat logs pull` wrote)."""
    m = BOARD_FOLDER.fullmatch(name)
    return (int(m.group(1)), m.group(2)) if m else None


class RoundFileError(Exception):
    """One line for the user."""


def problem(event: dict, pairings: dict | None = None) -> tuple[str, str] | None:
    """(what, why) of the first thing in a round that is not what a round may hold, or None: `what`
    the event's key ("name", "site", "round", "date", "tc") and `why` what it is ("is not a text"), or
    "pairings" and what is wrong in them ("board 3's are not ..."), one translated line to follow
    the option or the file. `event`: name, site (texts up to MAX_TEXT characters), round
    (1..MAX_ROUND), date (YYYY-MM-DD), tc (a control the clock's parser takes, as the hall's Set up
    all checked it), None where unknown; `pairings`: {board 1..MAX_BOARD: (left, right)}, two texts,
    either of them empty (a bye: the CSV line `2,,Dana`, or a TRF's player without a name)."""
    for k in ("name", "site"):
        x = event.get(k)
        if x is None:
            continue
        if not isinstance(x, str):
            return k, _("is not a text")
        if len(x) > MAX_TEXT:
            return k, ngettext("is {n} character long: at most {max}", "is {n} characters long: at most {max}",
                               len(x)).format(n=len(x), max=MAX_TEXT)
    rnd = event.get("round")
    if rnd is not None and (type(rnd) is not int or not 1 <= rnd <= MAX_ROUND):
        return "round", _("is not a round number 1..{max} (TRF-2026 counts rounds in 3 digits)").format(
            max=MAX_ROUND)
    if event.get("date") is not None and not is_date(event["date"]):
        return "date", _("is not YYYY-MM-DD")
    if event.get("tc") is not None and not _is_control(event["tc"]):
        return "tc", _("is not a time control the clock takes")
    over = sorted(b for b in pairings or {} if not 1 <= b <= MAX_BOARD)
    if over:
        return "pairings", ngettext(
            "{n} board beyond {max} (board {board}): a board's number is 1..{max}, as a clock's own",
            "{n} boards beyond {max} (from board {board}): a board's number is 1..{max}, as a clock's own",
            len(over)).format(n=len(over), max=MAX_BOARD, board=over[0])
    for b, v in sorted((pairings or {}).items()):
        if not (isinstance(v, (list, tuple)) and len(v) == 2 and all(isinstance(x, str) for x in v)):
            return "pairings", _("board {board}'s are not [left, right], two names (one may be empty: a "
                                 "bye)").format(board=b)
    return None


def _is_control(tc) -> bool:
    """A control as the hall set it up: the clock's parser takes it (a preset's name, or the text)."""
    from sagatfw.core import presets, tcparse

    if not isinstance(tc, str):
        return False
    try:
        tcparse.parse_sides(presets.preset(tc.strip()) or tc)
    except ValueError:
        return False
    return True


def round_info(paths: list[str]) -> dict:
    """What the hall wrote of its round beside the logs (round.json: the event, the round, the date,
    the control, the pairings and each board's clock), from the first source folder that has it, or
    whose hall's folder has it (a board's folder given alone: the hall's is the folder it is in); {}
    if none. RoundFileError naming the file and what in it is not what a round may hold (problem()).
    Its "trf" is the path of the hall's copy of the pairing program's TRF when round.json names one
    (the file may be gone since: the caller looks)."""
    from ..client import load

    for p in [x for given in paths for x in (given, *_hall_of(given))]:
        path = os.path.join(p, ROUND_FILE)
        if not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as fh:
                info = load(fh)  # (nesting bounded: a ValueError like any other bad JSON)
        except (OSError, ValueError) as e:
            raise RoundFileError(_("cannot read {path}: {error}").format(
                path=path, error=getattr(e, "strerror", None) or e)) from None
        if not isinstance(info, dict):
            raise RoundFileError(_("{path} is not the hall's round file").format(path=path))

        def bad(what: str, path: str = path):
            return RoundFileError(_("{path}: {what}").format(path=path, what=what))

        tables = {}
        for key, want in (("pairings", _("board: [left, right]")), ("clocks", _("board: the clock's uid"))):
            table = info.get(key) or {}
            if not isinstance(table, dict):
                raise bad(_("its {key} are not {want}").format(key=key, want=want))
            for k, v in table.items():
                # (a paired board beyond MAX_BOARD: problem() says how many; a clock's number never is)
                if not (isinstance(k, str) and re.fullmatch(r"[1-9][0-9]{0,5}", k)) or (
                        key == "clocks" and int(k) > MAX_BOARD):
                    raise bad(_("{key}: {board!r} is not a board number 1..{max}").format(
                        key=key, board=k if isinstance(k, str) and len(k) <= 12 else "...", max=MAX_BOARD))
                if key == "clocks" and not (isinstance(v, str) and re.fullmatch(r"[A-Za-z0-9_-]{1,40}", v)):
                    raise bad(_("clocks: board {board}'s is not a clock's uid").format(board=k))
            tables[key] = {int(k): v for k, v in table.items()}
        event = {"name": info.get("event"), "site": info.get("site"), "round": info.get("round"),
                 "date": info.get("date"), "tc": info.get("tc")}
        found = problem(event, tables["pairings"])
        if found:
            what, why = found
            raise bad(_("pairings: {why}").format(why=why) if what == "pairings" else
                      _("its {key} {why}").format(key={"name": "event"}.get(what, what), why=why))
        return {"event": event["name"], "site": event["site"], "tc": event["tc"], "round": event["round"],
                "date": event["date"], "pairings": {b: tuple(v) for b, v in tables["pairings"].items()},
                "clocks": tables["clocks"],
                "trf": os.path.join(p, TRF_COPY) if info.get("trf") == TRF_COPY else None}
    return {}


def write_round(out_dir: str, event: dict, tc, pairings: dict, clocks: dict) -> None:
    """round.json into the hall's out_dir (round_info reads it): the event's name, round, date and
    site, the control set up, the pairings {board: (left, right)} and each board's clock {board:
    uid, as its folder names it}, so `sagat report` of the folder never has them typed twice; with
    event["trf"] (the pairing program's TRF the pairings came from) a copy of it, as it was, beside.
    Written whole and then renamed: a cut write never leaves half a file. OSError as the OS gives it."""
    info = {"event": event.get("name"), "round": event.get("round"), "date": event.get("date"),
            "site": event.get("site"), "tc": tc,
            "pairings": {str(b): list(p) for b, p in sorted(pairings.items())},
            # each board's clock (as its folder names it): the report takes that clock's games, not a
            # stranger's nor another clock's that was on the board before
            "clocks": {str(b): folder_uid(uid) for b, uid in sorted(clocks.items())}}
    path = os.path.join(out_dir, ROUND_FILE)
    os.makedirs(out_dir, exist_ok=True)
    if event.get("trf"):
        shutil.copyfile(event["trf"], os.path.join(out_dir, TRF_COPY))
        info["trf"] = TRF_COPY
    with open(path + ".new", "w", encoding="utf-8") as fh:
        json.dump(info, fh, ensure_ascii=False, indent=1)
    os.replace(path + ".new", path)


def _hall_of(folder: str) -> list[str]:
    """The folder a pulled log's folder is in (the hall's, where it pulls each board: board-03-<uid>)."""
    if not os.path.isfile(os.path.join(folder, "records.bin")):
        return []
    return [os.path.dirname(os.path.abspath(folder))]
