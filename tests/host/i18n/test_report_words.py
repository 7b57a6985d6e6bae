"""The report's words (`sagat report`'s pages, round/words.py's words(lang)) are the gettext catalogues'
entries with msgctxt "report": a translation changed in a catalogue is what the report says, its dates'
months and their order too; and `python tools/i18n.py import-report FILE` takes the words of a
round/words.py of the former kind (REPORT = {key: (en, kk, ru, ky)}) into the catalogues."""

from __future__ import annotations

import pytest
from i18nkit import copied_words, tool

from sagat.round import pages, words

pytest.importorskip("babel", reason="Babel reads and writes the catalogues: install the dev extra")


def _retranslate(locale, lang: str, msgid: str, old: str, new: str) -> None:
    po = locale / lang / "LC_MESSAGES" / "sagat.po"
    text = po.read_text(encoding="utf-8")
    entry = f'msgctxt "report"\nmsgid "{msgid}"\nmsgstr "{old}"\n'
    assert entry in text, entry
    po.write_text(text.replace(entry, f'msgctxt "report"\nmsgid "{msgid}"\nmsgstr "{new}"\n'), encoding="utf-8")


def test_the_reports_kazakh_words_are_the_catalogues(tmp_path, monkeypatch):
    assert words.words("kk")("results") == "Нәтижелер"
    assert pages.board_title("board-08-e6614103e7", "kk") == "8-тақта (e6614103e7 сағаты)"
    assert words.date_text("2026-12-07", "kk") == "7 желтоқсан 2026"
    locale, _tables = copied_words(tmp_path, monkeypatch)
    _retranslate(locale, "kk", "Results", "Нәтижелер", "Турдың нәтижелері")
    _retranslate(locale, "kk", "Board {n} (clock {clock})", "{n}-тақта ({clock} сағаты)", "{n}-тақта, {clock} сағаты")
    _retranslate(locale, "kk", "December", "желтоқсан", "Желтоқсан")
    _retranslate(locale, "ky", "{d} {month} {y}", "{d}-{month} {y}", "{y}-ж. {d}-{month}")
    assert tool.main(["compile"]) == 0
    assert words.words("kk")("results") == "Турдың нәтижелері"
    assert pages.board_title("board-08-e6614103e7", "kk") == "8-тақта, e6614103e7 сағаты"
    assert words.date_text("2026-12-07", "kk") == "7 Желтоқсан 2026"
    assert words.date_text("2026-12-07", "ky") == "2026-ж. 7-декабрь"
    assert words.words("ru")("results") == "Результаты" and words.words("en")("results") == "Results"


def _former(path, report: dict) -> None:
    path.write_text('"""round/words.py as it was."""\n\nREPORT = ' + repr(report) + "\n", encoding="utf-8")


def _report_entry(lang: str, msgid: str):
    return tool.read(lang).get(msgid, context="report")


def test_import_report_takes_a_former_words_files_texts_once(tmp_path, monkeypatch, capsys):
    locale, _tables = copied_words(tmp_path, monkeypatch)
    former = tmp_path / "words.py"
    _former(former, {"results": ("Results", "Турдың нәтижелері", "Итоги", "Натыйжалар"),
                     "col_board": ("board", "тақта", "доска", "такта")})
    assert tool.main(["import-report", str(former)]) == 0
    assert [_report_entry(x, "Results").string for x in ("kk", "ru", "ky")] == [
        "Турдың нәтижелері", "Итоги", "Натыйжалар"]
    assert words.words("ru")("results") == "Итоги"  # (compiled: the report says it at once)
    catalogues = {lang: tool.po_path(lang) for lang in tool.LANGS}
    before = {lang: open(p, "rb").read() for lang, p in catalogues.items()}
    assert tool.main(["import-report", str(former)]) == 0  # again: nothing changes
    assert {lang: open(p, "rb").read() for lang, p in catalogues.items()} == before
    assert tool.main(["check"]) == 0
    # an English text that is not the code's, a key the code has not, two words one English says twice
    _former(former, {"results": ("The results", "Нәтижелер", "Результаты", "Натыйжалар"),
                     "nonesuch": ("nonesuch", "жоқ", "нет", "жок"),
                     "col_log": ("log", "журнал", "журнал", "журнал"), "log": ("log", "жазба", "журнал", "журнал")})
    capsys.readouterr()
    assert tool.main(["import-report", str(former)]) == 1
    out = capsys.readouterr().out
    assert "results" in out and "The results" in out and "nonesuch" in out and "col_log" in out, out
