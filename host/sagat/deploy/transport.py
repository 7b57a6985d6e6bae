"""`sagat deploy`'s way to the board's REPL: mpremote's SerialTransport (its raw REPL and file
operations), each operation within a byte and a time budget, and the interface deploy needs of
it (Transport, which a fake board in the tests also fits)."""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..i18n import _, decimal, ngettext


class DeployError(Exception):
    """One line for the user."""


class Transport(Protocol):
    """What deploy needs from a connection to the board's REPL: the names and semantics of mpremote's
    `Transport`/`SerialTransport` (mpremote/transport.py), so a SerialTransport fits as it is.
    fs_* raise OSError (FileNotFoundError for a missing path); exec raises on a device exception."""

    def enter_raw_repl(self, soft_reset: bool = True) -> None: ...
    def exit_raw_repl(self) -> None: ...
    def write_ctrl_d(self, out_callback: Callable[[bytes], Any]) -> None: ...
    def close(self) -> None: ...
    def exec(self, command: str) -> bytes: ...
    def eval(self, expression: str) -> Any: ...
    def fs_listdir(self, src: str = "") -> list: ...  # of (name, st_mode, st_ino, st_size)
    def fs_exists(self, src: str) -> bool: ...
    def fs_mkdir(self, path: str) -> None: ...
    def fs_rmdir(self, path: str) -> None: ...
    def fs_rmfile(self, path: str) -> None: ...
    def fs_hashfile(self, path: str, algo: str) -> bytes: ...
    def fs_writefile(self, dest: str, data: bytes, chunk_size: int = 256, progress_callback=None) -> None: ...


class _Overrun(Exception):
    """The board sent more, or for longer, than the operation under way ever takes."""


class BudgetedSerial:
    """pyserial's Serial as mpremote's SerialTransport uses it (read, inWaiting, write, dtr, rts,
    close), with a byte and a time budget per operation: mpremote empties the input "until none is
    waiting" and reads until a prompt, checking its own time limit only while nothing comes, so a
    device that streams without end (line noise, a program printing in a loop, a hostile device)
    would hold deploy for ever. arm() starts an operation's budget; a read past it raises."""

    def __init__(self, serial):
        object.__setattr__(self, "_serial", serial)
        object.__setattr__(self, "_what", "")
        object.__setattr__(self, "_limit", (0, 0.0))
        object.__setattr__(self, "_got", 0)
        object.__setattr__(self, "_t0", 0.0)

    def arm(self, what: str, max_bytes: int, max_s: float) -> None:
        object.__setattr__(self, "_what", what)
        object.__setattr__(self, "_limit", (max_bytes, max_s))
        object.__setattr__(self, "_got", 0)
        object.__setattr__(self, "_t0", time.monotonic())

    def _check(self) -> None:
        # (a device that sends nothing is left to mpremote's own time limits and READ_S)
        max_bytes, max_s = self._limit
        if self._got > max_bytes:
            raise _Overrun(_("sent more than {kb} KB, never {what}").format(kb=max_bytes >> 10, what=self._what))
        if self._got and time.monotonic() - self._t0 > max_s:
            raise _Overrun(ngettext("sent {n} byte in {seconds} s, never {what}",
                                    "sent {n} bytes in {seconds} s, never {what}", self._got).format(
                n=self._got, seconds=decimal(max_s), what=self._what))

    def read(self, size: int = 1) -> bytes:
        self._check()
        data = self._serial.read(size)
        object.__setattr__(self, "_got", self._got + len(data))
        return data

    def inWaiting(self) -> int:  # noqa: N802 - pyserial's (and mpremote's) name
        self._check()
        return self._serial.inWaiting()

    @property
    def in_waiting(self) -> int:
        return self.inWaiting()

    def __getattr__(self, name):
        return getattr(self._serial, name)

    def __setattr__(self, name, value):  # dtr, rts, timeout: the port's own
        setattr(self._serial, name, value)


class MpremoteTransport:
    """mpremote's SerialTransport on a port, opened at the first enter_raw_repl (so the protocol can
    use the port before). It is opened as mpremote opens it: pyserial's defaults raise DTR and RTS
    together, which an ESP32 DevKit's auto-reset circuit ignores (it resets on RTS without DTR), and
    on Windows a CP210x gets mpremote's low-then-high sequence; close() drops RTS before DTR."""

    # mpremote reads a pty with pyserial's timeout, None by default: a device that never answers
    # (or only echoes) would hold deploy forever. Every read gives up after READ_S, and entering the
    # REPL (a soft reset included) after repl_s.
    READ_S = 2.0
    # And a device that never stops sending: each operation may read at most so many bytes, for at
    # most so long. Entering the raw REPL reads a Ctrl-C's traceback, a soft reset's banner and
    # boot.py's output (a few hundred bytes), within repl_s; a file operation reads a listing or a
    # hash, within OP_S or repl_s if that is longer (a slow board: `sagat deploy --boot-timeout`),
    # and a file written a second per KB more, even on a slow link.
    REPL_BYTES = 64 << 10
    OP_BYTES = 256 << 10
    OP_S = 60.0

    def __init__(self, port: str, baudrate: int = 115200, repl_s: float = 10.0):
        self.port = port
        self.baudrate = baudrate
        self.repl_s = repl_s
        self.t: Any = None
        self.overrun: str | None = None

    def _open(self):
        if self.overrun is not None:  # (deploy's clean-up after an overrun: not the port again)
            raise DeployError(self.overrun)
        if self.t is None:
            from mpremote.transport import TransportError
            from mpremote.transport_serial import SerialTransport

            try:
                self.t = SerialTransport(self.port, baudrate=self.baudrate, timeout=self.READ_S)
            except TransportError as e:
                raise DeployError(_("cannot open {port}: {error} (is another program using it?)").format(
                    port=self.port, error=e)) from None
            self.t.serial = BudgetedSerial(self.t.serial)
        return self.t

    def _run(self, what: str, fn, max_bytes: int | None = None, max_s: float | None = None):
        """fn(transport) within the budget of one operation (what: what ends it, for the message, in the
        user's language); an overrun is one line, and the port is closed."""
        t = self._open()
        op_s = max(self.OP_S, self.repl_s)
        t.serial.arm(what, self.OP_BYTES if max_bytes is None else max_bytes, op_s if max_s is None else max_s)
        try:
            return fn(t)
        except _Overrun as e:
            self.overrun = _("the device on {port} {problem}: it is no MicroPython board at its REPL, or a program "
                             "on it prints without end (stop it, or flash MicroPython onto the board: README, Build "
                             "a real clock)").format(port=self.port, problem=e)
            self.close()
            raise DeployError(self.overrun) from None

    def enter_raw_repl(self, soft_reset: bool = True) -> None:
        def enter(t):
            with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it got instead
                t.enter_raw_repl(soft_reset=soft_reset, timeout_overall=self.repl_s)

        self._run(_("MicroPython's raw REPL prompt"), enter, self.REPL_BYTES, self.repl_s)

    def exit_raw_repl(self) -> None:
        self._run(_("the end of leaving the raw REPL"), lambda t: t.exit_raw_repl())

    def write_ctrl_d(self, out_callback) -> None:
        self._run(_("the end of the soft reset"), lambda t: t.write_ctrl_d(out_callback))

    def close(self) -> None:
        if self.t is not None:
            with contextlib.suppress(Exception):
                self.t.close()
            self.t = None

    def exec(self, command: str) -> bytes:
        return self._run(_("the end of the answer to a command"), lambda t: t.exec(command))

    def eval(self, expression: str):
        return self._run(_("the end of the answer to a question"), lambda t: t.eval(expression))

    def fs_listdir(self, src: str = "") -> list:
        return self._run(_("the end of the listing of {path}").format(path=src or "/"), lambda t: t.fs_listdir(src))

    def fs_exists(self, src: str) -> bool:
        return self._run(_("the end of the answer about {path}").format(path=src), lambda t: t.fs_exists(src))

    def fs_mkdir(self, path: str) -> None:
        self._run(_("the end of making {path}").format(path=path), lambda t: t.fs_mkdir(path))

    def fs_rmdir(self, path: str) -> None:
        self._run(_("the end of removing {path}").format(path=path), lambda t: t.fs_rmdir(path))

    def fs_rmfile(self, path: str) -> None:
        self._run(_("the end of removing {path}").format(path=path), lambda t: t.fs_rmfile(path))

    def fs_hashfile(self, path: str, algo: str) -> bytes:
        return self._run(_("the hash of {path}").format(path=path), lambda t: t.fs_hashfile(path, algo))

    def fs_writefile(self, dest: str, data: bytes, chunk_size: int = 256, progress_callback=None) -> None:
        self._run(_("the end of writing {path}").format(path=dest),
                  lambda t: t.fs_writefile(dest, data, chunk_size=chunk_size, progress_callback=progress_callback),
                  max_s=max(self.OP_S, self.repl_s) + len(data) / 1024)

