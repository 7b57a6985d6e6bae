"""The firmware's layers hold at the interfaces too (docs/design.md, "Layers"): a module uses only the
public members of what it is handed (another module's object, or another module). A member named with a
leading _ is its own module's: a class whose private methods another file calls is one class spread over
two files. The seams are public methods named for what they do (ui/menu.py's Menu for ui/editors.py;
engine/clock.py's time base for engine/rules.py), and the faces decide what is shown from what the app
hands them (faces/view.py), never from the journal's fields. Every attribute is read from the source."""

import ast
import os

import pytest

FIRMWARE = os.path.join(os.path.dirname(__file__), "..", "firmware", "sagatfw")

# Not the firmware's: the port's own attribute (boards/pico.py tells the Pico 2 from the Pico by it).
PLATFORM = {"sys.implementation._machine"}

# Private members used across modules when the rule was set, each a seam still to make public
# (the app's, the clock's, the stream's). Empty this as the seams land; a module may use fewer of
# these, never others, and no module not listed may use any. (The journal's are gone: its interface is public.)
NOT_YET = {
    "sagatfw.app.matchmode": {"app._forget_code", "app._code_status"},
    "sagatfw.app.setup": {"app._forget_code", "mapp._log", "app._save", "m._elapsed_at"},
    "sagatfw.engine.clock": {"self.sink._log"},
    "sagatfw.link.stream": {"server._accept"},
    "sagatfw.log.boot": {"clock._ms_at"},
    "sagatfw.log.checkpoint": {"clock._ms_at"},
    "sagatfw.log.journal": {"clock._ms_at"},
}


def _modules():
    out = {}
    for dirpath, _dirs, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, FIRMWARE)[:-3].replace(os.sep, ".")
                out["sagatfw" if rel == "__init__" else "sagatfw." + rel.removesuffix(".__init__")] = path
    return out


MODULES = _modules()


def private_uses(source):
    """{"obj._member": its first line} for every private member of something other than self or cls."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = ast.unparse(node.value)
            if base not in ("self", "cls"):
                found.setdefault(base + "." + node.attr, node.lineno)
    return found


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_a_module_uses_only_the_public_members_of_others(mod):
    with open(MODULES[mod], encoding="utf-8") as fh:
        uses = private_uses(fh.read())
    bad = {u: line for u, line in uses.items() if u not in PLATFORM and u not in NOT_YET.get(mod, ())}
    assert not bad, f"{mod} uses private members of other modules' objects (line of each): {bad}"


def test_the_two_seams_are_public_interfaces():
    """ui/editors.py and the Menu, engine/rules.py and the Clock: each pair was one class spread over two
    files (69 and 25 calls of private methods); none may come back."""
    for mod in ("sagatfw.ui.editors", "sagatfw.engine.rules"):
        assert mod not in NOT_YET
        with open(MODULES[mod], encoding="utf-8") as fh:
            assert not private_uses(fh.read()), mod


def test_the_check_sees_a_private_member_of_a_handed_object():
    src = "def f(mn, c):\n    mn._push(3)\n    x = c._commit\n    self._own()\n    mn.enter(3)\n    y.__class__\n"
    assert private_uses(src) == {"mn._push": 2, "c._commit": 3}


def _attributes(mod):
    with open(MODULES[mod], encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    return {(ast.unparse(n.value), n.attr) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}


def test_the_faces_read_no_journal():
    """What the faces show comes from the app's view (App.protest_left for TK-P1's window), never from the
    journal's fields."""
    journal = {"journal", "result_wall", "sync_wall_ms", "sync_ticks"}
    for mod in MODULES:
        if mod.startswith("sagatfw.faces."):
            read = {a for _, a in _attributes(mod)} & journal
            assert not read, (mod, read)


def test_the_boards_draw_what_the_faces_decide():
    """No board chooses what a face says: the status line's code, the result code's turns, a match's note or
    the battery's warning on a four-digit face and the LEDs are faces/screen.py's. (The sim board, which has
    OLED faces only, draws faces.game's and faces.matchfaces's OLED items itself, as screen.oled does: screen.py
    there would cost the sim's frozen heap its module at the 64 KB budget's edge.)"""
    decisions = {("app", "status"), ("app", "code_text"), ("F", "STATUS4"), ("F", "leds"), ("F", "tm1637"),
                 ("MF", "tm1637"), ("MF", "leds")}
    for mod in ("sagatfw.boards.hw", "sagatfw.boards.sim"):
        made = _attributes(mod) & decisions
        assert not made, (mod, made)
    drawn = {("F", "status_text"), ("F", "oled"), ("MF", "oled"), ("F", "menu_items")}
    assert not _attributes("sagatfw.boards.hw") & drawn
