"""The hall's web server as the arbiter runs it: `sagat hall` in its own process, its stderr (the
hall's log) read on by a thread and kept, and requests to it from a chosen source address (Linux
routes all of 127/8 to the loopback: 127.0.0.2 is another PC of the network for the hall)."""

from __future__ import annotations

import asyncio
import http.client
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

from conftest import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_hall(*args: str, files: int | None = None):
    """`sagat hall --no-usb --no-browser` with args on a free port: (the process, its port, the page's
    address it printed, its log's lines so far and on). `files`: its open files' limit (RLIMIT_NOFILE,
    soft and hard), as a desktop session gives it (1,024)."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]))

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    proc = subprocess.Popen([sys.executable, "-m", "sagat", "hall", "--no-usb", "--no-browser",
                             "--http-port", str(port), *args], stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tempfile.mkdtemp(prefix="sagat-hall-cwd-"),  # (its default --out goes there)
                            preexec_fn=limit if files else None)
    lines: list[str] = []
    end = time.monotonic() + 90
    while time.monotonic() < end:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        if "http://" in line:
            # the rest of stderr is read on, so the hall never blocks on a full pipe
            threading.Thread(target=lambda: lines.extend(proc.stderr), daemon=True).start()
            return proc, port, line.split()[2], lines
    proc.kill()
    proc.wait()
    raise AssertionError("sagat hall did not start: " + "".join(lines))


def stop_hall(proc) -> None:
    proc.terminate()
    assert proc.wait(timeout=60) == 0


def request(port: int, method: str, path: str, headers: dict | None = None, body: bytes | None = None,
            source: str = "127.0.0.1", timeout: float = 60):
    """(status, body) of one request on a connection of its own from `source`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        h = {"Host": f"localhost:{port}"}
        h.update(headers or {})
        if body is not None:
            h.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=body, headers=h)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def asgi_get(app, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    """GET path from an ASGI app in this process (no server, no HTTP client): (status, its headers,
    its body)."""
    sent = []
    asked = []

    async def receive():  # the request, then (a response that listens for it) the client's going once answered
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        while not any(m["type"] == "http.response.body" and not m.get("more_body") for m in sent):
            await asyncio.sleep(0.01)
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    extra = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1:8716")] + extra, "client": ("127.0.0.1", 50000),
             "server": ("127.0.0.1", 8716)}
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    got = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], got, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
