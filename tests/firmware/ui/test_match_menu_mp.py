# A referee sets a match up from the clock's buttons alone (the on-clock menu's MATCH level,
# ui/menu.py), plays it, and goes on to the next match or a game, on the unix port with the real app,
# journal and littlefs on a RAM flash. The menu never opens while the match time runs, nothing scores
# behind it, and a match in progress needs ABORT? YES before another replaces it.
from appkit import FakeBoard, T, lever, tap
from flash import unmount

from sagatfw.app.main import App
from sagatfw.engine import matchwords as M
from sagatfw.log import boot as journalboot
from sagatfw.ui import buttons as B


def _boot():
    from flash import Flash, mount

    mount(Flash(), fresh=True)
    app = App(FakeBoard())
    app.boot(T(0))
    return app


def _view(app):
    return app.menu.view() if app.menu is not None and app.menu.active else None


def _to(app, label, ms):
    """PLUS until the menu's right face says `label` (at most 8 presses); the next free ms."""
    for _ in range(8):
        if _view(app)[1] == label:
            return ms
        tap(app, B.PLUS, ms)
        ms += 300
    raise AssertionError("no %s in the menu: %r" % (label, _view(app)))


def _kinds(app):
    return [e["type"] for e in journalboot.game_events(app.journal) if e["type"] != "checkpoint"]


def test_a_kokboru_bout_and_a_kilithattu_match_set_up_from_the_menu_kb_14_kt_4_4_kt_4_6():
    app = _boot()
    tap(app, B.MENU, 1000)
    assert _view(app) == ("MENU", "PRESET")
    ms = _to(app, "MATCH", 1500)
    tap(app, B.START, ms)
    assert _view(app) == ("MATCH", "KOK-BORU")
    tap(app, B.START, ms + 300)
    assert _view(app) == ("LEAD", "8")  # KB-14's 8 by default
    tap(app, B.PLUS, ms + 600)
    tap(app, B.PLUS, ms + 900)
    tap(app, B.START, ms + 1200)
    assert app.menu is None and app.match is not None
    m = app.match.m
    assert m.MODE == "kokboru" and m.lead == 10 and m.state == M.SETUP
    assert _kinds(app)[-1] == "match"  # its setup is logged, as from the host
    # the referee plays it from the same buttons
    tap(app, B.START, 10000)
    assert m.state == M.RUNNING
    tap(app, B.MENU, 11000)  # the match time runs: MENU opens nothing
    assert app.menu is None
    lever(app, B.LEVER_LEFT, 12000)
    tap(app, B.PLUS, 12500)  # +4 for left (KB-7)
    assert m.scores == [4, 0] or tuple(m.scores) == (4, 0)
    tap(app, B.START, 13000)  # a stoppage (KB-16)
    assert m.state == M.STOPPED
    tap(app, B.MENU, 14000)  # the time stands still: the menu opens, on MATCH
    assert _view(app) == ("MENU", "MATCH")
    lever(app, B.LEVER_RIGHT, 14500)  # nothing scores behind the menu
    assert tuple(m.scores) == (4, 0) and app.match.pending == M.NONE
    tap(app, B.START, 15000)
    assert _view(app)[0] == "ABORT?"  # the bout is in progress
    tap(app, B.MENU, 15300)  # back
    tap(app, B.MENU, 15600)  # and out
    assert app.menu is None
    tap(app, B.START, 16000)  # the stoppage ends
    assert m.state == M.RUNNING
    tap(app, B.START, 17000)
    # the referee's result, then the next match: kilithattu, right enters first, a 30 s
    # changeover, a further tie by lot, all from the menu
    app.match.do("result", T(18000), M.LEFT)
    assert app.match.in_game(over=True)
    tap(app, B.MENU, 19000)
    assert _view(app) == ("MENU", "MATCH")
    tap(app, B.START, 19300)  # finished: no ABORT?
    tap(app, B.PLUS, 19600)
    assert _view(app) == ("MATCH", "KILITHAT")
    tap(app, B.START, 19900)
    assert _view(app) == ("FIRST", "LEFT")
    tap(app, B.PLUS, 20200)
    tap(app, B.START, 20500)
    assert _view(app) == ("CHANGE", "60 S")
    ms = 20800
    for _ in range(3):  # LONG: -10 s each
        tap(app, B.MINUS, ms, hold=1100)
        ms += 1500
    assert _view(app) == ("CHANGE", "30 S")
    tap(app, B.START, ms)
    assert _view(app) == ("TIE", "LOT")  # KT-4.6: by lot unless the organisers chose otherwise
    tap(app, B.START, ms + 300)
    assert app.menu is None
    k = app.match.m
    assert k.MODE == "kilithattu" and k.first == M.RIGHT and k.changeover_ms == 30000 and k.state == M.SETUP
    assert k.entering == M.RIGHT or k.first == M.RIGHT
    # and from the finished match's menu, a game again
    k.result(M.NONE, T(ms + 1000))
    app.match._log(T(ms + 1000))
    tap(app, B.MENU, ms + 2000)
    tap(app, B.MINUS, ms + 2300)  # MATCH -> ARBITER
    tap(app, B.MINUS, ms + 2600)  # -> SETTINGS
    tap(app, B.MINUS, ms + 2900)  # -> CUSTOM
    tap(app, B.MINUS, ms + 3200)  # -> PRESET
    assert _view(app) == ("MENU", "PRESET")
    tap(app, B.START, ms + 3500)  # the preset list, on the last control
    tap(app, B.START, ms + 3800)  # FIRST
    tap(app, B.START, ms + 4100)  # set up
    assert app.match is None and app.menu is None and app.clock.state == 0  # a game, set up (C.SETUP)
    assert app.setup_logged  # its setup is in the log: a power cut comes back to it
    unmount()


def test_a_match_over_a_paused_game_needs_abort_and_a_refusal_says_why():
    # a new match while the game in progress is paused needs ABORT? YES; once confirmed the match
    # replaces the game (ui/actions.py's new, as from the host). A game's setting in a match is refused
    # with the table's reason, on the faces, and changes nothing
    app = _boot()
    tap(app, B.START, 1000)  # the game starts
    tap(app, B.START, 2000)  # and pauses (the START button pauses a running game)
    assert app.clock.state == 2  # C.PAUSED
    tap(app, B.MENU, 3000)
    assert _view(app) == ("MENU", "ARBITER")
    tap(app, B.PLUS, 3300)
    assert _view(app) == ("MENU", "MATCH")
    tap(app, B.START, 3600)
    assert _view(app)[0] == "ABORT?"
    tap(app, B.PLUS, 3900)  # YES
    tap(app, B.START, 4200)
    assert _view(app) == ("MATCH", "KOK-BORU")
    tap(app, B.START, 4500)
    tap(app, B.START, 4800)  # LEAD 8
    assert app.match is not None and app.match.m.MODE == "kokboru" and app.menu is None
    sound = app.store.values["sound"]
    tap(app, B.MENU, 5000)
    tap(app, B.MINUS, 5300)  # MATCH -> ARBITER
    tap(app, B.MINUS, 5600)  # -> SETTINGS
    assert _view(app) == ("MENU", "SETTINGS")
    tap(app, B.START, 5900)
    for k in range(6):
        if _view(app)[1] == "SOUND":
            break
        tap(app, B.PLUS, 6200 + 300 * k)
    tap(app, B.START, 8000)
    tap(app, B.PLUS, 8300)
    tap(app, B.START, 8600)
    assert _view(app) == ("NO", "SOUND") and "match is set up" in app.menu.detail, (_view(app), app.menu.detail)
    assert app.store.values["sound"] == sound
    unmount()
