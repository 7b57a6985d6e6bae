"""A match's tile on the hall's page, in a real browser (Debian's Chromium, headless; skips without
it, fails under CI): the break's countdown (KB-6, KT-4.4), the running stoppage (KB-16, KT-4.5) and
the time added back (KT-4.5) beside the score, the names the clock logged when the hall's pairing
does not name them; and a match round set up from the page's form, the pairings' names on every
clock (docs/hall.md, "A match round")."""

from __future__ import annotations

import os
import shutil
import tempfile
import time

import pytest
from browserkit import CARDS, WAIT, chromium, get, in_page, need_browser, press, start_hall, stop_hall, until

KEY = b"hall arbiter key, matches"
N = 2


@pytest.fixture(scope="module")
def hall():
    need_browser()
    tmp = tempfile.mkdtemp(prefix="sagat-hall-match-")
    pairs = os.path.join(tmp, "pairings.csv")
    with open(pairs, "w", encoding="utf-8") as fh:
        fh.write("board,left,right\n1,Асан,Үсөн\n2,Team Ala-Too,Team Issyk-Kul\n")
    key_file = os.path.join(tmp, "key")
    with open(key_file, "wb") as fh:
        fh.write(KEY)
    try:
        proc, url, _t0 = start_hall(["--sim", str(N), "--pairings", pairs, "--key-file", key_file, "--out",
                                     os.path.join(tmp, "logs"), "--timeout", "10"], N)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    yield {"url": url, "proc": proc}
    stop_hall(proc, N)
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(hall):
    yield from chromium()


def _match_board(n, **match):
    m = {"period": "innings 1", "state": "running", "time": "6:12", "left": {"score": 3, "warnings": 0, "reds": 0},
         "right": {"score": 1, "warnings": 0, "reds": 0}, "break": None, "stoppage": None, "stopped": None,
         "names": None, "winner": None, "why": None}
    m.update(match)
    return {"number": n, "link": "up", "state": m["state"], "mode": "kilithattu", "game": 3, "players": None,
            "alerts": [], "pull": {"state": "idle", "message": ""}, "battery": 90, "match": m}


def test_the_match_tile_shows_the_break_the_stoppage_and_the_time_added_back_kb_6_kt_4_4_kt_4_5(hall, browser):
    d = browser
    d.get(hall["url"])
    until(d, f"{CARDS}.length == {N}", WAIT, "the page")
    in_page(d, "stream.source.close()")  # the page then draws only what the test gives it
    boards = [_match_board(1, state="break", stopped="1:05", **{"break": "changeover 0:45"}),
              dict(_match_board(2, state="stopped", stoppage="0:12", stopped="1:17", names=["Team A", "Team B"]),
                   players=["Team A", "Team B"]),
              _match_board(3, names=["Асан", "Үсөн"]),
              _match_board(4)]
    js = ("view.render(arguments[0]); return " + CARDS + ".map(a => [a.dataset.number, "
          "a.querySelector('.match').textContent.replace(/\\s+/g, ' ')])")
    got = in_page(d, js, {"boards": boards, "key": True})
    text = dict(got)
    assert "changeover 0:45" in text["1"] and "stopped 1:05" in text["1"] and "STOPPAGE" not in text["1"]
    assert "STOPPAGE 0:12" in text["2"] and "stopped 1:17" in text["2"]
    assert "on the clock" not in text["2"]  # the pairing's names are the clock's: said once, above
    assert "on the clock: Асан – Үсөн" in text["3"]
    assert "stopped" not in text["4"] and "STOPPAGE" not in text["4"] and "changeover" not in text["4"]


def test_set_up_all_for_a_match_round_from_the_page_names_each_clocks_teams(hall, browser):
    d = browser
    d.get(hall["url"])
    until(d, f"{CARDS}.length == {N}", WAIT, "the page")
    d.execute_script("document.getElementById('mode').value = 'kilithattu';"
                     "document.getElementById('first').value = 'right';")
    press(d, "#btn-setup")

    def names():
        boards = get(hall["url"] + "api/state")["boards"]
        return {b["number"]: (b.get("mode"), b.get("match", {}).get("names")) for b in boards}

    t0 = time.monotonic()
    while names() != {1: ("kilithattu", ["Асан", "Үсөн"]), 2: ("kilithattu", ["Team Ala-Too", "Team Issyk-Kul"])}:
        assert time.monotonic() - t0 < WAIT, names()
        time.sleep(0.2)
    until(d, "document.querySelector('[data-number=\"2\"] .players').textContent.includes('Team Ala-Too')", WAIT,
          "the tile's names")
