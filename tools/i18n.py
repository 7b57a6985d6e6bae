"""The `sagat` command's translations: extract, merge and compile its gettext catalogues with Babel.

    python tools/i18n.py update    # extract every _() / N_() / ngettext() msgid of host/sagat (the whole
                                   # tree: the hall's and the report's too), merge them into each
                                   # host/sagat/locale/<lang>/LC_MESSAGES/sagat.po, compile the .mo beside it
    python tools/i18n.py compile   # only compile each .po into its .mo
    python tools/i18n.py check     # exit 1 if a msgid is missing from a .po, is untranslated, or a .mo is stale

A new msgid comes into each .po untranslated (msgstr ""): the English text is shown until a translator
fills it in. Nothing is ever marked fuzzy (no fuzzy matching), and a msgid gone from the code is dropped.
Needs Babel (`pip install -e .[dev]`).
"""

from __future__ import annotations

import io
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
KEYWORDS = {"_": None, "N_": None, "Nn_": (1, 2), "ngettext": (1, 2)}
METHOD_MAP = [("**.py", "python")]
HEADER = """\
# {name} translations of the `sagat` command (host/sagat), domain "sagat".
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
    return {m.id for m in catalog if m.id}


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


def update() -> None:
    template = extract()
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
        compile_lang(lang)
        done = sum(1 for m in catalog if m.id and translated(m))
        print(f"{lang}: {len(msgids(catalog))} msgids, {done} translated")


def check() -> int:
    wanted = msgids(extract())
    bad = 0
    for lang in LANGS:
        catalog = read(lang)
        have = {m.id: m for m in catalog if m.id}
        missing = sorted(str(i) for i in wanted - set(have))
        empty = sorted(str(i) for i, m in have.items() if not translated(m))
        stale = not os.path.exists(mo_path(lang)) or open(mo_path(lang), "rb").read() != mo_bytes(catalog)
        print(f"{lang}: {len(have)} msgids, {len(have) - len(empty)} translated; missing {len(missing)}"
              f"{'; the .mo is stale' if stale else ''}")
        for i in missing[:20]:
            print(f"  missing: {i!r}")
        bad += bool(missing) + stale
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "update"
    if what == "update":
        update()
        return 0
    if what == "compile":
        for lang in LANGS:
            compile_lang(lang)
        return 0
    if what == "check":
        return check()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
