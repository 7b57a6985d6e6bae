# sagat firmware: the package copied to the board (and imported by the host for its pure modules).
VERSION = "0.1.0"
KEY_FILE = "key"  # the arbiter key, in the board's root (set with the protocol's key.set)
MAX_KEY = 64  # bytes

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# The status line (App.status): what the faces say besides the game or match, as a code; the faces
# turn it into text (faces.STATUS_TEXT on an OLED's bottom line and in state's "message",
# faces.STATUS4 on a four-digit face). One code at a time, the later outweighing the earlier.
ST_NONE = const(0)
ST_CODE = const(1)  # the finished game's or match's result code, for the scoresheet (App.code_text)
ST_LOG_ERROR = const(2)  # records wait in RAM: the flash refused them
ST_LOG_FULL = const(3)
ST_LOG_DAMAGED = const(4)  # the boot found damaged records (skipped, logged)
ST_RESTORE_FAILED = const(5)  # the log's game or match could not be replayed: a clean start
ST_SETTINGS_DEFAULT = const(6)  # the settings file was missing or bad: defaults (logged)
ST_SETTINGS_UNSAVED = const(7)  # settings changed but the flash did not take them
ST_ERROR = const(8)  # a step failed (a display glitch): cleared after 3 s of clean refreshes


def load_key(root):
    """The arbiter key stored on the flash, or b"" when none is set: the protocol's authority and
    the key of the log's chain (the app keys its journal with it at boot). One reader for both."""
    try:
        with open(root + KEY_FILE, "rb") as f:
            return f.read(MAX_KEY)
    except OSError:
        return b""


def forget(*names):
    """Let modules leave RAM (code used only at boot, in the menu, for one request). An import
    binds a submodule in sys.modules *and* as an attribute of its package: both references go,
    else the module's code stays in the heap."""
    import sys

    for name in names:
        sys.modules.pop(name, None)
        dot = name.rfind(".")
        parent = sys.modules.get(name[:dot]) if dot > 0 else None
        if parent is not None and name[dot + 1 :] in parent.__dict__:
            delattr(parent, name[dot + 1 :])
