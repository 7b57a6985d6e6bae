"""What one client of the hall's web server may hold (host/sagat/hall/server.py, docs/hall.md "What one
client may hold"): a hall served on the network is open to every PC there, and uvicorn has no timeout
for a request's headers. A PC that opened 1,100 connections and never finished their headers took
every open file of a desktop's hall (1,024): the arbiter's actions and /api/state went unanswered and
the log filled with `Too many open files` tracebacks until the attacker left.

`sagat hall` runs in its own process, its open files limited as a desktop session limits them; the
attacker's connections come from 127.0.0.2 (Linux routes all of 127/8 to the loopback: another PC for
the hall), the arbiter's from 127.0.0.1, the hall's own PC, with the access token."""

from __future__ import annotations

import errno
import os
import socket
import sys
import threading
import time

import pytest
from hallkit import until
from webkit import request, start_hall, stop_hall

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import slow_clients_bench as bench  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="127/8 routed to the loopback: Linux")

HEAD = b"GET /api/state HTTP/1.1\r\nHost: localhost\r\n"  # a request's line and a header: never the blank line


def _half_open(port: int, n: int, source: str = "127.0.0.2") -> list[socket.socket]:
    out = []
    for _ in range(n):
        s = socket.socket()
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(HEAD)
        out.append(s)
    return out


def _closed(s: socket.socket) -> bool:
    """The hall closed it (what it sent, if it sent anything, read)."""
    s.setblocking(False)
    try:
        return s.recv(65536) == b""
    except BlockingIOError:
        return False
    except OSError:  # (reset)
        return True


def test_the_arbiter_acts_while_1100_half_open_connections_are_held():
    from sagat.hall.server import IDLE_S

    proc, port, token, lines = bench.start_hall(1024, 1)  # a desktop's 1,024 open files, one simulated clock
    attacker = None
    try:
        attacker = bench.Attacker(port, 1100).start()
        assert attacker.started.wait(120)
        # the arbiter's signed Set up all and GET /api/state, one after the other, while the attack holds
        # (past IDLE_S: the half-open ones have been closed and opened again meanwhile)
        busy = bench.arbiter_acts(port, token, IDLE_S + 5, timeout=10, pid=proc.pid, rounds=5)
        figures = (f"setup: {bench.summary(busy['times']['setup'])}; state: {bench.summary(busy['times']['state'])}; "
                   f"attacker: {attacker.opened} opened, {attacker.closed} closed by the hall; "
                   f"the hall's open files: {busy['files']} at most")
        print(figures)
        assert attacker.opened >= 1100, figures
        for what in ("setup", "state"):
            assert len(busy["times"][what]) >= 5 and None not in busy["times"][what], figures
        assert not busy["errors"], (busy["errors"][:5], figures)
        assert busy["files"] < 512, figures  # (a quarter of them for connections, and the accept queue's eighth)
        attacker.stop()
        after = bench.arbiter_acts(port, token, 1, timeout=10)  # the attacker gone: as before
        assert not after["errors"] and None not in after["times"]["state"], after
    finally:
        if attacker is not None:
            attacker.stop()
        proc.terminate()
        assert proc.wait(timeout=60) == 0
    log = "".join(lines)
    assert "Traceback" not in log and "Too many open files" not in log, log[-3000:]


@pytest.fixture
def hall():
    proc, port, _url, lines = start_hall()
    yield port, lines
    stop_hall(proc)
    assert "Traceback" not in "".join(lines), "".join(lines)


def test_a_connection_that_never_finishes_its_headers_is_closed(hall):
    from sagat.hall.server import IDLE_S

    port, _lines = hall
    t0 = time.monotonic()
    trickled = _half_open(port, 1)[0]
    silent = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0))  # sends nothing at all
    stop = threading.Event()

    def trickle():  # a header line every second: the request never ends, the connection is never silent
        while not stop.wait(1.0):
            try:
                trickled.sendall(b"X-a: b\r\n")
            except OSError:
                return

    threading.Thread(target=trickle, daemon=True).start()
    try:
        until(lambda: _closed(trickled) and _closed(silent), IDLE_S + 20, "the half-open connections closed")
        assert time.monotonic() - t0 >= IDLE_S - 0.5
    finally:
        stop.set()
        trickled.close()
        silent.close()
    # a whole request is answered as ever
    assert request(hall[0], "GET", "/api/state", source="127.0.0.2")[0] == 200


def test_one_address_holds_at_most_its_share(hall):
    from sagat.hall.server import PER_ADDRESS

    port, _lines = hall
    held = _half_open(port, PER_ADDRESS + 20)
    try:
        # the oldest of that address's make room for its newest: it holds PER_ADDRESS at most
        until(lambda: sum(_closed(s) for s in held) >= 20, 30, "the address's extra connections closed")
        assert sum(not _closed(s) for s in held) <= PER_ADDRESS
        # that PC's browser is still answered (its new connection takes the place of a half-open one), and another's
        assert request(port, "GET", "/api/state", source="127.0.0.2", timeout=10)[0] == 200
        assert request(port, "POST", "/api/pause", body=b"{}", source="127.0.0.3", timeout=10)[0] == 200
    finally:
        for s in held:
            s.close()


def test_many_addresses_hold_at_most_the_servers_cap():
    # a crowd of PCs (or one PC with many addresses) each within its share: the server's own cap holds,
    # and the arbiter's connection takes the place of the oldest idle one
    import uvicorn  # noqa: F401 - (the in-process server's stack)

    from sagat.hall.core import Hall
    from sagat.hall.server import Server
    from sagat.hall.web import make_app

    hall = Hall(discover=False)
    server = Server(make_app(hall), cap=32)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    held = []
    try:
        until(lambda: server.started, 10, "the server started")
        for i in range(4, 12):  # 8 addresses, 10 connections each: 80
            held += _half_open(port, 10, f"127.0.0.{i}")
        until(lambda: sum(_closed(s) for s in held) >= 80 - 32, 30, "the connections over the cap closed")
        assert server.conns.count <= 32
        assert request(port, "GET", "/api/state", timeout=10)[0] == 200
        assert server.conns.count <= 32
    finally:
        for s in held:
            s.close()
        server.should_exit = True
        thread.join(10)
        sock.close()
        hall.close()


def test_the_open_files_running_out_is_one_line(capsys):
    # (a cause elsewhere: asyncio's accept says so through the loop's exception handler, then tries
    # again a second later) one line a minute, no traceback for each connection
    import asyncio

    from sagat.hall.server import Server

    server = Server(lambda *a: None, cap=16)
    loop = asyncio.new_event_loop()
    try:
        for _ in range(3):
            server._loop_error(loop, {"message": "socket.accept() out of system resource",
                                      "exception": OSError(errno.EMFILE, "Too many open files")})
    finally:
        loop.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sagat hall: new connections wait: Too many open files"), err


def test_an_address_counts_as_one_pc():
    from sagat.hall.server import address_of

    assert address_of(("192.0.2.7", 4000)) == "192.0.2.7"
    assert address_of(("::ffff:192.0.2.7", 4000, 0, 0)) == "192.0.2.7"  # (served on ::, an IPv4 client)
    # one PC's IPv6 addresses (privacy addresses: as many as it likes) share their /64
    assert address_of(("2001:db8:1:2::5", 1, 0, 0)) == address_of(("2001:db8:1:2:abcd::9", 1, 0, 0)) == \
        "2001:db8:1:2::/64"
    assert address_of(("2001:db8:1:3::5", 1, 0, 0)) != address_of(("2001:db8:1:2::5", 1, 0, 0))
    assert address_of(("fe80::1%eth0", 1, 0, 2)) == "fe80::/64"
    assert address_of(None) == "?"


def test_bad_requests_are_one_line_in_the_log(hall):
    # any client can send thousands: the hall's log says so once (a minute), not once each
    port, lines = hall
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0)) as s:
            s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            s.settimeout(10)
            assert s.recv(200).startswith(b"HTTP/1.1 400")
    assert request(port, "GET", "/api/state")[0] == 200
    log = "".join(lines)
    assert log.count("Invalid HTTP request received.") == 1, log
