"""The hall page in Chromium in the arbiters' languages: `sagat hall --lang kk` shows Kazakh; without
--lang a browser asking for Russian (its Accept-Language, set through the DevTools protocol) gets
Russian; the page's selector switches every word at once (buttons, cards, the results table, the
confirmations) and the choice is kept in the browser over a reload. Headless Chromium as in
test_hall_browser.py (tests/kits/browserkit.py); without it the test skips (under CI it fails)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import urllib.request

import pytest
from browserkit import CARDS, WAIT, answer, chromium, need_browser, start_hall, stop_hall, text_of, until

N = 2
KEY = b"hall arbiter key"


def _hall(extra: list[str]):
    need_browser()
    tmp = tempfile.mkdtemp(prefix="sagat-hall-lang-")
    pairs = os.path.join(tmp, "pairings.csv")
    with open(pairs, "w", encoding="utf-8") as fh:
        fh.write("board,left,right\n1,Асель,Бекзат\n2,Ержан,Мирас\n")
    key_file = os.path.join(tmp, "key")
    with open(key_file, "wb") as fh:
        fh.write(KEY)
    try:
        proc, url, _t0 = start_hall(["--sim", str(N), "--pairings", pairs, "--key-file", key_file, "--out",
                                     os.path.join(tmp, "logs"), "--timeout", "10", "--event", "Чемпионат",
                                     "--round", "3", "--date", "2026-12-07", *extra], N)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return proc, url, tmp


@pytest.fixture(scope="module")
def kk_hall():
    proc, url, tmp = _hall(["--lang", "kk"])
    yield url
    stop_hall(proc, N)
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def any_hall():
    proc, url, tmp = _hall([])
    yield url
    stop_hall(proc, N)
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture
def browser():
    yield from chromium()


def _text(d, element_id: str) -> str:
    return d.execute_script(f"return document.getElementById('{element_id}').textContent")


def _shown(d, lang: str) -> None:
    until(d, f"document.body.dataset.lang == '{lang}' && {CARDS}.length == {N} && "
             f"{CARDS}.every(a => a.dataset.link == 'up')", WAIT, f"the page in {lang}")


def test_lang_kk_shows_kazakh_and_the_selector_switches(kk_hall, browser):
    d = browser
    d.get(kk_hall)
    _shown(d, "kk")
    assert d.execute_script("return document.documentElement.lang") == "kk"
    assert d.find_element("id", "btn-start").text == "Турды бастау"
    assert d.find_element("id", "btn-setup").text == "Барлығын дайындау"
    assert d.find_element("id", "btn-pause").text == "Барлығын тоқтата тұру"
    assert _text(d, "event") == "Чемпионат \u00b7 3-тур \u00b7 7 желтоқсан 2026"
    until(d, "document.getElementById('summary').textContent.startsWith('2 тақта, 2 қосылған')", WAIT, "summary kk")
    page = d.find_element("tag name", "body").text
    assert "бастаушы" in page and "бақылау мерзімі" in page and "Нәтижелер" in page
    assert "тақта" in text_of(d, "#results thead")
    foot = text_of(d, "#board-1 .foot")
    assert "табу" in foot and "төреші" in foot, foot  # identify, arbiter…
    # a confirmation in Kazakh (cancelled: nothing happens)
    (asked,) = answer(d, "btn-pause", False)
    assert asked.startswith("Барлығын тоқтата тұру керек пе"), asked
    # the selector: Russian at once, every word
    d.execute_script("const s = document.getElementById('lang'); s.value = 'ru';"
                     "s.dispatchEvent(new Event('change'))")
    _shown(d, "ru")
    assert d.find_element("id", "btn-start").text == "Начать тур"
    assert _text(d, "event") == "Чемпионат \u00b7 тур 3 \u00b7 7 декабря 2026"
    until(d, "document.getElementById('summary').textContent.startsWith('досок: 2, на связи: 2')", WAIT, "summary ru")
    assert "судья" in text_of(d, "#board-1 .foot")
    assert "контроль времени" in d.find_element("id", "setup").text
    (asked,) = answer(d, "btn-start", False)
    assert asked.startswith("Начать тур: все подготовленные к нему доски стартуют"), asked
    assert d.execute_script("return localStorage.getItem('sagat-lang')") == "ru"
    # kept in this browser: a reload stays Russian though the hall's is Kazakh
    d.refresh()
    _shown(d, "ru")
    assert d.find_element("id", "btn-start").text == "Начать тур"
    # Kyrgyz, then English
    d.execute_script("const s = document.getElementById('lang'); s.value = 'ky';"
                     "s.dispatchEvent(new Event('change'))")
    _shown(d, "ky")
    assert d.find_element("id", "btn-start").text == "Турду баштоо"
    assert _text(d, "event") == "Чемпионат \u00b7 3-тур \u00b7 7-декабрь 2026"
    assert "калыс" in text_of(d, "#board-1 .foot")
    d.execute_script("const s = document.getElementById('lang'); s.value = 'en';"
                     "s.dispatchEvent(new Event('change'))")
    _shown(d, "en")
    assert d.find_element("id", "btn-start").text == "Start round"
    until(d, "document.getElementById('summary').textContent.startsWith('2 boards, 2 connected')", WAIT, "summary en")


def test_a_browser_asking_for_russian_gets_russian(any_hall, browser):
    d = browser
    # the browser's Accept-Language: Russian first (as a Russian-speaking arbiter's browser asks)
    ua = d.execute_script("return navigator.userAgent")
    d.execute_cdp_cmd("Network.enable", {})
    d.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": ua, "acceptLanguage": "ru-RU,ru;q=0.9,en;q=0.5"})
    d.get(any_hall)
    _shown(d, "ru")
    assert d.find_element("id", "btn-start").text == "Начать тур"
    assert d.find_element("id", "btn-resume").text == "Возобновить все"
    assert "Результаты" in text_of(d, "#results")
    until(d, "document.getElementById('summary').textContent.startsWith('досок: 2')", WAIT, "summary ru")
    assert d.execute_script("return localStorage.getItem('sagat-lang')") is None  # nothing chosen: the browser's
    # the same hall to a browser that asks for none of the four: English (and --lang none: each browser its own)
    with urllib.request.urlopen(urllib.request.Request(any_hall + "api/lang", headers={"Accept-Language": "de"}),
                                timeout=30) as r:
        assert json.load(r)["lang"] == "en"
    with urllib.request.urlopen(urllib.request.Request(any_hall + "api/lang", headers={"Accept-Language": "kk-KZ"}),
                                timeout=30) as r:
        assert json.load(r)["lang"] == "kk"


def _post(url: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(url + path, json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def test_the_halls_own_messages_are_said_in_kazakh(kk_hall, browser):
    # what the hall composes (a refusal, an action's report, a pull's verdict) comes with a code: the page
    # says it in its language, the API keeps its English (test_hall_said.py)
    d = browser
    d.get(kk_hall)
    _shown(d, "kk")
    d.execute_script("document.getElementById('tc').value = 'nonsense+'")
    d.find_element("id", "btn-setup").click()
    until(d, "document.getElementById('action').textContent.startsWith('бақылау мерзімі қате: ')", WAIT,
          "a refused control, said in Kazakh")
    d.execute_script("document.getElementById('tc').value = '600'")
    d.find_element("id", "btn-setup").click()
    until(d, "document.getElementById('action').textContent.startsWith('дайындау: 600: 2 орындалды')", WAIT,
          "set up, said in Kazakh")
    until(d, f"{CARDS}.every(a => a.dataset.state == 'setup')", WAIT, "both boards set up")
    answer(d, "btn-pause", True)  # nothing runs: both boards skipped, each with its clock's state
    until(d, "document.getElementById('action').textContent.startsWith('барлығын тоқтата тұру: 0 орындалды, "
             "2 өткізіліп жіберілді (1-тақта: дайындалды; 2-тақта: дайындалды)')", WAIT, "pause all, said in Kazakh")
    # a forfeit on board 1 (entered by a script, through the API): its log pulled and verified, said so on its card
    rep = _post(kk_hall, "api/board/1/result", {"result": "+/-"})
    assert rep["what"] == "board 1: result +/-" and rep["what_msg"] == {"key": "what_result", "n": 1, "result": "+/-"}
    until(d, "document.getElementById('action').textContent.startsWith('1-тақта: нәтиже +/-: 1 орындалды')", WAIT,
          "another's action, said in Kazakh")
    shown = until(d, "(document.querySelector('#board-1 [data-pull=\"verified\"]') || {}).textContent", WAIT,
                  "board 1's log verified")
    code = json.loads(urllib.request.urlopen(kk_hall + "api/state", timeout=30).read())["boards"][0]["result_code"]
    assert shown == f"расталды (код {code})", shown
