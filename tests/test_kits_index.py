"""tests/kits/README.md is the kits' index: a line for every file of tests/kits, saying what it is and
on which runtime it runs, and no line for a file that is not there. A kit added, renamed or removed
without its line fails here."""

import os
import re

from conftest import KITS

README = os.path.join(KITS, "README.md")
# a kit's line: "- `name.py` (runtime): what it is; used by ..."
LINE = re.compile(r"^- `([^`]+)` \((CPython|MicroPython|both)\): \S")


def _files() -> set[str]:
    return {n for n in os.listdir(KITS) if n != "README.md" and os.path.isfile(os.path.join(KITS, n))}


def _listed() -> list[str]:
    assert os.path.exists(README), "tests/kits has no README.md: the kits' index, a line each"
    with open(README, encoding="utf-8") as fh:
        return [m.group(1) for m in map(LINE.match, fh.read().splitlines()) if m]


def test_every_kit_has_its_line_in_the_kits_readme():
    missing = sorted(_files() - set(_listed()))
    assert not missing, "tests/kits/README.md has no line for: " + ", ".join(missing)


def test_the_kits_readme_lists_only_kits_that_are_there_and_each_once():
    listed = _listed()
    gone = sorted(set(listed) - _files())
    twice = sorted({n for n in listed if listed.count(n) > 1})
    assert not gone and not twice, f"tests/kits/README.md lists files not in tests/kits: {gone}; twice: {twice}"


def test_a_line_that_does_not_say_its_runtime_is_not_a_kits_line():
    # the index's form: a line without its runtime, or with another word there, is not counted
    assert LINE.match("- `flash.py` (MicroPython): a flash chip in RAM")
    assert not LINE.match("- `flash.py`: a flash chip in RAM")
    assert not LINE.match("- `flash.py` (Python 3): a flash chip in RAM")
