"""Memory benchmark: the whole firmware on the sim board under the MicroPython unix port.

    python benchmarks/memory_bench.py

Compiles the firmware with mpy-cross (as `sagat sim` and `sagat deploy` do) and runs
benchmarks/memory_probe.py: boot, 300 moves a side in virtual time with the faces drawn and the
protocol server attached (a `state` request every 50 actions), the whole log pulled with
`log.read`; then a second boot on the same flash that restores the game (replaying all 600 moves),
resumes it and pulls the log again. It reports the live heap (after a collection) at each phase,
the interned names (qstrs, which MicroPython never frees), and the smallest `-X heapsize` (found by
bisection, 2 KB steps) with which both boots complete.

It does this with the firmware frozen into a unix port built from MicroPython's source
(frozen_unix.py: bytecode, constants and names stay out of the heap, as in a board's image; this is
the budget's measure, and tests/test_benchmarks.py runs it at 64 KB), the same port built 32-bit
when `gcc -m32` is there (pointers and GC blocks as a Pico's or an ESP32's), with the firmware's
.mpy files on the filesystem (the code is copied into the heap when imported, as on a board after
`sagat deploy`), and imported from a ROMFS image of the same files (bytecode and constants run in
place, as from a board's ROMFS partition; on the unix port that image itself sits in the heap, so
for ROMFS the figure is the heap beyond the image). The budget (docs/design.md) is 64 KB. The unix port
is 64-bit: pointers and GC blocks (32 bytes) are twice a Pico's.
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

import frozen_unix  # noqa: E402

from sagat.sim.board import firmware_dir, micropython  # noqa: E402

BUDGET_KB = 64


def scripts(work: str, lang: str | None = None) -> tuple[str, str]:
    game = [{"at": 0, "do": "new", "tc": "5400+30", "line": 1}, {"at": 0, "do": "start", "line": 2}]
    if lang is not None:  # the faces in that language from the start (the settings file keeps it for the boot after)
        game.insert(0, {"at": 0, "do": "settings", "lang": lang, "line": 0})
    t = 0
    for i in range(600):
        t += 20000 + (i * 7919) % 20000
        game.append({"at": t, "do": "press", "side": "left" if i % 2 == 0 else "right", "line": i + 3})
    first = os.path.join(work, "game.jsonl")
    with open(first, "w") as fh:
        fh.write("".join(json.dumps(x) + "\n" for x in game))
    second = os.path.join(work, "resume.jsonl")  # after a power cut: restore, then resume
    with open(second, "w") as fh:
        fh.write(json.dumps({"at": t + 60000, "do": "resume", "line": 1}) + "\n")
    return first, second


def run(exe: str, fw: str, work: str, heap: str, rom: str | None = None,
        lang: str | None = None) -> tuple[bool, list[dict]]:
    """Both boots in `heap`; (completed, [phases of each boot]). `rom`: a ROMFS image to import
    the firmware from, or "--frozen" for the firmware frozen into `exe` (frozen_unix.py); `lang`:
    the faces' language set first (the `lang` setting), else English."""
    first, second = scripts(work, lang)
    flash = os.path.join(work, "flash.img")
    if os.path.exists(flash):
        os.unlink(flash)
    t_end = 0
    with open(first) as fh:
        for line in fh:
            t_end = json.loads(line)["at"]
    boots = []
    for actions, start in ((first, 0), (second, t_end + 50000)):
        cmd = [exe, "-X", f"heapsize={heap}", os.path.join(fw, "memory_probe.py"), flash, actions, str(start)]
        if rom:
            cmd.append(rom)
        got = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=fw)
        if got.returncode != 0 or not got.stdout.rstrip().endswith("DONE"):
            return False, boots
        phases: dict = {}
        for line in got.stdout.splitlines():
            parts = line.split()
            if parts and parts[0] == "MEM":
                phases[parts[1]] = int(parts[2])
            elif parts and parts[0] == "FROM":
                phases["from"] = parts[1]
            elif parts and parts[0] in ("RECORDS", "FRAMES", "LIVE_MAX"):
                phases[parts[0].lower()] = int(parts[1])
            elif line.startswith("qstr pool:"):
                for kv in line.split(":", 1)[1].replace(",", " ").split():
                    k, v = kv.split("=")
                    phases[k] = int(v)
        boots.append(phases)
    return True, boots


def smallest(exe: str, fw: str, work: str, rom: str | None) -> int:
    lo, hi = 16, 1024  # KB
    while hi - lo > 2:
        mid = (lo + hi) // 2 // 2 * 2
        if run(exe, fw, work, f"{mid}k", rom)[0]:
            hi = mid
        else:
            lo = mid
    return hi


def main() -> int:
    exe = micropython()
    fw = firmware_dir(compiled=True)
    work = tempfile.mkdtemp(prefix="sagat-mem-")
    try:
        shutil.copyfile(os.path.join(ROOT, "benchmarks", "memory_probe.py"), os.path.join(fw, "memory_probe.py"))
        from mpremote.romfs import make_romfs

        src = os.path.join(work, "romsrc")
        shutil.copytree(os.path.join(fw, "sagatfw"), os.path.join(src, "sagatfw"))
        rom = os.path.join(work, "sagatfw.romfs")
        with open(os.path.join(work, "romfs.log"), "w") as log:
            stdout, sys.stdout = sys.stdout, log
            try:
                image = make_romfs(src, mpy_cross=False)
            finally:
                sys.stdout = stdout
        with open(rom, "wb") as fh:
            fh.write(image)
        print("sagat memory benchmark: the whole firmware on the sim board (MicroPython unix port, 64-bit)")
        print("  boot 1: 300 moves a side, faces drawn, state every 50 actions, the whole log pulled")
        print("  boot 2: restore (replays the 600 moves), resume, the whole log pulled again")
        only_probe = os.path.join(work, "probe")  # nothing to import but the frozen firmware
        os.mkdir(only_probe)
        shutil.copyfile(os.path.join(fw, "memory_probe.py"), os.path.join(only_probe, "memory_probe.py"))
        try:
            frozen_exe = frozen_unix.build()
        except frozen_unix.BuildError as e:
            print(f"  frozen build: {e}")
            return 1
        runs = [("frozen into the port (as a board's image; the budget's measure)", frozen_exe, only_probe, "--frozen")]
        try:  # the nearest to a board's heap: the same, 32-bit (needs gcc -m32)
            runs.append(("frozen, the port built 32-bit (pointers and GC blocks as a Pico's)", frozen_unix.build(32),
                         only_probe, "--frozen"))
        except frozen_unix.BuildError as e:
            print("  (no 32-bit build: %s)" % str(e).splitlines()[0])
        runs += [
            (".mpy files (code in the heap, as after `sagat deploy`)", exe, fw, None),
            ("ROMFS image (code in place)", exe, fw, rom),
        ]
        for name, exe, fw_dir, image_arg in runs:
            ok, boots = run(exe, fw_dir, work, "1m", image_arg)
            if not ok:
                print(f"  {name}: the run failed with a 1 MB heap")
                return 1
            base = boots[0].get("romfs", 0) if image_arg and image_arg != "--frozen" else 0
            print(f"\n  {name}:" + (f" image {len(image)} bytes, {base / 1024:.1f} KB of heap with it" if base else ""))
            for i, b in enumerate(boots, 1):
                print(
                    "    boot %d: modules %.1f KB, booted %.1f, played %.1f, pulled %.1f, highest live %.1f KB;"
                    " %d records pulled; %d qstrs, %.1f KB"
                    % (
                        i,
                        (b["imported"] - base) / 1024,
                        (b["booted"] - base) / 1024,
                        (b["played"] - base) / 1024,
                        (b["pulled"] - base) / 1024,
                        (b["live_max"] - base) / 1024,
                        b["records"],
                        b["n_qstr"],
                        b["n_total_bytes"] / 1024,
                    )
                )
            least = smallest(exe, fw_dir, work, image_arg)
            beyond = least - base / 1024
            met = "MET" if beyond <= BUDGET_KB else "NOT met"
            extra = f" ({beyond:.0f} KB beyond the image)" if base else ""
            print(f"    smallest heap that runs both boots: {least} KB{extra}; budget {BUDGET_KB} KB: {met}")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(fw, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
