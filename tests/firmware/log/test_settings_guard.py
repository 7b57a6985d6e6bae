# No setting can make the clock unbootable. Every value is checked with the
# parser and the rules the boot uses before anything is saved (nothing is saved on an error), the
# game's control string has ONE parser (tcparse.parse_sides: the app, settings, presets, the menu
# and `sagat tc` all use it), and the boot survives any settings file: defaults for what is bad, the
# faces say SETTINGS DEFAULT, and a `settings` record with origin defaults_corrupt is logged.
# A real App on a temporary directory: runs under CPython (pytest) and MicroPython (tests/mprun.py).
import json
import os

from menukit import Board as MenuBoard
from menukit import rmtree

from clockkit import raises
from sagatfw.app.main import App
from sagatfw.core import tcparse
from sagatfw.engine import clock as C
from sagatfw.faces.game import status_text  # noqa: E402
from sagatfw.log import boot as journalboot
from sagatfw.log import settings as ST


class Board(MenuBoard):
    """The menu rig's board in a directory of its own: the name also carries random bits, as other
    test runs on the same machine may make the menu rig's directories in the same second."""

    def __init__(self):
        import random
        import time

        path = "/tmp/sagat_settings_%d_%d" % (int(time.time()), random.getrandbits(30))
        rmtree(path)
        os.mkdir(path)
        self.root = path + "/"
        self.buttons = None
        self.notes = []


# Controls the parser accepts side by side but the clock cannot play, and a handicap with a side
# missing (the app's old split took "300|" for "300" on both sides, the settings check refused it).
UNPLAYABLE = ("*60|300", "300|*60", "300|", "|300", "*60|", "300||300")


def _app():
    board = Board()
    app = App(board)
    app.boot(0)
    return app, board


def _file(board):
    try:
        with open(board.root + "settings.json") as f:
            return f.read()
    except OSError:
        return None


def _boot_with(text):
    """A fresh App booting on a settings file holding `text` (bytes or str)."""
    board = Board()
    with open(board.root + "settings.json", "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode())
    app = App(board)
    app.boot(1000)
    return app, board


def _plays(app):
    """The clock runs a few moves on what the boot set up."""
    assert app.start(2000)
    assert app.clock.press(app.clock.first, 3000)
    app.step(3000)
    assert app.clock.state == C.RUNNING and app.clock.moves[app.clock.first] == 1


def test_one_parser_rejects_every_control_the_clock_cannot_play():
    for text in UNPLAYABLE:
        msg = raises(ValueError, tcparse.parse_sides, text)
        assert msg.startswith("bad TimeControl "), msg
        raises(ValueError, ST.validate, "tc", text)
    assert "hourglass" in raises(ValueError, tcparse.parse_sides, "*60|300")
    assert "right side" in raises(ValueError, tcparse.parse_sides, "300|")
    left, right = tcparse.parse_sides("*60|*120")  # hourglass on both sides: the clock plays it
    c = C.Clock()
    c.new_game(left, right)
    assert c.ms(C.LEFT) == 60000 and c.ms(C.RIGHT) == 120000


def test_settings_set_of_an_unplayable_control_saves_nothing_and_the_clock_still_boots():
    for text in UNPLAYABLE:
        app, board = _app()
        try:
            app.set_settings({"sound": False}, 0)  # a file on the flash to compare with
            before = _file(board)
            values = dict(app.store.values)
            raises(ValueError, app.set_settings, {"tc": text, "brightness": 1}, 10)
            assert _file(board) == before and app.store.values == values, text  # nothing saved, nothing changed
            app2 = App(board)  # the next boot
            app2.boot(20)
            assert status_text(app2) is None and app2.store.values["tc"] == "420"
            _plays(app2)
        finally:
            rmtree(board.root[:-1])


def test_new_game_and_presets_refuse_an_unplayable_control_before_saving():
    for text in UNPLAYABLE:
        app, board = _app()
        try:
            app.new_game("600", "right", 0)
            before = _file(board)
            raises(ValueError, app.new_game, text, "left", 10)
            raises(ValueError, app.store.set_preset, 0, "bad", text)
            assert _file(board) == before and app.store.presets == []
            assert app.clock.tc[C.LEFT] == tcparse.parse("600") and app.clock.first == C.RIGHT  # the game set up stays
        finally:
            rmtree(board.root[:-1])


BAD_FILES = (
    b"{garbage",
    b"",
    b"\xff\xfe\x00not utf-8",
    b"[1, 2, 3]",
    b"null",
    b"[" * 5000 + b"]" * 5000,  # nested past any parser's depth
    json.dumps({"tc": "*60|300"}).encode(),
    json.dumps({"tc": "300|", "first": "right"}).encode(),
    json.dumps({"tc": 420, "first": 0, "sound": "yes", "brightness": 99, "lockout_ms": -1}).encode(),
    json.dumps({"tc": ["420"], "extension_ms": 10**30, "default_ms": 1.5, "freeze": "no"}).encode(),
    json.dumps({"stage_advance": {"moves": 1}, "checkpoint_ms": None, "log_max_bytes": True}).encode(),
    json.dumps({"presets": [{"name": "x", "tc": "*60|300"}], "tc": "1/86400"}).encode(),
    json.dumps({"presets": "all", "low_time_ms": -5, "tenths_below_ms": [1]}).encode(),
)


def test_boot_survives_any_settings_file_with_defaults_a_message_and_a_log_record():
    for text in BAD_FILES:
        app, board = _boot_with(text)
        try:
            assert status_text(app) == "SETTINGS DEFAULT", (text[:40], status_text(app))
            assert app.store.origin == 2 and app.store.problem, text[:40]  # records.ORIGIN_DEFAULTS_CORRUPT
            recs = [e for e in journalboot.game_events(app.journal, 0) if e["type"] == "settings"]
            assert recs and recs[-1]["origin"] == "defaults_corrupt", (text[:40], recs)
            for key in ST.SCHEMA:  # every value the app runs on is a valid one
                ST.validate(key, app.store.values[key])
            for p in app.store.presets:
                tcparse.parse_sides(p["tc"])
            _plays(app)
        finally:
            rmtree(board.root[:-1])


def test_boot_survives_a_control_that_passes_the_file_check_but_the_clock_refuses():
    # A file from a firmware whose settings check was looser (or a check and a clock that drift
    # apart): the boot itself falls back to the default control, says so and logs it.
    saved = ST._valid_tc
    ST._valid_tc = lambda v: isinstance(v, str)
    try:
        for text in ("*60|300", "300|", "1/86400", "not a control"):
            app, board = _boot_with(json.dumps({"tc": text, "first": "right", "sound": False}))
            try:
                assert status_text(app) == "SETTINGS DEFAULT", text
                recs = [e for e in journalboot.game_events(app.journal, 0) if e["type"] == "settings"]
                assert recs and recs[-1]["origin"] == "defaults_corrupt", text
                assert app.store.values["tc"] == "420" and app.store.values["sound"] is False  # the good value stays
                assert "tc" in app.store.problem
                _plays(app)
            finally:
                rmtree(board.root[:-1])
    finally:
        ST._valid_tc = saved
