"""Shared pytest setup. The tests stand as the code does:

tests/firmware/        the firmware's tests, a folder per layer (core, engine, log, faces, ui, link,
                       app, boards). test_*.py: plain-assert tests that pytest runs under CPython and
                       tests/test_micropython.py under the MicroPython unix port too; test_*_mp.py:
                       MicroPython only (heap_lock, littlefs); test_*_props.py and the rp2 emulator's:
                       CPython only (Hypothesis, the emulated Pico).
tests/host/            the sagat command and the host package: a folder per host package (log, round,
                       hall, sim, deploy) and per command group of the top modules (clock, game, link,
                       tc, cli, i18n).
tests/kits/            what tests share (no test module imports another): the clock and match kits,
                       the rigs (the App's board, the menu's, the protocol's, the serial link's), the
                       fake `machine`, flash images, the fake device, the hall's and MQTT kits, the
                       rp2 emulator's wrapper.
tests/                 the project's own checks: docs, budgets, types, the layers, the builds.
"""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
TESTS = os.path.join(ROOT, "tests")
KITS = os.path.join(TESTS, "kits")

# Tests import the kits as top-level modules, as they do under MicroPython (tests/mprun.py), and
# this module's helpers (from conftest import ROOT, tool) from any folder.
for path in (TESTS, KITS, FIRMWARE):
    if path not in sys.path:
        sys.path.insert(0, path)
# This tree's host package, whatever checkout the venv's editable install points at; before any test
# module is collected, so that every one imports the same sagat modules (a purge later, from one
# test module, left those collected before it holding modules the command no longer used).
sys.path.insert(0, os.path.join(ROOT, "host"))
for _m in [m for m in sys.modules if m == "sagat" or m.startswith("sagat.")]:
    del sys.modules[_m]

collect_ignore_glob = ["firmware/*/test_*_mp.py", "mprun.py"]
# the kits' fixtures, for every test that names one: the `lang` of the host's language tests (langkit.py), a
# simulator on a fresh flash (simkit.py's `sim`)
pytest_plugins = ["langkit", "simkit"]

# The firmware calls gc.collect() before it needs a buffer in one piece of the MicroPython heap.
# Under CPython that means nothing for memory, and a full collection of a test process (pytest's
# and Hypothesis's objects) costs 10-15 ms: 1,600 of them were 24 of one fuzz test's 29 s. The
# firmware's calls collect the youngest generation only (what its own steps left); everyone
# else's collect as asked.
import gc as _gc  # noqa: E402

_collect = _gc.collect


def _collect_for_firmware(generation=2):
    if sys._getframe(1).f_globals.get("__name__", "").startswith("sagatfw"):
        return _collect(0)
    return _collect(generation)


_gc.collect = _collect_for_firmware

# Hypothesis: CI draws the same examples every run (derandomize, no example database), so a red CI
# is never a random draw; a longer exploring run is there by hand: HYPOTHESIS_PROFILE=explore.
# Anything a draw finds is kept in its test as an explicit @example.
try:
    from hypothesis import HealthCheck, settings

    settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
    settings.register_profile(
        "explore", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    _profile = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else None)
    if _profile:
        settings.load_profile(_profile)
except ImportError:  # hypothesis is in the dev extra
    pass


def tool(name: str) -> str | None:
    """A console script of the dev extra: next to this Python first, then on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    return shutil.which(name)
