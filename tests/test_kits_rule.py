"""No test module imports another: what tests share is a kit in tests/kits/ (tests/conftest.py and
tests/mprun.py put only the kits on the path, beside the module's own folder), and no kit imports
a test module either."""

import os
import re

from conftest import TESTS

IMPORT = re.compile(r"^\s*(?:from\s+(test_\w*)\s+import|import\s+(test_\w*))", re.M)


def _sources():
    for d, dirs, names in os.walk(TESTS):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x != "__pycache__"]
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(d, name)
                with open(path, encoding="utf-8") as fh:
                    yield os.path.relpath(path, TESTS), fh.read()


def test_no_test_module_or_kit_imports_a_test_module():
    bad = []
    for path, text in _sources():
        for m in IMPORT.finditer(text):
            bad.append("tests/%s:%d: %s" % (path, text.count("\n", 0, m.start()) + 1, m.group(0).strip()))
    assert not bad, "import the helper from a kit in tests/kits/ instead:\n" + "\n".join(bad)


def test_the_rule_sees_an_import_of_a_test_module():
    text = "import os\nfrom test_menu import Rig\n    import test_x\nfrom clockkit import raises\n"
    found = [m.group(1) or m.group(2) for m in IMPORT.finditer(text)]
    assert found == ["test_menu", "test_x"]
