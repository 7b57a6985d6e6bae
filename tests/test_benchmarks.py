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
