# sagat firmware: the package copied to the board (and imported by the host for its pure modules).
VERSION = "0.1.0"
KEY_FILE = "key"  # the arbiter key, in the board's root (set with the protocol's key.set)
MAX_KEY = 64  # bytes

# The match modes, by their number in the log (a mode's place here: append, never reorder): each
# one's engine module (its name is the mode's), its engine class there (a Match of
# engine/matchbase.py with the mode's rules, period names and options) and the names of its
# options (arguments of the protocol's `new`, ui/actions.py, checked before anything changes).
# The app, the log, the link, the faces and the host take a mode from here; a new mode is its
# engine module and one line (docs/design.md, "A new match mode").
# A tuple of constants (in flash when frozen): read it as sagatfw.MODES when it is needed, not
# bound at an import, so that a test can add a mode (tests/kits/countup.py).
MODES = (
    ("sagatfw.engine.kokboru", "KokBoru", ("lead",)),
    ("sagatfw.engine.kilithattu", "Kilithattu", ("first", "changeover_ms", "method")),
)


class Refused(ValueError):
    """An action the clock or a match does not allow now (its state), with the reason: str() is
    short enough for a face. A bad value is a plain ValueError (the protocol: `refused` against
    `bad_arg`). The one refusal of every action (ui/actions.py)."""


def load_key(root):
    """The arbiter key stored on the flash, or b"" when none is set: the protocol's authority and
    the key of the log's chain (the app keys its journal with it at boot). One reader for both."""
    try:
        with open(root + KEY_FILE, "rb") as f:
            return f.read(MAX_KEY)
    except OSError:
        return b""


# The layers' packages (docs/design.md, "Layers"). Each holds nothing but the names of its modules
# that were imported; on a board each costs heap (192 B on the 64-bit unix port) for no use once
# its modules are loaded, so forget() lets them go too: an import that needs one makes it again.
PACKAGES = ("sagatfw.core", "sagatfw.engine", "sagatfw.log", "sagatfw.faces", "sagatfw.ui", "sagatfw.link",
            "sagatfw.app")


def forget(*names):
    """Let modules leave RAM (code used only at boot, in the menu, for one request). An import
    binds a submodule in sys.modules *and* as an attribute of its package: both references go,
    else the module's code stays in the heap. On MicroPython the layers' packages go as well."""
    import sys

    if sys.implementation.name == "micropython":
        names = names + PACKAGES
    for name in names:
        sys.modules.pop(name, None)
        dot = name.rfind(".")
        parent = sys.modules.get(name[:dot]) if dot > 0 else None
        if parent is not None and name[dot + 1 :] in parent.__dict__:
            delattr(parent, name[dot + 1 :])
