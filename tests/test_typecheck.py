"""The firmware type-checks (mypy) against the MicroPython stubs of each port it runs on.

    pico   micropython-rp2-rpi-pico-stubs   main.py, sagatfw/**, less boards/esp32.py and boards/sim.py
    esp32  micropython-esp32-stubs          main.py, sagatfw/**, less boards/pico.py and boards/sim.py
    sim    micropython-unix-stubs           main.py, sagatfw/**, less the hardware modules (boards/pico.py,
                                            boards/esp32.py, boards/hw.py, faces/tm1637.py): the sim board
                                            and the serial link on the unix port

Every stub package puts the port's modules (machine, time, select, vfs, ...) as top-level .pyi
files into site-packages, with micropython-stdlib-stubs' `stdlib/` (a reduced typeshed) beside
them, so no two of them fit in one environment: each is pip-installed with --target into a folder
of its own under pytest's cache (once per pinned version; CI starts fresh and downloads them, so
the first run needs PyPI), and mypy gets that folder as its typeshed and its search path.

The firmware has no annotations, so mypy checks every body (--check-untyped-defs) and is told
what MicroPython code is like: attributes that start as None (--no-strict-optional), any buffer
where the stubs say bytes (--no-strict-bytes), a list filled by a callee (var-annotated off).
"""

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import FIRMWARE

STDLIB_STUBS = "micropython-stdlib-stubs==1.29.0.post2"
TARGETS = {
    "pico": "micropython-rp2-rpi-pico-stubs==1.29.0.post1",
    "esp32": "micropython-esp32-stubs==1.29.0.post1",
    "sim": "micropython-unix-stubs==1.29.0.post1",
}
# The firmware files that run on some ports only; every other one is checked for every target.
ONLY = {
    "sagatfw/boards/pico.py": {"pico"},
    "sagatfw/boards/rp2levers.py": {"pico"},
    "sagatfw/boards/esp32.py": {"esp32"},
    "sagatfw/boards/hw.py": {"pico", "esp32"},
    "sagatfw/faces/tm1637.py": {"pico", "esp32"},
    "sagatfw/boards/sim.py": {"sim"},
}
PIP_FLAGS = ["--quiet", "--disable-pip-version-check", "--no-input", "--no-compile", "--only-binary=:all:"]
MYPY_FLAGS = [
    "--check-untyped-defs",
    "--no-strict-optional",
    "--no-strict-bytes",
    "--disable-error-code=var-annotated",
    "--no-site-packages",
    "--python-version=3.10",
    "--show-error-codes",
    "--no-color-output",
]


def firmware_files(target: str) -> list[str]:
    """main.py and every sagatfw module that runs on `target`, relative to firmware/."""
    files = ["main.py"]
    for folder, dirs, names in os.walk(os.path.join(FIRMWARE, "sagatfw")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith(".py"):
                files.append(os.path.relpath(os.path.join(folder, name), FIRMWARE).replace(os.sep, "/"))
    return [f for f in files if target in ONLY.get(f, TARGETS)]


@pytest.fixture(scope="module")
def cache_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = getattr(request.config, "cache", None)
    if cache is None:  # -p no:cacheprovider
        return tmp_path_factory.mktemp("typecheck")
    return Path(cache.mkdir("typecheck"))


def stubs(cache: Path, requirement: str) -> Path:
    """The folder holding one stub package and its stdlib stubs, installed once."""
    dest = cache / requirement.replace("==", "-")
    if (dest / "stdlib" / "VERSIONS").is_file():
        return dest
    tmp = Path(tempfile.mkdtemp(prefix=".install-", dir=cache))
    cmd = [sys.executable, "-m", "pip", "install", "--target", str(tmp), *PIP_FLAGS, requirement, STDLIB_STUBS]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if run.returncode != 0 or not (tmp / "stdlib" / "VERSIONS").is_file():
        shutil.rmtree(tmp, ignore_errors=True)
        msg = "cannot install %s (PyPI needed once):\n%s%s" % (requirement, run.stdout, run.stderr)
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return dest


def mypy(cache: Path, target: str, files: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    """mypy on `files` (relative to firmware/, or absolute) against `target`'s stubs."""
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("no mypy: install the dev extra")
    stub_dir = stubs(cache, TARGETS[target])
    config = tmp_path / "mypy.ini"
    config.write_text(
        "[mypy]\n"
        "mypy_path = %s\n"
        "custom_typeshed_dir = %s\n"
        # imported modules not on the command line, and the stubs themselves, are not reported
        "follow_imports = silent\n"
        "follow_imports_for_stubs = True\n" % (stub_dir, stub_dir)
    )
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", str(cache / ("mypy-" + target))]
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    run = subprocess.run(cmd + MYPY_FLAGS + files, cwd=FIRMWARE, capture_output=True, text=True, env=env, timeout=300)
    print("$ %s\n%s%s" % (" ".join(cmd + MYPY_FLAGS + files), run.stdout, run.stderr))
    return run


def test_targets_cover_the_firmware() -> None:
    files = {t: firmware_files(t) for t in TARGETS}
    assert "sagatfw/boards/pico.py" in files["pico"] and "sagatfw/boards/pico.py" not in files["esp32"]
    assert "sagatfw/boards/esp32.py" in files["esp32"] and "sagatfw/boards/esp32.py" not in files["pico"]
    assert "sagatfw/boards/sim.py" in files["sim"] and "sagatfw/boards/hw.py" not in files["sim"]
    assert "sagatfw/engine/clock.py" in files["pico"] and "sagatfw/link/stream.py" in files["sim"]
    assert set(ONLY) <= set().union(*files.values())


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_firmware_typechecks(target: str, cache_dir: Path, tmp_path: Path) -> None:
    files = firmware_files(target)
    run = mypy(cache_dir, target, files, tmp_path)
    assert run.returncode == 0, "mypy against %s:\n%s%s" % (TARGETS[target], run.stdout, run.stderr)
    assert "Success: no issues found in %d source files" % len(files) in run.stdout


CANARY = """from machine import Pin


def pio_pin(n):
    return Pin(n, Pin.ALT, alt=Pin.ALT_PIO0)
"""


@pytest.mark.parametrize("target, clean", [("pico", True), ("esp32", False)])
def test_check_sees_the_port(target: str, clean: bool, cache_dir: Path, tmp_path: Path) -> None:
    """The check has teeth: a pin handed to the PIO, in an unannotated function, is rp2 only."""
    canary = tmp_path / "canary.py"
    canary.write_text(CANARY)
    run = mypy(cache_dir, target, [str(canary)], tmp_path)
    if clean:
        assert run.returncode == 0, run.stdout + run.stderr
    else:
        assert run.returncode == 1, run.stdout + run.stderr
        assert 'canary.py:5: error: "type[Pin]" has no attribute "ALT_PIO0"  [attr-defined]' in run.stdout
