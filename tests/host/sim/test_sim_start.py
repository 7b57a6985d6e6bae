"""The simulator's start: the firmware compiled once per content, from a per-user cache."""

import shutil
import subprocess
from pathlib import Path

import pytest

from sagat import sim

pytestmark = pytest.mark.skipif(sim.micropython() is None, reason="needs the MicroPython unix port's mpy-cross")


def _count_runs(monkeypatch):
    calls = []
    real = subprocess.run

    def run(cmd, *a, **k):
        calls.append(cmd)
        return real(cmd, *a, **k)

    monkeypatch.setattr(sim.subprocess, "run", run)
    return calls


def test_a_warm_start_reuses_the_compiled_firmware_without_mpy_cross(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    calls = _count_runs(monkeypatch)
    first = sim.cached_firmware()
    assert calls, "the cold start compiles"
    assert Path(first, "sagatfw", "engine", "clock.mpy").is_file() and Path(first, "main.py").is_file()
    assert Path(first).is_relative_to(tmp_path / "cache" / "sagat")
    calls.clear()
    second = sim.cached_firmware()
    assert second == first
    assert calls == [], "the warm start runs no mpy-cross"


def test_a_changed_source_gives_a_new_cache_entry(tmp_path, monkeypatch):
    import sagatfw

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    src = tmp_path / "fw" / "sagatfw"
    shutil.copytree(Path(sagatfw.__file__).parent, src)
    first = sim.cached_firmware(src=src)
    with open(src / "core/ticks.py", "a", encoding="utf-8") as fh:
        fh.write("\nCHANGED = 1\n")
    second = sim.cached_firmware(src=src)
    assert second != first
    assert Path(first).is_dir() and Path(second).is_dir()


def test_the_sim_does_not_remove_its_cached_firmware(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fw = sim.cached_firmware()
    sim._drop(fw)
    assert Path(fw, "main.py").is_file()
