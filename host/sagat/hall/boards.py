"""The hall's clocks: one thread per serial port (the port is only ever touched by its thread, so
many slow links never block the web server or each other), polling `state` a few times a second,
keeping a running estimate of the link (round trip, the board's ticks against this PC's clock), and
running the jobs the page asks for (set up, start the round, pause and resume all) in between.

Time on this PC is `time.monotonic()` in ms ("host ms"); a board's time is its `ticks` (its
`time.ticks_ms()`, 0..2^30-1, reported by `state`). A link sample is (sent, received, ticks): the
board's ticks were read between the two, so `offset = ticks - midpoint` is right within half the
round trip; the shortest round trip of a burst gives the best estimate."""

from __future__ import annotations

import os
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field

from sagatfw.core.ticks import TICKS_MAX, ticks_add, ticks_diff

from .. import client, pull
from ..log import pulled
from ..log.decode import LogError
from ..log.verify import verify
from ..round.folder import board_folder
from .said import said, text_of

POLL_S = 0.25  # 4 updates a second per board (the page wants at least 2)
RECONNECT_S = 2.0
SYNC_PROBES = 8
PULL_TRIES = 4  # a pull that failed on the link (a USB hiccup at the game's end) is tried 3 more times,
PULL_BACKOFF_S = 2.0  # after 2, 4, 8 s


def host_ms() -> float:
    return time.monotonic() * 1000.0


@dataclass
class Sync:
    """One link's time relation: board ticks = host ms + offset (mod 2^30), within +- err ms."""

    offset: int
    rtt: float
    at: float  # host ms of the measurement

    @property
    def err(self) -> float:
        return self.rtt / 2

    def to_ticks(self, host: float) -> int:
        return (int(round(host)) + self.offset) & TICKS_MAX

    def to_host(self, ticks: int, near: float) -> float:
        """The host ms of board ticks `ticks`, taking the one near host ms `near` (the wrap)."""
        return near + ticks_diff(ticks, self.to_ticks(near))


class Garbage(client.LinkError):
    """The clock's answer makes no sense (a hostile or broken clock): its board says so."""


GARBAGE_IDENTIFY = said("err_garbage_identify", "the clock answered garbage (to identify)")
NOT_CONNECTED = said("err_not_connected", "the clock is not connected")


ANY_MS = 10 ** 10  # 115 days: any clock time
# a state's numbers: ints (never a float, NaN or text) within these bounds, or missing (None)
_INTS = {"game": 2 ** 31, "battery": 100, "match_ms": ANY_MS, "break_ms": ANY_MS, "stoppage_ms": ANY_MS,
         "stopped_ms": ANY_MS}
_FACE_INTS = {"ms": ANY_MS, "moves": 10 ** 6, "stage": 999, "flag": 9, "delay_ms": ANY_MS}
SIDE_INTS = {"score": 10 ** 6, "warnings": 99, "reds": 99}  # a match's side
_TEXTS = ("state", "mode", "running", "first_flag", "message", "log_error", "result_code", "result", "period_name",
          "winner", "why")


def _bad_ints(d: dict, bounds: dict, where: str = "") -> str | None:
    for k, top in bounds.items():
        x = d.get(k)
        if x is not None and (type(x) is not int or not -top <= x <= top):
            return where + k  # (never its value: it is the clock's, not for the page)
    return None


def garbage(st) -> str | None:
    """What makes no sense in a `state` answer, or None: the page shows only what passed."""
    if not isinstance(st, dict):
        return f"a {type(st).__name__}, not a state"
    for k in _TEXTS:
        x = st.get(k)
        if x is not None and (not isinstance(x, str) or len(x) > 200):
            return k
    why = _bad_ints(st, _INTS)
    names = st.get("names")  # a match's (docs/protocol.md): {"left": text, "right": text} or null
    if names is not None and (not isinstance(names, dict) or any(
            not isinstance(names.get(k), str) or len(names[k]) > 200 for k in ("left", "right"))):
        return "names"
    for side in ("left", "right"):
        f = st.get(side)
        if f is not None and not isinstance(f, dict):
            return f"{side} is a {type(f).__name__}"
        why = why or (f and _bad_ints(f, SIDE_INTS if st.get("mode") else _FACE_INTS, side + "."))
    return why


def sample(clock: client.Clock) -> tuple[dict, Sync]:
    """One `state` request, timed: the answer and the link sample it gives (Garbage: it made no sense)."""
    t0 = host_ms()
    st = clock.request("state")
    t1 = host_ms()
    why = garbage(st)
    if why:
        raise Garbage(said("err_garbage", "the clock answered garbage ({why})", why=why))
    ticks = st.get("ticks")
    if not isinstance(ticks, int):
        return st, None  # firmware without the hall's sync (or a match's state)
    mid = (t0 + t1) / 2
    return st, Sync((ticks - int(round(mid))) & TICKS_MAX, t1 - t0, t1)


@dataclass
class PullState:
    state: str = "idle"  # idle, pulling, retrying (the link failed: again soon), verified (under a key
    # given), unkeyed (the chain intact, no key), failed
    message: str = ""
    game: int | None = None
    result_host: float | None = None  # host ms of the game's end, its first result (TK-P1's window starts there)
    result_wall: str | None = None
    attempt: int = 0  # of this game's pull
    retry_at: float | None = None  # host ms of the next attempt (retrying)
    code: str | None = None  # the result code the clock showed when this pull began (a new one: pulled again)
    result: str | None = None  # the game's last result in the pulled log


@dataclass
class BoardLink:
    """One clock on one port, served by its own thread."""

    number: int
    port: str
    key: bytes = b""
    out_dir: str | None = None  # where finished games' logs are pulled (None: not pulled)
    source: str = "usb"  # usb, port (--port), sim
    keys: list = field(default_factory=list)  # every key the logs may be chained under
    timeout: float = 2.0

    def __post_init__(self):
        self.jobs: queue.Queue = queue.Queue()
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.link = "opening"  # opening, up, lost, unreachable, error (its answers make no sense)
        self.error: str | None = None
        self.ident: dict = {}
        self.settings: dict = {}
        self.state: dict | None = None
        self.updated: float | None = None  # host ms of the last state
        self.polls = 0
        self.sync: Sync | None = None
        self.samples: list[Sync] = []
        self.pulls = PullState()
        self.armed_for: int | None = None  # ticks we armed this board for
        self.hall_tc: str | None = None  # the control this hall set the board up with for the round (None: not)
        self.start_report: dict | None = None
        self.own: int | None = None  # the clock's own number (identify's), if it has one
        self.wanted: int | None = None  # the number it was added with (a simulator's), if free
        self.seq = 0  # the order found (hall.add)
        self.clash: tuple[str, bool] | None = None  # (the alert, shown under another number than its own)
        self.on_ident = None  # called once identify is read (the hall numbers its boards again)
        self.clock_uid: str | None = None  # the board's clock: the first found on this port, or the one assigned
        self.stranger: str | None = None  # another clock's uid now on this port: no action until it is assigned
        self.boot_host: float | None = None  # host ms of the clock's boot (identify's uptime), as last seen
        self.rebooted = False  # the clock booted again while the hall watched it (a power cut, a reset)
        self.restored = False  # ... and came back with its game in progress: an alert until it runs again
        self.synced = False  # the hall set the clock's wall time (start round): again after a reboot
        self.key_problem: str | None = None  # the hall's key and the clock's disagree (_check_key)
        self.last_pull: PullState | None = None  # the last game's, once the next is set up (TK-P1's window)
        self.thread = threading.Thread(target=self._run, name=f"sagat-hall-board-{self.number}", daemon=True)

    def start(self) -> None:
        self.thread.start()

    # -------------------------------------------------------------- the thread

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                clock = client.Clock(self.port, self.timeout, self.key)
            except client.LinkError as e:
                self._down("unreachable", str(e))
                self._idle(RECONNECT_S)
                continue
            try:
                self.ident = clock.request("identify")
                if not isinstance(self.ident, dict):
                    raise Garbage(GARBAGE_IDENTIFY)
                self._met(self.ident)
                if self.source == "sim" and self.key and not self.ident.get("key_set") and not self.stranger:
                    # a simulated clock takes the hall's arbiter key, as an event's clocks have it
                    clock.request("key.set", key=self.key.hex())
                    self.ident = clock.request("identify")
                if not isinstance(self.ident, dict):
                    raise Garbage(GARBAGE_IDENTIFY)
                self._check_key(clock)
                self._numbered()
                try:
                    self.settings = clock.request("settings.get").get("values") or {}
                except (client.LinkError, AttributeError):
                    self.settings = {}
                if not isinstance(self.settings, dict):
                    self.settings = {}
                with self.lock:
                    self.link, self.error = "up", None
                self._serve(clock)
            except client.NotAClock as e:
                self._down("unreachable", str(e))
            except Garbage as e:
                self._down("error", text_of(e))
            except client.LinkError as e:
                self._down("lost", str(e))
            except Exception as e:  # noqa: BLE001 - a bug in one board's thread must not stop the hall
                self._down("lost", f"{type(e).__name__}: {e}")
            finally:
                try:
                    clock.close()
                except Exception:  # noqa: BLE001
                    pass
            self._idle(RECONNECT_S)

    def _met(self, ident: dict) -> None:
        """Who answered on this port: the board's clock, or another one (a clock swapped at the table,
        a new process on a reused pseudo-terminal: a stranger, that the hall neither keys, sets up nor
        starts until the arbiter assigns it); and whether it booted again since it was last seen."""
        uid = cut_text(ident.get("uid")) or "?"
        up = ident.get("uptime_ms")
        with self.lock:
            if self.clock_uid is None:
                self.clock_uid = uid
            self.stranger = uid if uid != self.clock_uid else None
            if type(up) is int and up >= 0:
                boot = host_ms() - up
                if self.boot_host is not None and boot - self.boot_host > 2000 and not self.stranger:
                    self.rebooted = True  # (its state then says whether it restored a game)
                self.boot_host = boot

    def _check_key(self, clock: client.Clock) -> None:
        """Whether this hall's key is the clock's, found when its link opens (not at the first action):
        a signed read proves it without changing anything. None: they agree (or neither has one)."""
        keyed = self.ident.get("key_set") is True
        why = None
        if self.key and keyed and not self.stranger:
            try:
                clock.request("identify", auth=True)
            except client.LinkError as e:
                if getattr(e, "code", None) != "auth_failed":
                    raise
                why = said("key_not_this_clocks", "the hall's arbiter key is not this clock's: it refuses everything "
                           "the hall signs (give the key this clock has, or set the hall's on it: sagat key)")
        elif self.key and not keyed:
            why = said("key_clock_none", "this clock has no arbiter key: its log proves no authorship (sagat key sets "
                       "the hall's)")
        elif not self.key and keyed:
            why = said("key_hall_none", "this clock has an arbiter key and the hall none: it refuses the hall's "
                       "actions (give --key-file)")
        with self.lock:
            self.key_problem = why

    def assign(self) -> str:
        """The arbiter makes the clock now on this port the board's clock."""
        with self.lock:
            if not self.stranger:
                return "the board's own clock: nothing to assign"
            self.clock_uid, self.stranger = self.stranger, None
            self.rebooted = self.restored = False
            return f"clock {self.clock_uid} assigned to the board"

    def _numbered(self) -> None:
        n = self.ident.get("number")
        own = n if type(n) is int and 1 <= n <= 999 else None  # (as the pairings' boards)
        if own != self.own:
            self.own = own
            if self.on_ident is not None:
                self.on_ident()

    def _down(self, link: str, error: str) -> None:
        with self.lock:
            self.link, self.error = link, error
        self._fail_jobs(error)

    def _idle(self, seconds: float) -> None:
        """Wait, failing the jobs that come meanwhile (the link is down)."""
        end = time.monotonic() + seconds
        while not self.stop.is_set() and time.monotonic() < end:
            try:
                fn, fut = self.jobs.get(timeout=0.1)
            except queue.Empty:
                continue
            fut.set_exception(client.LinkError(self.error or NOT_CONNECTED))

    def _fail_jobs(self, error: str) -> None:
        while True:
            try:
                _fn, fut = self.jobs.get_nowait()
            except queue.Empty:
                return
            fut.set_exception(client.LinkError(error))

    def _serve(self, clock: client.Clock) -> None:
        next_poll = 0.0
        while not self.stop.is_set():
            now = time.monotonic()
            if now >= next_poll:
                next_poll = now + POLL_S
                self._poll(clock)
                continue
            try:
                fn, fut = self.jobs.get(timeout=max(0.0, min(0.05, next_poll - now)))
            except queue.Empty:
                continue
            if fut.set_running_or_notify_cancel():
                try:
                    fut.set_result(fn(clock))
                except client.LinkError as e:
                    fut.set_exception(e)
                    if isinstance(e, (client.NotAClock, client.LinkLost)):
                        raise
                except Exception as e:  # noqa: BLE001 - the job's own failure is the job's answer
                    fut.set_exception(e)

    def _poll(self, clock: client.Clock) -> None:
        try:
            st, s = sample(clock)
        except Garbage as e:  # the board says so, takes no job, and is up again once the answers make sense
            with self.lock:
                self.link, self.error = "error", text_of(e)
            return
        self._took(st, s)
        if self.synced and st.get("time_synced") is False and not self.stranger:
            # the clock lost the wall time the hall gave it (a power cut): its log's records after
            # the restore carry it again (signed, as at the round's start)
            try:
                clock.request("time.sync", auth=True, wall_ms=int(time.time() * 1000))
            except client.LinkError as e:
                if isinstance(e, client.LinkLost):
                    raise
                self.synced = False  # refused (the key?): said by the actions, not retried at each poll
        if self.out_dir and self._finished(st) and not self.stranger and not (self.clash and self.clash[1]):
            # (a stranger's log, or that of a clock shown under another board's number, is never
            # pulled into this board's folder: the report would give it this board's players)
            p = self.pulls
            code = st.get("result_code")
            replaced = p.game == st.get("game") and p.state in ("verified", "unkeyed", "failed") and code and \
                code != p.code  # a wrong result replaced (the last one counts): the log pulled again
            if p.game != st.get("game") or replaced or (p.state == "retrying" and host_ms() >= p.retry_at):
                self._pull(clock, st)

    def read_state(self, clock: client.Clock) -> None:
        """The board's state read again now (after an action, so the page and the caller see it at once),
        taken as a poll's."""
        self._took(*sample(clock))

    def _took(self, st: dict, s: Sync | None) -> None:
        with self.lock:
            if self.link == "error":
                self.link, self.error = "up", None
            self.state = st
            self.updated = host_ms()
            self.polls += 1
            if s is not None:
                self.samples = (self.samples + [s])[-20:]
                self.sync = min(self.samples, key=lambda x: x.rtt)
            if st.get("state") != "finished" and not st.get("mode"):
                if self.pulls.game is not None and st.get("game") != self.pulls.game:
                    if self.pulls.result_host is not None:  # its verdict and protest window stay in view
                        self.last_pull = self.pulls
                    self.pulls = PullState()  # the next game: its own pull later
            game_on = st.get("state") in ("paused", "flagged", "adjourned", "running")
            if self.rebooted:  # its first state since the boot: a game in progress came back (TK-C18)
                self.rebooted = False
                self.restored = game_on and st.get("state") != "running"
            elif self.restored and (st.get("state") == "running" or not game_on):
                self.restored = False  # resumed (here or at the table), or the game is over

    @staticmethod
    def _finished(st: dict) -> bool:
        return st.get("state") == "finished"

    # ----------------------------------------------------- log pull and verify

    def _pull(self, clock: client.Clock, st: dict) -> None:
        """The game just finished: its log pulled and verified (pull.py, log/verify.py), and
        TK-P1's protest window from its result."""
        game = st.get("game")
        with self.lock:
            prev = self.pulls if self.pulls.game == game and self.pulls.state == "retrying" else None
            attempt = prev.attempt + 1 if prev else 1
            # TK-P1: 30 minutes from the end of the game. A result replaced (the arbiter's correction,
            # pulled again) does not end the game again: the window the game's first pull opened runs on
            ended = self.pulls.result_host if self.pulls.game == game else None
            self.pulls = PullState("pulling", said("pull_pulling_again", "pulling the log (attempt {attempt} of "
                                                   "{tries})", attempt=attempt, tries=PULL_TRIES) if prev else
                                   said("pull_pulling", "pulling the log"),
                                   game, host_ms() if ended is None else ended, attempt=attempt,
                                   code=st.get("result_code"))
        folder = os.path.join(self.out_dir, board_folder(self.number, self.ident.get("uid")))
        try:
            top = os.path.realpath(self.out_dir)
            if os.path.dirname(os.path.realpath(folder)) != top:  # (a link there to elsewhere)
                raise OSError(f"{folder} leads out of {self.out_dir}")
            pull.pull(clock, folder, progress=False)
            pulled.write_events(folder)
            keys = [k for k in self.keys if k]
            code = st.get("result_code")
            verdict = verify(pulled.read_folder(folder), keys, game=game, code=code, need_head=True)
            log, ok, lines = verdict.log, verdict.ok, verdict.lines
            results = [e for e in log.events if e.get("game") == game and e.get("type") == "result"]
            wall, result = (results[-1].get("wall"), results[-1].get("result")) if results else (None, None)
            # (the last one counts; the first is when the game ended: TK-P1's window runs from it)
            result_host = self.pulls.result_host
            when = _wall_ms(results[0].get("wall")) if results else None
            if when is not None:  # TK-P1 counts from the game's end itself, not from when the hall saw it
                result_host = min(result_host, host_ms() - (time.time() * 1000 - when))
            # without a key the chain shows no tampering by accident, but anybody could have written it
            state = ("verified" if keys else "unkeyed") if ok else "failed"
            if state == "verified":
                msg = said("pull_verified_code", "verified (code {code})", code=code) if code else \
                    said("log_verified", "verified")
            elif state == "unkeyed":
                msg = said("pull_unkeyed_code", "chain intact, authorship unproven (code {code})", code=code) \
                    if code else said("log_unkeyed", "chain intact, authorship unproven")
            else:  # (the verdict's first line, in English: the page says it is not verified)
                msg = said("pull_not_verified", "{why}", why=lines[0])
            with self.lock:
                self.pulls = PullState(state, msg, game, result_host, wall, code=code, result=result)
        except (client.LinkError, LogError, OSError) as e:
            hiccup = isinstance(e, client.LinkError) and not isinstance(e, pull.NotThisLog)
            with self.lock:
                result_host = self.pulls.result_host
                if hiccup and attempt < PULL_TRIES:  # the link's: again after a while (not a verdict on the log)
                    wait = PULL_BACKOFF_S * 2 ** (attempt - 1)
                    self.pulls = PullState("retrying", said(
                        "pull_retrying", "pull failed ({why}); trying again in {s} s (attempt {attempt} of {tries})",
                        why=text_of(e), s=f"{wait:g}", attempt=attempt + 1, tries=PULL_TRIES), game, result_host,
                        attempt=attempt, retry_at=host_ms() + wait * 1000, code=st.get("result_code"))
                else:
                    failed = said("pull_failed_tries", "pull failed ({n} attempts): {why}", n=attempt, why=text_of(e)) \
                        if attempt > 1 else said("pull_failed", "pull failed: {why}", why=text_of(e))
                    self.pulls = PullState("failed", failed, game, result_host, attempt=attempt,
                                           code=st.get("result_code"))
            if isinstance(e, client.LinkLost):
                raise

    # --------------------------------------------------------------- the jobs

    def submit(self, fn) -> Future:
        """Run fn(clock) in this board's thread, between two polls."""
        fut: Future = Future()
        if self.link != "up":
            fut.set_exception(client.LinkError(self.error or NOT_CONNECTED))
            return fut
        self.jobs.put((fn, fut))
        return fut

    def burst(self, clock: client.Clock, n: int = SYNC_PROBES) -> Sync | None:
        """n `state` round trips back to back: the link's best time relation now."""
        best = None
        for _ in range(n):
            st, s = sample(clock)
            self._took(st, s)
            if s is not None and (best is None or s.rtt < best.rtt):
                best = s
        return best


def cut_text(x) -> str | None:
    """A clock's text as the hall keeps it: 64 characters at most; None if it is not text."""
    return x[:64] if isinstance(x, str) else None


def _wall_ms(wall) -> float | None:
    """Unix ms of a log event's ISO-8601 `wall`, or None."""
    if not isinstance(wall, str):
        return None
    from datetime import datetime

    try:
        return datetime.fromisoformat(wall.replace("Z", "+00:00")).timestamp() * 1000
    except ValueError:
        return None


def wrap_ticks(t: int) -> int:
    return t & TICKS_MAX


__all__ = ["BoardLink", "Garbage", "Sync", "garbage", "host_ms", "sample", "ticks_add", "ticks_diff", "wrap_ticks"]
