"""The hall's figures (`sagat hall`, docs/hall.md), on this machine, with simulated clocks (`sagat sim --serial`):

1. Polling: the hall's CPU per clock when it reads every clock's `state` at the hall's own rate
   (boards.POLL_S: 4 times a second; one thread per port), and the simulated clocks' own CPU (the
   firmware's 5 ms loop on the MicroPython unix port: what the sims cost this PC, not the hall).
2. The start spread across 8 and across 32 boards: each clock is armed for one instant after a
   sync of its link; the hall measures the spread through the links. A simulated clock's ticks are
   this PC's CLOCK_MONOTONIC in ms (the unix port's ticks_ms), so the true spread is known too:
   every clock starts at exactly its armed tick (the firmware's rule), and the armed ticks, read
   on one clock, differ by the sync's errors only.

    PYTHONPATH=host:firmware python benchmarks/hall_bench.py [--boards 8,32] [--poll-boards 8]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "host"), os.path.join(HERE, "..", "firmware")]

from sagat.hall import boards as HB  # noqa: E402
from sagat.hall.core import Hall  # noqa: E402
from sagat.hall.sims import Sims  # noqa: E402
from sagatfw.core.ticks import ticks_diff  # noqa: E402


def _cpu_of(pids: list[int]) -> float:
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                f = fh.read().rsplit(")", 1)[1].split()
            total += (int(f[11]) + int(f[12])) / tick
        except OSError:
            pass
    return total


def _children(pid: int) -> list[int]:
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/stat") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(p))
            except OSError:
                pass
    return out


def _up(hall: Hall, n: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = hall.view()["boards"]
        if len(v) == n and all(b["link"] == "up" and b["state"] for b in v):
            return
        time.sleep(0.2)
    raise SystemExit(f"not every clock came up: {[b['link'] for b in hall.view()['boards']]}")


def run(n: int, poll_s: float, seconds: float) -> dict:
    HB.POLL_S = poll_s
    tmp = tempfile.mkdtemp(prefix="sagat-hall-bench-")
    sims = Sims(n, tmp)
    hall = Hall(discover=False)
    t0 = time.monotonic()
    try:
        for i, port in enumerate(sims.start(120), 1):
            hall.add(port, "sim", i)
        _up(hall, n)
        boot_s = time.monotonic() - t0
        sim_pids = [q for p in sims.procs for q in [p.pid] + _children(p.pid)]
        polls0 = sum(b.polls for b in hall.boards)
        c0, s0, w0 = time.process_time(), _cpu_of(sim_pids), time.monotonic()
        time.sleep(seconds)
        c1, s1, w1 = time.process_time(), _cpu_of(sim_pids), time.monotonic()
        polls = sum(b.polls for b in hall.boards) - polls0
        wall = w1 - w0
        out = {"boards": n, "poll_hz": round(1 / poll_s, 1), "achieved_hz_per_board": round(polls / wall / n, 2),
               "hall_cpu_pct_per_board": round(100 * (c1 - c0) / wall / n, 2),
               "sims_cpu_pct_per_board": round(100 * (s1 - s0) / wall / n, 2), "sims_start_s": round(boot_s, 1)}
        spreads = []
        for _ in range(3):
            rep = hall.set_up("420")
            if rep["done"] != n:
                raise SystemExit(f"set up: {rep}")
            rep = hall.start_round()
            rnd = hall.round
            if not rnd["armed"]:
                raise SystemExit(f"start round: {rep}")
            time.sleep(max(0, (rnd["target"] - HB.host_ms()) / 1000) + 0.5)
            hall.measure_round()
            armed = list(rnd["boards"].values())
            true = max(ticks_diff(a, armed[0]) for a in armed) - min(ticks_diff(a, armed[0]) for a in armed)
            truth = [ticks_diff(a, int(rnd["target"]) & 0x3FFFFFFF) for a in armed]  # sim ticks = monotonic ms
            spreads.append({"armed": rnd["armed"], "started": rnd.get("started"),
                            "measured_spread_ms": rnd["spread_ms"], "uncertainty_ms": rnd["err_ms"],
                            "true_spread_ms": true, "true_start_vs_instant_ms": [min(truth), max(truth)],
                            "exact": sum(1 for b in hall.boards if (b.start_report or {}).get("exact"))})
            for b in hall.boards:  # the game ends: the next round's set up takes the boards
                hall.result(b.number, "1/2-1/2")
        out["rounds"] = spreads
        return out
    finally:
        hall.close()
        sims.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", default="8,32")
    ap.add_argument("--poll-s", type=float, default=HB.POLL_S,
                    help=f"seconds between polls of a clock (default: the hall's, {HB.POLL_S}: 4 Hz)")
    ap.add_argument("--seconds", type=float, default=10.0)
    a = ap.parse_args()
    print(f"cpus: {os.cpu_count()}, load: {os.getloadavg()}", file=sys.stderr)
    for n in (int(x) for x in a.boards.split(",")):
        print(json.dumps(run(n, a.poll_s, a.seconds)), flush=True)


if __name__ == "__main__":
    main()
