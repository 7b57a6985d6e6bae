"""The `sagat` command.

Errors are one line on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys

from sagatfw import timecontrol as tcm

from . import __version__

_MODES = {tcm.SUDDEN: "sudden death", tcm.FISCHER: "Fischer", tcm.DELAY: "delay", tcm.BRONSTEIN: "Bronstein"}


class UserError(Exception):
    """A failure to report as one line."""


def _clock(ms: int) -> str:
    s = ms // 1000
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def describe(tc: tcm.TimeControl) -> list[str]:
    """Plain-language lines for one side's control."""
    if tc.kind == tcm.COUNTUP:
        return ["no limit: the faces count up"]
    if tc.kind == tcm.HOURGLASS:
        return [f"hourglass {_clock(tc.stages[0].time_ms)}: time one side uses goes to the other"]
    lines = []
    for i, st in enumerate(tc.stages, 1):
        moves = f"{st.moves} moves" if st.moves else "rest of the game"
        text = f"stage {i}: {_clock(st.time_ms)} for the {moves}" if not st.moves else (
            f"stage {i}: {moves} in {_clock(st.time_ms)}"
        )
        if st.mode != tcm.SUDDEN:
            text += f", {_MODES[st.mode]} {st.bonus_ms // 1000} s"
        if st.moves and i == len(tc.stages):
            text += " (repeats)"
        lines.append(text)
    if tc.byo == tcm.BYO_JAPANESE:
        lines.append(f"then Japanese byo-yomi: {tc.byo_count} periods of {tc.byo_ms // 1000} s")
    elif tc.byo == tcm.BYO_CANADIAN:
        lines.append(f"then Canadian byo-yomi: {tc.byo_count} moves per {_clock(tc.byo_ms)}")
    return lines


def cmd_presets(args: argparse.Namespace) -> int:
    if args.json:
        for name, text, desc in tcm.PRESETS:
            print(json.dumps({"name": name, "tc": text, "description": desc}))
        return 0
    width = max(len(p[0]) for p in tcm.PRESETS)
    tcw = max(len(p[1]) for p in tcm.PRESETS)
    for name, text, desc in tcm.PRESETS:
        print(f"{name:<{width}}  {text:<{tcw}}  {desc}")
    return 0


def cmd_tc(args: argparse.Namespace) -> int:
    text = tcm.preset(args.control) or args.control
    try:
        left, right = tcm.parse_sides(text)
    except ValueError as e:
        raise UserError(str(e)) from None
    canonical = tcm.format_sides(left, right)
    if args.json:
        print(json.dumps({"tc": canonical, "left": tcm.format(left), "right": tcm.format(right)}))
        return 0
    print(canonical)
    for label, tc in (("both sides", left),) if left == right else (("left", left), ("right", right)):
        print(f"{label}:")
        for line in describe(tc):
            print(f"  {line}")
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="sagat", description="The toguz kumalak tournament clock's host command.")
    p.add_argument("--version", action="version", version=f"sagat {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sp = sub.add_parser("presets", help="list the built-in time-control presets")
    sp.add_argument("--json", action="store_true", help="one JSON object per line")
    sp.set_defaults(func=cmd_presets)
    sp = sub.add_parser("tc", help="check and explain a TimeControl string or preset name")
    sp.add_argument("control", help='e.g. 420, "40/5400+30:1800+30", "300+2|180+2", tk-blitz')
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_tc)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except UserError as e:
        print(f"sagat: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sagat: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
