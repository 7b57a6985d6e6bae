"""The arbiter's dialog on one board, in a real browser (Debian's Chromium, headless; skips without it,
fails under CI), offers the clock's own actions as the hall serves them (host/sagat/hall/acts.py, from
sagatfw/ui/actions.py): an action a new firmware adds appears on the page with its field, though the
page's scripts never heard of it; a match board's dialog lists a match's actions in the table's order,
each in the page's words."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from browserkit import CARDS, WAIT, chromium, get, in_page, need_browser, press, start_hall, stop_hall, until

from sagat.hall import web

KEY = b"hall arbiter key, the dialog"
N = 1
# the clock's table as a newer firmware's: one action more, for a game, which takes a side
PRELUDE = """from sagatfw.ui import actions
actions.ACTIONS["bell"] = ("bell", "game", 1, (("side", "side", 1, None, None),))"""
EN = json.loads((Path(web.__file__).parent / "static" / "lang" / "en.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def hall():
    need_browser()
    tmp = tempfile.mkdtemp(prefix="sagat-hall-acts-")
    key_file = os.path.join(tmp, "key")
    with open(key_file, "wb") as fh:
        fh.write(KEY)
    try:
        proc, url, _t0 = start_hall(["--sim", str(N), "--key-file", key_file, "--out", os.path.join(tmp, "logs"),
                                     "--timeout", "10"], N, prelude=PRELUDE)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    yield {"url": url, "proc": proc}
    stop_hall(proc, N)
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(hall):
    yield from chromium()


_DIALOG = """const sel = document.getElementById('act-cmd');
return {options: Array.from(sel.options).map((o) => [o.value, o.textContent]),
        fields: Array.from(document.querySelectorAll('#act-fields [data-for]')).filter((e) => !e.hidden)
                     .map((e) => e.dataset.for)};"""


def _open_dialog(d, n) -> dict:
    press(d, f"#board-{n} button[data-arbiter]")
    until(d, "document.getElementById('act-dialog').open", WAIT, "the arbiter's dialog")
    return d.execute_script(_DIALOG)


def _choose(d, cmd: str) -> list[str]:
    """The action chosen in the dialog: the fields it then shows."""
    return d.execute_script("const cmd = document.getElementById('act-cmd'); cmd.value = arguments[0];"
                            "cmd.dispatchEvent(new Event('change'));" + _DIALOG, cmd)["fields"]


def test_an_action_the_firmware_adds_is_offered_in_the_dialog_with_its_field(hall, browser):
    d = browser
    served = get(hall["url"] + "api/actions")
    assert [a["cmd"] for a in served["game"]][-2:] == ["bell", "first"]  # (the table's order, the hall's last)
    d.get(hall["url"])
    until(d, f"{CARDS}.length == {N} && {CARDS}.every(a => a.dataset.link == 'up')", WAIT, "the board up")
    got = _open_dialog(d, 1)
    assert [v for v, _text in got["options"]] == [a["cmd"] for a in served["game"]]
    assert ["bell", "bell"] in got["options"]  # (no words for it yet in the page's tables: its name)
    assert dict(got["options"])["adjust"] == EN["act_adjust"]
    assert _choose(d, "bell") == ["side"]
    assert _choose(d, "late_install") == ["moves", "elapsed_ms"]
    d.find_element("id", "act-cancel").click()


def test_a_match_boards_dialog_lists_a_matchs_actions_in_the_page_words(hall, browser):
    d = browser
    served = get(hall["url"] + "api/actions")
    d.get(hall["url"])
    until(d, f"{CARDS}.length == {N}", WAIT, "the page")
    in_page(d, "stream.source.close()")  # the page then draws only what the test gives it
    match = {"period": "innings 1", "state": "stopped", "time": "6:12", "left": {"score": 3}, "right": {"score": 1}}
    in_page(d, "view.render(arguments[0])", {"boards": [
        {"number": 1, "link": "up", "state": "stopped", "mode": "kilithattu", "alerts": [], "match": match}]})
    got = _open_dialog(d, 1)
    assert got["options"] == [[a["cmd"], EN[a["label"]]] for a in served["match"]]
    assert [v for v, _text in got["options"]][:4] == ["start", "resume", "adjust", "result"]  # (the clock's order)
    assert _choose(d, "adjust") == ["ms"] and _choose(d, "card") == ["side", "kind"]
    assert _choose(d, "result") == ["winner"]
    d.find_element("id", "act-cancel").click()
