"""A round played through the hall's page, as the chief arbiter runs it: `sagat hall --sim 8 --sim-play`
(8 simulated clocks, each with a random player that moves once its game runs), the pairings with
Kazakh and Russian names, the event and the round. In headless Chromium: Set up all, Start round,
the clocks move until each game's flag; every result entered with the board's result buttons and
its confirmation; the results on the boards, in the results table, in its print (one A4 page);
then `sagat report` of the hall's folder (nothing typed twice): round.trf read back by a TRF reader
written from the spec (tests/kits/trfkit.py), and each game's PGN read by python-chess, its %clk
equal to the log's press records."""

from __future__ import annotations

import base64
import os
import re
import shutil
import tempfile

import pytest
from browserkit import CARDS, WAIT, answer, chromium, get, need_browser, press, start_hall, stop_hall, text_of, until
from pgnkit import clocks, read
from trfkit import read_trf

from sagat.cli import main
from sagat.log import decode

KEY = b"round arbiter key"
N = 8
EVENT = "Қазақстан чемпионаты"
NAMES = ["Асель Нурланқызы", "Бекзат Ержанұлы", "Айгерім Сапарова", "Дәулет Қасымов", "Ержан Әбдірахманов",
         "Мирас Төлеген", "Иван Петров", "Анна Смирнова", "Нұрлан Ахметов", "Гүлнар Омарова", "Сергей Ким",
         "Әлия Жұмабаева", "Тимур Исаев", "Жанна Серікова", "Олжас Бекұлы", "Марина Волкова"]
TC_S = 12  # each side 12 s; the players think 0.2-0.6 s a move: ~30 moves a side, then a flag


@pytest.fixture(scope="module")
def round_hall():
    need_browser()
    tmp = tempfile.mkdtemp(prefix="sagat-round-test-")
    pairs = os.path.join(tmp, "pairings.csv")
    with open(pairs, "w", encoding="utf-8") as fh:
        fh.write("board,left,right\n")
        for b in range(1, N + 1):
            fh.write(f"{b},{NAMES[2 * b - 2]},{NAMES[2 * b - 1]}\n")
    key_file = os.path.join(tmp, "key")
    with open(key_file, "wb") as fh:
        fh.write(KEY)
    out = os.path.join(tmp, "round-2")
    try:
        proc, url, _t0 = start_hall(["--sim", str(N), "--sim-play", "0.2-0.6", "--pairings", pairs, "--key-file",
                                     key_file, "--out", out, "--timeout", "10", "--event", EVENT, "--round", "2",
                                     "--date", "2026-12-07", "--site", "Түркістан"], N)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    yield {"url": url, "tmp": tmp, "out": out, "key_file": key_file}
    stop_hall(proc, N)
    shutil.rmtree(tmp, ignore_errors=True)


def _board(url, n):
    return next(b for b in get(url + "api/state")["boards"] if b["number"] == n)


def _ms(clk: str) -> int:
    h, m, s = clk.split(":")
    return round((int(h) * 3600 + int(m) * 60 + float(s)) * 1000)


def test_a_round_of_moving_clocks_from_pairings_to_the_pairing_program(round_hall, tmp_path):
    url = round_hall["url"]
    for d in chromium():
        d.get(url)
        until(d, f"{CARDS}.length == {N} && {CARDS}.every(a => a.dataset.link == 'up')", WAIT, "8 boards up")
        assert d.find_element("id", "event").text == f"{EVENT} \u00b7 round 2 \u00b7 2026-12-07 \u00b7 Түркістан"
        tc = d.find_element("id", "tc")
        tc.clear()
        tc.send_keys(str(TC_S))
        d.find_element("id", "btn-setup").click()
        until(d, f"document.getElementById('action').textContent.startsWith('set up {TC_S}: 8 done')", WAIT,
              "set up all")
        assert answer(d, "btn-start", True)[0].startswith("Start the round")
        until(d, "document.getElementById('action').textContent.startsWith('start round: 8 done')", WAIT,
              "start round")
        # the players move: every board's moves count up until a flag falls (sudden death: no freeze, the
        # game goes on until the arbiter's result, as on a DGT clock without an increment)
        until(d, f"{CARDS}.every(a => a.querySelector('.face[data-flag=\"1\"]'))", 2 * TC_S + WAIT,
              "a flag on every board")
        boards = get(url + "api/state")["boards"]
        for b in boards:
            moves = b["faces"]["left"]["moves"] + b["faces"]["right"]["moves"]
            assert moves >= 10, (b["number"], moves)  # (12 s a side at 0.2-0.6 s a move)
        # the results, with each board's buttons: the side whose flag fell loses; board 8 a draw, the arbiter's
        # call with the flagged side at 81 kumalaks, entered with the final kazans (TK-R7, TK-C12)
        entered = {}
        for b in boards:
            n = b["number"]
            fell = next(s for s in ("left", "right") if b["faces"][s]["flag"] == 1)
            result = "1/2-1/2" if n == N else ("0-1" if fell == "left" else "1-0")
            kazans = ("81-70" if fell == "left" else "70-81") if n == N else ""
            press(d, f"#board-{n} button[data-result]")
            until(d, "document.getElementById('result-dialog').open", WAIT, "the result dialog")
            assert d.find_element("id", "res-title").text == f"Board {n}: {NAMES[2 * n - 2]} \u2013 {NAMES[2 * n - 1]}"
            if kazans:
                d.find_element("id", "res-kazans").send_keys(kazans)
            d.find_element("css selector", f"#res-pick [data-pick='{result}']").click()
            assert d.find_element("id", "res-question").text.startswith(f"Enter {result} on board {n} (")
            d.find_element("id", "res-yes").click()
            said = f"board {n}: result {result}" + (f" kazans {kazans}" if kazans else "") + ": 1 done"
            until(d, f"document.getElementById('action').textContent.startsWith('{said}')",
                  WAIT, f"board {n}'s result entered")
            entered[n] = result
        # on the boards and in /api/state; each log pulled and verified under the key
        until(d, f"{CARDS}.every(a => a.querySelector('[data-result-shown]'))", WAIT, "every result on its board")
        shown = d.execute_script(f"return {CARDS}.map(a => a.querySelector('[data-result-shown]')"
                                 ".dataset.resultShown)")
        assert shown == [entered[n] for n in range(1, N + 1)]
        until(d, f"{CARDS}.every(a => a.querySelector('[data-pull=verified]'))", 2 * WAIT, "every log verified")
        state = {b["number"]: b for b in get(url + "api/state")["boards"]}
        assert {n: b["result"] for n, b in state.items()} == entered
        assert [n for n, b in state.items() if b["kazans"]] == [N] and sum(state[N]["kazans"]) == 151
        # the results table, and its print: one A4 page, every board, no buttons
        rows = d.execute_script("return Array.from(document.querySelectorAll('#results-body tr'))"
                                ".map(r => Array.from(r.cells).map(c => c.textContent))")
        text = {"1-0": "1\u20130", "0-1": "0\u20131", "1/2-1/2": "\u00bd\u2013\u00bd"}
        assert [(r[0], r[2], r[3], r[4]) for r in rows] == [
            (str(n), text[entered[n]] + (" %d-%d" % tuple(state[n]["kazans"]) if n == N else ""),
             state[n]["result_code"], "verified") for n in range(1, N + 1)], rows
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        visible = d.execute_script("return Array.from(document.querySelectorAll('button, #boards'))"
                                   ".filter(e => e.offsetParent !== null).length")
        printed = text_of(d, "#results")
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        assert visible == 0
        for n in range(1, N + 1):
            assert NAMES[2 * n - 2] in printed and state[n]["result_code"] in printed
        pdf = base64.b64decode(d.execute_cdp_cmd("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69})["data"])
        assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1

    # the report of the hall's folder: the event, the round and the pairings from its round.json
    out = tmp_path / "report"
    assert main(["report", round_hall["out"], "--key-file", round_hall["key_file"], "--out", str(out)]) == 0
    _tags, players = read_trf((out / "round.trf").read_bytes().decode("utf-8"))
    byname = {p["name"]: (n, p) for n, p in players.items()}
    for n, result in entered.items():
        (wn, white), (bn, black) = byname[NAMES[2 * n - 2]], byname[NAMES[2 * n - 1]]  # first = left: White
        points = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "=")}[result]
        assert white["rounds"][1] == (bn, "w", points[0]) and black["rounds"][1] == (wn, "b", points[1]), n  # round 2
    # each game's clock record: python-chess reads it; every %clk is the mover's face in its press record
    for n in range(1, N + 1):
        (folder,) = [f for f in os.listdir(round_hall["out"]) if f.startswith(f"board-{n:02d}-")]
        with open(os.path.join(round_hall["out"], folder, "records.bin"), "rb") as fh:
            log = decode.read_segments([("records.bin", fh.read())], [KEY], replay=True)
        presses = [e for e in log.events if e["type"] == "press"]
        got = read((out / f"{folder}-game-1.pgn").read_text(encoding="utf-8"))
        assert got.tags["White"] == NAMES[2 * n - 2] and got.tags["Round"] == "2" and got.tags["Event"] == EVENT
        assert got.tags["Result"] == entered[n]
        clock = [clocks(c)[0] for c in got.comments if "[%clk" in c]
        assert clock == [e[f"{e['side']}_ms"] for e in presses] and len(clock) >= 10, n
        assert [_ms(x) for x in re.findall(r"\[%clk ([0-9:.]+)\]", " ".join(got.comments))] == clock
