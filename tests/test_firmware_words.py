"""Every word the firmware's faces put through sagatfw.T is one of faces/words.py's KEYS, so each has its
translation in every language (tests/firmware/faces/test_words.py checks the tables): a word missing from KEYS
would stay English on a Kazakh clock without a sound. Read from the source (CPython's ast)."""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FW_DIR = ROOT / "firmware" / "sagatfw"
sys.path.insert(0, str(ROOT / "firmware"))

from sagatfw import MODES  # noqa: E402
from sagatfw.faces import game as F  # noqa: E402
from sagatfw.faces import matchfaces as MF  # noqa: E402
from sagatfw.faces import words as FW  # noqa: E402
from sagatfw.ui import editors as E  # noqa: E402
from sagatfw.ui import menu as MN  # noqa: E402


def _consts(node):
    """The string constants a value can be, as it is (not those inside a sum or a format: "MIN " + side)."""
    if isinstance(node, ast.Constant):
        return [node] if isinstance(node.value, str) else []
    if isinstance(node, ast.IfExp):
        return _consts(node.body) + _consts(node.orelse)
    if isinstance(node, ast.Tuple):
        return [c for e in node.elts for c in _consts(e)]
    if isinstance(node, (ast.Subscript,)):
        return _consts(node.value)
    if isinstance(node, ast.BoolOp):
        return [c for v in node.values for c in _consts(v)]
    return []


# the menu's setters turn their words through T (ui/menu.py show): left, right (unless a field is edited), detail
SETTERS = {"show": (0, 1, 6), "say": (0, 1, 5), "say_no": (0, 3)}


def _t_words():
    """(file:line, text) of every string constant that reaches T: a T(...) call's argument, the menu's words."""
    out = []
    for path in sorted(FW_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            args = []
            if name == "T" and node.args:
                args = [node.args[0]]
            elif name in SETTERS and path.parent.name == "ui":
                field = node.args[4] if name == "show" and len(node.args) > 4 else None
                for i in SETTERS[name]:
                    if i < len(node.args) and not (i == 1 and field is not None and not _is_none(field)):
                        args.append(node.args[i])
            for arg in args:
                for c in _consts(arg):
                    if c.value and not c.value.strip("0123456789:+-/ .?"):  # a number, a result: no word
                        continue
                    out.append((f"{path.relative_to(ROOT)}:{c.lineno}", c.value))
    return out


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None


def test_every_word_the_code_puts_through_t_is_a_key():
    found = _t_words()
    assert len(found) > 60, found  # the scan sees the faces' calls
    missing = [(where, text) for where, text in found if text not in FW.KEYS]
    assert not missing, missing


def test_the_tables_the_menu_and_the_faces_show_are_keys():
    shown = [t for t in F.STATUS_TEXT if t] + [row[0] for row in MN.TOP] + [row[0] for row in MN.ARB]
    shown += [MN.RESUME[0], *E.NO_YES, *E.SIDES, "NONE"] + [row[0] for row in E.MODES + E.METHODS]
    for row in E.SETTINGS:
        shown.append(row[0])
        if row[2] != "lang":  # the languages' names are each in its own language
            shown += [t for t in row[4] if not t.isdigit()]
    shown += [n + " (KT-4.6)" for n in E.METHOD_NAMES] + [n for n in E.BONUS_NAMES if n]
    shown += [w for w in MF._WHY if w]
    for module, cls, _ in MODES:  # the periods' and the breaks' names, as the match faces show them
        engine = getattr(__import__(module, None, None, (cls,)), cls)
        shown += [p.upper() for p in engine.PERIOD_NAMES] + [engine.BREAK_NAME.upper()]
    assert [w for w in shown if w not in FW.KEYS] == []
    assert list(FW.NAMES) == list(E.SETTINGS[-1][4]) and FW.CODES == E.SETTINGS[-1][3]  # the menu's languages


def test_the_languages_names_are_in_their_own_scripts():
    assert FW.NAMES == ("English", "Қазақша", "Русский", "Кыргызча")


# the reasons a match engine gives that the buttons can meet: the OLED's bottom line shows them whole
# (faces/matchfaces.py cuts a message at 21 characters); the others answer the host's bad values (side,
# winner, card, the settings)
BUTTON_REASONS = ("nothing to undo", "no stoppage", "no lot due", "undo the scores first", "stop the period first",
                  "not the entering team", "a pazham is 1 point", "score limit", "too many entries",
                  "events not logged yet")


def test_every_refusal_the_buttons_can_meet_in_a_match_fits_a_faces_line():
    from sagatfw.engine import matchbase

    source = "".join((FW_DIR / "engine" / name).read_text() for name in ("matchbase.py", "kokboru.py", "kilithattu.py"))
    for reason in BUTTON_REASONS + matchbase._NOT_IN:
        assert f'"{reason}"' in source, reason  # the list is the engines' own
        assert len(reason) <= 21, (reason, len(reason))
    assert [r for r in BUTTON_REASONS + matchbase._NOT_IN if r not in FW.KEYS] == []  # each in the clock's language


def test_every_reason_the_menu_wraps_fits_its_four_lines_in_every_language():
    # a reason or a detail (a key in lower case not given a line of its own): faces/game.py menu_oled word-wraps
    # it on four lines of 21 below the item and drops what does not fit
    import importlib

    from tests.firmware.faces.test_words import LIMITS, _lower

    tables = [FW.KEYS] + [importlib.import_module("sagatfw.faces.words_" + c).WORDS[1::2] for c in FW.CODES[1:]]
    for table in tables:
        for key, word in zip(FW.KEYS, table, strict=True):
            if key in LIMITS or not _lower(key):
                continue
            items = F.menu_oled("NO", None, 1, "MENU", word)
            shown = [it[3] for it in items if it[0] == "text" and it[1] == 0 and it[2] > 0]  # (not the centred item)
            assert " ".join(shown).split() == word.split(), (key, word, shown)


def test_a_board_without_its_language_table_boots_in_english(monkeypatch):
    # a deploy that left a table out (an older one, a copy cut short): the settings say kk, the import fails;
    # the clock boots and speaks English, never a traceback at the boot
    from menukit import Board, rmtree

    import sagatfw
    from sagatfw.app.main import App
    from sagatfw.faces.game import oled

    board = Board()
    try:
        with open(board.root + "settings.json", "w") as f:
            f.write('{"lang": "kk", "presets": []}')
        monkeypatch.setitem(sys.modules, "sagatfw.faces.words_kk", None)  # CPython: its import raises ImportError
        app = App(board)
        app.boot(0)
        assert app.store.values["lang"] == "kk"  # the setting stands (the table may come with the next deploy)
        assert sagatfw.T("PAUSE") == "PAUSE"
        assert [it[3] for it in oled(app.clock, 0) if it[0] == "text"][-1] == "> READY <"
    finally:
        sagatfw.use("en")
        rmtree(board.root[:-1])
