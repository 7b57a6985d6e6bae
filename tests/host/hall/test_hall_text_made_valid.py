"""Text from a clock or from a peer hall is made valid where it enters: a lone surrogate ("\\ud800",
valid JSON, or its UTF-8 bytes) in a clock's `state` or `identify`, or in a board another hall
publishes on the broker, is U+FFFD on its board. Before, such a text could not be encoded as UTF-8,
and the hall's GET /api/state was a 500 with a traceback for every board of the hall. A fake clock
on a real pseudo-terminal (fakedev's ScriptedClock), a real Mosquitto, the hall's web app on uvicorn."""

from __future__ import annotations

import http.client
import json
import socket
import threading

import pytest
from fakedev import ScriptedClock
from hallkit import until
from mqttkit import GOOD, mosquitto

from sagat.hall import mqtt as hall_mqtt
from sagat.hall.core import Hall
from sagat.hall.web import make_app

LONE = "\ud800"  # a surrogate without its pair: valid JSON ("\ud800"), no Unicode text
BAD = "\ufffd"  # what it becomes
GAME = {"state": "paused", "game": 2, "running": None, "battery": 80, "ticks": 1000, "t": 500,
        "left": {"ms": 60000, "moves": 3, "stage": 1, "flag": 0},
        "right": {"ms": 60000, "moves": 3, "stage": 1, "flag": 0}}
MATCH = {"mode": "kokboru", "state": "running", "game": 1, "match_ms": 1000, "period_name": "1",
         "left": {"score": 1, "warnings": 0, "reds": 0}, "right": {"score": 0, "warnings": 0, "reds": 0}}


class _Served:
    """The hall's web app on uvicorn, in a thread of this process, on a free local port."""

    def __init__(self, hall: Hall):
        import uvicorn

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(make_app(hall), host="127.0.0.1", port=self.port,
                                                   log_level="critical", lifespan="off", access_log=False))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        until(lambda: self.server.started, 30, "the hall's web server up")

    def state(self) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", "/api/state", headers={"Host": f"localhost:{self.port}"})
            r = conn.getresponse()
            return r.status, r.read()
        finally:
            conn.close()

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def _clock(uid: str, state: dict, raw: bytes | None = None) -> ScriptedClock:
    """A clock on a pseudo-terminal: identify with `uid`, state with `state` (as JSON, its lone
    surrogates escaped), or, when `raw` is given, a state line whose text is those bytes."""

    def answer(req):
        rid = req.get("id")
        if req.get("cmd") == "identify":
            return {"uid": uid, "firmware": "0.1.0", "protocol": 2, "board": "sim", "key_set": False}
        if req.get("cmd") == "state":
            if raw is not None:
                return b'{"id":%d,"ok":true,"state":"paused","game":2,"message":"%s","left":{"ms":60000},' \
                       b'"right":{"ms":60000}}\n' % (rid, raw)
            return state
        if req.get("cmd") == "settings.get":
            return {"values": {}}
        return {}

    return ScriptedClock(answer)


def _by_number(body: bytes) -> dict:
    return {b["number"]: b for b in json.loads(body)["boards"]}


def test_a_clocks_lone_surrogate_is_made_valid_and_api_state_serves_every_board():
    devices = [_clock("good-1", GAME),
               _clock("named-" + LONE, dict(MATCH, names={"left": LONE + "x", "right": "Dana"})),
               _clock("bytes-3", GAME, raw=b"low \xed\xa0\x80 battery")]  # (a surrogate's own UTF-8 bytes)
    hall = Hall(discover=False)
    served = None
    try:
        for n, dev in enumerate(devices, 1):
            hall.add(dev.port, "port", n)
        until(lambda: len(hall.boards) == 3 and all(b["link"] == "up" and b["state"] for b in hall.view()["boards"]),
              60, "the three clocks up")
        served = _Served(hall)
        status, body = served.state()
        assert status == 200, body[-300:]
        boards = _by_number(body)
        assert sorted(boards) == [1, 2, 3]
        assert boards[1]["uid"] == "good-1" and boards[1]["faces"]["left"]["text"] == "1:00"
        assert boards[2]["uid"] == "named-" + BAD and boards[2]["players"] == [BAD + "x", "Dana"], boards[2]
        assert boards[3]["message"] == f"low {BAD} battery", boards[3]
        body.decode("utf-8")  # (strict: the page's JSON is UTF-8 throughout)
    finally:
        if served is not None:
            served.close()
        hall.close()
        for dev in devices:
            dev.close()


@pytest.fixture
def clock(monkeypatch):
    """The subscriber's clock, virtual: a board heard is never stale, however slow the machine."""
    now = [1_000_000.0]
    monkeypatch.setattr(hall_mqtt, "host_ms", lambda: now[0])
    return now


def test_a_peers_board_with_a_lone_surrogate_is_made_valid_and_api_state_serves_every_board(tmp_path, clock):
    import paho.mqtt.client as mqtt

    proc, port = mosquitto(tmp_path)
    url = f"mqtt://127.0.0.1:{port}"
    near = Hall(discover=False)
    near.subscriber = hall_mqtt.Subscriber(url, "main")
    peer = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="peer")
    served = None
    try:
        near.subscriber.start()
        until(lambda: near.subscriber.error is None and near.subscriber.client.is_connected(), 30, "connected")
        peer.connect("127.0.0.1", port)
        peer.loop_start()
        escaped = json.dumps(dict(GOOD, players=[LONE + "x", "Dana"], message="flag " + LONE)).encode()
        raw = json.dumps(dict(GOOD, players=["Aibek", "@"])).encode().replace(b"@", b"\xed\xb0\x80")
        boards = {"annex/board/1": json.dumps(GOOD).encode(), "annex/board/2": escaped, "annex/board/3": raw}
        for topic, payload in boards.items():  # retained, as a hall publishes its boards
            peer.publish("sagat/hall/" + topic, payload, retain=True).wait_for_publish(10)
        until(lambda: len(near.view()["boards"]) == 3, 30, "the peer's three boards heard")
        served = _Served(near)
        status, body = served.state()
        assert status == 200, body[-300:]
        got = _by_number(body)
        assert sorted(got) == ["annex:1", "annex:2", "annex:3"]
        assert got["annex:1"]["players"] == ["Aibek", "Dana"] and got["annex:1"]["link"] == "up"
        assert got["annex:2"]["players"] == [BAD + "x", "Dana"] and got["annex:2"]["message"] == "flag " + BAD
        assert got["annex:3"]["players"] == ["Aibek", BAD]
        body.decode("utf-8")
    finally:
        if served is not None:
            served.close()
        peer.loop_stop()
        peer.disconnect()
        near.close()
        proc.terminate()
        proc.wait(timeout=10)

