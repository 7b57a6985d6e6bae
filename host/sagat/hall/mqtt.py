"""Beyond one PC: a hall publishes each of its clocks to an MQTT broker (Mosquitto), and
another hall subscribes and shows them beside its own, so one page shows boards attached to
several PCs (several halls, or more clocks than one PC has USB ports).

Topics, under `sagat/hall/<hall name>/`:
  board/<number>   the board's view as the page shows it (JSON, retained), at most 4 times a
                   second and only when it changed
                   (and again every 2 s when it did not)
  status           "online" (retained); the broker publishes "offline" when the hall goes away
                   (its last will), and the subscribers mark its boards lost

A remote board is shown, never acted on: "Start round", "Pause all" and the rest act on the
clocks attached to the hall that holds them (the key and the links are there).

Whoever can publish to the broker can publish anything under any hall's name (docs/hall.md: give
each hall its own broker user, allowed to write only under its own name). So a subscriber takes a
board only under a well-formed topic and rebuilds it from the fields the page knows, each of its
type (text cut short, alerts of known kinds); what a remote hall says it verified is shown as its
report, never as verified here; no message, however made, stops the subscriber."""

from __future__ import annotations

import json
import math
import os
import re
import threading
import time
from urllib.parse import unquote, urlparse

from .. import client
from .boards import host_ms

PREFIX = "sagat/hall"
PUBLISH_S = 0.25
REMOTE_STALE_MS = 5000
REFRESH_MS = 2000  # a board that did not change is published again all the same (else: lost)
MAX_PAYLOAD = 16 * 1024  # a board's view is 1 to 2 KB
REMOTE_EXPIRE_MS = 60000  # a board of which nothing came for this long leaves the page (its hall stopped)
# Slots are held per hall, not first come: a hall holds at most MAX_HALL_BOARDS boards (a hall has
# --sim 64 at most), and at most MAX_REMOTE_HALLS halls are shown at once. A hall that stops
# publishing frees its boards and its place after REMOTE_EXPIRE_MS, so a broker client that
# floods names and goes away holds nothing for good (docs/hall.md: the broker's users keep a
# hostile client from publishing under another hall's name in the first place).
MAX_HALL_BOARDS = 64
MAX_REMOTE_HALLS = 16
MAX_REMOTE_BOARDS = MAX_HALL_BOARDS * MAX_REMOTE_HALLS
MAX_STATUS_HALLS = 4 * MAX_REMOTE_HALLS  # halls whose "offline" is remembered (a status holds no board)
PRUNE_MS = 1000  # how often the expired boards are looked for
NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a hall's name (sagat hall --name)
NUMBER = re.compile(r"[1-9][0-9]{0,3}")
LINKS = ("opening", "up", "lost", "unreachable", "error")  # (boards.py: error, its clock answers garbage)
ALERT_KINDS = ("link", "flag", "battery", "log", "verify", "number")
PULL_STATES = ("idle", "pulling", "retrying", "failed", "unkeyed")  # (and "verified": a remote hall's report)
WORD = re.compile(r"[a-z_]{1,20}")  # a state, a mode


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


def credentials(url: str) -> tuple[str, str | None] | None:
    """(user, password) of mqtt://USER[:PASSWORD]@HOST: the hall's broker user (docs/hall.md); the
    password may come from SAGAT_MQTT_PASSWORD instead (not in the process list)."""
    u = urlparse(url if "://" in url else "mqtt://" + url)
    if not u.username:
        return None
    return unquote(u.username), unquote(u.password) if u.password is not None else os.environ.get("SAGAT_MQTT_PASSWORD")


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
        if credentials(url):
            self.client.username_pw_set(*credentials(url))
        self.base = f"{PREFIX}/{name}"
        self.client.will_set(self.base + "/status", "offline", qos=1, retain=True)
        self.client.on_connect = self._connected
        self.error: str | None = "connecting to the broker"
        self.stop = threading.Event()
        self.sent: dict = {}
        self.numbers: set = set()  # the boards' numbers published (to clear one that went)
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
            self.publish_once()

    def publish_once(self) -> None:
        """Every board's view that changed (or every 2 s); a number no board has now (its board
        renumbered: its clock's own number) cleared on the broker, retained boards and all."""
        now = host_ms()
        numbers = set()
        for v in self.hall.view(remote=False)["boards"]:
            numbers.add(v["number"])
            text = json.dumps(v, sort_keys=True)
            last = self.sent.get(v["number"])
            if last is None or last[0] != text or now - last[1] >= REFRESH_MS:
                self.client.publish(f"{self.base}/board/{v['number']}", text, qos=0, retain=True)
                self.sent[v["number"]] = (text, now)
        for n in self.numbers - numbers:
            self.client.publish(f"{self.base}/board/{n}", "", qos=0, retain=True)  # (an empty message: gone)
            self.sent.pop(n, None)
        self.numbers = numbers

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
        if credentials(url):
            self.client.username_pw_set(*credentials(url))
        self.client.on_connect = self._connected
        self.client.on_connect_fail = self._unreachable  # (else "connecting" for ever: docs/hall.md)
        self.client.on_disconnect = self._unreachable
        self.client.on_message = self._message
        self.lock = threading.Lock()
        self.boards: dict[tuple[str, str], tuple[dict, float]] = {}
        self.held: dict[str, int] = {}  # hall -> how many of `boards` are its
        self.offline: dict[str, float] = {}  # hall -> when it said "offline"
        self.pruned = 0.0
        self.error: str | None = "connecting to the broker"

    def _connected(self, client, userdata, flags, reason, props=None):
        if reason.is_failure:
            self.error = f"the broker refused: {reason}"
            return
        self.error = None
        client.subscribe([(PREFIX + "/+/board/+", 0), (PREFIX + "/+/status", 1)])

    def _unreachable(self, *_):
        """The broker cannot be reached, or the connection to it was lost: the page says so (paho
        tries again on its own). A refusal (a wrong user or password) stays what the page says: the
        broker closes the connection it refused, and that is no reason to call it unreachable."""
        if self.error is not None and self.error.startswith("the broker refused"):
            return
        self.error = f"no broker at {self.host}:{self.port}"

    def _message(self, client, userdata, msg):
        try:  # (paho's network thread: an exception here would end it, and every later message)
            self._take(msg.topic, msg.payload)
        except Exception:  # noqa: BLE001 - a message that cannot be read is dropped
            pass

    def _take(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        if len(parts) < 4 or "/".join(parts[:2]) != PREFIX or not NAME.fullmatch(parts[2]) or parts[2] == self.name:
            return  # not a hall's, or this hall's own
        hall = parts[2]
        now = host_ms()
        if parts[3] == "status" and len(parts) == 4:
            with self.lock:
                self._prune(now)
                if payload == b"offline" and (hall in self.offline or len(self.offline) < MAX_STATUS_HALLS):
                    self.offline[hall] = now
                elif payload == b"online":
                    self.offline.pop(hall, None)
            return
        if parts[3] != "board" or len(parts) != 5 or not NUMBER.fullmatch(parts[4]):
            return
        key = (hall, parts[4])
        if not payload:  # the retained board cleared: gone
            with self.lock:
                self._drop(key)
            return
        if len(payload) > MAX_PAYLOAD:
            return
        view = client.loads(payload)  # (a board nested 8,000 levels deep is bad JSON, not a RecursionError)
        if not isinstance(view, dict):
            return
        v = remote_view(view, hall, int(parts[4]))
        with self.lock:
            self._prune(now)
            if key not in self.boards:
                held = self.held.get(hall, 0)
                if held >= MAX_HALL_BOARDS or (not held and len(self.held) >= MAX_REMOTE_HALLS):
                    return  # its hall's boards are all taken, or every hall's place is
                self.held[hall] = held + 1
            self.boards[key] = (v, now)

    def _drop(self, key: tuple[str, str]) -> None:
        """A board leaves the page (the lock held); its hall's place goes with its last board."""
        if self.boards.pop(key, None) is None:
            return
        left = self.held.get(key[0], 1) - 1
        if left > 0:
            self.held[key[0]] = left
        else:
            self.held.pop(key[0], None)

    def _prune(self, now: float, force: bool = False) -> None:
        """Boards of which nothing came for REMOTE_EXPIRE_MS leave (the lock held): a hall that
        stopped publishing holds no slot for good."""
        if not force and now - self.pruned < PRUNE_MS:
            return
        self.pruned = now
        for key in [k for k, (_v, at) in self.boards.items() if now - at > REMOTE_EXPIRE_MS]:
            self._drop(key)
        for hall in [h for h, at in self.offline.items() if now - at > REMOTE_EXPIRE_MS and h not in self.held]:
            del self.offline[hall]

    def start(self) -> None:
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def views(self) -> list[dict]:
        """The other halls' boards, each marked with its hall; lost when its hall went offline
        or nothing came for 5 s (a board's view is published whenever it changes, and every 2 s
        when it does not); gone when nothing came for REMOTE_EXPIRE_MS."""
        now = host_ms()
        out = []
        with self.lock:
            self._prune(now, force=True)
            items = sorted(self.boards.items(), key=lambda kv: (kv[0][0], int(kv[0][1])))
            offline = set(self.offline)
        for (hall, _n), (view, at) in items:
            v = dict(view)
            if hall in offline or now - at > REMOTE_STALE_MS:
                if hall in offline:
                    why, alert = f"hall {hall} is offline", f"hall {hall} offline"
                elif self.error is not None:
                    why, alert = f"broker: {self.error}", "broker lost"
                else:
                    why = alert = f"nothing from hall {hall} for {REMOTE_STALE_MS // 1000} s"
                v["link"] = "lost"
                v["error"] = why
                v["alerts"] = [a for a in v["alerts"] if a["kind"] != "link"] + [{"kind": "link", "text": alert}]
            out.append(v)
        return out


def _text(x, n: int) -> str | None:
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (str, int, float)):
        return None
    return str(x)[:n]


def _int(x, lo: int = -(2 ** 53), hi: int = 2 ** 53) -> int | None:
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        return None
    return x


def _num(x) -> float | int | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or abs(x) > 1e12:
        return None
    return x


def _word(x) -> str | None:
    return x if isinstance(x, str) and WORD.fullmatch(x) else None


def _dict(x) -> dict:
    return x if isinstance(x, dict) else {}


def remote_view(view: dict, hall: str, number: int) -> dict:
    """A board's view as another hall published it, rebuilt from the fields the page shows, each
    of its type: nothing else passes (the page is the arbiter's, its buttons sign)."""
    pull = _dict(view.get("pull"))
    pstate, pmsg = pull.get("state"), _text(pull.get("message"), 120) or ""
    # whatever a remote hall says of its log is its word: its text never stands alone ("unkeyed"
    # with the text "verified ..." read as verified)
    if pstate == "idle":
        pmsg = ""
    elif pstate == "pulling":
        pmsg = f"pulling the log at hall {hall}"
    elif pstate == "retrying":
        pmsg = f"pulling the log at hall {hall} (its link failed: trying again)"
    elif pstate == "unkeyed":
        pmsg = f"chain intact, authorship unproven, reported by hall {hall}: not verified here"
    else:  # "failed" (its own words), "verified" or anything else: "reported"
        said = (pmsg or (pstate if isinstance(pstate, str) else ""))[:120]
        pmsg = f"{said}, reported by hall {hall}: not verified here"
        if pstate not in PULL_STATES:
            pstate = "reported"
    players = view.get("players")
    start = view.get("start")
    v = {
        "number": f"{hall}:{number}", "hall": hall, "source": "mqtt",
        "port": _text(view.get("port"), 64), "uid": _text(view.get("uid"), 40),
        "firmware": _text(view.get("firmware"), 40), "key_set": view.get("key_set") is True,
        "players": [_text(p, 64) or "" for p in players[:2]] if isinstance(players, list) and len(players) == 2
        else None,
        "link": view.get("link") if view.get("link") in LINKS else "lost",
        "error": _text(view.get("error"), 200),
        "rtt_ms": _num(view.get("rtt_ms")),
        "state": _word(view.get("state")), "game": _int(view.get("game"), 0),
        "mode": _word(view.get("mode")) or "game",
        "running": view.get("running") if view.get("running") in ("left", "right") else None,
        "battery": _int(view.get("battery"), 0, 100), "low_battery": view.get("low_battery") is True,
        "message": _text(view.get("message"), 80), "log_error": _text(view.get("log_error"), 80),
        "log_full": view.get("log_full") is True, "result_code": _text(view.get("result_code"), 16),
        "flag_note": _text(view.get("flag_note"), 40),
        "armed": view.get("armed") is True,
        "pull": {"state": pstate, "message": pmsg},
        "start": {"armed": _dict(start).get("armed") is True, "dev_ms": _num(_dict(start).get("dev_ms")),
                  "err_ms": _num(_dict(start).get("err_ms")),
                  "exact": _dict(start).get("exact") if isinstance(_dict(start).get("exact"), bool) else None}
        if isinstance(start, dict) else None,
        "protest_ms": _int(view.get("protest_ms"), 0),
    }
    match = view.get("match")
    if isinstance(match, dict):
        def side(s):
            s = _dict(s)
            return {"score": _int(s.get("score"), 0, 9999) or 0, "warnings": _int(s.get("warnings"), 0, 9) or 0,
                    "reds": _int(s.get("reds"), 0, 9) or 0}
        v["match"] = {"period": _text(match.get("period"), 32), "time": _text(match.get("time"), 16) or "-",
                      "left": side(match.get("left")), "right": side(match.get("right")),
                      "winner": match.get("winner") if match.get("winner") in ("left", "right", "none") else None,
                      "why": _text(match.get("why"), 64)}
    else:
        faces = _dict(view.get("faces"))
        v["faces"] = {}
        for s in ("left", "right"):
            f = _dict(faces.get(s))
            v["faces"][s] = {
                "text": _text(f.get("text"), 16) or "-", "ms": _num(f.get("ms")),
                "moves": _int(f.get("moves"), 0, 99999), "stage": _int(f.get("stage"), 0, 99),
                "flag": _int(f.get("flag"), 0, 2) or 0, "first": f.get("first") is True, "low": f.get("low") is True,
                "default": f.get("default") is True, "stage_mark": f.get("stage_mark") is True,
                "delay_ms": _int(f.get("delay_ms"), 0) or 0,
            }
    alerts = view.get("alerts")
    v["alerts"] = [{"kind": a["kind"], "text": _text(a.get("text"), 80) or ""}
                   for a in (alerts if isinstance(alerts, list) else [])
                   if isinstance(a, dict) and a.get("kind") in ALERT_KINDS][:8]
    return v
