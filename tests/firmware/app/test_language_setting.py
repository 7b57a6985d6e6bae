# The `lang` setting on a real App on a temporary directory: the faces' words in the chosen language from the
# change on and after a reboot, a bad value refused with nothing changed, a bad settings file booting in English,
# and the menu's LANGUAGE naming each language in its own script. Runs under CPython (pytest) and MicroPython
# (tests/mprun.py).
import json

from menukit import Board, rmtree  # (Board: a fresh folder of its own)

import sagatfw
from clockkit import raises
from sagatfw.app.main import App
from sagatfw.engine import clock as C
from sagatfw.faces import words_kk, words_ky, words_ru
from sagatfw.faces.game import oled, status_text
from sagatfw.ui import editors as E


def _word(table, english):
    return table.WORDS[table.WORDS.index(english) + 1]


def _texts(items):
    return [it[3] for it in items if it[0] == "text"]


def test_the_faces_speak_the_chosen_language_and_a_reboot_keeps_it():
    board = Board()
    try:
        app = App(board)
        app.boot(0)
        assert _texts(oled(app.clock, C.LEFT))[-1] == "> READY <"
        for table, code in ((words_kk, "kk"), (words_ru, "ru"), (words_ky, "ky")):
            assert app.set_settings({"lang": code}, 10)
            ready = _word(table, "READY")
            assert ready != "READY" and _texts(oled(app.clock, C.LEFT))[-1] == "> " + ready + " <", code
        assert app.set_settings({"board": 8}, 20)
        assert status_text(app) == _word(words_ky, "BOARD") + " 8"  # state's `message` (link/server.py)
        with open(board.root + "settings.json") as f:
            assert json.load(f)["lang"] == "ky"
        again = App(board)  # the next boot reads the file
        again.boot(30)
        assert again.store.values["lang"] == "ky" and status_text(again) == _word(words_ky, "BOARD") + " 8"
        assert again.set_settings({"lang": "en"}, 40)
        assert status_text(again) == "BOARD 8"
    finally:
        sagatfw.use("en")
        rmtree(board.root[:-1])


def test_a_language_the_clock_does_not_speak_is_refused_and_nothing_changes():
    board = Board()
    try:
        app = App(board)
        app.boot(0)
        assert app.set_settings({"lang": "kk"}, 10)
        for bad in ("de", "KK", "", None, 1, ["kk"]):
            msg = raises(ValueError, app.set_settings, {"lang": bad}, 20)
            assert "lang" in msg, msg
            assert app.store.values["lang"] == "kk" and sagatfw.T("PAUSE") == _word(words_kk, "PAUSE")
    finally:
        sagatfw.use("en")
        rmtree(board.root[:-1])


def test_a_settings_file_with_a_bad_language_boots_in_english_and_says_so():
    board = Board()
    try:
        with open(board.root + "settings.json", "w") as f:
            f.write('{"lang": "xx", "sound": false, "presets": []}')
        app = App(board)
        app.boot(0)
        assert app.store.values["lang"] == "en" and app.store.values["sound"] is False  # only what was bad
        assert status_text(app) == "SETTINGS DEFAULT" and sagatfw.T("PAUSE") == "PAUSE"
    finally:
        sagatfw.use("en")
        rmtree(board.root[:-1])


def test_the_language_changes_between_games_only_as_every_setting():
    board = Board()
    try:
        app = App(board)
        app.boot(0)
        assert app.start(100)
        msg = raises(ValueError, app.set_settings, {"lang": "ru"}, 200)
        assert "between games" in msg, msg
        assert sagatfw.T("PAUSE") == "PAUSE"
    finally:
        sagatfw.use("en")
        rmtree(board.root[:-1])


def test_the_menu_names_each_language_in_its_own_script():
    row = E.SETTINGS[-1]
    assert row[:3] == ("LANGUAGE", "LANG", "lang") and row[3] == ("en", "kk", "ru", "ky")
    assert row[4] == ("English", "Қазақша", "Русский", "Кыргызча")
