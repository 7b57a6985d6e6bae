"""The hall page's tables (host/sagat/hall/static/lang/<lang>.json) are made from the gettext catalogues:
each word of the page is an entry with msgctxt "page:KEY" (KEY the table's key, the msgid its English),
`python tools/i18n.py compile` writes the four tables (English from the msgids; a translation missing is
left out of its table, and the page says the English), `check` fails while a
table is not what its catalogue makes, and `import-page` takes tables someone edited back into the
catalogues, their texts winning, as often as it is run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from i18nkit import copied_words, tool

from sagat.i18n import LANGUAGES

pytest.importorskip("babel", reason="Babel reads and writes the catalogues: install the dev extra")


def _page_entries(lang: str) -> list:
    return [m for m in tool.read(lang) if m.id and (m.context or "").startswith("page:")]


def _table(folder, lang: str) -> dict:
    with open(f"{folder}/{lang}.json", encoding="utf-8") as fh:
        return json.load(fh)


def test_each_table_is_its_catalogues_page_entries():
    english = {m.context[len("page:"):]: m.id for m in _page_entries("kk")}
    assert len(english) > 300  # (every word of the page)
    assert _table(tool.STATIC_LANG, "en") == english
    assert list(_table(tool.STATIC_LANG, "en")) == list(english)  # (in the catalogue's order)
    for lang in set(LANGUAGES) - {"en"}:
        entries = _page_entries(lang)
        assert {m.context[len("page:"):]: m.id for m in entries} == english, lang  # the same keys, the same English
        # the table: each translation the catalogue has (one it has not: left out, the page says the English)
        assert _table(tool.STATIC_LANG, lang) == {m.context[len("page:"):]: m.string for m in entries if m.string}
        assert all(m.string for m in entries), (lang, [m.context for m in entries if not m.string])  # (and all)


def test_a_table_out_of_date_with_its_catalogue_fails_check(tmp_path, monkeypatch, capsys):
    committed = Path(tool.STATIC_LANG)
    _locale, tables = copied_words(tmp_path, monkeypatch)
    assert tool.main(["check"]) == 0
    kk = _table(tables, "kk")
    kk["btn_start"] = "Турды қазір бастау"  # (an edit by hand, not in the catalogue)
    (tables / "kk.json").write_text(json.dumps(kk, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert tool.main(["check"]) == 1
    assert "kk.json" in capsys.readouterr().out
    en = _table(tables, "en")
    del en["btn_start"]
    (tables / "kk.json").unlink()
    (tables / "en.json").write_text(json.dumps(en, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    assert tool.main(["check"]) == 1
    assert tool.main(["compile"]) == 0  # compile writes them again from the catalogues
    assert tool.main(["check"]) == 0
    assert (tables / "kk.json").read_bytes() == (committed / "kk.json").read_bytes()
    assert (tables / "en.json").read_bytes() == (committed / "en.json").read_bytes()


def test_compile_writes_a_changed_translation_into_its_table(tmp_path, monkeypatch):
    locale, tables = copied_words(tmp_path, monkeypatch)
    po = locale / "ru" / "LC_MESSAGES" / "sagat.po"
    text = po.read_text(encoding="utf-8")
    old = 'msgctxt "page:btn_start"\nmsgid "Start round"\nmsgstr "Начать тур"\n'
    assert old in text
    po.write_text(text.replace(old, old.replace('"Начать тур"', '"Начать тур сейчас"')), encoding="utf-8")
    assert tool.main(["compile"]) == 0
    assert _table(tables, "ru")["btn_start"] == "Начать тур сейчас"
    assert _table(tables, "en")["btn_start"] == "Start round"


def _write(folder, lang: str, table: dict) -> None:
    (folder / f"{lang}.json").write_text(json.dumps(table, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def test_import_page_takes_the_tables_texts_into_the_catalogues_once(tmp_path, monkeypatch):
    locale, tables = copied_words(tmp_path, monkeypatch)
    edited = {lang: _table(tables, lang) for lang in LANGUAGES}
    edited["kk"]["btn_start"] = "Турды қазір бастау"  # a translation changed
    edited["en"]["btn_pause"] = "Pause every clock"  # an English text changed, its translations kept
    for lang, text in (("en", "A new word"), ("kk", "Жаңа сөз"), ("ru", "Новое слово")):
        edited[lang]["new_word"] = text  # a new key (ky: not translated yet)
    del edited["ru"]["btn_resume"]  # a translation gone from one table
    for lang, table in edited.items():
        _write(tables, lang, table)
    assert tool.main(["import-page"]) == 0
    kk = {m.context: m for m in _page_entries("kk")}
    assert (kk["page:btn_start"].id, kk["page:btn_start"].string) == ("Start round", "Турды қазір бастау")
    assert kk["page:btn_pause"].id == "Pause every clock" and kk["page:btn_pause"].string == edited["kk"]["btn_pause"]
    assert (kk["page:new_word"].id, kk["page:new_word"].string) == ("A new word", "Жаңа сөз")
    ky = {m.context: m for m in _page_entries("ky")}
    assert (ky["page:new_word"].id, ky["page:new_word"].string) == ("A new word", "")
    ru = {m.context: m for m in _page_entries("ru")}
    assert ru["page:btn_resume"].string == ""
    catalogues = {lang: tool.po_path(lang) for lang in tool.LANGS}
    before = {lang: open(p, "rb").read() for lang, p in catalogues.items()}
    assert tool.main(["import-page"]) == 0  # again: nothing changes
    assert {lang: open(p, "rb").read() for lang, p in catalogues.items()} == before
    # the tables made from the catalogues now are the tables imported (a word not translated is left out:
    # the page says its English)
    for lang in LANGUAGES:
        assert _table(tables, lang) == edited[lang], lang
        assert list(_table(tables, lang)) == [k for k in edited["en"] if k in edited[lang]], lang
    assert tool.main(["check"]) == 0
    tool.main(["update"])  # update keeps the page's entries as they are
    assert {lang: open(p, "rb").read() for lang, p in catalogues.items()} == before
