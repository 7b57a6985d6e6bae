"""What the arbiter's actions share: their errors, one action at a time, a job run on a board's
thread and its answer, and the action's report the page shows. The Hall (core.py) takes its
actions from roundstart.py (every board at once) and boardacts.py (one board), both built on Jobs."""

from __future__ import annotations

import functools
import time
from concurrent.futures import Future, wait
from concurrent.futures import TimeoutError as FutureTimeout

from .. import client
from .boards import BoardLink
from .refusals import refusal
from .said import joined, said, text_of, with_msg

JOB_S = 10.0  # how long an action waits for a board's job (read when it runs: tests make it longer)

STRANGER = said("skip_stranger", "another clock on its port: assign it to the board first")
NOT_CONNECTED = said("skip_not_connected", "not connected")
BUSY = said("err_busy", "busy: another action is still running; try again when it is done")


class HallError(Exception):
    """One line for the user (status: the page's HTTP status for it); raised with a Said, its code
    for the page too (said.text_of)."""

    status = 400


class HallBusy(HallError):
    """Another action is still running: this one was not done."""

    status = 409


def one_at_a_time(action):
    """The arbiter's actions never overlap (two "start round" at once would arm the boards twice)."""

    @functools.wraps(action)
    def run(self, *args, **kwargs):
        if not self.acting.acquire(blocking=False):
            raise HallBusy(BUSY)
        try:
            return action(self, *args, **kwargs)
        finally:
            self.acting.release()

    return run


def job_result(fut: Future, timeout: float = JOB_S):
    """(value, None) or (None, error text) of a job."""
    try:
        return fut.result(timeout), None
    except client.LinkError as e:  # the clock's refusal: by its reason code, else its own words
        return None, refusal(e) or text_of(e)
    except (TimeoutError, FutureTimeout):
        return None, said("err_no_answer", "no answer in time")
    except Exception as e:  # noqa: BLE001 - a job's failure is reported on its board
        return None, f"{type(e).__name__}: {e}"


def then_state(b: BoardLink, clock, value):
    """After an action: the board's state read again at once, so the page (and the caller) see it."""
    b.read_state(clock)
    return value


class Jobs:
    """The part of the Hall (core.py) its actions run on: its boards (`boards`, each with its own
    thread), `acting` (the lock of the action running), `subscriber` (other halls' boards, or None)
    and `last_action` (the report the page shows)."""

    def _each(self, fn, which=None) -> dict[int, tuple]:
        """fn(board, clock) on every board (or those `which` picks), in parallel, each in its own
        board's thread; {number: (value, error)}."""
        futs = {}
        for b in list(self.boards):
            if which is not None and not which(b):
                continue
            futs[b.number] = b.submit(lambda clock, b=b: then_state(b, clock, fn(b, clock)))
        wait(list(futs.values()), timeout=JOB_S)
        return {n: job_result(f, 0.01 if f.done() else 0) for n, f in futs.items()}

    def _none_here(self, done: str) -> str:
        """Why an action on all boards did nothing anywhere: this hall has no clocks (other halls'
        boards are acted on in their own hall, which holds their clocks and the key that signs);
        `done`: set up, started, paused, resumed."""
        halls = sorted({v.get("hall") for v in self.subscriber.views() if v.get("hall")}) \
            if self.subscriber is not None else []
        if not halls:
            return said("note_no_clocks", "no clocks: none is connected to this hall")
        there = {  # (a sentence each: "are {done}" would not be one in every language)
            "set up": lambda h: said("note_set_up_there", "hall {hall}'s boards are set up in hall {hall}", hall=h),
            "started": lambda h: said("note_started_there", "hall {hall}'s boards are started in hall {hall}",
                                      hall=h),
            "paused": lambda h: said("note_paused_there", "hall {hall}'s boards are paused in hall {hall}", hall=h),
            "resumed": lambda h: said("note_resumed_there", "hall {hall}'s boards are resumed in hall {hall}",
                                      hall=h),
        }.get(done, lambda h: f"hall {h}'s boards are {done} in hall {h}")
        return said("note_other_halls", "this hall has no clocks of its own: {halls}",
                    halls=joined([there(h) for h in halls], ", "))

    def _report(self, what: str, results: dict[int, tuple], skipped: dict[int, str], done_word: str = "") -> dict:
        """The action's report (the page shows it): what it was, how many boards did it, failed, were
        skipped, each board's text (and its code for the page, msg, when it has one)."""
        boards = {}
        for n, (val, err) in results.items():
            boards[n] = with_msg({"ok": err is None}, "text", err or (val if isinstance(val, str) else "done"), "msg")
        for n, why in skipped.items():
            boards[n] = with_msg({"ok": None}, "text", why, "msg")
        done = sum(1 for v in boards.values() if v["ok"])
        failed = sum(1 for v in boards.values() if v["ok"] is False)
        self.last_action = with_msg({}, "what", what)
        self.last_action.update({"done": done, "failed": failed, "skipped": len(skipped), "boards": boards,
                                 "at": time.time()})
        if done_word and not boards:
            with_msg(self.last_action, "note", self._none_here(done_word))
        return self.last_action

    def _state_of(self, b: BoardLink) -> str | None:
        with b.lock:
            return (b.state or {}).get("state") if b.link == "up" else None

    @staticmethod
    def _armed_now(b: BoardLink) -> bool:
        """The board's clock is armed for an instant still to come (a Start round's arming window):
        in setup, waiting for its start (`state`'s armed; the Start round read it again at once)."""
        with b.lock:
            st = b.state or {}
            return st.get("state") == "setup" and st.get("armed") is not None
