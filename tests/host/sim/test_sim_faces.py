"""The sim's faces (boards/sim.py Board.show) and the labels the faces draw:
the interactive sim redraws in place and only when something changed, the side to move is marked,
and no label is cut; the app's messages fit an OLED line."""

import io
import os
import re
from types import SimpleNamespace

from clockkit import Game, L, R
from sagatfw.boards.sim import Board
from sagatfw.faces import game as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def _app(game, menu=None):
    return SimpleNamespace(clock=game.clock, store=SimpleNamespace(values={"tenths_below_ms": 20000}),
                           menu=menu, status=0, code_text=None, match=None, locate_until=None)


def _board(virtual=False):
    out = io.StringIO()
    return Board(0 if virtual else None, False, out), out


def _take(out):
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


def test_interactive_sim_redraws_in_place_only_on_a_change():
    g = Game("420")
    board, out = _board()
    app = _app(g)
    board.show(app, 0)
    first = _take(out)
    assert first.startswith("\x1b[H") and "\x1b[2J" not in first and "sagat sim  setup" in first
    for now in (200, 400, 600, 800, 1000, 5000):  # nothing changed: nothing is written
        board.show(app, now)
        assert _take(out) == "", now
    g.start(6000)
    board.show(app, 6000)
    frame = _take(out)
    assert frame.startswith("\x1b[H") and "\x1b[2J" not in frame and "\x1b[J" in frame
    assert "sagat sim  running" in frame
    for line in frame.split("\r\n")[:-1]:
        assert line.endswith("\x1b[K"), repr(line)  # every line cleared to its end: no leftovers
    g.poll(6100)
    board.show(app, 6100)  # 6:59.9 still shows 7:00
    assert _take(out) == ""
    g.poll(7001)
    board.show(app, 7001)
    assert "6:59" in _take(out)


def test_sim_shows_the_running_bar_and_the_side_to_move_uncut():
    g = Game("420", first=R)
    board, out = _board()
    app = _app(g)
    board.show(app, 0)
    rows = _take(out).split("\r\n")
    row = [r for r in rows if "READY" in r][0]
    left, right = row.split(" | ")
    assert left.strip().strip("\x1b[K") == "READY" and "[     > READY <     ]" in right  # framed, pointed at
    g.start(0)
    board.show(app, 1000)
    frame = _take(out)
    row = [r for r in frame.split("\r\n") if "# running" in r][0]
    assert row.split(" | ")[1].startswith("###### running ######")  # the right face runs; not cut to "run"
    assert "B 100%" in frame


def test_the_two_faces_rows_stay_side_by_side_where_one_face_has_a_row_the_other_has_not():
    """A row only one face draws (the running bar) stays a row, empty on the other face: the faces'
    marks at one height are on one line (before, the right face's LOW moved up beside the bar)."""
    g = Game("8", low_time_ms=5000)
    board, out = _board(virtual=True)
    g.start(0)
    g.press(L, 1000)
    g.press(R, 5000)  # right 4.0 s: under the low-time mark
    g.poll(12500)  # left flagged without freeze and still running
    board.show(_app(g), 12500)
    rows = [r.split(" | ") for r in _take(out).split("\r\n")[1:] if " | " in r]
    bar = [r for r in rows if "# running" in r[0]]
    assert bar and bar[0][1].strip() == "", rows  # the right face draws nothing beside the bar
    marks = [r for r in rows if "FLAG" in r[0]]
    assert marks and marks[0][1].strip() == "LOW", rows  # each face's mark on one line


def test_virtual_sim_prints_each_frame_after_the_last():
    g = Game("420")
    board, out = _board(virtual=True)
    app = _app(g)
    board.show(app, 0)
    board.show(app, 500)
    text = _take(out)
    assert text.count("sagat sim  setup") == 2 and "\x1b" not in text  # a record, not a screen


def test_sim_menu_reason_is_not_cut():
    reason = "settings change between games (pause is not enough)"
    menu = SimpleNamespace(active=True, view=lambda now: ("NO", "FRZ"), field=None, detail=reason)
    board, out = _board()
    board.show(_app(Game("420"), menu=menu), 0)
    left = " ".join(r.split(" | ")[0].replace("\x1b[K", "").strip() for r in _take(out).split("\r\n")[1:])
    assert reason in " ".join(left.split())


def test_every_status_of_the_app_fits_an_oled_line_and_a_four_digit_face():
    # status codes: one text per code, for both kinds of face
    assert len(F.STATUS4) == len(F.STATUS_TEXT) and F.STATUS_TEXT[:2] == (None, "CODE")
    g = Game("420")
    for code in range(2, len(F.STATUS_TEXT)):  # none, the result code (its own text), then the fixed lines
        text = F.STATUS_TEXT[code]
        assert len(text) <= 21 and 1 <= len(F.STATUS4[code]) <= 4, text
        assert F.oled(g.clock, L, message=text)[-1] == ("text", 0, 52, text, 1)
        app = _app(g)
        app.status = code
        assert F.status_text(app) == text
    app = _app(g)
    assert F.status_text(app) is None
    app.status, app.code_text = 1, "CODE 042917"
    assert F.status_text(app) == "CODE 042917" and len("CODE 042917") <= 21


def test_every_modules_status_const_is_the_faces_code():
    # the modules name the codes they use as private consts (no heap): each must be the index of
    # its text in faces.STATUS_TEXT, or the faces would say something else
    seen = set()
    for dirpath, _dirs, files in os.walk(os.path.join(ROOT, "firmware", "sagatfw")):
        for name in files:
            if name.endswith(".py"):
                src = open(os.path.join(dirpath, name)).read()
                for const, value in re.findall(r"^_ST_([A-Z_]+) = const\((\d+)\)", src, re.M):
                    text = None if const == "NONE" else const.replace("_", " ")
                    assert F.STATUS_TEXT.index(text) == int(value), (name, const, value)
                    seen.add(const)
    assert len(seen) == len(F.STATUS_TEXT), seen  # app/main.py names every one


def test_every_reason_the_menu_can_show_fits_its_face():
    # the app's and the clock's refusals (ValueError texts without a formatted value) are wrapped
    # onto at most four lines of the menu's left face (y 12..48), or fit its bottom line (y 52)
    for name in ("app/main.py", "engine/clock.py", "ui/menu.py"):
        src = open(os.path.join(ROOT, "firmware", "sagatfw", name)).read()
        for reason in re.findall(r'ValueError\("([^"%]*)"\)', src):
            items = F.menu_oled("NO", None, 1, "MENU", reason)
            lines = [it[3] for it in items if it[0] == "text" and it[1] == 0 and it[2] >= 12]  # not MENU, not NO
            assert " ".join(lines) == " ".join(reason.split()), reason  # at most 4 lines: none dropped


def test_the_sim_draws_a_match_as_the_boards_do():
    # with a match the sim's faces are faces/matchfaces.py's OLED faces: each side's score, the
    # period, the cards, the match time framed while it runs
    from sagatfw.engine.kokboru import KokBoru
    from sagatfw.engine.matchwords import CARD_WARNING, LEFT, RIGHT

    m = KokBoru()
    m.new_match()
    m.start(0)
    m.score(LEFT, 4, 1000)
    m.card(RIGHT, CARD_WARNING, 2000)
    m.advance(12300)
    board, out = _board(virtual=True)
    app = _app(Game("420"))
    app.match = SimpleNamespace(m=m)
    board.show(app, 12300)
    frame = _take(out)
    assert "sagat sim  kokboru running" in frame
    assert "1ST HALF" in frame and "[     > 3:48 <      ]" in frame, frame
    rows = frame.split("\r\n")
    score_row = [r for r in rows if "4" in r and "|" in r and "1ST" not in r and "3:48" not in r]
    assert score_row and score_row[0].split("|")[0].strip() == "4" and score_row[0].split("|")[1].strip() == "0"
    assert any(r.rstrip().endswith("W") for r in rows if "1ST HALF" in r), frame  # right's warning
