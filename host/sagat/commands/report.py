"""`sagat report`: a page per game from pulled logs, and the round's index (sagat/hall/report.py)."""

from __future__ import annotations

import argparse

from ..cliutil import UserError, adder, arbiter_keys, out


def cmd_report(args: argparse.Namespace) -> int:
    """A page per game from pulled logs, and the round's index (docs/hall.md)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UserError("sagat report draws its plots with matplotlib: pip install 'sagat[report]'") from None
    from ..hall import pairings as P
    from ..hall import report

    pairs = {}
    keys = [k for k in arbiter_keys(args) if k]
    try:
        if args.pairings:
            pairs = P.read(args.pairings)
        figures = report.build(args.sources, args.out, keys, pairs)
    except (report.ReportError, P.PairingsError) as e:
        raise UserError(str(e)) from None
    # an intact chain without a key proves no authorship: never counted as verified (docs/hall.md)
    text = f"{figures['games']} game(s): {figures['verified']} verified"
    if figures["unkeyed"]:
        text += f", {figures['unkeyed']} chain intact without a key (authorship unproven)"
    if figures["sealed"]:  # a keyed clock's log without its key: not checked (neither broken nor unkeyed)
        text += f", {figures['sealed']} sealed with an arbiter key, not checked (give --key-file or --key)"
    if figures["failed"]:
        text += f", {figures['failed']} NOT verified"
    if figures.get("no_log"):  # paired boards whose clocks left no played game
        n = len(figures["no_log"])
        text += f"; {n} paired board{'s' if n > 1 else ''} with no log ({', '.join(map(str, figures['no_log']))})"
    out(args, figures, f"{text}: {figures['index']}")
    return 1 if figures["failed"] else 0  # as `sagat logs verify` (the pages are written all the same)


def add(subparsers) -> None:
    """Adds `sagat report`."""
    cmd = adder(subparsers)
    sp = cmd("report", "a page per game from pulled logs (time-use plot, flag-fall certificate), and the round's",
             "From what `sagat logs pull` or `sagat hall` saved: a page per game with the time-use plot of both "
             "sides, the flag-fall certificate and the events, and index.html listing the round. Exit code 1 "
             "when a log does NOT verify (under the key given, or damaged where no key is needed to see it; the "
             "pages are written all the same), else 0. See docs/hall.md.")
    sp.add_argument("sources", nargs="+", metavar="DIR",
                    help="a pulled log's folder (records.bin, head.json), or a folder of them (sagat hall --out)")
    sp.add_argument("--out", default="sagat-report", metavar="DIR", help="where the pages go (default: sagat-report)")
    sp.add_argument("--pairings", metavar="FILE", help="a CSV file: board, left player, right player")
    sp.add_argument("--key", action="append", metavar="KEY", help="the arbiter key the logs are chained with")
    sp.add_argument("--key-file", metavar="FILE", help="read the arbiter key from FILE (instead of --key)")
    sp.add_argument("--json", action="store_true", help="the figures as JSON")
    sp.set_defaults(func=cmd_report)
