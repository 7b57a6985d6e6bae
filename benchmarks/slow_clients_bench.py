"""The hall served on the network (`sagat hall --host 0.0.0.0`) while one address of the network holds
N connections that never finish their headers (a slow-headers attack: each sends part of a request,
then a header line now and then, and opens again whatever the hall closes), and the arbiter acts:
the hall as a desktop session runs it (its open files limited to 1,024), with a simulated clock.

It prints the arbiter's answer times (a signed Set up all, and GET /api/state; the median and the
largest, and any not answered in --timeout seconds), how many connections the attacker held at most
and opened in all, the hall's open files at most, and whether its log has a traceback.

    python benchmarks/slow_clients_bench.py [--held 1100] [--seconds 20] [--files 1024] [--sims 1]

The attacker's connections come from 127.0.0.2 (Linux routes all of 127/8 to the loopback: another
PC for the hall); the arbiter's from 127.0.0.1, the hall's own PC, with the access token, as the
browser that opened the printed address sends it. Linux only (/proc, the 127/8 loopback)."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ATTACKER = "127.0.0.2"
ARBITER = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_hall(files: int, sims: int, *args: str):
    """`sagat hall --host 0.0.0.0` under an open files limit (soft and hard): (the process, its port,
    its access token, its log's lines so far and on), once every simulated clock is up."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]))

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    cmd = [sys.executable, "-m", "sagat", "hall", "--no-usb", "--no-browser", "--host", "0.0.0.0",
           "--http-port", str(port), *(("--sim", str(sims)) if sims else ()), *args]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env, preexec_fn=limit,
                            cwd=tempfile.mkdtemp(prefix="sagat-hall-cwd-"))  # (its default --out goes there)
    lines: list[str] = []
    end = time.monotonic() + 120
    while time.monotonic() < end:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"http://\S+:(\d+)/\?t=(\S+)", line)
        if m:
            threading.Thread(target=lambda: lines.extend(proc.stderr), daemon=True).start()
            token = m.group(2)
            while True:  # every clock up
                boards = json.loads(request(port, token, "GET", "/api/state")[1])["boards"]
                if len(boards) == sims and all(b["link"] == "up" for b in boards):
                    return proc, port, token, lines
                if time.monotonic() > end:
                    break
                time.sleep(0.2)
            break
    proc.kill()
    proc.wait()
    raise SystemExit("sagat hall did not start: " + "".join(lines))


def request(port: int, token: str, method: str, path: str, body: bytes | None = None, source: str = ARBITER,
            timeout: float = 30):
    """(status, body) of one of the arbiter's requests, on a connection of its own, with the token as
    its browser sends it (the cookie; here X-Hall-Token, the scripts' header)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        headers = {"Host": f"localhost:{port}", "X-Hall-Token": token}
        if body is not None:
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


class Attacker:
    """`held` connections from `source` that never finish their headers: each sends a request line and
    a header, then another header line every `trickle` s; one the hall closes is opened again `again` s
    later. A thread of its own; stop() closes them all."""

    def __init__(self, port: int, held: int, source: str = ATTACKER, trickle: float = 1.0, again: float = 1.0):
        self.port, self.held, self.source, self.trickle, self.again = port, held, source, trickle, again
        self.opened = 0  # connections opened in all
        self.closed = 0  # of those, closed by the hall
        self.now_held = 0  # open at this moment (connected, not closed by the hall)
        self.most = 0  # at most at once
        self.failed = 0  # connects refused or timed out (the hall's queue full)
        self.started = threading.Event()  # every one of `held` opened once
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Attacker:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)

    def _open(self, sel) -> None:
        s = socket.socket()
        s.setblocking(False)
        s.bind((self.source, 0))
        s.connect_ex(("127.0.0.1", self.port))
        sel.register(s, selectors.EVENT_WRITE, {"up": False, "next": 0.0, "at": time.monotonic()})
        self.opened += 1

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        waiting: list[float] = []  # when each closed one is opened again
        for i in range(self.held):
            self._open(sel)
            if i % 100 == 99:
                self._poll(sel, waiting, 0)
        self.started.set()
        while not self._stop.is_set():
            self._poll(sel, waiting, 0.05)
            now = time.monotonic()
            due = [t for t in waiting if t <= now]
            waiting[:] = [t for t in waiting if t > now]
            for _ in due:
                self._open(sel)
        for key in list(sel.get_map().values()):
            sel.unregister(key.fileobj)
            key.fileobj.close()
        sel.close()

    def _poll(self, sel, waiting: list, timeout: float) -> None:
        now = time.monotonic()
        for key, _ev in sel.select(timeout):
            s, st = key.fileobj, key.data
            if not st["up"]:
                err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    self._lost(sel, s, waiting, failed=True)
                    continue
                st["up"] = True
                self.now_held += 1
                self.most = max(self.most, self.now_held)
                try:
                    s.send(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n".encode())
                except OSError:
                    self._lost(sel, s, waiting)
                    continue
                st["next"] = now + self.trickle
                sel.modify(s, selectors.EVENT_READ, st)
            else:  # readable: the hall closed it (or answered: it never should before the headers end)
                try:
                    s.recv(4096)
                except OSError:
                    pass
                self._lost(sel, s, waiting)
        for key in list(sel.get_map().values()):
            st = key.data
            if st["up"] and st["next"] <= now:
                st["next"] = now + self.trickle
                try:
                    key.fileobj.send(b"X-a: b\r\n")
                except OSError:
                    self._lost(sel, key.fileobj, waiting)
            elif not st["up"] and now - st["at"] > 10:  # a connect never answered (a full queue)
                self._lost(sel, key.fileobj, waiting, failed=True)

    def _lost(self, sel, s, waiting: list, failed: bool = False) -> None:
        st = sel.get_key(s).data
        sel.unregister(s)
        s.close()
        if st["up"]:
            self.now_held -= 1
            self.closed += 1
        if failed:
            self.failed += 1
        waiting.append(time.monotonic() + self.again)


def arbiter_acts(port: int, token: str, seconds: float, timeout: float, pid: int | None = None,
                 rounds: int = 0) -> dict:
    """The arbiter's actions for `seconds`, and on until `rounds` of them are made, one after the
    other: a signed Set up all, then GET /api/state. Each's answer time (s), those not answered
    within `timeout` (None), and the hall's open files at most. (A count of rounds, not the rounds a
    fixed time holds: a loaded machine makes fewer, and that is not the hall's failure.)"""
    times: dict[str, list] = {"setup": [], "state": []}
    errors: list[str] = []
    most_files = 0
    end = time.monotonic() + seconds
    made = 0
    while time.monotonic() < end or made < rounds:
        made += 1
        for what, method, path, body in (("setup", "POST", "/api/setup", b'{"tc": "420"}'),
                                         ("state", "GET", "/api/state", None)):
            t0 = time.monotonic()
            try:
                st, answer = request(port, token, method, path, body, timeout=timeout)
            except OSError as e:
                times[what].append(None)
                errors.append(f"{what}: {type(e).__name__}: {e}")
                continue
            took = time.monotonic() - t0
            if st != 200 or (what == "setup" and json.loads(answer).get("failed")):
                errors.append(f"{what}: {st} {answer[:200]!r}")
            times[what].append(took)
        if pid is not None:
            most_files = max(most_files, open_files(pid))
        time.sleep(0.2)
    return {"times": times, "errors": errors, "files": most_files}


def summary(times: list) -> str:
    done = [t for t in times if t is not None]
    if not done:
        return f"none of {len(times)} answered"
    out = f"{len(done)} answered, median {statistics.median(done) * 1000:.0f} ms, max {max(done) * 1000:.0f} ms"
    return out + (f", {len(times) - len(done)} not answered" if len(done) < len(times) else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--held", type=int, default=1100, help="the attacker's half-open connections")
    ap.add_argument("--seconds", type=float, default=20, help="how long the arbiter acts under the attack")
    ap.add_argument("--files", type=int, default=1024, help="the hall's open files limit (RLIMIT_NOFILE)")
    ap.add_argument("--sims", type=int, default=1, help="simulated clocks")
    ap.add_argument("--timeout", type=float, default=10, help="an answer later than this is not answered")
    a = ap.parse_args()
    proc, port, token, lines = start_hall(a.files, a.sims)
    try:
        quiet = arbiter_acts(port, token, 3, a.timeout)
        print(f"no attack: setup {summary(quiet['times']['setup'])}; state {summary(quiet['times']['state'])}")
        attacker = Attacker(port, a.held).start()
        attacker.started.wait(120)
        busy = arbiter_acts(port, token, a.seconds, a.timeout, proc.pid)
        print(f"{a.held} half-open connections from {ATTACKER} for {a.seconds:.0f} s, the hall's open files "
              f"limited to {a.files}:")
        print(f"  the arbiter's signed Set up all: {summary(busy['times']['setup'])}")
        print(f"  the arbiter's GET /api/state:    {summary(busy['times']['state'])}")
        print(f"  the attacker: {attacker.opened} connections opened, {attacker.most} held at once at most, "
              f"{attacker.closed} closed by the hall, {attacker.failed} connects failed")
        print(f"  the hall's open files: {busy['files']} at most")
        attacker.stop()
        after = arbiter_acts(port, token, 2, a.timeout)
        print(f"after: setup {summary(after['times']['setup'])}; state {summary(after['times']['state'])}")
        for e in busy["errors"][:5] + after["errors"][:5]:
            print("  error:", e)
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log = "".join(lines)
    print(f"the hall's log: {log.count('Traceback')} traceback(s), "
          f"{log.count('Too many open files')} 'Too many open files'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
