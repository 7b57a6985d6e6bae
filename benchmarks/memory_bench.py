"""Memory benchmark: the whole firmware on the sim board under the MicroPython unix port.

    python benchmarks/memory_bench.py

Compiles the firmware with mpy-cross (as `sagat sim` and a board run it), plays a 300-move-a-side
game in virtual time with a power cut and a restore that replays it, and reports: the heap taken
by the firmware's modules after boot, the live heap at the end, the peak heap between garbage
collections, and the smallest `-X heapsize` (found by bisection, 4 KB steps) with which the whole
run completes. The budget (DESIGN.md) is 64 KB. The unix port is 64-bit: its objects are about
twice the size of a Pico's (32-bit), so the same run needs less on a board.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from sagat.sim import firmware_dir, micropython  # noqa: E402

PROBE = """
import gc, sys
gc.collect()
base = gc.mem_alloc()
from sagatfw.boards import sim
from sagatfw import app as _app
gc.collect()
mods = gc.mem_alloc() - base
peak = [0]
orig = _app.App.step
def step(self, now):
    orig(self, now)
    a = gc.mem_alloc()
    if a > peak[0]:
        peak[0] = a
_app.App.step = step
sim.main(sys.argv[1:])
gc.collect()
print("MEM", mods, gc.mem_alloc(), peak[0])
"""


def script(path: str) -> None:
    lines = [{"at": 0, "do": "new", "tc": "5400+30"}, {"at": 0, "do": "start"}]
    t = 0
    for i in range(600):
        t += 20000 + (i * 7919) % 20000
        lines.append({"at": t, "do": "press", "side": "left" if i % 2 == 0 else "right", "line": i + 3})
    with open(path, "w") as fh:
        fh.write("".join(json.dumps(x) + "\n" for x in lines))


def run(exe: str, fw: str, actions: str, heap: str, probe: bool = False) -> subprocess.CompletedProcess:
    flash = tempfile.mktemp(suffix=".img")
    try:
        main = os.path.join(fw, "probe.py" if probe else "main.py")
        cmd = [exe, "-X", f"heapsize={heap}", main, "--flash", flash, "--actions", actions, "--virtual", "--quiet"]
        first = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if first.returncode != 0:
            return first
        # a power cut after the game: the next boot replays all 600 moves to restore it, then resumes
        resume = actions + ".resume"
        with open(resume, "w") as fh:
            fh.write(json.dumps({"at": 30000000, "do": "resume", "line": 1}) + "\n")
        cmd[cmd.index(actions)] = resume
        return subprocess.run(cmd + ["--start", "29000000"], capture_output=True, text=True, timeout=600)
    finally:
        if os.path.exists(flash):
            os.unlink(flash)


def main() -> int:
    exe = micropython()
    fw = firmware_dir(compiled=True)
    work = tempfile.mkdtemp(prefix="sagat-mem-")
    try:
        with open(os.path.join(fw, "probe.py"), "w") as fh:
            fh.write(PROBE)
        actions = os.path.join(work, "game.jsonl")
        script(actions)
        probe = run(exe, fw, actions, "1m", probe=True)
        if probe.returncode != 0:
            print(probe.stdout + probe.stderr)
            return 1
        mods, live, peak = (int(x) for x in probe.stdout.split("MEM")[-1].split())
        lo, hi = 16, 512  # KB
        while hi - lo > 4:
            mid = (lo + hi) // 2 // 4 * 4
            if run(exe, fw, actions, f"{mid}k").returncode == 0:
                hi = mid
            else:
                lo = mid
        print("sagat memory benchmark: whole firmware on the sim board (MicroPython unix port, 64-bit)")
        print("  game: 300 moves a side in virtual time, then a reboot that replays it")
        print(f"  firmware modules after boot: {mods / 1024:.1f} KB")
        print(f"  live heap at the end:        {live / 1024:.1f} KB")
        print(f"  peak heap between GCs (1 MB heap): {peak / 1024:.1f} KB")
        print(f"  smallest heap that runs it:  {hi} KB (budget: 64 KB{', MET' if hi <= 64 else ', NOT met'})")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(fw, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
