"""The hall page's marks say what the clock's faces say (the firmware's word tables are the source): the
default time of TK-C6 is a player's lateness (КЕШ., ОПОЗ, КЕЧ.), not a software default (ӘДЕП, УМОЛЧ,
ДЕМЕЙКИ), and low time is ТАПШ. / ЦЕЙТН. / ТАРТЫШ, not АЗ. The result dialog's kazans field says when the
counts are required (TK-R7, TK-C12: after a flag fall, for a draw or the flagged player's win) and never
calls them optional."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sagatfw
from sagat.hall import web

STATIC = Path(web.__file__).parent / "static"
LANGS = ("kk", "ru", "ky")


def _table(lang: str) -> dict:
    return json.loads((STATIC / "lang" / f"{lang}.json").read_text(encoding="utf-8"))


def _face(lang: str, word: str) -> str:
    try:
        sagatfw.use(lang)
        return sagatfw.T(word)
    finally:
        sagatfw.use("en")


@pytest.mark.parametrize("lang", LANGS)
def test_the_default_time_mark_is_the_faces_lateness_word_tk_c6(lang):
    table = _table(lang)
    assert table["mark_def"] == _face(lang, "DEF")
    assert "TK-C6" in table["mark_def_title"]
    # the title speaks of lateness, the word the glossary gives TK-C6 (кешігу, опоздание, кечигүү)
    assert {"kk": "кешігу", "ru": "опоздания", "ky": "кечигүү"}[lang] in table["mark_def_title"]


@pytest.mark.parametrize("lang", ("kk", "ky"))
def test_the_low_time_mark_is_the_faces_word(lang):
    assert _table(lang)["mark_low"] == _face(lang, "LOW")


OPTIONAL = {"en": "optional", "kk": "міндетті емес", "ru": "необязательн", "ky": "милдеттүү эмес"}
REQUIRED = {"en": "required", "kk": "міндетті", "ru": "обязательн", "ky": "милдеттүү"}


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_the_result_dialog_says_when_the_kazans_are_required_tk_r7_tk_c12(lang):
    table = _table(lang)
    label, tip = table["kazans_optional"], table["kazans_hint_title"]
    for text in (label, tip):
        assert OPTIONAL[lang] not in text.lower(), text
        assert REQUIRED[lang] in text.lower(), text
    assert "TK-R7" in tip and "TK-C12" in tip
    assert "82" in tip and "81" in tip  # what the counts show: 82 or more wins (TK-R7), under 81 lost (TK-C12)
