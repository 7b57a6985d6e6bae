"""`sagat report`: a page per game from pulled logs, and the round's index (sagat/round/report.py)."""

from __future__ import annotations

import argparse
import sys

from ..cliutil import UserError, adder, arbiter_keys, check_round, out
from ..i18n import LANGUAGES, _, ngettext


def cmd_report(args: argparse.Namespace) -> int:
    """A page per game from pulled logs, and the round's index (docs/hall.md)."""
    import os

    from ..round import pairings as pairings
    from ..round import pgn, report
    from ..round.folder import RoundFileError, round_info
    from ..round.timeuse import can_plot
    from ..round.words import from_env

    keys = [k for k in arbiter_keys(args) if k]
    check_round(args)
    notes = []  # what was left out, each a line on stderr
    try:
        info = round_info(args.sources)  # what the hall wrote of its round: never typed twice
        event = {"name": args.event or info.get("event"), "round": args.round or info.get("round"),
                 "date": args.date or info.get("date"), "site": args.site or info.get("site"),
                 "tc": info.get("tc")}
        pairs, source = info.get("pairings") or {}, None
        trf_file = args.pairings or info.get("trf")  # (the hall keeps the pairing program's TRF it was given)
        gone = bool(not args.pairings and trf_file and not os.path.isfile(trf_file))
        if gone:  # its copy deleted since: the round from the pairings round.json holds, and a line says so
            notes.append(_("the pairing program's TRF the hall kept is gone ({file}): round.trf has this "
                           "round alone, from the hall's round.json (give --pairings FILE.trf for the whole "
                           "tournament)").format(file=trf_file))
        elif trf_file:
            pairs, source, event["round"] = pairings.load(trf_file, event["round"])
        moves = pgn.read_moves(args.moves) if args.moves else None
        # by default beside the logs: the hall's folder's report/ (a round's pages stay with its logs)
        out_dir = args.out or os.path.join(args.sources[0], "report")
        figures = report.build(args.sources, out_dir, keys, pairs, event, moves, source, info.get("clocks"),
                               args.lang or from_env())
    except (report.ReportError, RoundFileError, pairings.PairingsError, pgn.PgnError) as e:
        raise UserError(str(e)) from None
    # an intact chain without a key proves no authorship: never counted as verified (docs/hall.md)
    n = figures["games"]
    text = ngettext("{n} game: {verified} verified", "{n} games: {verified} verified", n).format(
        n=n, verified=figures["verified"])
    if figures["unkeyed"]:
        n = figures["unkeyed"]
        text += ngettext(", {n} chain intact without a key (authorship unproven)",
                         ", {n} chains intact without a key (authorship unproven)", n).format(n=n)
    if figures["sealed"]:  # a keyed clock's log without its key: not checked (neither broken nor unkeyed)
        n = figures["sealed"]
        text += ngettext(", {n} sealed with an arbiter key, not checked (give --key-file or --key)",
                         ", {n} sealed with an arbiter key, not checked (give --key-file or --key)", n).format(n=n)
    if figures["failed"]:
        n = figures["failed"]
        text += ngettext(", {n} NOT verified", ", {n} NOT verified", n).format(n=n)
    if figures.get("no_log"):  # paired boards whose clocks left no played game
        n = len(figures["no_log"])
        text += ngettext("; {n} paired board with no log ({boards})", "; {n} paired boards with no log "
                                                                      "({boards})",
                         n).format(n=n, boards=", ".join(map(str, figures["no_log"])))
    pgns = len(figures["pgn"])
    made = ", round.csv" + (", round.trf" if figures["trf"] else _(" (no round.trf: give --pairings)")) + \
        (ngettext(", {n} PGN", ", {n} PGN", pgns).format(n=pgns) if pgns else "")
    if not can_plot():  # (build wrote no plot then: figures' "plots")
        notes.append(_("no time-use plots: matplotlib is not installed (pip install 'sagat[report]'); the "
                       "rest is written"))
    for note in notes:
        print("sagat: " + note, file=sys.stderr)
    # a clock's result that replaced the one the pairing program had entered (trf.write: the clock's wins)
    told = "".join("\n" + _("board {board}: the clock's result {clock} ({white} - {black}) replaces the pairing "
                             "program's {source} in round.trf; check it before the next round is paired").format(**a)
                   for a in figures.get("trf_alerts") or [])
    out(args, {**figures, "pairings_gone": trf_file if gone else None}, f"{text}: {figures['index']}{made}{told}")
    return 1 if figures["failed"] else 0  # as `sagat logs verify` (the pages are written all the same)


def add(subparsers) -> None:
    """Adds `sagat report`."""
    cmd = adder(subparsers)
    sp = cmd("report", _("a page per game from pulled logs (time-use plot, flag-fall certificate), and the "
                         "round's page"),
             _("From what `sagat logs pull` or `sagat hall` saved: a page per game with the time-use plot of "
               "both sides, the flag-fall certificate and the events, its clock record as PGN, and "
               "index.html with the round's results table (also round.csv, and round.trf for the pairing "
               "program). Exit code 1 when a log does NOT verify (under the key given, or damaged where no "
               "key is needed to see it; the pages are written all the same), else 0. See docs/hall.md."))
    sp.add_argument("sources", nargs="+", metavar="DIR",
                    help=_("a pulled log's folder (records.bin, head.json), or a folder of them (sagat hall "
                           "--out)"))
    sp.add_argument("--out", metavar="DIR",
                    help=_("where the pages go (default: report in the first DIR, e.g. "
                           "sagat-hall/round-3/report beside the hall's logs)"))
    sp.add_argument("--pairings", metavar="FILE",
                    help=_("the round's pairings: a CSV file (board, left player, right player) or the pairing "
                         "program's TRF (its round --round; round.trf then updates that file); default: those the "
                         "hall was given (round.json in its folder)"))
    sp.add_argument("--event", metavar="NAME", help=_("the event's name (default: the hall's --event)"))
    sp.add_argument("--round", type=int, metavar="N", help=_("the round's number (default: the hall's "
                                                             "--round)"))
    sp.add_argument("--date", metavar="YYYY-MM-DD", help=_("the round's date (default: the hall's)"))
    sp.add_argument("--site", metavar="PLACE", help=_("where it is played (the PGN's Site, the TRF's city)"))
    sp.add_argument("--moves", metavar="FILE",
                    help=_("the scoresheets' moves as PGN (one game, or the round's with [Board \"N\"] tags): each "
                         "game's PGN then has the clock's times on its moves (docs/pgn.md)"))
    sp.add_argument("--key", action="append", metavar="KEY", help=_("the arbiter key the logs are chained "
                                                                    "with"))
    sp.add_argument("--key-file", metavar="FILE", help=_("read the arbiter key from FILE (instead of --key)"))
    sp.add_argument("--lang", choices=LANGUAGES,
                    help=_("the pages' language: kk (Kazakh), ru (Russian), ky (Kyrgyz), en (English); the "
                           "dates, numbers, the flag-fall certificate and the plot's axes with them "
                           "(default: the environment's, LANGUAGE, LC_ALL, LC_MESSAGES or LANG, if one of "
                           "these; else en)"))
    sp.add_argument("--json", action="store_true", help=_("the figures as JSON"))
    sp.set_defaults(func=cmd_report)
