"""The hall: every clock of a round (USB, found again and again so a clock plugged in later
appears; any --port; simulators), numbered, its view for the page and its round.json; and the
arbiter's actions, each signed with the arbiter key: on all boards at once (roundstart.py: set up,
start the round at one instant, TK-C5; pause all and resume all, TK-C15, TK-C18) and on one board
(boardacts.py: its result, corrections, identify, assign)."""

from __future__ import annotations

import os
import threading
import time

from .. import client
from .boardacts import BoardActions
from .boards import BoardLink, host_ms
from .jobs import HallBusy, HallError
from .roundstart import RoundStart
from .said import joined, said, with_msg
from .tile import alert, board_view

__all__ = ["Hall", "HallBusy", "HallError"]

DISCOVER_S = 2.0


class Hall(RoundStart, BoardActions):
    """The hall's state: its boards (numbered), the round, the last action; its view for the page,
    its round.json; its actions are roundstart.py's (every board) and boardacts.py's (one board)."""

    def __init__(self, key: bytes = b"", keys: list[bytes] | None = None, pairings: dict | None = None,
                 out_dir: str | None = None, discover: bool = True, find_ports=None, timeout: float = 2.0,
                 event: dict | None = None):
        self.key = key
        self.event = {k: v for k, v in (event or {}).items() if v}  # name, round, date, site
        self.tc: str | None = None  # the control of the last Set up all
        self.keys = keys if keys is not None else ([key] if key else [])
        self.pairings = pairings or {}
        self.out_dir = out_dir
        self.timeout = timeout
        self.boards: list[BoardLink] = []
        self.lock = threading.Lock()
        self.acting = threading.Lock()  # held by the action running (jobs.one_at_a_time)
        self.cancel_start = threading.Event()  # Pause all during a Start round's arming: arm no more
        self.discover = discover
        self.find_ports = find_ports or client.find_ports
        self.stop = threading.Event()
        self.round: dict | None = None
        self._armed: list[BoardLink] = []  # the boards the round armed
        self.last_start: dict | None = None  # the last Start round's: the round's, or a late start's
        self._starting: list[BoardLink] = []  # the boards it armed (measure_round)
        self.last_action: dict | None = None
        self.discover_error: str | None = None
        self.publisher = None  # mqtt.Publisher: this hall's boards to a broker
        self.subscriber = None  # mqtt.Subscriber: other halls' boards from it
        self._disc = threading.Thread(target=self._discover, name="sagat-hall-discover", daemon=True)

    # ------------------------------------------------------------------ boards

    def add(self, port: str, source: str, number: int | None = None) -> BoardLink:
        """The clock on `port` as a board (the one there already if any); `number`: the board's
        number if no other board has it (a simulator's), until its clock names its own."""
        with self.lock:
            for b in self.boards:
                if b.port == port:
                    return b
            b = BoardLink(0, port, self.key, self.out_dir, source, self.keys, self.timeout)
            b.wanted = number
            b.seq = self.added = getattr(self, "added", 0) + 1
            b.on_ident = self.renumber
            self.boards.append(b)
            self._number()
        b.start()
        return b

    def renumber(self) -> None:
        """A board's clock answered identify: its own number (if any) counts now."""
        with self.lock:
            self._number()

    def _number(self) -> None:
        """Every board's number (under self.lock): a clock's own number (`identify`'s, set on the
        clock: the pairings' board 5 is the clock labelled 5, whatever its port); two clocks with one
        number: the first found has it, the other a free one, both with an alert (never a silent
        overwrite); the others the numbers left free: the number they were added with if it is (a
        simulator's), else the lowest, in the order found. The same boards always get the same numbers."""
        order = sorted(self.boards, key=lambda x: x.seq)
        holders: dict[int, BoardLink] = {}
        for b in order:
            if b.own is not None and b.own not in holders:
                holders[b.own] = b
        used = set(holders)
        rest = [b for b in order if holders.get(b.own) is not b]
        numbers = {id(b): n for n, b in holders.items()}
        for b in rest:
            if b.wanted is not None and b.wanted not in used:
                numbers[id(b)] = b.wanted
                used.add(b.wanted)
        free = 1
        for b in rest:
            if id(b) not in numbers:
                while free in used:
                    free += 1
                numbers[id(b)] = free
                used.add(free)
        for b in order:
            b.number = numbers[id(b)]
        for b in order:
            if b.own is None:
                b.clash = None
            elif holders[b.own] is b:
                others = [x for x in rest if x.own == b.own]
                b.clash = (said("clash_also", "number {n} is also the clock's on {ports}", n=b.own, ports=joined(
                    [said("clash_port", "{port} (shown as board {board})", port=x.port, board=x.number)
                     for x in others], ", ")), False) if others else None
            else:
                h = holders[b.own]
                b.clash = (said("clash_shown_as", "this clock's number is {n}, as is the clock's on {port} (board "
                                "{board}): shown as board {shown}", n=b.own, port=h.port, board=h.number,
                                shown=b.number), True)
        self.boards.sort(key=lambda x: x.number)

    def start(self) -> None:
        if self.pairings or self.event.get("name") or self.event.get("round"):  # (else at the first Set up all)
            self.save_round()
        if self.discover:
            self._disc.start()

    def save_round(self) -> None:
        """round.json beside the pulled logs (round.folder.write_round), so `sagat report` of the
        folder never has the round typed twice: each board's clock with it, a clock's clash aside."""
        if not self.out_dir:
            return
        from ..round.folder import ROUND_FILE, write_round

        clocks = {b.number: b.clock_uid for b in sorted(self.boards, key=lambda x: x.number)
                  if b.clock_uid and not (b.clash and b.clash[1])}
        try:
            write_round(self.out_dir, self.event, self.tc, self.pairings, clocks)
        except OSError as e:
            self.discover_error = said("note_cannot_write", "cannot write {path}: {why}",
                                       path=os.path.join(self.out_dir, ROUND_FILE), why=e.strerror or e)

    def close(self) -> None:
        self.stop.set()
        for bridge in (self.publisher, self.subscriber):
            if bridge is not None:
                bridge.close()
        for b in self.boards:
            b.stop.set()

    def _discover(self) -> None:
        """USB clocks by their vendor and product ids, again every 2 s: one plugged in later appears
        (a clock unplugged stays on the page, its link lost, and comes back on the same port)."""
        while not self.stop.is_set():
            try:
                for p in self.find_ports():
                    self.add(p.device, "usb")
                self.discover_error = None
            except Exception as e:  # noqa: BLE001 - no USB listing on this system: say so, go on
                self.discover_error = said("note_no_usb_list", "cannot list USB ports: {why}", why=e)
            self.stop.wait(DISCOVER_S)

    def board(self, number: int) -> BoardLink | None:
        for b in self.boards:
            if b.number == number:
                return b
        return None

    def view(self, remote: bool = True) -> dict:
        """The hall as the page shows it; `remote`: with the boards other halls publish (mqtt.py)."""
        now = host_ms()
        boards = [self._view(b, now) for b in list(self.boards)]
        notes = [self.discover_error] if self.discover_error else []
        for bridge in ((self.subscriber,) if remote else ()) + (self.publisher,):
            if bridge is None:
                continue
            if bridge is self.subscriber:
                boards += bridge.views()
            if bridge.error:
                notes.append(said("note_mqtt", "MQTT {host}:{port}: {why}", host=bridge.host, port=bridge.port,
                                  why=bridge.error))
        # the status line's notes: one text (English, as the API gave it) and its code for the page
        return with_msg({
            "boards": boards, "round": self.round, "action": self.last_action, "key": bool(self.key),
            "event": self.event, "tc": self.tc, "time": time.time(),
        }, "discover_error", joined(notes) or None)

    def _view(self, b: BoardLink, now: float) -> dict:
        """One board's view; a bug in it (what a clock answered?) breaks that board alone."""
        clash = b.clash
        # a clock shown under another number than its own: not that board's players (whose are they?)
        pairing = None if clash and clash[1] else self.pairings.get(b.number)
        try:
            v = board_view(b, pairing, now)
            if clash:
                v["alerts"].append(alert("number", clash[0] if len(clash[0]) <= 200 else clash[0][:200]))
            return v
        except Exception as e:  # noqa: BLE001 - the other boards stay on the page
            why = said("err_board_view", "this board cannot be shown ({why})", why=type(e).__name__)
            return {"number": b.number, "port": b.port, "source": b.source,
                    "players": list(pairing) if pairing else None, "link": "error", "error": why,
                    "error_msg": why.msg,
                    "state": None, "game": None, "mode": "game", "battery": None, "rtt_ms": None,
                    "pull": {"state": "idle", "message": ""}, "start": None, "protest_ms": None,
                    "alerts": [alert("link", said("link_error", "error"))]}
