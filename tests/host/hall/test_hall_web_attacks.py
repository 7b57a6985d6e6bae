"""The hall's web server under attack (docs/hall.md, "Who can press the buttons"):

- DNS rebinding: a page of another site whose name is made to point at 127.0.0.1 is the same origin
  as the hall for the browser, so it could read the hall and post JSON to it. The hall answers only
  to the names it is served under (400 for another Host) and takes an action only from its own page
  (403 for another Origin, or a browser's Sec-Fetch-Site that is not same-origin).
- `--host` other than loopback: anyone on the network can open the page, so an action needs the
  access token `sagat hall` prints in the page's address (kept in a cookie once opened): 401 without.
- Server-Sent Events: the hall's view is computed once per tick for every page, and the number of
  pages is capped (503 beyond).

Each runs `sagat hall --no-usb` as the arbiter starts it (a hall with no clocks), or the web app on
uvicorn in this process where it counts what the server does."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time

import pytest
from webkit import free_port, start_hall, stop_hall


def _req(port: int, method: str, path: str, headers: dict | None = None, body: bytes | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        h = {"Host": f"localhost:{port}"}
        h.update(headers or {})
        if body is not None:
            h.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=body, headers=h)
        r = conn.getresponse()
        return r.status, r.read(), r
    finally:
        conn.close()


@pytest.fixture(scope="module")
def local_hall():
    proc, port, url, lines = start_hall()
    yield port, url, lines
    stop_hall(proc)
    text = "".join(lines)
    assert "Traceback" not in text, text


def test_another_host_name_gets_nothing(local_hall):
    # DNS rebinding: evil.example points at 127.0.0.1 now; the browser sends Host: evil.example
    port, _url, _ = local_hall
    for host in ("evil.example", f"evil.example:{port}", "localhost.evil.example", f"127.0.0.1.nip.io:{port}"):
        st, body, _ = _req(port, "GET", "/api/state", {"Host": host})
        assert st == 400, (host, st, body[:200])
        assert b"boards" not in body
        st, body, _ = _req(port, "POST", "/api/pause", {"Host": host}, b"{}")
        assert st == 400, (host, st, body[:200])
    # the names the hall is served under
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", "localhost"):
        st, body, _ = _req(port, "GET", "/api/state", {"Host": host})
        assert st == 200 and "boards" in json.loads(body), host


def test_an_action_from_another_origin_is_refused(local_hall):
    port, _url, _ = local_hall
    for headers in ({"Origin": "http://evil.example"}, {"Origin": f"http://evil.example:{port}"},
                    {"Origin": "null"}, {"Origin": f"http://localhost:{port + 1}"},
                    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}):
        st, body, _ = _req(port, "POST", "/api/pause", headers, b"{}")
        assert st == 403, (headers, st, body)
        assert json.loads(body)["error"].startswith("refused: the hall takes actions only from its own page")
    # its own page (a browser sends Origin and Sec-Fetch-Site), and a script such as curl (neither)
    for headers in ({"Origin": f"http://localhost:{port}", "Sec-Fetch-Site": "same-origin"}, {}):
        st, body, _ = _req(port, "POST", "/api/pause", headers, b"{}")
        assert st == 200, (headers, st, body)
        assert json.loads(body)["what"] == "pause all"


def test_the_page_on_loopback_needs_no_token(local_hall):
    port, url, lines = local_hall
    assert url == f"http://localhost:{port}/"
    st, body, _ = _req(port, "GET", "/api/access")
    assert st == 200 and json.loads(body) == {"act": True}


def test_on_the_network_an_action_needs_the_printed_token():
    proc, port, url, lines = start_hall("--host", "0.0.0.0")
    try:
        m = re.fullmatch(r"http://[^/]+:(\d+)/\?t=([A-Za-z0-9_-]{20,})", url)
        assert m and int(m.group(1)) == port, url
        token = m.group(2)
        end = time.monotonic() + 30
        while "anyone on the network can see the page" not in "".join(lines):  # (its warning, next)
            assert time.monotonic() < end, lines
            time.sleep(0.05)
        from sagat.hall.serve import local_ips

        for ip in local_ips():  # and by this PC's IP addresses (its name may not resolve at the venue)
            assert f" http://{ip}:{port}/?t={token}\n" in "".join(lines[1:]), (ip, lines)
        host = {"Host": f"192.0.2.7:{port}"}  # by the PC's address, from another PC
        # a spectator (or a player) on the network: sees the page, presses nothing
        assert _req(port, "GET", "/api/state", host)[0] == 200
        assert json.loads(_req(port, "GET", "/api/access", host)[1]) == {"act": False}
        for bad in ({}, {"Cookie": "sagat_hall=wrong"}, {"X-Hall-Token": token[:-1]}, {"Cookie": "sagat_hall="}):
            st, body, _ = _req(port, "POST", "/api/pause", dict(host, **bad), b"{}")
            assert st == 401, (bad, st, body)
            assert "access token" in json.loads(body)["error"]
        for path, body in (("/api/board/1/result", b'{"result": "1-0"}'), ("/api/board/1/act", b'{"cmd": "pause"}'),
                           ("/api/board/1/assign", b"{}"), ("/api/board/1/locate", b"{}"),
                           ("/api/resume", b'{"restored": true}')):  # every board's action too
            assert _req(port, "POST", path, host, body)[0] == 401, path
        # the arbiter opens the printed address: the token goes to a cookie, and out of the address bar
        st, body, r = _req(port, "GET", "/?t=" + token, host)
        assert st == 303 and r.getheader("Location") == "/"
        cookie = r.getheader("Set-Cookie")
        from sagat.hall.web import cookie_name

        assert cookie.startswith(f"{cookie_name(token)}={token};") and "HttpOnly" in cookie and \
            "SameSite=strict" in cookie
        jar = {"Cookie": f"{cookie_name(token)}={token}"}
        assert json.loads(_req(port, "GET", "/api/access", dict(host, **jar))[1]) == {"act": True}
        st, body, _ = _req(port, "POST", "/api/pause", dict(host, **jar), b"{}")
        assert st == 200 and json.loads(body)["what"] == "pause all"
        st, body, _ = _req(port, "POST", "/api/pause", dict(host, **{"X-Hall-Token": token}), b"{}")  # a script
        assert st == 200
        # a wrong token in the address sets no cookie
        st, body, r = _req(port, "GET", "/?t=nope", host)
        assert st == 200 and r.getheader("Set-Cookie") is None
    finally:
        stop_hall(proc)
    assert "Traceback" not in "".join(lines)


def test_the_hall_stops_with_a_page_open():
    proc, port, _url, lines = start_hall()
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /api/events HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n".encode())
    f = s.makefile("rb")
    try:
        assert b" 200 " in f.readline()
        _next_data(f)
        proc.terminate()  # SIGTERM, or Ctrl-C: the open page does not hold the hall (it held it for ever)
        assert proc.wait(timeout=30) == 0
    finally:
        f.close()
        s.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # the hall's last lines are read by a thread: wait (bounded) for them, not a fixed 0.2 s
    end = time.monotonic() + 30
    while "sagat hall: stopped" not in "".join(lines) and time.monotonic() < end:
        time.sleep(0.05)
    assert "Traceback" not in "".join(lines) and "sagat hall: stopped" in "".join(lines)


def test_a_bad_host_option_is_one_line(capsys):
    from sagat.cli import main

    assert main(["hall", "--no-usb", "--no-browser", "--host", "no such host.invalid", "--http-port",
                 str(free_port())]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sagat: cannot serve the page on no such host.invalid") and len(err.splitlines()) == 1


# ---------------------------------------------------------------- Server-Sent Events


class _Server:
    """The hall's web app on uvicorn in a thread of this process."""

    def __init__(self, app):
        import uvicorn

        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                   lifespan="off", access_log=False))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < end
            time.sleep(0.02)

    def close(self):
        self.server.should_exit = True
        self.thread.join(10)


def _events(port: int, extra: str = ""):
    """An open /api/events stream: (status, socket file); `extra`: more header lines."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /api/events HTTP/1.1\r\nHost: localhost:{port}\r\nAccept: text/event-stream\r\n"
              f"{extra}\r\n".encode())
    f = s.makefile("rb")
    status = int(f.readline().split()[1])
    return s, f, status


def _next_data(f) -> dict:
    while True:
        line = f.readline()
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            return json.loads(line[6:])


@pytest.fixture
def counted():
    from sagat.hall.core import Hall
    from sagat.hall.web import make_app

    hall = Hall(discover=False)
    calls = []
    real = hall.view

    def view(remote=True):
        calls.append(time.monotonic())
        return real(remote)

    hall.view = view
    server = _Server(make_app(hall))
    yield server, calls
    server.close()
    hall.close()


def test_the_view_is_computed_once_per_tick_for_every_page(counted):
    server, calls = counted
    streams = [_events(server.port) for _ in range(8)]
    try:
        assert [st for _s, _f, st in streams] == [200] * 8
        for _s, f, _st in streams:
            _next_data(f)
        calls.clear()
        t0 = time.monotonic()
        for _ in range(4):  # every page gets 4 more updates
            for _s, f, _st in streams:
                assert "boards" in _next_data(f)
        ticks = (time.monotonic() - t0) / 0.25
        # 8 pages: once per tick, not 8 times
        assert len(calls) <= ticks + 2, (len(calls), ticks)
    finally:
        for s, f, _st in streams:
            f.close()
            s.close()


def test_the_pages_are_capped(counted, monkeypatch):
    from sagat.hall import web

    server, _calls = counted
    monkeypatch.setattr(web, "MAX_EVENT_CLIENTS", 4, raising=False)
    streams = [_events(server.port) for _ in range(6)]
    try:
        assert sorted(st for _s, _f, st in streams) == [200] * 4 + [503] * 2
    finally:
        for s, f, _st in streams:
            f.close()
            s.close()
    # the pages that went free their place
    end = time.monotonic() + 30
    while True:
        s, f, st = _events(server.port)
        f.close()
        s.close()
        if st == 200:
            break
        assert time.monotonic() < end, "the closed pages never freed their places"
        time.sleep(0.2)


def test_spectators_cannot_take_the_arbiters_pages(monkeypatch):
    # a hall served on the network: anyone there may open the page, but all of the pages' places
    # taken by spectators would leave the arbiter without the hall's updates (503): some are kept
    # for pages with the access token
    from sagat.hall import web
    from sagat.hall.core import Hall

    monkeypatch.setattr(web, "MAX_EVENT_CLIENTS", 6, raising=False)
    monkeypatch.setattr(web, "ARBITER_PAGES", 2, raising=False)
    hall = Hall(discover=False)
    server = _Server(web.make_app(hall, "0.0.0.0", token="tok"))
    streams = []
    try:
        streams += [_events(server.port) for _ in range(8)]  # the spectators: at most 6 - 2
        assert sorted(st for _s, _f, st in streams) == [200] * 4 + [503] * 4
        jar = f"Cookie: {web.cookie_name('tok')}=tok\r\n"
        streams += [_events(server.port, jar) for _ in range(3)]  # the arbiters': the 2 kept, then no more
        assert [st for _s, _f, st in streams[8:]] == [200, 200, 503]
    finally:
        for s, f, _st in streams:
            f.close()
            s.close()
        server.close()
        hall.close()


def test_two_halls_on_one_pc_keep_their_own_tokens():
    # cookies are the host's, whatever the port: two halls served on one PC (--http-port) each keep
    # their own token's cookie, and opening one's address leaves the other's page able to act
    from sagat.hall import web
    from sagat.hall.core import Hall

    halls = [Hall(discover=False), Hall(discover=False)]
    servers = [_Server(web.make_app(h, "0.0.0.0", token=t)) for h, t in zip(halls, ("tok-a", "tok-b"), strict=True)]
    try:
        jar = {}
        for server, t in zip(servers, ("tok-a", "tok-b"), strict=True):
            st, _body, r = _req(server.port, "GET", "/?t=" + t)
            assert st == 303
            name, value = r.getheader("Set-Cookie").split(";")[0].split("=", 1)
            assert value == t and name.startswith(web.COOKIE)
            jar[name] = value  # the browser's jar: one per host, the ports share it
        assert len(jar) == 2, jar
        cookie = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())}
        for server in servers:
            assert json.loads(_req(server.port, "GET", "/api/access", cookie)[1]) == {"act": True}
            assert _req(server.port, "POST", "/api/pause", cookie, b"{}")[0] == 200
    finally:
        for server, h in zip(servers, halls, strict=True):
            server.close()
            h.close()


# ---------------------------------------------------------------- the actions over HTTP


@pytest.fixture
def acting(monkeypatch):
    """A hall of fake clocks (test_hall_attacks' stand-in) on uvicorn in this process: board 1 set
    up, its `time.sync` held until the test lets it go; board 3 a game running."""
    from hallkit import RUNNING as GOOD
    from hallkit import Clocks as _Clocks
    from hallkit import until as _until

    from sagat.hall import boards as HB
    from sagat.hall import jobs
    from sagat.hall.core import Hall
    from sagat.hall.web import make_app

    gate = threading.Event()
    entered = threading.Event()

    def sync(port, args):
        entered.set()
        gate.wait(60)
        return {}

    # (a job's bound long enough for a loaded machine: with 3 s, the sync held at the gate while the
    # test's own requests were answered could be cut off as "no answer in time", its board not armed)
    monkeypatch.setattr(jobs, "JOB_S", 60.0)
    monkeypatch.setattr(HB.client, "Clock", _Clocks(
        {"a": dict(GOOD, state="setup", tc="420"), "b": dict(GOOD, state="setup", tc="420"), "c": dict(GOOD)},
        {"time.sync": sync, "arm": {}, "result": {"state": "finished"}}))
    hall = Hall(discover=False)
    for n, port in ((1, "a"), (2, "b"), (3, "c")):
        hall.add(port, "port", n)
    _until(lambda: all(b["link"] == "up" and b["state"] for b in hall.view()["boards"]), 30, "3 boards up")
    for n in (1, 2):  # as Set up all left them: start round starts only what this hall set up
        hall.board(n).hall_tc = "420"
    server = _Server(make_app(hall))
    yield server, hall, gate, entered
    gate.set()
    server.close()
    hall.close()


def test_a_board_number_is_the_pages_ascii_digits_over_http(acting):
    # the route hands the path's text to the hall, which alone parses it (ASCII digits: int() takes
    # any script's, and ３ or ٣ were board 3)
    server, hall, _gate, _entered = acting
    for bad in ("%EF%BC%93", "%D9%A3", "3.0", "03x", "%203", "1" * 40):
        st, body, _ = _req(server.port, "POST", f"/api/board/{bad}/result", None, b'{"result": "1-0"}')
        assert st == 400, (bad, st, body)
        assert json.loads(body)["error"].startswith("no board"), (bad, body)
    assert hall.last_action is None  # nothing was done
    st, body, _ = _req(server.port, "POST", "/api/board/3/result", None, b'{"result": "2-0"}')
    assert st == 400 and "result must be one of" in json.loads(body)["error"]
    st, body, _ = _req(server.port, "POST", "/api/board/3/result", None, b'{"result": "1-0"}')
    assert st == 200 and json.loads(body)["done"] == 1, body


def test_two_starts_at_once_over_http_one_is_409(acting):
    server, hall, gate, entered = acting
    answers = []
    first = threading.Thread(target=lambda: answers.append(_req(server.port, "POST", "/api/start", None, b"{}")))
    first.start()
    assert entered.wait(60)  # the first start is syncing the links
    st, body, _ = _req(server.port, "POST", "/api/start", None, b"{}")
    assert st == 409, (st, body)
    assert json.loads(body)["error"].startswith("busy")
    # any other action while one runs (but Pause all, which cancels a start: test_hall_board_number_and_cancel)
    st, body, _ = _req(server.port, "POST", "/api/resume", None, b"{}")
    assert st == 409, (st, body)
    gate.set()
    first.join(60)
    st, body, _ = answers[0]
    assert st == 200 and json.loads(body)["what"] == "start round", body
    assert hall.round is not None and hall.round["armed"] == 2


def test_api_state_spammed_reuses_the_ticks_view(counted):
    # a spectator spamming GET /api/state: the view is computed in the event loop, so each request
    # computing its own would slow every page's updates; one view under 0.25 s old is shared
    server, calls = counted
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    s, f, st = _events(server.port)  # and a page open: its ticks' views serve the requests too
    try:
        assert st == 200
        _next_data(f)
        calls.clear()
        t0 = time.monotonic()
        for _ in range(200):
            asked = time.time()
            conn.request("GET", "/api/state", headers={"Host": f"localhost:{server.port}"})
            r = conn.getresponse()
            body = json.loads(r.read())
            assert r.status == 200 and "boards" in body
            # never an old view: one under 0.25 s old when the request came, made before it (the time it
            # took to make: a loaded machine's; its delivery since is not the view's age)
            assert body["time"] > asked - 2.0, (asked, body["time"])
        ticks = (time.monotonic() - t0) / 0.25
        assert len(calls) <= ticks + 2, (len(calls), ticks)
    finally:
        f.close()
        s.close()
    # no page open: the requests still share one view per 0.25 s
    time.sleep(0.5)
    calls.clear()
    t0 = time.monotonic()
    for _ in range(200):
        conn.request("GET", "/api/state", headers={"Host": f"localhost:{server.port}"})
        r = conn.getresponse()
        assert r.status == 200 and "boards" in json.loads(r.read())
    ticks = (time.monotonic() - t0) / 0.25
    assert 1 <= len(calls) <= ticks + 2, (len(calls), ticks)
    conn.close()
    # a view older than 0.25 s is not given: computed anew
    time.sleep(0.3)
    calls.clear()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", "/api/state", headers={"Host": f"localhost:{server.port}"})
    conn.getresponse().read()
    conn.close()
    assert len(calls) == 1


def test_api_state_after_an_action_shows_it(counted):
    # the shared view is never one from before the action that was just answered (a script that
    # starts the round, then reads the state, sees the round)
    server, calls = counted
    for what, path in (("pause all", "/api/pause"), ("resume all", "/api/resume"), ("pause all", "/api/pause")):
        st, body, _ = _req(server.port, "GET", "/api/state")
        assert st == 200
        st, body, _ = _req(server.port, "POST", path, None, b"{}")
        assert st == 200 and json.loads(body)["what"] == what
        st, body, _ = _req(server.port, "GET", "/api/state")
        assert json.loads(body)["action"]["what"] == what
