"""Check docs/rules.md against the originals in docs/rules/original/ and list its rule IDs.

    python docs/rules/render.py            # check; print each section's source and its IDs
    python docs/rules/render.py --ids      # only the IDs, one a line

docs/rules.md is an English rendering, written by hand from the originals: each section names its
source file (`rules/original/NAME.txt`) in its heading, and a table of `| ID | Rule |` rows. This
checks that every source file named exists and is non-empty, that every original file has a
section, that each ID is well formed, carries its section's prefix (TK-, KB-, KT-) and appears once.
Exit status 1 with one line per problem. tests/test_docs_refs.py imports `rule_ids` from here.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.dirname(HERE)
RULES_MD = os.path.join(DOCS, "rules.md")
ORIGINAL = os.path.join(HERE, "original")
ID = re.compile(r"^(TK-[A-Z]\d+|KB-\d+|KT-\d+(?:\.\d+)?)$")
PREFIX = {"toguz-kumalak": "TK-", "kokboru-one-on-one": "KB-", "kilithattu": "KT-"}


def sections(text=None):
    """[(source file, [IDs in table order])] of docs/rules.md."""
    if text is None:
        with open(RULES_MD, encoding="utf-8") as f:
            text = f.read()
    out = []
    for line in text.splitlines():
        m = re.match(r"^## .*`rules/original/([^`]+)`", line)
        if m:
            out.append((m.group(1), []))
            continue
        m = re.match(r"^\| ([A-Z]{2}-[0-9A-Z.]+) \|", line)
        if m and out:
            out[-1][1].append(m.group(1))
    return out


def rule_ids():
    """Every rule ID of docs/rules.md."""
    return {i for _, ids in sections() for i in ids}


def check():
    problems = []
    secs = sections()
    seen = set()
    for source, ids in secs:
        path = os.path.join(ORIGINAL, source)
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            problems.append("%s: the original is missing from docs/rules/original/" % source)
        prefix = PREFIX.get(source.split(".")[0])
        if not ids:
            problems.append("%s: no rule IDs" % source)
        for i in ids:
            if not ID.match(i):
                problems.append("%s: malformed rule ID" % i)
            if prefix and not i.startswith(prefix):
                problems.append("%s: not a %s rule (section %s)" % (i, prefix, source))
            if i in seen:
                problems.append("%s: listed twice" % i)
            seen.add(i)
    named = {s for s, _ in secs}
    for name in sorted(os.listdir(ORIGINAL)):
        if name.endswith(".txt") and name not in named:
            problems.append("%s: an original with no section in docs/rules.md" % name)
    return secs, problems


def main(argv):
    secs, problems = check()
    if "--ids" in argv:
        for _, ids in secs:
            for i in ids:
                print(i)
    else:
        for source, ids in secs:
            print("%s: %d rules: %s" % (source, len(ids), " ".join(ids)))
    for p in problems:
        print("docs/rules.md: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
