"""The `sagat` command: the top-level parser and main().

Each command group is a module of sagat/commands/ that adds its commands to the parser; what they
share (the clock connection, the arbiter key, UserError) is in sagat/cliutil.py. Errors are one line
on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import __version__
from .cliutil import Parser, UserError
from .commands import admin, clock, deploy, game, hall, logs, report, sim, tc
from .i18n import _, use_for_argparse

# the groups in the order `sagat --help` lists their commands
GROUPS = (tc, logs, clock, game, deploy, admin, hall, report, sim)


def version_text() -> str:
    """`sagat --version`: the installed package's version and the firmware's (sagatfw.VERSION, what
    `sagat sim` runs and `sagat deploy` puts on a board), in one line."""
    from importlib import metadata

    try:
        package = metadata.version("sagat")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        package = _("(not installed)")
    # (argparse reads %(prog)s in a version string: a literal % is doubled)
    return _("sagat {version}, firmware {firmware}").format(version=package, firmware=__version__).replace("%", "%%")


def build_parser() -> argparse.ArgumentParser:
    use_for_argparse()  # argparse's own words ("usage:", "options") in the user's language too
    p = Parser(prog="sagat", description=_("The toguz kumalak tournament clock's host command: configure a clock "
               "over USB serial, pull and verify its log, run the simulator, put the firmware on a board."))
    p.add_argument("--version", action="version", version=version_text(),
                   help=_("print the versions of sagat and of the firmware it carries, and exit"))
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for group in GROUPS:
        group.add(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        # (a Ctrl-C while the parser is built is an interrupt like any other: one line)
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return args.func(args)
    except UserError as e:
        print(f"sagat: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sagat: " + _("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:  # `sagat logs show ... | head`: the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout at exit
        return 141
    except Exception as e:  # noqa: BLE001 - never a traceback: one line, and a code that says "bug"
        print("sagat: " + _("internal error ({error}); please report it").format(error=f"{type(e).__name__}: {e}"),
              file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
