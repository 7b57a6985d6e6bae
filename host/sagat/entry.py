"""The `sagat` command's entry point (and `python -m sagat`'s). Loading the command takes a few
hundred milliseconds (argparse, the client, the firmware's pure modules): a Ctrl-C in that time is
an interrupt like any later one, one line and status 130, never a traceback."""

import sys


def run() -> int:
    try:
        from .cli import main
    except KeyboardInterrupt:
        from .i18n import _  # (gettext alone: loaded at once)

        print("sagat: " + _("interrupted"), file=sys.stderr)
        return 130
    return main()
