"""`sagat deploy`'s questions to the clock over sagat's protocol (docs/protocol.md), on the port the
transport later opens: its state before (no game in progress), the signed `maintenance` that opens
a keyed clock's REPL, and identify once it has restarted into the new firmware."""

from __future__ import annotations

import time

from ..i18n import _
from .transport import DeployError

# The clock states deploy accepts: no game in progress. Any other (running, paused, flagged,
# adjourned, or one this host does not know) is refused; no answer (a fresh board) is accepted.
SAFE_STATES = ("setup", "finished")
# What ask_state() returns for a board whose MicroPython REPL answered instead of sagat.
REPL = "repl"


def serial_protocol(port: str, timeout: float = 3.0, boot_s: float = 60.0, key: bytes = b""):
    """ask_state, identify and open_repl for deploy, over sagat's protocol on `port` (client.Clock,
    which opens the port with DTR and RTS low). ask_state: the clock's state, None if nothing answers
    (a fresh board, or a REPL); a clock with an arbiter key and no `key` here is a DeployError, since
    its REPL cannot be reached without it. open_repl: for such a clock, the signed `maintenance`
    (True), else nothing to do (False). identify: the identify answer, asking every 0.5 s until the
    rebooted board answers (at once for a fast one) or boot_s have passed (a slow board: an ESP32
    replaying a long log, an emulated Pico; `sagat deploy --boot-timeout`)."""
    from .. import client

    keyed = [False]  # the clock has a key and firmware that keeps Ctrl-C from its REPL

    def ask_state() -> str | None:
        try:
            clock = client.Clock(port, timeout)
        except client.LinkError as e:
            raise DeployError(e.text()) from None
        try:
            ident = clock.request("identify")
            state = clock.request("state").get("state")
        except client.NotAClock as e:
            if e.kind == "repl":
                return REPL  # MicroPython without sagat: a fresh board
            raise DeployError(_("{port} is not a MicroPython board: {why}").format(port=port, why=e.why())) from None
        except client.LinkError:
            return None  # silent: a fresh board's REPL busy with a program? mpremote's Ctrl-C will say
        finally:
            clock.close()
        # firmware before `maintenance` lets Ctrl-C through between games, key or not
        keyed[0] = bool(ident.get("key_set")) and "maintenance" in (ident.get("commands") or ())
        if keyed[0] and not key and state in SAFE_STATES:
            raise DeployError(_("this clock has an arbiter key: give --key to deploy"))
        return state

    def open_repl() -> bool:
        if not keyed[0]:
            return False
        try:
            with client.Clock(port, timeout, key) as clock:
                clock.request("maintenance", auth=True)
        except client.LinkError as e:
            hint = _(" (is --key this clock's arbiter key?)") if e.code == "auth_failed" \
                else ""
            raise DeployError(e.text() + hint) from None
        return True

    def identify() -> dict | None:
        deadline = time.monotonic() + boot_s
        while True:
            try:
                with client.Clock(port, timeout) as clock:
                    return clock.request("identify")
            except client.LinkError:
                if time.monotonic() > deadline:
                    return None
                time.sleep(0.5)

    return ask_state, identify, open_repl
