"""The docs cite only what a clone has: every file a tracked doc, help text,
comment or test refers to exists in the repository, nothing points outside it (the design and the
rules are docs/design.md and docs/rules.md, with the rules' originals in docs/rules/original/), and
every rule ID cited (TK-C14, KB-7, KT-4.4) is one of docs/rules.md's."""

import os
import re
import subprocess
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "docs", "rules"))
import render  # noqa: E402  - docs/rules/render.py

TEXT = (".md", ".py", ".pyi", ".toml", ".json", ".jsonl", ".txt", ".cfg", ".yml", ".yaml", ".sh")
SKIP = ("docs/rules/original/",)  # the originals, verbatim
# what a clone does not have: the workspace's own copies of the design and the rules
OUTSIDE = ("../" + "shared/", "DESIGN" + ".md", "RULES" + ".md", "rules/" + "RULES")
TOP = ("docs", "hardware", "benchmarks", "firmware", "host", "tests", ".ci")
PATH = re.compile(r"(?<![\w./-])((?:\.\./)*(?:%s)/[\w./-]*[\w/])" % "|".join(re.escape(t) for t in TOP))
MD = re.compile(r"(?<![\w./-])([\w-]+(?:/[\w-]+)*\.md)\b")
LINK = re.compile(r"\]\(([^)#\s:]+)(?:#[^)]*)?\)")
# paths in another project's repository, cited as such (MicroPython's own manual pages)
ELSEWHERE = {"docs/reference/manifest.rst", "docs/reference/mpyfiles.rst"}
RULE_ID = re.compile(r"\b(TK-[A-Z]\d+|KB-\d+|KT-\d+(?:\.\d+)?)\b")


def _tracked():
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        files = out.split()
    except (OSError, subprocess.CalledProcessError):  # not a git clone (an unpacked archive)
        files = []
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = [x for x in dirs if not x.startswith(".") and x not in ("__pycache__", "node_modules")]
            files += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
    return [f for f in files if f.endswith(TEXT) or f == ".ci/run"]


def _texts():
    for f in _tracked():
        if f.startswith(SKIP) or not os.path.isfile(os.path.join(ROOT, f)):
            continue
        with open(os.path.join(ROOT, f), encoding="utf-8", errors="replace") as fh:
            yield f, fh.read()


def _exists(citing, ref):
    ref = ref.split("#")[0].rstrip(".")
    if not ref:
        return True
    here = os.path.dirname(os.path.join(ROOT, citing))
    for base in (ROOT, here, os.path.join(ROOT, "docs"), os.path.join(ROOT, "hardware")):
        if os.path.exists(os.path.normpath(os.path.join(base, ref))):
            return True
    return False


def _line(text, pos):
    return text.count("\n", 0, pos) + 1


def test_nothing_points_outside_the_clone():
    bad = []
    for f, text in _texts():
        if f == "tests/test_docs_refs.py":
            continue
        for pattern in OUTSIDE:
            for m in re.finditer(re.escape(pattern), text):
                n = _line(text, m.start())
                bad.append("%s:%d: %s" % (f, n, text.splitlines()[n - 1].strip()))
    assert not bad, "\n".join(bad)


def test_every_cited_file_exists_in_the_clone():
    missing = []
    seen = 0
    for f, text in _texts():
        for pattern in (PATH, MD, LINK):
            for m in pattern.finditer(text):
                ref = m.group(1)
                if pattern is LINK and (ref.startswith(("http", "mailto")) or "." not in ref.split("/")[-1]):
                    continue
                seen += 1
                if ref not in ELSEWHERE and not _exists(f, ref):
                    missing.append("%s:%d: %s" % (f, _line(text, m.start()), ref))
    assert seen > 100  # the scan found the docs' references
    assert not missing, "cited but not in the clone:\n" + "\n".join(sorted(set(missing)))


def test_the_design_and_the_rules_are_in_the_clone():
    for f in ("docs/design.md", "docs/rules.md", "docs/rules/render.py"):
        assert os.path.isfile(os.path.join(ROOT, f)), f
    design = open(os.path.join(ROOT, "docs", "design.md"), encoding="utf-8").read()
    for n, title in enumerate(("TimeControl strings", "Clock semantics", "The log", "The simulator",
                               "The host command", "The serial protocol"), 1):
        assert "### %d. %s" % (n, title) in design  # "contract N" of the code's comments
    for page in ("protocol.md", "log-format.md", "clock.md", "timecontrol.md"):
        assert "(%s)" % page in design, page  # the details are there, linked
    secs, problems = render.check()
    assert not problems, problems
    assert sorted(s for s, _ in secs) == sorted(os.listdir(os.path.join(ROOT, "docs", "rules", "original")))
    assert {"TK-C5", "TK-C14", "TK-B3", "KB-7", "KT-4.4"} <= render.rule_ids()


def test_every_rule_id_cited_is_in_docs_rules_md():
    ids = render.rule_ids()
    unknown = []
    cited = 0
    for f, text in _texts():
        if f == "docs/rules.md":
            continue
        for m in RULE_ID.finditer(text):
            cited += 1
            if m.group(1) not in ids:
                unknown.append("%s:%d: %s" % (f, _line(text, m.start()), m.group(1)))
    assert cited > 100
    assert not unknown, "rule IDs not in docs/rules.md:\n" + "\n".join(unknown)
