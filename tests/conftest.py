"""Shared pytest setup.

tests/pure/  plain-assert tests of the pure firmware modules: pytest runs them under CPython, and
             tests/test_micropython.py runs the same files under the MicroPython unix port.
tests/mp/    MicroPython-only tests (heap_lock): run by tests/test_micropython.py, never by CPython.
"""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
PURE = os.path.join(ROOT, "tests", "pure")

# The pure tests import their helpers as top-level modules, as they do under MicroPython.
for path in (PURE, FIRMWARE):
    if path not in sys.path:
        sys.path.insert(0, path)

collect_ignore_glob = ["mp/*", "mprun.py"]

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
