"""Log pull benchmark: 5,000+ events pulled from the sim board over its pseudo-terminal.

    python benchmarks/pull_bench.py [--events N]

Writes a flash image with a game of N presses (virtual time, `sagat sim --script --virtual`),
starts the sim board on a pty (MicroPython unix port, real time, serving the serial protocol),
and pulls the whole log with `sagat logs pull`'s code through pyserial. Reports events per second
(budget: at least 5,000), wire bytes per record against the 64-byte record (budget: at most 1.5x),
and the clock loop's longest gap while the pull ran (the board measures it; identify reports it).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from sagat import pull as P  # noqa: E402
from sagat.client import Clock  # noqa: E402
from sagat.sim import runners  # noqa: E402
from sagatfw.log import records as R  # noqa: E402


def arg(name: str, default: int) -> int:
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


class CountingSerial:
    """Wraps the client's serial port to count the bytes on the wire."""

    def __init__(self, s):
        self.s = s
        self.rx = 0
        self.tx = 0

    def read(self, n):
        data = self.s.read(n)
        self.rx += len(data)
        return data

    def write(self, data):
        self.tx += len(data)
        return self.s.write(data)

    @property
    def in_waiting(self):
        return self.s.in_waiting

    def close(self):
        self.s.close()


def main() -> int:
    n = arg("--events", 5000)
    work = tempfile.mkdtemp(prefix="sagat-pull-")
    try:
        flash = os.path.join(work, "flash.img")
        script = os.path.join(work, "game.jsonl")
        lines = [{"at": 0, "do": "new", "tc": "-"}, {"at": 0, "do": "start"}]  # count-up: no flag
        for i in range(n):
            lines.append({"at": 1000 * (i + 1), "do": "press", "side": "left" if i % 2 == 0 else "right"})
        with open(script, "w") as fh:
            fh.write("".join(json.dumps(x) + "\n" for x in lines))
        t0 = time.monotonic()
        runners.run_script(script, flash, virtual=True, echo=lambda *a, **k: None)
        made = time.monotonic() - t0
        ready = threading.Event()
        port = []

        def serve():
            runners.run_serial(flash, headless=True, ready=lambda p: (port.append(p), ready.set()))

        proc_thread = threading.Thread(target=serve, daemon=True)
        proc_thread.start()
        if not ready.wait(60):
            print("the sim board did not come up")
            return 1
        with Clock(port[0], timeout=10) as clock:
            clock.serial = CountingSerial(clock.serial)
            clock.request("identify")  # resets the loop-gap measure
            rx0 = clock.serial.rx
            t0 = time.monotonic()
            figures = P.pull(clock, os.path.join(work, "pulled"), progress=False)
            took = time.monotonic() - t0
            wire = clock.serial.rx - rx0
            loop_max = clock.request("identify").get("loop_max_ms")
        records = figures["pulled"]
        per_record = wire / records
        print("sagat pull benchmark: the sim board on a pseudo-terminal (MicroPython unix port)")
        print(f"  log: {records} records ({figures['events']} events) made in {made:.1f} s of virtual-time play")
        print(f"  pull: {took:.2f} s, {records / took:.0f} records/s ({figures['events'] / took:.0f} events/s;"
              " budget >= 5000)")
        print(f"  wire: {per_record:.1f} bytes per record received, {per_record / R.RECORD_SIZE:.2f}x the"
              f" {R.RECORD_SIZE}-byte record (budget <= 1.5x)")
        print(f"  clock loop's longest gap during the pull: {loop_max} ms")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
