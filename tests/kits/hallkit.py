"""The hall tests' kit: waiting for a condition, a clock's state, and client.Clock's stand-in."""

from __future__ import annotations

import time

FACE = {"ms": 60000, "moves": 3, "stage": 1, "flag": 0, "low": False, "default": False, "stage_mark": False,
        "countup": False, "delay_ms": 0}
RUNNING = {"state": "running", "game": 2, "running": "left", "battery": 80, "ticks": 1000, "t": 500,
           "left": dict(FACE), "right": dict(FACE)}


def until(fn, timeout, what):
    """fn()'s first true value within timeout seconds, else a failure saying what was awaited."""
    end = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        assert time.monotonic() < end, what
        time.sleep(0.05)


class Clocks:
    """client.Clock's stand-in: each port's clock answers identify (its uid from the port, its
    `number` if numbers has one for the port), `state` with states[port] (any garbage; RUNNING if
    the port has none), and other commands as `answers` says: a dict of answers by command, each an
    answer or a callable(port, args) that may block; or one callable(port, cmd, args) for them all."""

    def __init__(self, states: dict | None = None, answers=None, numbers: dict | None = None):
        self.states = states or {}
        self.answers = answers if answers is not None else {}
        self.numbers = numbers or {}
        self.idents: dict = {}  # port: what its identify answers besides (another uid, uptime_ms)
        self.cut: set = set()  # ports whose link is lost at their next request (then back)
        self.asked: list = []  # (port, cmd, args, auth) of every request but state and identify

    def __call__(self, port, timeout, key):
        clocks = self

        class Clock:
            def request(self, cmd, auth=False, **args):
                if port in clocks.cut:
                    clocks.cut.discard(port)
                    from sagat import client

                    raise client.LinkLost("serial link lost (a test's cut)")
                if cmd == "identify":
                    # (a clock keyed as the hall is: the hall's key is its own, key_set says so)
                    ans = {"uid": f"uid-{port.rsplit('/', 1)[-1]}", "firmware": "test", "key_set": bool(key)}
                    if port in clocks.numbers:
                        ans["number"] = clocks.numbers[port]
                    ans.update(clocks.idents.get(port, {}))
                    return ans
                if cmd != "state":
                    clocks.asked.append((port, cmd, args, auth))
                if cmd == "settings.get":
                    return {"values": {}}
                if cmd == "state":
                    return clocks.states.get(port, RUNNING)
                if callable(clocks.answers):
                    return clocks.answers(port, cmd, args)
                ans = clocks.answers.get(cmd, {})
                return ans(port, args) if callable(ans) else ans

            def close(self):
                pass

        return Clock()
