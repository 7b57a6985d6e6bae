"""The `sagat` command.

Errors are one line on stderr and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys

from sagatfw import presets
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
        for name, text, desc in presets.PRESETS:
            print(json.dumps({"name": name, "tc": text, "description": desc}))
        return 0
    width = max(len(p[0]) for p in presets.PRESETS)
    tcw = max(len(p[1]) for p in presets.PRESETS)
    for name, text, desc in presets.PRESETS:
        print(f"{name:<{width}}  {text:<{tcw}}  {desc}")
    return 0


def cmd_tc(args: argparse.Namespace) -> int:
    text = presets.preset(args.control) or args.control
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


def _key(args: argparse.Namespace) -> bytes:
    if getattr(args, "key_file", None):
        try:
            with open(args.key_file, "rb") as fh:
                return fh.read().strip()
        except OSError as e:
            raise UserError(f"cannot read key file {args.key_file}: {e.strerror or e}") from None
    return (args.key or "").encode()


def _read_log(args: argparse.Namespace, replay: bool = True):
    from . import logs

    if not args.image:
        raise UserError("give --image FILE (reading a clock over USB serial comes with the protocol)")
    try:
        return logs.read_segments(logs.read_image(args.image, args.block_size), _key(args), replay)
    except logs.LogError as e:
        raise UserError(str(e)) from None


def _damage(log) -> int:
    """show/export: report damage to the records themselves (CRC, missing, order, torn) on stderr;
    whether the chain links is `sagat logs verify`'s question (it needs the arbiter key)."""
    from sagatfw import records

    damage = [p for p in log.problems if p[0] != records.P_CHAIN]
    for kind, _seq, detail in damage:
        print(f"sagat: log damage: {kind}: {detail}", file=sys.stderr)
    return 1 if damage else 0


def cmd_logs_show(args: argparse.Namespace) -> int:
    from . import logs

    log = _read_log(args, replay=False)
    events = log.shown(args.checkpoints, args.game)
    if args.json:
        sys.stdout.write(logs.to_json_lines(events))
    else:
        sys.stdout.write(logs.table(log, args.checkpoints, args.game))
    return _damage(log)


def cmd_logs_verify(args: argparse.Namespace) -> int:
    from . import logs

    log = _read_log(args)
    ok, lines = logs.verify_report(log)
    if args.json:
        print(json.dumps({"ok": ok, "records": log.records, "first_seq": log.start_seq, "last_seq": log.last_seq,
                          "problems": [list(p) for p in log.problems], "replay": log.replay_problems}))
    else:
        print("\n".join(lines))
    return 0 if ok else 1


def cmd_logs_export(args: argparse.Namespace) -> int:
    from . import logs

    log = _read_log(args, replay=False)
    events = log.shown(args.checkpoints, args.game)
    text = logs.to_csv(events) if args.format == "csv" else logs.to_json_lines(events)
    if args.output and args.output != "-":
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as e:
            raise UserError(f"cannot write {args.output}: {e.strerror or e}") from None
        print(f"{len(events)} events written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return _damage(log)


def _log_source(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--image", metavar="FILE", help="a littlefs image: the simulator's flash or a board's dump")
    sp.add_argument("--block-size", type=int, default=None, help="the image's block size (default: detect)")
    sp.add_argument("--key", help="the arbiter key the log's chain is keyed with")
    sp.add_argument("--key-file", metavar="FILE", help="read the arbiter key from FILE")


def cmd_sim(args: argparse.Namespace) -> int:
    from . import sim

    flash = args.flash or sim.default_flash()
    try:
        if args.script:
            figures = sim.run_script(args.script, flash, args.virtual, args.log_json, args.heap)
            msg = f"script done: {figures['boots']} boot(s), flash {flash}"
            if args.log_json:
                msg += f", {figures['events']} events in {args.log_json}"
            print(msg, file=sys.stderr)
            return 0
        if args.virtual or args.log_json:
            raise UserError("--virtual and --log-json need --script")
        return sim.run_interactive(flash)
    except sim.SimError as e:
        raise UserError(str(e)) from None


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

    lp = sub.add_parser("logs", help="read, verify and export a clock's log")
    lsub = lp.add_subparsers(dest="logs_command", metavar="ACTION", parser_class=_Parser, required=True)
    sp = lsub.add_parser("show", help="every event, as a table per game or JSON lines")
    _log_source(sp)
    sp.add_argument("--json", action="store_true", help="one contract 3 JSON object per event")
    sp.add_argument("--game", type=int, help="only this game")
    sp.add_argument("--checkpoints", action="store_true", help="also the checkpoint records")
    sp.set_defaults(func=cmd_logs_show)
    sp = lsub.add_parser("verify", help="check every CRC and chain link and replay every game; exit 1 if broken")
    _log_source(sp)
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(func=cmd_logs_verify)
    sp = lsub.add_parser("export", help="write the events as CSV or JSON lines")
    _log_source(sp)
    sp.add_argument("--format", choices=("csv", "json"), default="csv")
    sp.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    sp.add_argument("--game", type=int, help="only this game")
    sp.add_argument("--checkpoints", action="store_true", help="also the checkpoint records")
    sp.set_defaults(func=cmd_logs_export)

    sp = sub.add_parser("sim", help="run the clock in the simulator (interactive, or a script)")
    sp.add_argument(
        "--flash", metavar="IMAGE", help="the sim board's flash (default: ~/.local/share/sagat/sim-flash.img)"
    )
    sp.add_argument("--script", metavar="FILE", help="play a JSON-lines script of timed actions, then exit")
    sp.add_argument("--virtual", action="store_true", help="in virtual time: a 5-hour game takes seconds")
    sp.add_argument("--log-json", metavar="OUT", help="write the games played to OUT as contract 3 JSON lines")
    sp.add_argument("--heap", metavar="SIZE", help=argparse.SUPPRESS)  # e.g. 64k: the memory budget test
    sp.set_defaults(func=cmd_sim)
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
