"""`sagat sim` needs a terminal for its faces and keys; without one it says so and what to use."""

import os
import subprocess
import sys
from pathlib import Path

SAGAT = str(Path(sys.executable).parent / "sagat")


def test_the_interactive_sim_without_a_terminal_says_what_to_use_instead(tmp_path):
    run = subprocess.run(["setsid", SAGAT, "sim", "--flash", str(tmp_path / "f.img")], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60, env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path)))
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sagat: ")
    assert "terminal" in lines[0] and "--serial --headless" in lines[0] and "--script" in lines[0]
