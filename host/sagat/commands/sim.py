"""`sagat sim`: the clock's firmware in the simulator, interactive or a script (the work is sagat/sim/'s)."""

from __future__ import annotations

import argparse
import os
import sys

from ..cliutil import UserError
from ..i18n import _, ngettext


def _out_file(option: str, path: str) -> None:
    """A file the command will write at its end: its folder must exist and be writable before it starts."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UserError(_("{option} {file}: is a folder, not a file").format(option=option, file=path))
    if not os.path.isdir(folder):
        raise UserError(_("{option} {file}: no such folder {dir}").format(option=option, file=path, dir=folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(_("{option} {file}: the folder {dir} is not writable").format(option=option, file=path,
                                                                                     dir=folder))


def _has_terminal() -> bool:
    """A controlling terminal the sim board can read its keys from (it opens /dev/tty)."""
    try:
        os.close(os.open("/dev/tty", os.O_RDWR))
    except OSError:
        return False
    return True


def cmd_sim(args: argparse.Namespace) -> int:
    from ..sim import board, runners
    from ..sim.script import SimError

    if args.log_json:  # checked before the script runs, not after it
        _out_file("--log-json", args.log_json)
    fresh = None
    if args.script and not args.flash:  # never the interactive simulator's saved game
        import tempfile

        fresh = tempfile.mkdtemp(prefix="sagat-script-")
        flash = os.path.join(fresh, "flash.img")
    else:
        flash = args.flash or board.default_flash()
    try:
        if args.oled and args.script and not args.serial:
            raise UserError(_("--oled draws the faces in real time: use it without --script, or with --serial"))
        play = None
        if args.play is not None:
            if not args.serial:
                raise UserError(_("--play moves a clock that serves its link: use it with --serial"))
            play = runners.play_spec(args.play, args.think)
        if args.serial and args.script:
            return runners.run_serial(flash, args.headless, script=args.script, oled=args.oled, play=play)
        if args.script:
            figures = runners.run_script(args.script, flash, args.virtual, args.log_json, args.heap)
            where = _("a fresh flash (--flash IMAGE keeps it)") if fresh else _("flash {file}").format(file=flash)
            msg = ngettext("script done: {n} boot on {flash}", "script done: {n} boots on {flash}",
                           figures["boots"]).format(n=figures["boots"], flash=where)
            if args.log_json:
                msg += ngettext(", {n} event in {file}", ", {n} events in {file}", figures["events"]).format(
                    n=figures["events"], file=args.log_json)
            print(msg, file=sys.stderr)
            return 0
        if args.virtual or args.log_json:
            raise UserError(_("--virtual and --log-json need --script"))
        if args.serial or args.headless:
            return runners.run_serial(flash, args.headless, oled=args.oled, play=play)
        if not _has_terminal():
            raise UserError(_("the interactive simulator needs a terminal (its faces and keys): without one, use "
                              "--serial --headless (the serial link only) or --script FILE"))
        return runners.run_interactive(flash, args.oled)
    except SimError as e:
        raise UserError(str(e)) from None
    finally:
        if fresh is not None:
            import shutil

            shutil.rmtree(fresh, ignore_errors=True)


def add(subparsers) -> None:
    """Adds `sagat sim`."""
    from ..sim.script import actions_help

    sp = subparsers.add_parser(
        "sim", help=_("run the clock in the simulator (interactive, or a script)"),
        description=_("The clock's firmware on the MicroPython unix port: its faces in this terminal and "
                      "its keys (space start/pause, a or z left lever, l or / right lever, m menu, +/-, q off), "
                      "or a script of timed actions. Its flash (settings, log) persists in "
                      "~/.local/share/sagat/sim-flash.img; a script without --flash plays on a fresh flash."),
        epilog=actions_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument(
        "--flash", metavar="IMAGE",
        help=_("the sim board's flash, a littlefs image (default: ~/.local/share/sagat/sim-flash.img; with --script: "
               "a fresh one)")
    )
    sp.add_argument("--script", metavar="FILE", help=_("play a JSON-lines script of timed actions, then exit"))
    sp.add_argument("--virtual", action="store_true", help=_("in virtual time: a 5-hour game takes seconds"))
    sp.add_argument("--log-json", metavar="FILE",
                    help=_("with --script: write the games played to FILE, one JSON event a line (docs/design.md, "
                           "contract 3)"))
    sp.add_argument("--heap", metavar="SIZE", help=argparse.SUPPRESS)  # e.g. 64k: the memory budget test
    sp.add_argument("--serial", action="store_true",
                    help=_("answer the protocol on a pseudo-terminal (its path is printed), like a board's USB serial"))
    sp.add_argument("--headless", action="store_true", help=_("with --serial: no faces, no keys"))
    sp.add_argument("--play", type=int, metavar="SEED",
                    help=_("with --serial: a random player moves in every game: the side to move presses its lever "
                           "after a think time drawn from --think (the same SEED, the same times)"))
    sp.add_argument("--think", default="1-4", metavar="MIN-MAX",
                    help=_("with --play: the think time's range in seconds (default: 1-4; e.g. 0.3-1.5)"))
    sp.add_argument("--oled", choices=("diff", "full"),
                    help=_("also drive two OLED faces as a board does, on a modelled 400 kHz I2C bus, so the loop's "
                           "measured gap (sagat info) includes their bus time: diff sends only what changed (the "
                           "firmware's way), full both whole frames at every refresh"))
    sp.set_defaults(func=cmd_sim)
