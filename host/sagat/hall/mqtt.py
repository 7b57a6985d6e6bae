"""Beyond one PC (issue 16): a hall publishes each of its clocks to an MQTT broker (Mosquitto), and
another hall subscribes and shows them beside its own, so one page shows boards attached to
several PCs (several halls, or more clocks than one PC has USB ports).

Topics, under `sagat/hall/<hall name>/`:
  board/<number>   the board's view as the page shows it (JSON, retained), at most 4 times a
                   second and only when it changed
  status           "online" (retained); the broker publishes "offline" when the hall goes away
                   (its last will), and the subscribers mark its boards lost

A remote board is shown, never acted on: "Start round", "Pause all" and the rest act on the
clocks attached to the hall that holds them (the key and the links are there)."""

from __future__ import annotations

import json
import threading
import time
from urllib.parse import urlparse

from .boards import host_ms

PREFIX = "sagat/hall"
PUBLISH_S = 0.25
REMOTE_STALE_MS = 5000


class MqttError(Exception):
    """One line for the user."""


def broker(url: str) -> tuple[str, int]:
    """(host, port) of mqtt://HOST[:PORT] (or HOST[:PORT])."""
    u = urlparse(url if "://" in url else "mqtt://" + url)
    if u.scheme != "mqtt" or not u.hostname:
        raise MqttError(f"{url!r} is not a broker's address: mqtt://HOST[:PORT] (e.g. mqtt://localhost:1883)")
    try:
        port = u.port or 1883
    except ValueError:
        raise MqttError(f"{url!r}: the port must be a number") from None
    return u.hostname, port


def _client(name: str):
    try:
        import paho.mqtt.client as mqtt
    except ImportError:
        raise MqttError("the MQTT bridge needs paho-mqtt: pip install 'sagat[mqtt]'") from None
    return mqtt, mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name)


class Publisher:
    """Publishes the hall's own boards."""

    def __init__(self, hall, url: str, name: str):
        self.hall = hall
        self.name = name
        self.host, self.port = broker(url)
        self.mqtt, self.client = _client(f"sagat-hall-pub-{name}")
        self.base = f"{PREFIX}/{name}"
        self.client.will_set(self.base + "/status", "offline", qos=1, retain=True)
        self.client.on_connect = self._connected
        self.error: str | None = "connecting to the broker"
        self.stop = threading.Event()
        self.sent: dict = {}
        self.thread = threading.Thread(target=self._run, name="sagat-hall-mqtt-pub", daemon=True)

    def _connected(self, client, userdata, flags, reason, props=None):
        if reason.is_failure:
            self.error = f"the broker refused: {reason}"
            return
        self.error = None
        self.sent = {}  # publish everything again after a reconnect
        client.publish(self.base + "/status", "online", qos=1, retain=True)

    def start(self) -> None:
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(PUBLISH_S):
            if not self.client.is_connected():
                if self.error is None:
                    self.error = f"no broker at {self.host}:{self.port}"
                continue
            for v in self.hall.view(remote=False)["boards"]:
                text = json.dumps(v, sort_keys=True)
                if self.sent.get(v["number"]) != text:
                    self.client.publish(f"{self.base}/board/{v['number']}", text, qos=0, retain=True)
                    self.sent[v["number"]] = text

    def close(self) -> None:
        self.stop.set()
        if self.client.is_connected():
            self.client.publish(self.base + "/status", "offline", qos=1, retain=True).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()


class Subscriber:
    """Receives other halls' boards."""

    def __init__(self, url: str, name: str):
        self.name = name
        self.host, self.port = broker(url)
        self.mqtt, self.client = _client(f"sagat-hall-sub-{name}-{int(time.time() * 1000) % 100000}")
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.lock = threading.Lock()
        self.boards: dict[tuple[str, str], tuple[dict, float]] = {}
        self.offline: set[str] = set()
        self.error: str | None = "connecting to the broker"

    def _connected(self, client, userdata, flags, reason, props=None):
        if reason.is_failure:
            self.error = f"the broker refused: {reason}"
            return
        self.error = None
        client.subscribe([(PREFIX + "/+/board/+", 0), (PREFIX + "/+/status", 1)])

    def _message(self, client, userdata, msg):
        parts = msg.topic.split("/")
        if len(parts) < 4 or parts[2] == self.name:
            return  # not ours, or this hall's own
        hall = parts[2]
        with self.lock:
            if parts[3] == "status":
                if msg.payload == b"offline":
                    self.offline.add(hall)
                else:
                    self.offline.discard(hall)
                return
            try:
                view = json.loads(msg.payload)
            except ValueError:
                return
            if isinstance(view, dict) and len(parts) == 5:
                self.boards[(hall, parts[4])] = (view, host_ms())

    def start(self) -> None:
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def views(self) -> list[dict]:
        """The other halls' boards, each marked with its hall; lost when its hall went offline
        or nothing came for 5 s (a board's view is published whenever it changes: a running clock
        changes 4 times a second, a standing one is kept alive by the hall's status)."""
        now = host_ms()
        out = []
        with self.lock:
            items = sorted(self.boards.items(), key=lambda kv: (kv[0][0], int(kv[0][1]) if kv[0][1].isdigit() else 0))
            offline = set(self.offline)
        for (hall, _n), (view, at) in items:
            v = dict(view)
            v["hall"] = hall
            v["number"] = f"{hall}:{view.get('number')}"
            v["source"] = "mqtt"
            if hall in offline or (self.error is not None and now - at > REMOTE_STALE_MS):
                v["link"] = "lost"
                v["error"] = f"hall {hall} is offline" if hall in offline else f"broker: {self.error}"
                v["alerts"] = [a for a in v.get("alerts", []) if a.get("kind") != "link"] + [
                    {"kind": "link", "text": f"hall {hall} offline" if hall in offline else "broker lost"}]
            out.append(v)
        return out
