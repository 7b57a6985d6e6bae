"""`sagat hall`: the arbiter's hall, every clock on one live web page (the work is sagat/hall/'s)."""

from __future__ import annotations

import argparse

from ..cliutil import UserError, adder, arbiter_keys, check_round, current_key
from ..i18n import LANGUAGES, _


def cmd_hall(args: argparse.Namespace) -> int:
    """The arbiter's hall: every clock on one live page (docs/hall.md)."""
    import datetime
    import os

    from .. import hall

    check_round(args)
    date = args.date or datetime.date.today().isoformat()
    # each round's logs in their own folder, side by side: sagat-hall/round-1, sagat-hall/round-2, ...
    out_dir = args.out or (os.path.join("sagat-hall", f"round-{args.round}") if args.round else "sagat-hall")
    event = {"name": args.event, "round": args.round, "date": date, "site": args.site}
    try:
        return hall.run(args.port or [], args.sim, current_key(args), [k for k in arbiter_keys(args) if k],
                        args.pairings, args.host, args.http_port, out_dir, not args.no_usb,
                        hall.wants_browser() and not args.no_browser, args.timeout, args.publish, args.subscribe,
                        args.name, event, args.sim_play, args.lang)
    except hall.StartError as e:
        raise UserError(str(e)) from None


def add(subparsers) -> None:
    """Adds `sagat hall`."""
    cmd = adder(subparsers)
    sp = cmd("hall", _("the arbiter's hall: every clock on one live web page; start the round on all at once"),
             _("A local web page with every clock of the round, live: USB clocks (a clock plugged in later "
               "appears), --port, and --sim N simulated clocks. Set up every board, start the round on all "
               "boards at one instant (armed on each clock's own ticks), pause all, resume all (signed with "
               "--key); each finished game's log is pulled and verified. See docs/hall.md."))
    sp.add_argument("--sim", type=int, metavar="N", help=_("also start N simulated clocks (boards 1..N)"))
    sp.add_argument("--sim-play", nargs="?", const="1-4", metavar="MIN-MAX",
                    help=_("a random player moves on each simulated clock once its game runs, thinking MIN-MAX "
                         "seconds a move (default 1-4; board N's player has seed N: sagat sim --play)"))
    sp.add_argument("--port", action="append", metavar="PORT",
                    help=_("a clock's serial port besides those found on USB (repeat for more)"))
    sp.add_argument("--no-usb", action="store_true", help=_("do not look for clocks on USB"))
    sp.add_argument("--pairings", metavar="FILE", help=_("a CSV file: board, left player, right player"))
    sp.add_argument("--key", action="append", metavar="KEY",
                    help=_("the arbiter key (signs set up, start, pause, resume, results; verifies the pulled logs; "
                         "docs/arbiter-guide.md, Make a key)"))
    sp.add_argument("--key-file", metavar="FILE", help=_("read the arbiter key from FILE (instead of --key)"))
    sp.add_argument("--out", metavar="DIR",
                    help=_("where finished games' logs are pulled, a folder per board, with round.json (the event, "
                         "round, date, control and pairings, for sagat report) (default: sagat-hall/round-N with "
                         "--round, else sagat-hall)"))
    sp.add_argument("--event", metavar="NAME", help=_("the event's name: on the page, the report, the TRF and the PGN"))
    sp.add_argument("--round", type=int, metavar="N", help=_("the round's number (1..999)"))
    sp.add_argument("--date", metavar="YYYY-MM-DD", help=_("the round's date (default: today)"))
    sp.add_argument("--site", metavar="PLACE", help=_("where it is played (the PGN's Site, the TRF's city)"))
    sp.add_argument("--host", default="127.0.0.1",
                    help=_("the address the page is served on (default: 127.0.0.1, this PC only; 0.0.0.0: the "
                         "network, its buttons with the access token in the address it prints, by this PC's name and "
                         "by each of its IP addresses)"))
    sp.add_argument("--http-port", type=int, default=8716, metavar="N", help=_("the page's port (default: 8716)"))
    sp.add_argument("--no-browser", action="store_true", help=_("do not open the page in a browser"))
    sp.add_argument("--timeout", type=float, default=2.0, metavar="SECONDS",
                    help=_("seconds to wait for each clock's answer (default: 2)"))
    sp.add_argument("--publish", metavar="mqtt://HOST[:PORT]",
                    help=_("publish this hall's clocks to an MQTT broker, for a hall on another PC (--subscribe); "
                         "a broker user: mqtt://USER@HOST, its password in SAGAT_MQTT_PASSWORD"))
    sp.add_argument("--subscribe", metavar="mqtt://HOST[:PORT]",
                    help=_("also show the clocks other halls publish to this MQTT broker (a broker user: as "
                         "--publish)"))
    sp.add_argument("--name", help=_("this hall's name on the broker, 1 to 32 letters, digits, _ or - "
                                     "(default: this PC's host name)"))
    sp.add_argument("--lang", choices=LANGUAGES,
                    help=_("the page's language: kk (Kazakh), ru (Russian), ky (Kyrgyz), en (English) (default: "
                           "each browser's; the page has a selector, kept in the browser)"))
    sp.set_defaults(func=cmd_hall)
