"""Beyond one PC: a hall publishes each of its clocks to an MQTT broker (Mosquitto), and
another hall subscribes and shows them beside its own, so one page shows boards attached to
several PCs (several halls, or more clocks than one PC has USB ports).

Topics, under `sagat/hall/<hall name>/`:
  board/<number>   the board's view as the page shows it (JSON, retained), at most 4 times a
                   second and only when it changed
                   (and again every 2 s when it did not)
  status           "online RUN" (retained, and again every 5 s); the broker publishes "offline RUN"
                   when the hall goes away (its last will), and the subscribers mark its boards lost

RUN is an id each hall makes as it starts (8 hex digits), also in each board's message ("instance"):
two halls under one name (two PCs given the same --name, or cloned PCs) are told apart. A
subscriber that hears two runs' messages interleaved under one name says so (its status line, an
alert on each of that hall's boards) and keeps showing the run it showed first; a hall started
again (its old run silent, or said offline) is shown at once, or once its old run has been silent
5 s. A publisher hears its own name's status too, and says so when another run publishes under it.
When the subscriber's own connection to the broker is lost (and a broker that stops publishes every
client's last will first), the other halls' boards are shown stale, their last state with its age,
not offline: whether those halls stopped is not known.

A remote board is shown, never acted on: "Start round", "Pause all" and the rest act on the
clocks attached to the hall that holds them (the key and the links are there).

Whoever can publish to the broker can publish anything under any hall's name (docs/hall.md: give
each hall its own broker user, allowed to write only under its own name). So a subscriber takes a
board only under a well-formed topic and rebuilds it from the fields the page knows, each of its
type (text cut short, alerts of known kinds); what a remote hall says it verified is shown as its
report, never as verified here; no message, however made, stops the subscriber."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import secrets
import socket
import threading
import uuid
from urllib.parse import unquote, urlparse

from .. import client
from .boards import host_ms
from .said import Said, joined, msg_of, said, with_msg

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
STATUS_MS = 5000  # a publisher says "online RUN" again this often: another run under its name hears it
TWIN_MS = 15000  # two runs heard under one name: said until this long after they were last heard both
MAX_RUNS = 4  # runs remembered per hall (a hall started again makes a new one)
RUN = re.compile(r"[0-9a-f]{1,16}")  # a hall's run (Publisher.run)
NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a hall's name (sagat hall --name)
NUMBER = re.compile(r"[1-9][0-9]{0,3}")
LINKS = ("opening", "up", "lost", "unreachable", "error")  # (boards.py: error, its clock answers garbage)
ALERT_KINDS = ("link", "flag", "battery", "log", "verify", "number")
PULL_STATES = ("idle", "pulling", "retrying", "failed", "unkeyed")  # (and "verified": a remote hall's report)
WORD = re.compile(r"[a-z_]{1,20}")  # a state, a mode
# the codes of a remote hall's pull message shown (inside "reported by hall ..."), by its pull's state
REPORTED = {"verified": ("log_verified", "pull_verified_code"),
            "failed": ("pull_failed", "pull_failed_tries", "pull_not_verified")}


class MqttError(Exception):
    """One line for the user."""


def twin_note(name: str) -> str:
    return said("mqtt_twin", "hall {name}: two halls publish under this name (another PC with --name {name}?): give "
                "each its own --name", name=name)


CONNECTING = said("mqtt_connecting", "connecting to the broker")


def refused(reason) -> str:
    return said("mqtt_refused", "the broker refused: {why}", why=reason)


def no_broker(host: str, port: int) -> str:
    return said("mqtt_no_broker", "no broker at {host}:{port}", host=host, port=port)


def _status(payload: bytes) -> tuple[str, str | None] | None:
    """("online" or "offline", its run or None) of a status message; None if it is neither."""
    word, _, run = payload.decode("ascii", "replace").partition(" ")
    if word not in ("online", "offline") or (run and not RUN.fullmatch(run)):
        return None
    return word, run or None


def _hardware_address() -> str | None:
    """The PC's network card's hardware address, the same whichever card is connected: on Linux
    the least of its physical cards' (not a virtual one, which may be new each boot), elsewhere
    uuid.getnode()'s; None if there is none (a random address is none)."""
    try:
        names = sorted(os.listdir("/sys/class/net"))
    except OSError:
        node = uuid.getnode()
        return None if node >> 40 & 1 else f"{node:012x}"  # (a random one has its multicast bit set)
    found = []
    for name in names:
        if not os.path.exists(f"/sys/class/net/{name}/device"):
            continue  # a virtual one (a bridge, a container's, a VPN's)
        try:
            with open(f"/sys/class/net/{name}/address", encoding="ascii") as fh:
                mac = fh.read().strip().lower()
        except (OSError, ValueError):
            continue
        if mac and mac.strip("0:"):
            found.append(mac)
    return min(found) if found else None


def _machine_id() -> str | None:
    """What tells this PC from another, the same on each run: its system's machine id (a cloned
    disk keeps it) and its network card's address (a cloned disk runs on another card); None if
    neither is known."""
    parts = []
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            with open(path, encoding="ascii", errors="replace") as fh:
                mid = fh.read().strip()
        except OSError:
            continue
        if mid:
            parts.append(mid)
            break
    mac = _hardware_address()
    if mac:
        parts.append(mac)
    return "/".join(parts) or None


def default_name() -> str:
    """A hall's name when --name is not given: this PC's host name and 4 hex digits of its own
    (cloned PCs share their host name), the same on each run; the host name alone when nothing of
    the PC's own is known. 1 to 32 letters, digits, _ or -."""
    host = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname().split(".")[0]) or "hall"
    mid = _machine_id()
    if mid is None:
        return host[:32]
    # (hashed: the machine id is not published; sagat's own key, so it is no other program's hash)
    return f"{host[:27]}-{hashlib.sha256(b'sagat hall name/' + mid.encode()).hexdigest()[:4]}"


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
        self.run = secrets.token_hex(4)  # this run's id: another hall under this name is told apart
        self.host, self.port = broker(url)
        # (each run its own client id: a broker drops a client when another connects with its id)
        self.mqtt, self.client = _client(f"sagat-hall-pub-{name}-{self.run}")
        if credentials(url):
            self.client.username_pw_set(*credentials(url))
        self.base = f"{PREFIX}/{name}"
        self.client.will_set(self.base + "/status", f"offline {self.run}", qos=1, retain=True)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.link_error: str | None = CONNECTING
        self.twins: dict[str, float] = {}  # another run under this name -> when it was last heard
        self.announced = 0.0
        self.stop = threading.Event()
        self.sent: dict = {}
        self.numbers: set = set()  # the boards' numbers published (to clear one that went)
        self.thread = threading.Thread(target=self._run, name="sagat-hall-mqtt-pub", daemon=True)

    @property
    def error(self) -> str | None:
        """What the hall's status line says of its publishing: the broker's link, and another hall
        publishing under this name."""
        now = host_ms()
        notes = [self.link_error] if self.link_error else []
        if any(now - at <= TWIN_MS for at in list(self.twins.values())):
            notes.append(twin_note(self.name))
        return joined(notes)

    @error.setter
    def error(self, value: str | None) -> None:
        self.link_error = value

    def _connected(self, client, userdata, flags, reason, props=None):
        if reason.is_failure:
            self.link_error = refused(reason)
            return
        self.link_error = None
        self.sent = {}  # publish everything again after a reconnect
        self._announce()  # (before the subscription: the status it hands over is this run's)
        client.subscribe(self.base + "/status", 1)

    def _announce(self) -> None:
        self.announced = host_ms()
        self.client.publish(self.base + "/status", f"online {self.run}", qos=1, retain=True)

    def _message(self, client, userdata, msg):
        """Its own name's status: another run's "online" is another hall under this name (this
        run says it is online at once, so that the other hears it too); an "offline" while this
        run goes on (another run's farewell or will) is answered with its "online" (retained: a
        subscriber that comes later must not read this hall offline)."""
        try:
            said = _status(msg.payload)
            if said is None or self.stop.is_set():
                return
            word, run = said
            if word == "online" and run is not None and run != self.run:
                new = run not in self.twins
                if new and len(self.twins) >= MAX_RUNS:
                    self.twins.pop(min(self.twins, key=self.twins.get))
                self.twins[run] = host_ms()
                if new:
                    self._announce()
            elif word == "offline":
                self.twins.pop(run, None)
                self._announce()
        except Exception:  # noqa: BLE001 - (paho's network thread) a message that cannot be read is dropped
            pass

    def start(self) -> None:
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(PUBLISH_S):
            if not self.client.is_connected():
                if self.link_error is None:
                    self.link_error = no_broker(self.host, self.port)
                continue
            self.publish_once()
            if host_ms() - self.announced >= STATUS_MS:
                self._announce()

    def publish_once(self) -> None:
        """Every board's view that changed (or every 2 s); a number no board has now (its board
        renumbered: its clock's own number) cleared on the broker, retained boards and all."""
        now = host_ms()
        numbers = set()
        for v in self.hall.view(remote=False)["boards"]:
            numbers.add(v["number"])
            text = json.dumps(dict(v, instance=self.run), sort_keys=True)
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
            self.client.publish(self.base + "/status", f"offline {self.run}", qos=1, retain=True).wait_for_publish(2)
        self.client.disconnect()
        self.client.loop_stop()


class Subscriber:
    """Receives other halls' boards."""

    def __init__(self, url: str, name: str):
        self.name = name
        self.host, self.port = broker(url)
        self.mqtt, self.client = _client(f"sagat-hall-sub-{name}-{secrets.token_hex(4)}")
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
        self.offline_run: dict[str, str | None] = {}  # hall -> the run that said it
        self.current: dict[str, str | None] = {}  # hall -> the run whose boards are shown
        self.runs: dict[str, dict[str, list]] = {}  # hall -> run -> [first heard live, last live, last heard]
        self.run_of: dict[tuple[str, str], str | None] = {}  # each board's run
        self.twins: dict[str, float] = {}  # hall -> when two of its runs were last heard interleaved
        self.pruned = 0.0
        self.heard_since = 0.0  # when this hall's connection to the broker was last made
        self.link_error: str | None = CONNECTING

    @property
    def error(self) -> str | None:
        """What the hall's status line says of the other halls: the broker's link (once, not on
        each board), and each hall under whose name two halls publish."""
        now = host_ms()
        with self.lock:
            twins = sorted(h for h, at in self.twins.items() if now - at <= TWIN_MS and h in self.held)
        notes = ([self.link_error] if self.link_error else []) + [twin_note(h) for h in twins]
        return joined(notes)

    @error.setter
    def error(self, value: str | None) -> None:
        self.link_error = value

    def _connected(self, client, userdata, flags, reason, props=None):
        if reason.is_failure:
            self.link_error = refused(reason)
            return
        with self.lock:
            # the statuses come again with the subscription (retained): an "offline" heard before
            # the link went may be the broker's own stop (it publishes every client's will first)
            self.offline.clear()
            self.offline_run.clear()
            self.heard_since = host_ms()
        self.link_error = None
        client.subscribe([(PREFIX + "/+/board/+", 0), (PREFIX + "/+/status", 1)])

    def _unreachable(self, *_):
        """The broker cannot be reached, or the connection to it was lost: the page says so (paho
        tries again on its own). A refusal (a wrong user or password) stays what the page says: the
        broker closes the connection it refused, and that is no reason to call it unreachable."""
        if self.link_error is not None and self.link_error.startswith("the broker refused"):
            return
        self.link_error = no_broker(self.host, self.port)

    def _message(self, client, userdata, msg):
        try:  # (paho's network thread: an exception here would end it, and every later message)
            self._take(msg.topic, msg.payload, getattr(msg, "retain", False) is True)
        except Exception:  # noqa: BLE001 - a message that cannot be read is dropped
            pass

    def _take(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """One message; `retain`: one the broker kept, handed over as the subscription was made
        (old news: no sign that its hall is there now)."""
        parts = topic.split("/")
        if len(parts) < 4 or "/".join(parts[:2]) != PREFIX or not NAME.fullmatch(parts[2]) or parts[2] == self.name:
            return  # not a hall's, or this hall's own
        hall = parts[2]
        now = host_ms()
        if parts[3] == "status" and len(parts) == 4:
            said = _status(payload)
            if said is None:
                return
            word, run = said
            with self.lock:
                self._prune(now)
                if word == "offline":
                    if run is not None and self.current.get(hall) not in (None, run):
                        return  # not the run shown: an old run's will, or another hall's under its name
                    if hall in self.offline or len(self.offline) < MAX_STATUS_HALLS:
                        self.offline[hall] = now
                        self.offline_run[hall] = run
                    if hall in self.current:
                        self.current[hall] = None  # the run shown is gone: the next one is shown
                else:
                    self.offline.pop(hall, None)
                    self.offline_run.pop(hall, None)
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
        run = view.get("instance")
        run = run if isinstance(run, str) and RUN.fullmatch(run) else None
        with self.lock:
            self._prune(now)
            if hall not in self.held and len(self.held) >= MAX_REMOTE_HALLS:
                return  # every hall's place is taken
            if not self._run_shown(hall, run, now, retain):
                return  # another hall's under the same name
            if key not in self.boards:
                held = self.held.get(hall, 0)
                if held >= MAX_HALL_BOARDS or (not held and len(self.held) >= MAX_REMOTE_HALLS):
                    return  # its hall's boards are all taken, or every hall's place is
                self.held[hall] = held + 1
            self.boards[key] = (v, now)
            self.run_of[key] = run
            if not retain and hall in self.offline and self.offline_run.get(hall) != run:
                self.offline.pop(hall, None)  # a run that did not say offline publishes: the hall is back
                self.offline_run.pop(hall, None)

    def _run_shown(self, hall: str, run: str | None, now: float, retain: bool) -> bool:
        """Whether a board of `run` is shown (the lock held). The run shown first stays shown while
        it is heard; another is shown once it is gone (said offline, or silent REMOTE_STALE_MS: a
        hall started again), its hall's boards of other runs leaving. Two runs heard interleaved (one
        heard after the other began, both within REMOTE_STALE_MS) are two halls under one name."""
        if run is None:
            return True  # (a hall that does not say its run)
        runs = self.runs.setdefault(hall, {})
        rec = runs.get(run)
        if rec is None:
            if len(runs) >= MAX_RUNS:
                cur = self.current.get(hall)
                runs.pop(min((r for r in runs if r != cur), key=lambda r: runs[r][2]))
            rec = runs[run] = [None, None, now]
        rec[2] = now
        if not retain:
            if rec[0] is None:
                rec[0] = now
            elif any(r != run and last is not None and last > rec[0] and now - last <= REMOTE_STALE_MS
                     for r, (_first, last, _any) in runs.items()):
                self.twins[hall] = now
            rec[1] = now
        cur = self.current.get(hall)
        if cur == run:
            return True
        if cur is not None:
            shown = runs.get(cur)
            if retain or (shown is not None and now - shown[2] <= REMOTE_STALE_MS):
                return False
        self.current[hall] = run
        for key in [k for k in self.boards if k[0] == hall and self.run_of.get(k) != run]:
            self._drop(key)
        return True

    def _drop(self, key: tuple[str, str]) -> None:
        """A board leaves the page (the lock held); its hall's place goes with its last board."""
        if self.boards.pop(key, None) is None:
            return
        self.run_of.pop(key, None)
        left = self.held.get(key[0], 1) - 1
        if left > 0:
            self.held[key[0]] = left
        else:
            self.held.pop(key[0], None)

    def _prune(self, now: float, force: bool = False) -> None:
        """Boards of which nothing came for REMOTE_EXPIRE_MS leave (the lock held): a hall that
        stopped publishing holds no slot for good. Not while this hall's own link to the broker is
        lost (nothing can come: they are shown stale), nor within REMOTE_EXPIRE_MS of its return."""
        if not force and now - self.pruned < PRUNE_MS:
            return
        self.pruned = now
        if self.link_error is None:
            since = self.heard_since
            for key in [k for k, (_v, at) in self.boards.items() if now - max(at, since) > REMOTE_EXPIRE_MS]:
                self._drop(key)
        for hall in [h for h, at in self.offline.items() if now - at > REMOTE_EXPIRE_MS and h not in self.held]:
            del self.offline[hall]
            self.offline_run.pop(hall, None)
        for hall in [h for h, runs in self.runs.items()
                     if h not in self.held and all(now - r[2] > REMOTE_EXPIRE_MS for r in runs.values())]:
            del self.runs[hall]
            self.current.pop(hall, None)
            self.twins.pop(hall, None)

    def start(self) -> None:
        self.client.connect_async(self.host, self.port, keepalive=10)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def views(self) -> list[dict]:
        """The other halls' boards, each marked with its hall and `seen_ms` (how long ago it came);
        stale (its last state, its age said) while this hall's link to the broker is lost; lost
        when its hall went offline or nothing came for 5 s (a board's view is published whenever
        it changes, and every 2 s when it does not); gone when nothing came for REMOTE_EXPIRE_MS;
        marked when two halls publish under its hall's name."""
        now = host_ms()
        down = self.link_error
        out = []
        with self.lock:
            self._prune(now, force=True)
            items = sorted(self.boards.items(), key=lambda kv: (kv[0][0], int(kv[0][1])))
            offline = set(self.offline)
            twins = {h for h, at in self.twins.items() if now - at <= TWIN_MS}
        for (hall, _n), (view, at) in items:
            v = dict(view)
            v["seen_ms"] = int(now - at)
            twin = [_alert("number", said("alert_twin_halls", "two halls publish as {hall}: give each its own --name",
                                          hall=hall))] if hall in twins else []
            others = [a for a in v["alerts"] if a["kind"] != "link"] + twin  # (its own link alert: replaced)
            if down is not None or hall in offline or now - at > REMOTE_STALE_MS:
                v.pop("error_msg", None)  # (its own error's code: the error is this hall's words now)
            if down is not None:  # (whether its hall is there is not known: not "offline")
                v["link"], v["stale"] = "lost", True
                with_msg(v, "error", said("remote_stale", "{why}: hall {hall}'s last state, {s} s ago", why=down,
                                          hall=hall, s=v["seen_ms"] // 1000))
                v["alerts"] = others + [_alert("link", said("alert_broker_lost", "broker lost: its last state"))]
            elif hall in offline or now - at > REMOTE_STALE_MS:
                if hall in offline:
                    why = said("remote_offline", "hall {hall} is offline", hall=hall)
                    alert = said("alert_hall_offline", "hall {hall} offline", hall=hall)
                else:
                    why = alert = said("remote_silent", "nothing from hall {hall} for {s} s", hall=hall,
                                       s=REMOTE_STALE_MS // 1000)
                v["link"] = "lost"
                with_msg(v, "error", why)
                v["alerts"] = others + [_alert("link", alert)]
            else:
                v["alerts"] = v["alerts"] + twin
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


KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")
MSG_NAMES = 8  # a code's names, at most (the hall's have 5)


def _msg(x, depth: int = 0) -> dict | None:
    """A remote hall's code for a text (said.py's msg), rebuilt: a key, and names whose values are
    numbers, short texts or codes (4 deep at most); None for anything else. The page says only the
    codes it knows (hall.js), and a remote hall's text is its word whatever its code says."""
    if not isinstance(x, dict) or depth > 4 or not isinstance(x.get("key"), str) or not KEY.fullmatch(x["key"]) \
            or len(x) > MSG_NAMES + 1:
        return None
    out: dict = {"key": x["key"]}
    for name, v in x.items():
        if name == "key":
            continue
        if not isinstance(name, str) or not WORD.fullmatch(name):
            return None
        if isinstance(v, dict):
            v = _msg(v, depth + 1)
        elif isinstance(v, str):
            v = v[:120]
        elif _num(v) is None:
            v = None
        if v is None:
            return None
        out[name] = v
    return out


def _said(text: str | None, msg) -> str | None:
    """A remote hall's text with its code (rebuilt), a Said, when it has one it may say."""
    m = _msg(msg)
    if text is None or m is None:
        return text
    out = Said(text)
    out.msg = m
    return out


def _alert(kind: str, text) -> dict:
    return with_msg({"kind": kind}, "text", text, "msg")


def remote_view(view: dict, hall: str, number: int) -> dict:
    """A board's view as another hall published it, rebuilt from the fields the page shows, each
    of its type: nothing else passes (the page is the arbiter's, its buttons sign)."""
    pull = _dict(view.get("pull"))
    pstate, pmsg = pull.get("state"), _text(pull.get("message"), 120) or ""
    # whatever a remote hall says of its log is its word: its text never stands alone ("unkeyed"
    # with the text "verified ..." read as verified), nor its code
    if pstate == "idle":
        pmsg = ""
    elif pstate == "pulling":
        pmsg = said("remote_pulling", "pulling the log at hall {hall}", hall=hall)
    elif pstate == "retrying":
        pmsg = said("remote_retrying", "pulling the log at hall {hall} (its link failed: trying again)", hall=hall)
    elif pstate == "unkeyed":
        pmsg = said("remote_unkeyed", "chain intact, authorship unproven, reported by hall {hall}: not verified here",
                    hall=hall)
    else:  # "failed" (its own words), "verified" or anything else: "reported"
        words = (pmsg or (pstate if isinstance(pstate, str) else ""))[:120]
        code = _dict(pull.get("msg"))  # (its words' code, only one of its state's: never "verified" for a failure)
        if pmsg and code.get("key") in REPORTED.get(pstate, ()):
            words = _said(words, code)
        pmsg = said("remote_reported", "{said}, reported by hall {hall}: not verified here", said=words, hall=hall)
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
        "error": _said(_text(view.get("error"), 200), view.get("error_msg")),
        "rtt_ms": _num(view.get("rtt_ms")),
        "state": _word(view.get("state")), "game": _int(view.get("game"), 0),
        "mode": _word(view.get("mode")) or "game",
        "running": view.get("running") if view.get("running") in ("left", "right") else None,
        "battery": _int(view.get("battery"), 0, 100), "low_battery": view.get("low_battery") is True,
        "message": _text(view.get("message"), 80), "log_error": _text(view.get("log_error"), 80),
        "log_full": view.get("log_full") is True, "result_code": _text(view.get("result_code"), 16),
        "flag_note": _text(view.get("flag_note"), 40),
        "armed": view.get("armed") is True,
        "pull": with_msg({"state": pstate}, "message", pmsg, "msg"),
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
                      "why": _text(match.get("why"), 64), "state": _word(match.get("state")),
                      "break": _said(_text(match.get("break"), 32), match.get("break_msg")),
                      "stoppage": _text(match.get("stoppage"), 16),
                      "stopped": _text(match.get("stopped"), 16)}
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
    v["alerts"] = [_alert(a["kind"], _said(_text(a.get("text"), 80) or "", a.get("msg")))
                   for a in (alerts if isinstance(alerts, list) else [])
                   if isinstance(a, dict) and a.get("kind") in ALERT_KINDS][:8]
    if msg_of(v["error"]):
        v["error_msg"] = msg_of(v["error"])
    if isinstance(match, dict) and msg_of(v["match"]["break"]):
        v["match"]["break_msg"] = msg_of(v["match"]["break"])
    return v
