"""What the `sagat` command's modules (sagat/cli.py, sagat/commands/) share: UserError, the failure
reported as one line; the parser whose usage errors are one line, and the helper that adds a command
to it; and the clock connection: its options (--port, --timeout, --key, --key-file, --json), the
arbiter keys given, the link opened with the current key, and a call on it whose failures are one
line (with what to do when the clock asks for the key)."""

from __future__ import annotations

import argparse
import json

from . import client
from .i18n import N_, _


class UserError(Exception):
    """A failure to report as one line."""


def duration(ms: int) -> str:
    """A time in ms as H:MM:SS, or M:SS under an hour (whole seconds, rounded down)."""
    s = ms // 1000
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, _("{prog}: {message} (see {prog} --help)").format(prog=self.prog, message=message) + "\n")


def arbiter_keys(args: argparse.Namespace) -> list[bytes]:
    """The arbiter keys given (--key may repeat: the current key first, then older ones)."""
    keys = [k.encode() for k in (getattr(args, "key", None) or [])]
    if any(not k for k in keys):  # an empty key is no key: never taken for one without a word
        raise UserError(_("--key is empty: give the arbiter key (or leave --key out for none)"))
    if getattr(args, "key_file", None):
        try:
            with open(args.key_file, "rb") as fh:
                key = fh.read().strip()
        except OSError as e:
            text = _("cannot read key file {file}: {error}")
            raise UserError(text.format(file=args.key_file, error=e.strerror or e)) from None
        if not key:
            raise UserError(_("key file {file} is empty: it holds no arbiter key").format(file=args.key_file))
        keys.insert(0, key)
    return keys


def current_key(args: argparse.Namespace) -> bytes:
    """The current arbiter key, for the serial link."""
    keys = arbiter_keys(args)
    return keys[0] if keys else b""


def open_clock(args: argparse.Namespace):
    """The link to the clock at --port (or the one found by its USB id), signing with the current key."""
    try:
        return client.Clock(client.pick_port(args.port), args.timeout, current_key(args))
    except client.LinkError as e:
        raise UserError(e.text()) from None


# what to do about the clock's refusals that a key settles: the options that give the key
AUTH_HINTS = {
    "auth_required": N_(" (the clock has an arbiter key: give it with --key KEY or --key-file FILE)"),
    "auth_failed": N_(" (the key given is not this clock's arbiter key: check --key / --key-file)"),
}


def call(args: argparse.Namespace, fn):
    """Run fn(clock) on an open link; link errors become one line."""
    clock = open_clock(args)
    try:
        return fn(clock)
    except client.LinkError as e:
        hint = AUTH_HINTS.get(e.code or "")
        raise UserError(e.text() + (_(hint) if hint else "")) from None
    finally:
        clock.close()


def out(args: argparse.Namespace, obj: dict, text: str) -> int:
    print(json.dumps(obj) if args.json else text)
    return 0


def value(text: str):
    """A KEY=VALUE argument's value: JSON where it parses (numbers, true, null), else the text."""
    try:
        return client.loads(text)
    except ValueError:
        return text


def link_args(sp: argparse.ArgumentParser, key: bool = True) -> None:
    """--port, --timeout, --json, and for a command that signs (changes something) --key and --key-file."""
    sp.add_argument("--port", metavar="PORT",
                    help=_("the clock's serial port, e.g. /dev/ttyACM0, COM3 or the simulator's /dev/pts/N "
                           "(default: the one clock found by its USB id)"))
    sp.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                    help=_("seconds to wait for each answer (default: 3)"))
    if key:
        sp.add_argument("--key", action="append", metavar="KEY",
                        help=_("the arbiter key, once one is set on the clock (it signs the change)"))
        sp.add_argument("--key-file", metavar="FILE", help=_("read the arbiter key from FILE (instead of --key)"))
    sp.add_argument("--json", action="store_true", help=_("machine-readable output (JSON)"))


def adder(subparsers):
    """The parser builder's `cmd(name, help, description)`: adds a command to subparsers (or to parent),
    its description the one-line help as a sentence unless one is given (both already translated: _())."""

    def cmd(name: str, text: str, description: str | None = None, parent=subparsers):
        return parent.add_parser(name, help=text, description=description or (text[0].upper() + text[1:] + "."))

    return cmd


def check_round(args) -> None:
    """`--round`, `--date`, `--event` and `--site` of `sagat hall` and `sagat report`, checked alike
    (UserError) and as the report reads the hall's round.json (round.folder.problem: what the hall
    starts with, its report takes)."""
    from .round.folder import MAX_ROUND, is_date, problem

    if args.date is not None and not is_date(args.date):
        raise UserError(_("--date {date!r}: give the round's date as YYYY-MM-DD").format(date=args.date))
    if args.round is not None and not 1 <= args.round <= MAX_ROUND:
        raise UserError(_("--round {round}: a round is 1..{max}").format(round=args.round, max=MAX_ROUND))
    found = problem({"name": args.event, "site": args.site})
    if found:
        raise UserError(_("{option} {why}").format(option="--event" if found[0] == "name" else "--site",
                                                   why=found[1]))
