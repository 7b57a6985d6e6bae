"""`sagat key` (set or clear the arbiter key) and `sagat call` (any protocol command), both signed."""

from __future__ import annotations

import argparse
import json
import sys

from ..cliutil import UserError, adder, call, link_args, out, value
from ..i18n import _


def _assignments(items: list[str], what: str) -> dict:
    """KEY=VALUE arguments as a dict; values are JSON where they parse (numbers, true, null), else text."""
    values = {}
    for item in items:
        key, eq, val = item.partition("=")
        if not eq or not key:
            raise UserError(_("{what}: {item!r} is not KEY=VALUE").format(what=what, item=item))
        values[key] = value(val)
    return values


def _new_key(args: argparse.Namespace) -> bytes:
    """The new key: from --new-key-file FILE ('-': standard input; whitespace around it ignored, as
    --key-file's) so it stays out of the shell's history and the process list, or the NEW_KEY argument."""
    if (args.new_key is None) == (args.new_key_file is None):
        raise UserError(_("give the new key as --new-key-file FILE (or NEW_KEY; '' clears the key), one of them"))
    if args.new_key_file is None:
        return args.new_key.encode()
    name = args.new_key_file
    if name == "-":
        if sys.stdin is None:
            raise UserError(_("--new-key-file -: there is no standard input to read the key from"))
        if sys.stdin.isatty():  # typed: not shown on the screen
            import getpass

            key = getpass.getpass(_("new arbiter key: ")).encode()
        else:
            key = sys.stdin.buffer.read()
        name = _("standard input")
    else:
        try:
            with open(name, "rb") as fh:
                key = fh.read()
        except OSError as e:
            raise UserError(_("cannot read key file {file}: {error}").format(file=name, error=e.strerror or e)) \
                from None
    key = key.strip()
    if not key:  # an empty file is a mistake, never a clear without a word
        raise UserError(_("{file} holds no new key (to clear the key: sagat key '')").format(file=name))
    return key


def cmd_key(args: argparse.Namespace) -> int:
    """Set (or clear) the arbiter key, between games. --key gives the current key if one is set."""
    new = _new_key(args)
    if len(new) > 64:
        raise UserError(_("the arbiter key is at most 64 bytes"))
    ans = call(args, lambda c: c.request("key.set", auth=True, key=new.hex()))
    text = _("arbiter key set: keep it secret; `sagat logs verify --key ...` needs it") if new else \
        _("arbiter key cleared")
    if ans.get("durable") is False:
        text += "\n" + _("warning: the clock could not write the change to its log yet (its faces say LOG ERROR)")
    return out(args, ans, text)


def cmd_call(args: argparse.Namespace) -> int:
    """Any protocol command (docs/protocol.md), e.g. `sagat call pause by=arbiter`."""
    values = _assignments(args.args, "call")
    ans = call(args, lambda c: c.request(args.cmd, auth=True, **values))
    ans.pop("id", None)
    return out(args, ans, json.dumps(ans, indent=2))


def add(subparsers) -> None:
    """Adds `sagat key` and `sagat call`."""
    cmd = adder(subparsers)
    sp = cmd("key", _("set the arbiter key between games ('' clears it); --key: the current one"),
             _("Set the arbiter key (between games), read from --new-key-file FILE (or - for standard input), "
               "which keeps it out of the shell's history and the process list. Once one is set, every change "
               "needs it, and the log's chain is keyed with it. A change or '' (clear) needs the current key as "
               "--key or --key-file."))
    link_args(sp)
    sp.add_argument("--new-key-file", metavar="FILE",
                    help=_("read the new key (1 to 64 bytes) from FILE, - for standard input; spaces and the "
                           "newline around it are ignored"))
    sp.add_argument("new_key", nargs="?", metavar="NEW_KEY",
                    help=_("the new key on the command line instead ('' clears it): the shell's history keeps it"))
    sp.set_defaults(func=cmd_key)
    sp = cmd("call", _("send any protocol command, e.g. `sagat call pause by=arbiter`"),
             _("Send any protocol command (docs/protocol.md) and print its answer; signed with --key when one is "
               "set."))
    link_args(sp)
    sp.add_argument("cmd", metavar="COMMAND", help=_("start, pause, resume, adjust, extend, result, ... (protocol.md)"))
    sp.add_argument("args", nargs="*", metavar="KEY=VALUE",
                    help=_("the command's arguments, e.g. side=left ms=60000 (times in ms); values are JSON where "
                           "they parse, else text"))
    sp.set_defaults(func=cmd_call)
