"""The hall page's words: one table a language (host/sagat/hall/static/lang/<lang>.json), each with every
key the English one has and the same {names} in each text; every key the page's scripts look up (t("key"),
or kept for later with k("key")), the words of each action the hall serves the page (acts.py) and every
data-i18n key of index.html are in them; the terms are the
Kazakh rule book's, Russian tournament usage and Kyrgyz. The server's /api/lang: --lang, else the
browser's Accept-Language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from webkit import asgi_get

from sagat.hall import acts, web
from sagat.hall import lang as hall_lang
from sagat.i18n import LANGUAGES
from sagat.round.words import words as report_words

STATIC = Path(web.__file__).parent / "static"
NAMES = re.compile(r"\{([a-z_]+)\}")


def _table(lang: str) -> dict:
    return json.loads((STATIC / "lang" / f"{lang}.json").read_text(encoding="utf-8"))


def _used() -> set[str]:
    js = "\n".join(p.read_text(encoding="utf-8") for p in sorted(STATIC.glob("*.js")))  # (the page's modules)
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    keys = set(re.findall(r'\b[tk]\(\s*"([^"]+)"', js))
    keys |= set(re.findall(r'data-i18n(?:-title|-placeholder)?="([^"]+)"', html))
    keys |= {a["label"] for table in acts.page().values() for a in table}  # (the dialog's actions: the server's)
    # a key built at run time would escape this test: the page's scripts spell each one out
    assert not re.search(r'\bt\(\s*[`\'"][^`\'"]*[`\'"]\s*\+', js), "t(\"...\" + x): spell the key out (k(\"...\"))"
    assert not re.search(r"\bt\(\s*`", js), "t(`...`): spell the key out"
    return keys


def test_every_language_has_every_english_key():
    en = _table("en")
    assert set(LANGUAGES) == {"kk", "ru", "ky", "en"}
    for lang in LANGUAGES:
        table = _table(lang)
        assert set(table) == set(en), (lang, set(en) ^ set(table))
        for key, text in table.items():
            assert isinstance(text, str) and text.strip(), (lang, key)
            if key == "date":  # (English writes {iso}, 2026-12-07; the others {d} {month} {y})
                assert set(NAMES.findall(text)) <= {"iso", "d", "month", "y"}, (lang, text)
            else:
                assert set(NAMES.findall(text)) == set(NAMES.findall(en[key])), (lang, key, text)


def test_hall_js_uses_no_key_missing_from_the_tables():
    used = _used()
    assert len(used) > 150  # (the regexes found the page's words)
    en = _table("en")
    assert used - set(en) == set()
    assert set(en) - used - {"_language"} == set()  # no word kept that nothing shows


def test_the_page_is_not_left_in_english_by_a_key():
    # a word that should change with the language and did not (a copy of the English left in a table)
    same_ok = {"btn_projector", "code", "col_code", "battery", "hall_of", "log_ok", "ev_t", "f_card", "mact_card",
               "col_log", "ms", "date", "_language",
               "list_comma", "list_semicolon", "note_mqtt"}  # (the server's: "{a}, {b}", "MQTT {host}:{port}: {why}")
    for lang in ("kk", "ru", "ky"):
        table, en = _table(lang), _table("en")
        same = {k for k in en if table[k] == en[k]} - same_ok
        assert not same, (lang, same)
        assert not re.search(r"[a-z]{4,}", " ".join(NAMES.sub("", v) for k, v in table.items()
                                                    if k not in ("label_tc_title", "footer", "no_clocks", "read_only",
                                                                 "btn_identify", "label_mode_title",
                                                                 # the server's: a command's, an option's words
                                                                 "err_give_cmd", "err_no_ticks", "err_read_only",
                                                                 "mqtt_twin", "alert_twin_halls",
                                                                 # a clock's refusal naming its command
                                                                 "why_resume_adjourned_game",
                                                                 "why_state_resume_adjourned"))
                             .replace("TimeControl", "").replace("tk-blitz", "").replace("tk-rapid", "")
                             .replace("key-file", "").replace("sagat", "")), lang


def test_the_rule_books_terms():
    kk, ru, ky = _table("kk"), _table("ru"), _table("ky")
    # Kazakh (the rule book, toguz-kumalak.kk.txt): бастаушы the first player, жалауша the flag, төреші
    assert kk["label_first"] == "бастаушы" and kk["mark_flag"] == "ЖАЛАУША" and "жалауша" in kk["state_flagged"]
    assert kk["btn_arbiter"] == "төреші" and kk["col_board"] == "тақта" and kk["col_result"] == "нәтиже"
    # Russian tournament usage: флажок, контроль времени, судья, тур, доска, результат
    assert ru["mark_flag"] == "ФЛАЖОК" and ru["label_tc"] == "контроль времени" and ru["btn_arbiter"] == "судья"
    assert ru["btn_start"] == "Начать тур" and ru["col_board"] == "доска" and ru["col_result"] == "результат"
    # Kyrgyz: калыс (the arbiter), такта, коргоол (тогуз коргоол's)
    assert ky["btn_arbiter"] == "калыс" and ky["col_board"] == "такта" and "коргоол" in ky["kazans_hint_title"]
    # the report's too
    assert report_words("kk")("certificate").startswith("Жалауша")
    assert report_words("ru")("certificate") == "Акт о падении флажка"
    assert report_words("kk")("first_player", side="сол") == "бастаушы: сол"


@pytest.mark.parametrize("header, want", [
    ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"), ("kk-KZ,kk;q=0.9,ru;q=0.8", "kk"), ("ky", "ky"),
    ("de-DE,de;q=0.9,ru;q=0.5", "ru"), ("en;q=0.5,ky;q=0.8", "ky"), ("de-DE", None), ("", None), (None, None),
    ("ru;q=0", None), ("ru;q=x,kk", "kk"),
])
def test_accept_language(header, want):
    assert hall_lang.accept(header) == want


class _Hall:
    def view(self):
        return {"boards": []}


def _get(app, path: str, headers: dict) -> tuple[int, object]:
    """GET path from the ASGI app (no server, no HTTP client): (status, the JSON body)."""
    status, _headers, body = asgi_get(app, path, headers)
    return status, json.loads(body)


@pytest.mark.parametrize("lang, header, want", [
    ("kk", "ru-RU,ru;q=0.9", "kk"),  # --lang wins over the browser
    (None, "ru-RU,ru;q=0.9", "ru"), (None, "ky-KG", "ky"), (None, "fr-FR", "en"), (None, None, "en"),
])
def test_api_lang(lang, header, want):
    app = web.make_app(_Hall(), lang=lang)
    status, got = _get(app, "/api/lang", {"Accept-Language": header} if header else {})
    assert status == 200 and got == {"lang": want, "languages": ["kk", "ru", "ky", "en"], "hall": lang}
    for x in LANGUAGES:  # each table is served with the page
        assert _get(app, f"/static/lang/{x}.json", {}) == (200, _table(x))


def test_make_app_refuses_another_language():
    with pytest.raises(ValueError):
        web.make_app(_Hall(), lang="de")
