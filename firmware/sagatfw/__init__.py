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
    """An action the clock or a match does not allow now (its state): Refused(reason, code[, parts]). args[0] is
    the English reason, short enough for a face (say e.args[0], not str(e), which shows all the args); code, the
    reason code the host says in its user's language, and parts, a dict of the reason's values by name
    (docs/protocol.md, "Reason codes"), are read by the link layer only when it answers: a short literal
    string at the raise site, frozen in flash, and no method of its own, so that the codes cost no RAM.
    A bad value is a plain ValueError (the protocol: `refused` against `bad_arg`; engine/kazans.py's carry a
    code the same way). The one refusal of every action (ui/actions.py)."""


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


# The faces' words in the clock's language (the `lang` setting: en, kk, ru, ky; faces/words.py lists them). Code
# writes a word in English, in capitals as a face shows it: T("PAUSE"). Each other language is a module of its own,
# faces/words_kk.py, words_ru.py, words_ky.py, whose WORDS pairs each English word with its translation (a tuple of
# constants: in flash when frozen). `use` loads the chosen one alone and keeps only its table, so a language costs
# no heap; English needs none. Kept here, in the module every layer has loaded, so that no module of its own costs
# heap (faces/words.py, the list of the words, is the tests' and the translators', never loaded on a board).
_WORDS = None  # the chosen language's WORDS: (english, translation, english, translation, ...); None: English


def T(word):
    """`word` (faces/words.py KEYS) in the clock's language; any other text (a name, a code, a reason the engine
    gave) as it is. No allocation: a search of the table's tuple (`in` first: a miss raises nothing)."""
    w = _WORDS
    if w is not None and word in w:
        i = w.index(word)
        if not i & 1:  # (an English word: a translation equal to it comes after it)
            return w[i + 1]
    return word


def use(code):
    """Speak language `code` from now on ("en", "kk", "ru", "ky": log/settings.py refuses any other first; an
    unknown one, or one whose table is not on the board, is English): its table loaded, its module let go."""
    global _WORDS
    _WORDS = None
    if code in ("kk", "ru", "ky"):
        name = "sagatfw.faces.words_" + code
        try:
            _WORDS = __import__(name, None, None, ("WORDS",)).WORDS
        except ImportError:  # a board copied without its tables (an old deploy): English, not a boot that fails
            pass
        forget(name)
