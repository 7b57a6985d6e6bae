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


def tool(name: str) -> str | None:
    """A console script of the dev extra: next to this Python first, then on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    return shutil.which(name)
