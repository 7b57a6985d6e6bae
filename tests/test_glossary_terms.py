"""docs/glossary.md is the one source of the project's words in Kazakh, Russian and Kyrgyz: each concept's
word per language and the words it rules out (a double, a calque, a word of the wrong language). Every
surface that speaks those languages is read here: the command's catalogues (msgstrs), the hall's page
tables (static/lang/*.json), the report's words (round/words.py), the clock's faces (words_kk/ru/ky.py)
and the guides (docs/kk, docs/ru, docs/ky). A surface using a ruled-out word fails, and so does a term of
the glossary that no surface of its language uses (a term the project does not speak has no row)."""

import importlib
import json
import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
LANGS = ("kk", "ru", "ky")
UNSPOKEN = "†"  # after a cell's word: no surface of that language says it yet (a rule book's word, kept for reference)


# -- the glossary's table ---------------------------------------------------------------------------------

def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def glossary_rows(text=None):
    """Each row of the glossary's tables as a dict: en, kk, ru, ky, source, and out: {lang: [word, ...]}."""
    text = GLOSSARY.read_text(encoding="utf-8") if text is None else text
    rows, header = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = _cells(line)
        if cells[0] == "en":
            header = cells
            continue
        if header is None or set("".join(cells)) <= set("-: "):
            continue
        assert len(cells) == len(header), (line, header)
        row = dict(zip(header, cells, strict=True))
        row["out"] = ruled_out(row.get("rules out", ""))
        rows.append(row)
    return rows


def ruled_out(cell):
    """'kk: үстел*; ky: тындыр*, даяр чек*' -> {'kk': ['үстел*'], 'ky': ['тындыр*', 'даяр чек*']}."""
    out = {}
    for part in filter(None, (p.strip() for p in cell.split(";"))):
        lang, _, words = part.partition(":")
        assert lang.strip() in LANGS and words.strip(), (cell, part)
        out.setdefault(lang.strip(), []).extend(w.strip() for w in words.split(",") if w.strip())
    return out


def term(cell):
    """A cell's term: its first word or phrase, without the brackets' glosses and the review marks."""
    cell = cell.replace("**(?)**", "").replace(UNSPOKEN, "")
    cell = re.sub(r"\([^)]*\)", " ", cell)
    first = re.split(r"[,;:/]| / ", cell)[0]
    return " ".join(first.replace("«", "").replace("»", "").split())


# -- matching: whole words, Cyrillic folded --------------------------------------------------------------

def _fold(text):
    return text.casefold().replace("ё", "е")


def ruled_out_pattern(word):
    """A ruled-out word as a regex on folded text: whole words (\\w is Unicode: Cyrillic letters are word
    letters), spaces as any white space, a trailing * for any ending."""
    star = word.endswith("*")
    words = _fold(word.rstrip("*")).split()
    body = r"\s+".join(re.escape(w) for w in words)
    return re.compile(r"(?<!\w)" + body + (r"\w*" if star else "") + r"(?!\w)")


def _stem(word):
    """A term's word as it takes endings: Kazakh and Kyrgyz add them (тақта, тақтаның), Russian changes its
    last vowel (доска, доски): a word of more than four letters loses a last vowel, й or ь."""
    return word[:-1] if len(word) > 4 and word[-1] in "аеиоуыэюяйьәөүұі" else word


def term_pattern(text):
    words = [_stem(w) for w in _fold(text).split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) + r"\w*" for w in words))


# -- the surfaces -------------------------------------------------------------------------------------------

def _po(lang):
    path = ROOT / "host" / "sagat" / "locale" / lang / "LC_MESSAGES" / "sagat.po"
    with open(path, "rb") as f:
        catalog = read_po(f)
    out = []
    for m in catalog:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        key = m.id if isinstance(m.id, str) else m.id[0]
        out += [(f"{path.relative_to(ROOT)}: {key!r}", s) for s in strings if s]
    return out


def _flat(value, key=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flat(v, f"{key}.{k}" if key else k)
    elif isinstance(value, str):
        yield key, value


def _page(lang):
    path = ROOT / "host" / "sagat" / "hall" / "static" / "lang" / f"{lang}.json"
    table = json.loads(path.read_text(encoding="utf-8"))
    return [(f"{path.relative_to(ROOT)}: {k}", v) for k, v in _flat(table)]


def _report(lang):
    # the report's words in lang as the report says them (round/words.py's words(lang): the entries
    # of the catalogue's "report" context, which the catalogues' surface scans too)
    from sagat.round import words as report_words

    said = report_words.words(lang)
    path = "host/sagat/round/words.py"
    return [(f"{path}: {k}", said(k)) for k in report_words.REPORT]


def _faces(lang):
    sys.path.insert(0, str(ROOT / "firmware"))
    try:
        pairs = importlib.import_module("sagatfw.faces.words_" + lang).WORDS
    finally:
        sys.path.remove(str(ROOT / "firmware"))
    where = "firmware/sagatfw/faces/" + f"words_{lang}.py"  # (built: not a path the docs' reference test reads)
    return [(f"{where}: {pairs[i]!r}", pairs[i + 1]) for i in range(0, len(pairs), 2)]


def _guides(lang):
    out = []
    for path in sorted((ROOT / "docs" / lang).glob("*.md")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            out.append((f"{path.relative_to(ROOT)}:{n}", line))
    return out


def surfaces(lang):
    """(where, text) of every text in lang on every surface."""
    return _po(lang) + _page(lang) + _report(lang) + _faces(lang) + _guides(lang)


# -- the tests ----------------------------------------------------------------------------------------------

def test_the_glossary_has_its_columns_and_a_term_in_every_language():
    rows = glossary_rows()
    assert len(rows) > 80
    for row in rows:
        assert set(LANGS) <= set(row) and "source" in row and "rules out" in row, row["en"]
        for lang in LANGS:
            assert term(row[lang]), (row["en"], lang)
    # the doubles the glossary settled are ruled out where the other word was used
    settled = {}
    for row in rows:
        settled.setdefault(row["en"].split(" (")[0], row["out"])  # (the first "board" is the game's)
    assert "үстел*" in settled["board"]["kk"] and "тындыр*" in settled["pause"]["ky"]
    assert "матч*" in settled["match, bout"]["kk"] and "дайын баптау*" in settled["preset"]["kk"]


def test_the_matching_is_whole_words_with_cyrillic_case_folded():
    assert ruled_out_pattern("үстел*").search(_fold("BOARD: ҮСТЕЛДІҢ НӨМІРІ"))
    assert ruled_out_pattern("әдеп").search(_fold("ӘДЕП"))
    assert not ruled_out_pattern("әдеп").search(_fold("әдепкі: 3"))  # no star: the word alone
    assert not ruled_out_pattern("матч*").search(_fold("ойындардың орнына"))
    assert not ruled_out_pattern("тірек").search(_fold("тіреккө"))
    assert not ruled_out_pattern("бас").search(_fold("Бастаушы"))  # a word's start is no word
    assert not ruled_out_pattern("идёт вверх").search(_fold("идёт  вверхний"))
    assert ruled_out_pattern("идёт вверх").search(_fold("время ИДЕТ\nвверх"))  # ё as е, any white space
    assert ruled_out_pattern("кок-бөрү").search(_fold("(КОК-БӨРҮ)")) and not ruled_out_pattern("кок-бөрү").search(
        _fold("көк-бөрү"))
    assert term("баштоочу (биринчи оюнчу) **(?)**") == "баштоочу"
    assert term("(сағатты) іске қосу") == "іске қосу" and term("блиц, рапид") == "блиц"
    assert term_pattern("тақта").search(_fold("ТАҚТАНЫҢ")) and term_pattern("доска").search(_fold("доски"))


@pytest.mark.parametrize("lang", LANGS)
def test_no_surface_uses_a_word_the_glossary_rules_out(lang):
    rules = [(row["en"], word, ruled_out_pattern(word)) for row in glossary_rows() for word in row["out"].get(lang, ())]
    assert rules, lang
    hits = []
    for where, text in surfaces(lang):
        folded = _fold(text)
        for concept, word, pattern in rules:
            if pattern.search(folded):
                hits.append(f"{where}: {word!r} ({concept}) in {text[:90]!r}")
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize("lang", LANGS)
def test_every_glossary_term_is_used_on_a_surface_of_its_language(lang):
    texts = [_fold(text) for _, text in surfaces(lang)]
    unused, marked_but_used = [], []
    for row in glossary_rows():
        word = term(row[lang])
        used = any(term_pattern(word).search(t) for t in texts)
        if UNSPOKEN in row[lang] and used:
            marked_but_used.append(f"{row['en']}: {word}")  # a surface says it now: the mark goes
        elif UNSPOKEN not in row[lang] and not used:
            unused.append(f"{row['en']}: {word}")
    assert not unused, "\n".join(unused)
    assert not marked_but_used, "\n".join(marked_but_used)


@pytest.mark.parametrize("lang", LANGS)
def test_the_report_sends_the_code_to_the_scoresheet_by_its_glossary_name(lang):
    # the report's "compare the scoresheet" (code_keyed) names the scoresheet (TK-R8's жазу бланкасы, бланк
    # записи, жазуу бланкы), not a protocol (kk хаттама is the serial protocol in the guides)
    row = next(r for r in glossary_rows() if r["en"] == "scoresheet")
    said = dict(_report(lang))["host/sagat/round/words.py: code_keyed"]
    assert term_pattern(term(row[lang])).search(_fold(said)), (term(row[lang]), said)
