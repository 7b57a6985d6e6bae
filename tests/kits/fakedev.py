"""Devices that are not a sagat clock (or a clock with a dirty link), each on a pseudo-terminal that
pyserial opens like /dev/ttyACM0: what a newcomer's `sagat info` or `sagat deploy` may meet."""

from __future__ import annotations

import json
import os
import termios
import threading
import tty


class FakeDevice:
    """mode: "silent" (reads, never writes), "echo" (sends back every byte), "repl" (MicroPython's
    friendly REPL without sagat: echo, a traceback for a JSON line, the `>>> ` prompt), "stale"
    (a clock that sends a late answer with id 1 before each real answer), "partial" (a clock whose
    line buffer holds a partial line an earlier host left: it answers only complete lines)."""

    def __init__(self, mode: str):
        self.mode = mode
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave, termios.TCSANOW)
        self.port = os.ttyname(self.slave)
        self.line = b'{"id":3,"cmd":"sta' if mode == "partial" else b""
        self.requests: list = []
        self.stopped = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _write(self, data: bytes) -> None:
        os.write(self.master, data)

    def _run(self) -> None:
        try:
            self._serve()
        except OSError:  # the test closed the device while it was answering: it is unplugged
            return

    def _serve(self) -> None:
        while not self.stopped:
            data = os.read(self.master, 4096)
            if not data:
                return
            if self.mode == "silent":
                continue
            if self.mode == "echo":
                self._write(data)
                continue
            for b in data:
                self._byte(bytes([b]))

    def _byte(self, b: bytes) -> None:
        if self.mode == "repl":
            if b in (b"\r", b"\n"):
                self._write(b"\r\n")
                if self.line.strip():
                    self._write(b'Traceback (most recent call last):\r\n  File "<stdin>", line 1, in <module>\r\n'
                                b"NameError: name 'true' isn't defined\r\n")
                self.line = b""
                self._write(b">>> ")
            elif b == b"\x03":
                self._write(b"\r\nKeyboardInterrupt\r\n>>> ")
            else:
                self.line += b
                self._write(b)  # the REPL echoes what is typed
            return
        if b != b"\n":
            self.line += b
            return
        line, self.line = self.line.strip(), b""
        if not line:
            return
        try:
            req = json.loads(line)
            rid = req["id"]
        except (ValueError, KeyError, TypeError):
            self._write(b'{"id":null,"ok":false,"error":{"code":"bad_json","message":"not JSON"}}\n')
            return
        self.requests.append(req)
        if self.mode == "stale":  # a late answer meant for an earlier host's identify
            self._write(b'{"id":1,"ok":true,"firmware":"0.1.0","protocol":2,"board":"sim"}\n')
        ans = {"id": rid, "ok": True}
        if req.get("cmd") == "state":
            ans.update(state="paused", t=5000, left={"ms": 298500, "moves": 7, "flag": False},
                       right={"ms": 178500, "moves": 6, "flag": False}, running=None)
        elif req.get("cmd") == "identify":
            ans.update(firmware="0.1.0", protocol=1, board="sim", uid="sim-fake")
        self._write(json.dumps(ans).encode() + b"\n")

    def close(self) -> None:
        # the slave first: the thread's read of the master then fails (EIO) and the thread ends;
        # only then the master. Closed first, its fd number could go to the next test's device
        # while this thread, between two reads, still served it (an echo test got a REPL's answer)
        self.stopped = True
        try:
            os.close(self.slave)
        except OSError:
            pass
        self.thread.join(5)
        try:
            os.close(self.master)
        except OSError:
            pass


class ScriptedClock:
    """A device on a pseudo-terminal that answers each request line with what answer(req) returns:
    bytes written as they are, or a dict (given the request's id) written as one JSON line; None
    writes nothing. stream (bytes): written over and over from the first request on, instead of
    answers (a device that never ends a line). What a hostile or broken clock can send."""

    def __init__(self, answer=None, stream: bytes | None = None):
        self.answer = answer
        self.stream = stream
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave, termios.TCSANOW)
        self.port = os.ttyname(self.slave)
        os.set_blocking(self.master, False)  # (a write never blocks past what the pty takes)
        self.requests: list = []
        self.written = 0
        self.stopped = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import select

        line = b""
        streaming = False
        try:
            while not self.stopped:
                ready = select.select([self.master], [self.master] if streaming else [], [], 0.05)
                if self.master in ready[0]:
                    data = os.read(self.master, 65536)
                    if not data:
                        return
                    if self.stream is not None:
                        streaming = True
                        continue
                    line += data
                    while b"\n" in line:
                        one, line = line.split(b"\n", 1)
                        self._line(one.strip())
                if streaming and self.master in ready[1]:
                    try:
                        self.written += os.write(self.master, self.stream)
                    except BlockingIOError:
                        pass
        except OSError:  # closed by the test: unplugged
            return

    def _line(self, one: bytes) -> None:
        if not one:
            return
        try:
            req = json.loads(one)
        except ValueError:
            return
        self.requests.append(req)
        out = self.answer(req)
        if isinstance(out, dict):
            out = json.dumps({"id": req.get("id"), "ok": True, **out}).encode() + b"\n"
        if out:
            # written as the host reads it: a host that stopped reading (the pull gave up) leaves the
            # rest unwritten when the test closes the device, instead of holding close() 5 s
            import select

            view = memoryview(out)
            while view and not self.stopped:
                if not select.select([], [self.master], [], 0.05)[1]:
                    continue
                try:
                    n = os.write(self.master, view[:65536])
                except BlockingIOError:
                    continue
                self.written += n
                view = view[n:]

    def close(self) -> None:
        self.stopped = True
        try:
            os.close(self.slave)
        except OSError:
            pass
        self.thread.join(5)
        try:
            os.close(self.master)
        except OSError:
            pass
