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
type (text cut short, alerts of known kinds: remoteview.py); what a remote hall says it verified is
shown as its report, never as verified here; no message, however made, stops the subscriber. The
broker's address, user and client, and this hall's name on it: mqttlink.py."""

from __future__ import annotations

import json
import re
import secrets
import threading

from .. import client
from .boards import host_ms
from .mqttlink import CONNECTING, NAME, broker, credentials, new_client, no_broker, refused
from .remoteview import remote_view
from .said import joined, said, with_msg
from .tile import alert

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
NUMBER = re.compile(r"[1-9][0-9]{0,3}")


def twin_note(name: str) -> str:
    return said("mqtt_twin", "hall {name}: two halls publish under this name (another PC with --name {name}?): give "
                "each its own --name", name=name)


def _status(payload: bytes) -> tuple[str, str | None] | None:
    """("online" or "offline", its run or None) of a status message; None if it is neither."""
    word, _, run = payload.decode("ascii", "replace").partition(" ")
    if word not in ("online", "offline") or (run and not RUN.fullmatch(run)):
        return None
    return word, run or None


class Publisher:
    """Publishes the hall's own boards."""

    def __init__(self, hall, url: str, name: str):
        self.hall = hall
        self.name = name
        self.run = secrets.token_hex(4)  # this run's id: another hall under this name is told apart
        self.host, self.port = broker(url)
        # (each run its own client id: a broker drops a client when another connects with its id)
        self.mqtt, self.client = new_client(f"sagat-hall-pub-{name}-{self.run}")
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
        self.mqtt, self.client = new_client(f"sagat-hall-sub-{name}-{secrets.token_hex(4)}")
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
            twin = [alert("number", said("alert_twin_halls", "two halls publish as {hall}: give each its own --name",
                                          hall=hall))] if hall in twins else []
            others = [a for a in v["alerts"] if a["kind"] != "link"] + twin  # (its own link alert: replaced)
            if down is not None or hall in offline or now - at > REMOTE_STALE_MS:
                v.pop("error_msg", None)  # (its own error's code: the error is this hall's words now)
            if down is not None:  # (whether its hall is there is not known: not "offline")
                v["link"], v["stale"] = "lost", True
                with_msg(v, "error", said("remote_stale", "{why}: hall {hall}'s last state, {s} s ago", why=down,
                                          hall=hall, s=v["seen_ms"] // 1000))
                v["alerts"] = others + [alert("link", said("alert_broker_lost", "broker lost: its last state"))]
            elif hall in offline or now - at > REMOTE_STALE_MS:
                if hall in offline:
                    why = said("remote_offline", "hall {hall} is offline", hall=hall)
                    note = said("alert_hall_offline", "hall {hall} offline", hall=hall)
                else:
                    why = note = said("remote_silent", "nothing from hall {hall} for {s} s", hall=hall,
                                       s=REMOTE_STALE_MS // 1000)
                v["link"] = "lost"
                with_msg(v, "error", why)
                v["alerts"] = others + [alert("link", note)]
            else:
                v["alerts"] = v["alerts"] + twin
            out.append(v)
        return out
