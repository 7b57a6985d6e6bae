"""The host's translations: one gettext catalogue a language (host/sagat/locale/<lang>/LC_MESSAGES/sagat.po)
for the `sagat` command, the report's pages and the hall's page; extracted, merged and compiled with Babel.

    python tools/i18n.py update    # extract every _() / N_() / NC_() / ngettext() msgid of host/sagat (the
                                   # whole tree: the report's words, round/words.py, are NC_("report", ...)),
                                   # merge them into each sagat.po (the page's entries kept), then compile
    python tools/i18n.py compile   # compile each .po into its .mo, and write the page's tables
                                   # host/sagat/hall/static/lang/<lang>.json from the catalogues
    python tools/i18n.py check     # exit 1 if a msgid is missing from a .po, a .mo is stale, the catalogues'
                                   # page entries differ, or a page table is not what compile writes
    python tools/i18n.py import-page [DIR]    # the page's tables in DIR (default: the hall's) into the
                                   # catalogues: their keys, English and translations win; then compile
    python tools/i18n.py import-report FILE   # the words of a round/words.py of the former kind (REPORT =
                                   # {key: (en, kk, ru, ky)}, MONTHS, DATE) into the catalogues; then compile

The page's words are the entries with msgctxt "page:KEY": KEY is the table's key (hall.js's t(key)), the
msgid its English (en.json), the msgstr its translation (a translation missing is left out of its table:
the page then says the English). The tables are generated: change the .po and compile, never the .json.
The report's words are round/words.py's REPORT, msgctxt "report".

After a merge of branches that still edited the tables or round/words.py's tuples by hand, take their
words in, then check:
    git show <their branch>:host/sagat/round/words.py > /tmp/words-theirs.py
    python tools/i18n.py import-page && python tools/i18n.py import-report /tmp/words-theirs.py
    python tools/i18n.py update && python tools/i18n.py check
Each import is idempotent (run again, nothing changes) and makes the catalogues say what the file says;
import-report names (and exits 1 for) a word it cannot take: an English text not the code's, a key
round/words.py has not, two keys of one English translated differently.

A new msgid comes into each .po untranslated (msgstr ""): the English text is shown until a translator
fills it in. Nothing is ever marked fuzzy (no fuzzy matching), and a msgid gone from the code is dropped.
Needs Babel (`pip install -e .[dev]`).
"""

from __future__ import annotations

import ast
import io
import json
import os
import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "host", "sagat")
LOCALE = os.path.join(PACKAGE, "locale")
DOMAIN = "sagat"
LANGS = ("kk", "ru", "ky")
KEYWORDS = {"_": None, "N_": None, "NC_": ((1, "c"), 2), "Nn_": (1, 2), "ngettext": (1, 2)}
STATIC_LANG = os.path.join(PACKAGE, "hall", "static", "lang")  # the page's tables, written by compile
PAGE = "page:"  # the msgctxt of a page's word: "page:" and its key
REPORT = "report"  # the msgctxt of the report's words
WORDS = os.path.join(PACKAGE, "round", "words.py")  # the report's words: REPORT, MONTHS, DATE
METHOD_MAP = [("**.py", "python")]
HEADER = """\
# {name} translations of the `sagat` command, its report and the hall's page (host/sagat), domain "sagat".
# The translations await review by native-speaking arbiters: corrections welcome.
# Made with `python tools/i18n.py update` (Babel); the .mo beside this file is its compiled form.
#"""
VERSION = "0.1"
NAMES = {"kk": "Kazakh", "ru": "Russian", "ky": "Kyrgyz"}


def po_path(lang: str) -> str:
    return os.path.join(LOCALE, lang, "LC_MESSAGES", DOMAIN + ".po")


def mo_path(lang: str) -> str:
    return os.path.join(LOCALE, lang, "LC_MESSAGES", DOMAIN + ".mo")


def extract() -> Catalog:
    """Every msgid in host/sagat's Python files, with where it is."""
    template = Catalog(project="sagat", version=VERSION, domain=DOMAIN)
    for filename, lineno, message, comments, context in extract_from_dir(
        PACKAGE, METHOD_MAP, keywords=KEYWORDS, comment_tags=("i18n:",), strip_comment_tags=True
    ):
        template.add(message, None, [(os.path.join("host", "sagat", filename), lineno)],
                     auto_comments=comments, context=context)
    return template


def msgids(catalog: Catalog) -> set:
    """Each message's (msgid, msgctxt)."""
    return {(m.id, m.context) for m in catalog if m.id}


def page_entries(catalog: Catalog) -> list:
    """The page's words in a catalogue (msgctxt "page:KEY"), in its order."""
    return [m for m in catalog if m.id and (m.context or "").startswith(PAGE)]


def translated(message) -> bool:
    """Whether a catalogue's message has its translation (a plural one: every form)."""
    forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return all(forms)


def read(lang: str) -> Catalog:
    with open(po_path(lang), "rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def mo_bytes(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


def write(lang: str, catalog: Catalog) -> None:
    os.makedirs(os.path.dirname(po_path(lang)), exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, width=120, omit_header=False, sort_output=False, ignore_obsolete=True)
    with open(po_path(lang), "wb") as fh:
        fh.write(buf.getvalue())


def compile_lang(lang: str) -> None:
    with open(mo_path(lang), "wb") as fh:
        fh.write(mo_bytes(read(lang)))


def tables(catalogs: dict) -> dict:
    """The page's tables the catalogues make, {lang: {key: text}}: English from the msgids (the first
    catalogue's), each language its translations (a missing one left out: the page says the English)."""
    out = {"en": {m.context[len(PAGE):]: m.id for m in page_entries(catalogs[LANGS[0]])}}
    for lang in LANGS:
        out[lang] = {m.context[len(PAGE):]: m.string for m in page_entries(catalogs[lang]) if m.string}
    return out


def table_path(lang: str) -> str:
    return os.path.join(STATIC_LANG, lang + ".json")


def table_text(table: dict) -> str:
    return json.dumps(table, ensure_ascii=False, indent=0) + "\n"


def write_tables() -> None:
    made = tables({lang: read(lang) for lang in LANGS})
    os.makedirs(STATIC_LANG, exist_ok=True)
    for lang, table in made.items():
        with open(table_path(lang), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(table_text(table))


def compile_all() -> None:
    for lang in LANGS:
        compile_lang(lang)
    write_tables()


def update() -> None:
    template = extract()
    for lang in LANGS:  # the page's words are the catalogues' own: kept (each catalogue gets any another has)
        if os.path.exists(po_path(lang)):
            for m in page_entries(read(lang)):
                if template.get(m.id, context=m.context) is None:
                    template.add(m.id, None, context=m.context)
    for lang in LANGS:
        if os.path.exists(po_path(lang)):
            catalog = read(lang)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="sagat", version=VERSION,
                              header_comment=HEADER.format(name=NAMES[lang]))
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False, update_creation_date=False)
        for m in catalog:  # never fuzzy: a msgid is translated or not
            if m.id:
                m.flags.discard("fuzzy")
        catalog.fuzzy = False
        catalog.header_comment = HEADER.format(name=NAMES[lang])
        catalog.revision_date = catalog.creation_date  # stable headers: a rerun changes nothing
        write(lang, catalog)
        done = sum(1 for m in catalog if m.id and translated(m))
        print(f"{lang}: {len(msgids(catalog))} msgids, {done} translated")
    compile_all()


def check() -> int:
    wanted = msgids(extract())
    bad = 0
    catalogs = {lang: read(lang) for lang in LANGS}
    for lang, catalog in catalogs.items():
        have = {(m.id, m.context): m for m in catalog if m.id}
        missing = sorted(f"{c}: {i}" if c else str(i) for i, c in wanted - set(have))
        empty = [k for k, m in have.items() if not translated(m)]
        stale = not os.path.exists(mo_path(lang)) or open(mo_path(lang), "rb").read() != mo_bytes(catalog)
        print(f"{lang}: {len(have)} msgids, {len(have) - len(empty)} translated; missing {len(missing)}"
              f"{'; the .mo is stale' if stale else ''}")
        for i in missing[:20]:
            print(f"  missing: {i!r}")
        bad += bool(missing) + stale
    pages = {lang: [(m.context, m.id) for m in page_entries(c)] for lang, c in catalogs.items()}
    for lang in LANGS[1:]:
        if pages[lang] != pages[LANGS[0]]:
            print(f"{lang}: its page entries (msgctxt \"page:KEY\") are not {LANGS[0]}'s: "
                  f"{sorted(set(pages[lang]) ^ set(pages[LANGS[0]]))[:5]}")
            bad += 1
    for lang, table in tables(catalogs).items():
        path = table_path(lang)
        if not os.path.exists(path) or open(path, encoding="utf-8").read() != table_text(table):
            print(f"{os.path.relpath(path, ROOT)} is not what the catalogues make: `python tools/i18n.py compile`"
                  " (or, if it was edited by hand, `python tools/i18n.py import-page` first)")
            bad += 1
    return 1 if bad else 0


def import_page(folder: str) -> int:
    """The page's tables in folder into the catalogues: their page entries become en.json's keys in its
    order, each msgid its English and each msgstr the language's text ("" where its table has none)."""
    def read_table(lang: str) -> dict:
        path = os.path.join(folder, lang + ".json")
        if not os.path.exists(path) and lang != "en":
            return {}
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)

    english = read_table("en")
    for lang in LANGS:
        table = read_table(lang)
        catalog = read(lang)
        for m in page_entries(catalog):
            catalog.delete(m.id, context=m.context)
        for key, text in english.items():
            catalog.add(text, table.get(key, ""), context=PAGE + key)
        write(lang, catalog)
        print(f"{lang}: {len(english)} page words, {sum(1 for k in english if table.get(k))} translated")
    compile_all()
    return 0


def former_words(path: str) -> dict:
    """REPORT, MONTHS and DATE of a round/words.py of the former kind, read (not run): {name: value}."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), path)
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in ("REPORT", "MONTHS", "DATE"):
                try:
                    out[node.targets[0].id] = ast.literal_eval(node.value)
                except ValueError:
                    pass  # (this kind's own: NC_(...) calls)
    return out


def code_words() -> dict:
    """round/words.py's words: {REPORT's key, "month_N", "date": its English (msgctxt "report")}."""
    with open(WORDS, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), WORDS)
    english = lambda call: call.args[1].value  # noqa: E731  (NC_("report", "the English"))
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if name == "REPORT":
                out.update({k.value: english(v) for k, v in zip(value.keys, value.values, strict=True)})
            elif name == "MONTHS":
                out.update({f"month_{i}": english(v) for i, v in enumerate(value.elts, 1)})
            elif name == "DATE":
                out["date"] = english(value)
    return out


def import_report(path: str) -> int:
    """The words of a former round/words.py (REPORT = {key: (en, kk, ru, ky)}; MONTHS and DATE = {lang: ...})
    into the catalogues' "report" entries; 1 when a word could not be taken (each named)."""
    former = former_words(path)
    order = ("en", "kk", "ru", "ky")
    report = former.get("REPORT", {})
    problems = [f"{key}: not four texts (en, kk, ru, ky)" for key, texts in report.items() if len(texts) != len(order)]
    said = {key: dict(zip(order, texts, strict=True)) for key, texts in report.items() if len(texts) == len(order)}
    for i in range(12 if "MONTHS" in former else 0):
        said[f"month_{i + 1}"] = {lang: names.split()[i] for lang, names in former["MONTHS"].items()}
    if "DATE" in former:
        said["date"] = dict(former["DATE"])
    code = code_words()
    wanted = {}
    for key, texts in said.items():
        if key not in code:
            problems.append(f"{key}: not a word of round/words.py (add it there, then import again)")
            continue
        if key.startswith("month_") or key == "date":  # (English writes the ISO date: the file's English unused)
            texts = {**texts, "en": code[key]}
        if texts["en"] != code[key]:
            problems.append(f"{key}: its English is {texts['en']!r}, round/words.py's {code[key]!r}: change it "
                            "there, then import again")
            continue
        for lang in LANGS:
            got = wanted.setdefault((code[key], lang), (key, texts[lang]))
            if got[1] != texts[lang]:
                problems.append(f"{key}: {lang} {texts[lang]!r}, {got[0]}: {got[1]!r}, one English "
                                f"{code[key]!r}: give one of them a context of its own")
    for lang in LANGS:
        catalog = read(lang)
        for (msgid, to), (_key, text) in wanted.items():
            if to == lang:
                m = catalog.get(msgid, context=REPORT)
                if m is None:
                    catalog.add(msgid, text, context=REPORT)
                else:
                    m.string = text
        write(lang, catalog)
    compile_all()
    dates = sum(1 for key in said if key not in report)
    print(f"{path}: {len(report)} report words and {dates} of its dates, {len(report) + dates - len(problems)} taken")
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "update"
    if what == "update":
        update()
        return 0
    if what == "compile":
        compile_all()
        return 0
    if what == "check":
        return check()
    try:
        if what == "import-page" and len(argv) <= 2:
            return import_page(argv[1] if len(argv) == 2 else STATIC_LANG)
        if what == "import-report" and len(argv) == 2:
            return import_report(argv[1])
    except (OSError, SyntaxError, ValueError, AttributeError, IndexError, KeyError, TypeError) as e:  # (not its kind)
        print(f"{what}: {e}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
