"""An action the clock refuses is shown in the dialog it was asked from, in the page's language, and the dialog
stays open to fix it (a result's kazans that make no sense, TK-R1, TK-R7; an action the clock's state does not
allow); done, the dialog closes. A real browser (Debian's Chromium, headless; skips without it, fails under CI)
on `sagat hall --lang kk` with a simulated clock, as the arbiter has it."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import urllib.request
from pathlib import Path

import pytest
from browserkit import CARDS, WAIT, answer, chromium, need_browser, press, start_hall, stop_hall, until

from sagat.hall import web

KEY = b"hall arbiter key, the refusals"
N = 1
KK = json.loads((Path(web.__file__).parent / "static" / "lang" / "kk.json").read_text(encoding="utf-8"))


def kk(key: str, **names) -> str:
    return re.sub(r"\{([a-z_]+)\}", lambda m: str(names.get(m.group(1), m.group(0))), KK[key])


@pytest.fixture(scope="module")
def hall():
    need_browser()
    tmp = tempfile.mkdtemp(prefix="sagat-hall-refused-")
    key_file = os.path.join(tmp, "key")
    with open(key_file, "wb") as fh:
        fh.write(KEY)
    try:
        proc, url, _t0 = start_hall(["--sim", str(N), "--key-file", key_file, "--out", os.path.join(tmp, "logs"),
                                     "--timeout", "10", "--lang", "kk"], N)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    yield url
    stop_hall(proc, N)
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(hall):
    yield from chromium()


def _post(url: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(url + path, json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=WAIT) as r:
        return json.load(r)


def _open(d, css: str, dialog: str) -> None:
    press(d, css)
    until(d, f"document.getElementById('{dialog}').open", WAIT, dialog)


def _english(text: str) -> list[str]:
    return re.findall(r"\b[a-z]{3,}\b", re.sub(r"TK-[A-Z]\d+", "", text))


def test_a_refused_action_is_shown_in_its_dialog_in_the_pages_language_and_the_dialog_stays_open(hall, browser):
    d = browser
    d.get(hall)
    until(d, f"document.body.dataset.lang == 'kk' && {CARDS}.length == {N} && "
             f"{CARDS}.every(a => a.dataset.link == 'up')", WAIT, "the page in Kazakh, the board up")
    assert _post(hall, "api/setup", {"tc": "600"})["done"] == N
    assert _post(hall, "api/start", {})["done"] == N
    until(d, f"{CARDS}.every(a => a.dataset.state == 'running')", WAIT, "the game running")

    # the arbiter's dialog: a resume while the game runs, refused by the clock (state_resume)
    _open(d, "#board-1 button[data-arbiter]", "act-dialog")
    d.execute_script("const c = document.getElementById('act-cmd'); c.value = 'resume';"
                     "c.dispatchEvent(new Event('change'));")
    answer(d, "act-do", True)
    said = until(d, "document.getElementById('act-refused')?.textContent", WAIT, "the refusal in the dialog")
    assert said == kk("err_clock_refused", reason=kk("why_state_resume", state=KK["state_running"])), said
    assert d.execute_script("return document.getElementById('act-dialog').open")
    d.find_element("id", "act-cancel").click()

    # the result dialog: 0-1 with kazans 90-61, which say left won (TK-R1, TK-R7): refused by the clock
    _open(d, "#board-1 button[data-result]", "result-dialog")
    d.execute_script("document.getElementById('res-kazans').value = '90-61'")
    d.find_element("css selector", "#res-pick button[data-pick='0-1']").click()
    d.find_element("id", "res-yes").click()
    said = until(d, "document.getElementById('res-refused')?.textContent", WAIT, "the refusal in the dialog")
    assert said == kk("err_clock_refused", reason=kk("why_kazans_over_half_left", left=90, right=61)), said
    assert _english(said) == [], said
    shown = d.execute_script("""const $ = (id) => document.getElementById(id);
        return {open: $('result-dialog').open, pick: !$('res-pick').hidden, kazans: $('res-kazans').value,
                visible: $('res-refused').getBoundingClientRect().height > 0};""")
    assert shown == {"open": True, "pick": True, "kazans": "90-61", "visible": True}, shown

    # fixed in the same dialog: entered, the dialog closes, the board shows the result
    d.execute_script("document.getElementById('res-kazans').value = '61-90'")
    d.find_element("css selector", "#res-pick button[data-pick='0-1']").click()
    d.find_element("id", "res-yes").click()
    until(d, "!document.getElementById('result-dialog').open", WAIT, "the dialog closed once the result was entered")
    until(d, "document.querySelector('#board-1 [data-result-shown]')?.dataset.resultShown == '0-1'", WAIT,
          "the result on the board")
