"""Set up all gives every clock the hall's language (its `lang` setting, signed with its board number), so that
the faces at the tables speak what the hall speaks: the hall's own (`sagat hall --lang`), else the language of
the page the arbiter set up from; a script's set up with neither leaves each clock's own. Real simulated clocks
on pseudo-terminals, with the hall's key (a settings.set unsigned is refused by a keyed clock)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import urllib.request

from browserkit import WAIT, get, start_hall, stop_hall
from hallkit import until

from sagat.hall.core import Hall
from sagat.hall.sims import Sims
from sagatfw.faces import words_kk, words_ru

KEY = bytes(range(96, 112))


def _word(table, english):
    return table.WORDS[table.WORDS.index(english) + 1]


def test_set_up_all_gives_each_clock_the_language_signed_and_its_faces_speak_it(tmp_path):
    sims = Sims(2, str(tmp_path / "sims"))
    hall = Hall(key=KEY, out_dir=str(tmp_path / "logs"), discover=False)
    try:
        for n, port in enumerate(sims.start(), 1):
            hall.add(port, "sim", n)
        until(lambda: len(hall.boards) == 2 and all(b["state"] and b["key_set"] for b in hall.view()["boards"]),
              60, "2 keyed sims up")
        assert all(hall.board(n).settings["lang"] == "en" for n in (1, 2))  # (a new clock's)
        rep = hall.set_up("300", "left", lang="kk")
        assert rep["done"] == 2 and rep["failed"] == 0, rep["boards"]
        for n in (1, 2):  # the clock's own settings and faces, asked again over its link
            asked = hall.board(n).submit(lambda c: (c.request("settings.get")["values"]["lang"],
                                                    c.request("state")["message"])).result(60)
            assert asked == ("kk", f"{_word(words_kk, 'BOARD')} {n}"), asked
        # a set up with no language (a script's): each clock keeps the one it has
        assert hall.set_up("300", "left")["done"] == 2
        assert all(hall.board(n).settings["lang"] == "kk" for n in (1, 2))
    finally:
        hall.close()
        sims.close()


def _post(url: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(url + path, json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=WAIT) as r:
        return json.load(r)


def _messages(url: str) -> list:
    return [b["message"] for b in get(url + "api/state")["boards"]]


def test_the_halls_lang_comes_first_then_the_pages():
    tmp = tempfile.mkdtemp(prefix="sagat-hall-clock-lang-")
    key_file = os.path.join(tmp, "key")
    with open(key_file, "wb") as fh:
        fh.write(KEY)
    try:
        for hall_lang, page, said in (("kk", "ru", words_kk), (None, "ru", words_ru)):
            args = ["--sim", "1", "--key-file", key_file, "--out", os.path.join(tmp, f"logs-{hall_lang}")]
            proc, url, _t0 = start_hall(args + (["--lang", hall_lang] if hall_lang else []), 1)
            try:
                assert _post(url, "api/setup", {"tc": "300", "lang": page})["done"] == 1
                want = [f"{_word(said, 'BOARD')} 1"]
                until(lambda url=url, want=want: _messages(url) == want, WAIT, f"the faces in {hall_lang or page}")
            finally:
                stop_hall(proc, 1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
