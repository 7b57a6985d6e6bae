"""Replaying a match's logged events through its mode's engine (`sagat logs verify`).

A match is a game of the log whose first record is a `match` setup (sagatfw/log/matchrecords.py). Its
events are replayed as the board's restore replays them (sagatfw/app/matchmode.py `restore`,
tests/kits/matchkit.py `replay`): the engine is advanced to each event's `t`, and whatever it
derives by itself there (a period's or a break's end, the period that follows, a result decided by
time) must be the log's next events; an event the engine did not derive is the referee's operation
(start, score, card, undo, stoppage, resume, result), the lot or a power restore, and it is applied
at its `t`. Every event the engine emits must then be the log's, field by field, as the board would
have written it (the same codec: the engine's event is packed into a record and decoded by
matchlog.decode). So a score changed, an event removed, a period's end moved, a stoppage made
longer: each shows up as the first event the engine does not reproduce.

Also checked: a lot drawn from a script's seed must be the side that seed draws (matchapp.lot_bit;
with seed 0 the board drew a true random bit, which only the key's chain protects), and a
`power_restore` comes at the `t` of the record before it (the board restores a match to its last
durable record), or later while a period or a break runs (its last checkpoint). At a `gap` record
(the clock's log was full) the replay stops, as a game's does. A `names` record (the match's team or
rider names, sagatfw/log/names.py) is accepted only right after the setup record, once.
"""

from __future__ import annotations

import sagatfw
from sagatfw.core.ticks import TICKS_HALF, TICKS_MAX, ticks_add
from sagatfw.engine import matchwords as M
from sagatfw.engine.matchbase import Match
from sagatfw.log import matchrecords as matchlog
from sagatfw.log import matchwrite as MW
from sagatfw.log import records as R

SIDES = ("left", "right")
_SKIP = ("settings", "time_sync")  # clock records a match's game may hold (a key change, a sync)
_IGNORED = ("game", "seq", "wall")  # not the engine's: where and when the record was written


def _modes() -> str:
    """The modes this sagat knows: "kokboru or kilithattu"."""
    return " or ".join(matchlog.mode_name(i) for i in range(len(sagatfw.MODES)))


class Mismatch(Exception):
    """The log and the engine disagree; the message names the record."""


def engine(mode: str | None) -> Match:
    """A new engine of the mode (its name in sagatfw.MODES: "kokboru", ...); ValueError for any other."""
    i = matchlog.mode_index(mode) if isinstance(mode, str) else -1
    if i < 0:
        raise ValueError(f"mode {mode!r}")
    return matchlog.engine_class(i)()


def label(setup: dict) -> str:
    """How a match is named in verify's lines: "kokboru match" (or "match" if its mode is unknown)."""
    mode = setup.get("mode")
    return f"{mode} match" if isinstance(mode, str) and matchlog.mode_index(mode) >= 0 else "match"


class MatchReplay:
    """Feed a match's events one by one, its setup first (`feed`); `finish` after the last one.
    Raises Mismatch."""

    def __init__(self, setup: dict):
        seq = setup.get("seq")
        mode = setup.get("mode")
        if not isinstance(mode, str) or matchlog.mode_index(mode) < 0:
            raise Mismatch(f"seq {seq}: the match's setup names mode {setup.get('mode_number', mode)!s}, which this "
                           f"sagat does not know ({_modes()}): a newer firmware's?")
        self.mode = mode
        self.m = m = engine(mode)
        try:
            kw = {}
            for name, _, names in m.OPTIONS:  # the mode's options, as its setup record holds them
                v = setup.get(name)
                if names is not None:
                    if v not in names:
                        raise ValueError(f"{name} unknown")
                    v = names.index(v)
                kw[name] = v
            m.new_match(**kw)  # type: ignore[attr-defined]
        except ValueError as e:  # Refused (the state) or a bad value
            why = e.args[0] if e.args else e  # (a Refused's reason code follows its text)
            raise Mismatch(f"seq {seq}: the match's setup is one the engine refuses: {why}") from None
        self.seed = setup.get("seed") or 0
        self.queue: list[dict] = []
        self.last_t = setup.get("t", 0)
        self.last_seq = self.setup_seq = seq
        self.named = False
        self.gap: dict | None = None

    # ------------------------------------------------------------------ feeding

    def feed(self, ev: dict) -> None:
        kind = ev["type"]
        if self.gap is not None:
            return
        if kind == "gap":
            self.gap = ev
            return
        if kind in _SKIP:
            return
        seq = ev.get("seq")
        if kind == "match":
            raise Mismatch(f"seq {seq}: a second match setup in the same game")
        if kind == "names":  # the match's names: only the record right after its setup (app/setup.py)
            if self.named or not isinstance(self.setup_seq, int) or seq != self.setup_seq + 1:
                raise Mismatch(f"seq {seq}: the match's names, not right after its setup record")
            self.named = True
            self.last_seq = seq
            return
        if "period" not in ev:
            raise Mismatch(f"seq {seq}: a clock's {kind} in a match")
        t = ev["t"]
        if not self.queue:
            self._advance(t)
            if not self.queue:
                self._apply(ev, t)
        if not self.queue:
            raise Mismatch(f"seq {seq}: the log has {kind} at t={t}, the engine has nothing")
        mine = self.queue.pop(0)
        if mine["type"] != kind:
            raise Mismatch(f"seq {seq}: the log has {kind} at t={t}, the engine has {_brief(mine)}")
        for key, value in mine.items():
            if key not in _IGNORED and ev.get(key) != value:
                raise Mismatch(f"seq {seq}: {kind} at t={t}: {key} is {ev.get(key)!r} in the log, "
                               f"{value!r} by the engine")
        self.last_t = t
        self.last_seq = seq

    def finish(self) -> None:
        """After the match's last record: what the engine emitted with the log's last operation
        must all be in the log (the board writes one operation's events in one flush)."""
        if self.gap is None and self.queue:
            raise Mismatch(f"after seq {self.last_seq}: the engine has {_brief(self.queue[0])}, the log does not")

    # ------------------------------------------------------------------ the engine

    def _now(self, t: int) -> int:
        """The ticks of match time t (the engine's own time base), or of its `t` if t is earlier."""
        m = self.m
        if m.state == M.SETUP:
            return t & TICKS_MAX
        d = t - m.t
        return ticks_add(m.last, d if 0 < d < TICKS_HALF else 0)

    def _advance(self, t: int) -> None:
        """The engine to match time t, in steps ticks_diff can span; what it derives is queued."""
        m = self.m
        if m.state == M.SETUP:
            return
        while True:
            before = m.t
            d = t - m.t
            step = d if d < TICKS_HALF else TICKS_HALF - 1
            ok = m.advance(ticks_add(m.last, step if step > 0 else 0))
            self._drain()
            if not ok:
                continue  # the queue was full: drained, the engine goes on from that instant
            if step == d or step <= 0 or m.t == before:
                return

    def _apply(self, ev: dict, t: int) -> None:
        m = self.m
        kind = ev["type"]
        seq = ev.get("seq")
        now = self._now(t)
        try:
            if kind == "period_start" and ev.get("how") == "referee" or kind == "break_end" and ev.get("early"):
                m.start(now)
            elif kind == "score" or kind == "late_score":  # (late or not: the engine's state says)
                m.score(_side(ev, "side"), ev.get("points"), now)
            elif kind == "card" or kind == "late_card":
                m.card(_side(ev, "side"), M.CARD_NAMES.index(ev["card"]) if ev.get("card") else 0, now)
            elif kind == "restart":
                m.restart(now)
            elif kind == "adjust":
                m.adjust(ev.get("face_ms"), now)
            elif kind == "undo":
                m.undo(now)
            elif kind == "stoppage_start":
                m.stoppage(now)
            elif kind == "stoppage_end":
                m.resume(now)
            elif kind == "lot":
                side = _side(ev, "side")
                if self.seed and ev.get("lot") in (1, 2) and ev.get("by") != "toss":
                    from sagatfw.app.matchmode import lot_bit

                    want = lot_bit(self.seed, ev["lot"])
                    if side != want:
                        raise Mismatch(f"seq {seq}: lot {ev['lot']} drew {SIDES[side]}, but the match's seed "
                                       f"{self.seed} draws {SIDES[want]}")
                m.draw_lot(side, now)  # the clock's draw or the toss entered: the state says
            elif kind == "result" and ev.get("why") == "referee":
                w = ev.get("winner")
                m.result(SIDES.index(w) if w in SIDES else M.NONE, now)
            elif kind == "power_restore":
                if t != self.last_t and m.state != M.RUNNING and m.state != M.BREAK and m.state != M.STOPPED:
                    # a running period, a stoppage or a break comes back at its last checkpoint (matchapp's
                    # _resume_checkpoint: later than the last record, no instant of the engine's
                    # own between, which advancing to t would have derived); anything else at its
                    # last record
                    raise Mismatch(f"seq {seq}: power_restore at t={t}, but a match is restored at its last "
                                   f"record's t={self.last_t}")
                m.power_restore(now)
            else:
                return  # the engine's own event, which it did not derive here: the caller says so
        except ValueError as e:  # Refused (the state) or a bad value
            self._drain()
            why = e.args[0] if e.args else e  # (a Refused's reason code follows its text)
            raise Mismatch(f"seq {seq}: the engine refuses the log's {kind} at t={t}: {why}") from None
        self._drain()

    def _drain(self) -> None:
        """What the engine emitted, as the log's events: each packed into a record by the board's own
        writer (sagatfw.log.matchwrite.events) and decoded by the firmware's decoder (matchlog.decode),
        the same codec both ways. The writer clears the engine's queue, as on the board."""
        written = _Written()
        MW.events(written, self.m, matchlog.mode_index(self.mode), 0)
        self.queue.extend(matchlog.decode(rec) for rec in written.records)


class _Written:
    """The journal's part that log/matchwrite.events uses, for the replay: the writer packs each event
    into `buf` and push() keeps it (no game, seq, wall time, chain nor flash: the decoder's fields
    only; a result's code is the writer's own business)."""

    def __init__(self):
        self.buf = bytearray(R.RECORD_SIZE)
        self.game = self.seq = self.last_t = 0
        self.prev = bytes(R.RECORD_SIZE)
        self.result_code = self.result_seq = None
        self.records: list[bytes] = []

    def wall(self, m, t, now):
        return 0, 0, False

    def admit(self, n, result):
        return True

    def push(self):
        self.records.append(bytes(self.buf))


def _side(ev: dict, key: str) -> int:
    side = ev.get(key)
    if side not in SIDES:
        raise Mismatch(f"seq {ev.get('seq')}: {ev['type']} at t={ev['t']} names no side")
    return SIDES.index(side)


def _brief(e: dict) -> str:
    """An engine's event in a few words: "result at t=560000 (winner right, points)"."""
    what = {
        "score": lambda: f"{e.get('side')} +{e.get('points')}",
        "card": lambda: f"{e.get('side')} {e.get('card')}",
        "late_score": lambda: f"{e.get('side')} +{e.get('points')}, for {e.get('period_name')}",
        "late_card": lambda: f"{e.get('side')} {e.get('card')}, for {e.get('period_name')}",
        "result": lambda: f"winner {e.get('winner') or 'none'}, {e.get('why')}",
        "lot": lambda: f"lot {e.get('lot')}: {e.get('side')}",
        "period_start": lambda: str(e.get("period_name")),
        "period_end": lambda: str(e.get("period_name")),
    }.get(e["type"])
    return f"{e['type']} at t={e['t']}" + (f" ({what()})" if what else "")


def check_match(setup: dict, events: list[dict]) -> None:
    """Replay one match (its setup and the events after it); raises Mismatch."""
    rp = MatchReplay(setup)
    for e in events:
        rp.feed(e)
    rp.finish()
