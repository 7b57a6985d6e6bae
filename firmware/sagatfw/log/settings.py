# sagat: settings and user presets, saved atomically on the board's filesystem.
#
# One JSON file (default /settings.json). `save` writes a temporary file, flushes and closes it,
# then renames it over the old one: littlefs renames atomically, so after a power cut the file is
# either the old settings or the new ones, never half of each. `load` never raises: a missing file
# gives the defaults (origin "missing"), an unreadable one or bad values give the defaults for what
# was bad (origin "corrupt"), and `problem` says what was wrong for the faces and the log. Every value
# is checked as the boot uses it: the control with the one parser (tcparse.parse_sides), the
# clock's settings with clock.Settings; `check_all` applies the same checks before anything is saved.

import json
import os

from sagatfw.engine import clock as C
from sagatfw.log import records as R

MAX_PRESETS = 5  # user slots, as DGT's manual ones


# name: (default, kind, low, high). Kinds: "b" true/false, "n" true/false/null, "i" a whole number
# in low..high, "c" one of low (a tuple), "t" a TimeControl string.
#   freeze           stop both faces at a flag; null: on with an increment or delay (contract 2)
#   stage_advance    the next stage's time at its move count ("moves") or at a flag ("flag")
#   extension_ms     tie extension for each side (TK-C14)
#   default_ms       default time: mark a side that has not moved (TK-C6)
#   low_time_ms      low-time mark (TK-C17)
#   tenths_below_ms  show tenths below this (0: never)
#   sound            beep at a flag and a stage change (buttons are always silent)
#   horn             a match's horn: at the end of every period and break, 10 s before a break ends
#   brightness       display brightness 0..7
#   lockout_ms       ignore lever bounce for this long after a press
#   log_max_bytes    the log's size bound
#   checkpoint_ms    how often a running clock checkpoints
#   tc, first        the next game's control (TK-B3 blitz by default) and first player's face (TK-C5)
#   board            the clock's board number in the hall (0: none): identify's number, the faces' BOARD
#   lang             the faces' language: English, Kazakh, Russian, Kyrgyz (faces/words.py CODES)
SCHEMA = {  # type: dict
    "freeze": (None, "n", 0, 0),
    "stage_advance": ("moves", "c", ("moves", "flag"), 0),
    "extension_ms": (300000, "i", 0, C.MAX_MS),
    "default_ms": (1800000, "i", 0, C.MAX_MS),
    "low_time_ms": (300000, "i", 0, C.MAX_MS),
    "tenths_below_ms": (20000, "i", 0, 3600000),
    "sound": (True, "b", 0, 0),
    "horn": (True, "b", 0, 0),
    "brightness": (4, "i", 0, 7),
    "lockout_ms": (60, "i", 1, 500),  # buttons.Buttons needs 1 <= lockout < long press (1000)
    "log_max_bytes": (262144, "i", 16384, 1048576),  # <= 128 segments: the boot lists them all
    "checkpoint_ms": (15000, "i", 1000, 600000),
    "tc": ("420", "t", 0, 0),
    "first": ("left", "c", ("left", "right"), 0),
    "board": (0, "i", 0, 999),
    "lang": ("en", "c", ("en", "kk", "ru", "ky"), 0),
}


def _ok(key, v):
    default, kind, low, high = SCHEMA[key]
    if kind == "b":
        return isinstance(v, bool)
    if kind == "n":
        return v is None or isinstance(v, bool)
    if kind == "i":
        return isinstance(v, int) and not isinstance(v, bool) and low <= v <= high
    if kind == "c":
        return v in low
    return _valid_tc(v)


def _valid_tc(v):
    if not isinstance(v, str):
        return False
    from sagatfw.core import tcparse  # the app forgets the parser once a control is set

    try:
        tcparse.parse_sides(v)
    except ValueError:
        return False
    return True


def defaults():
    return dict((k, SCHEMA[k][0]) for k in SCHEMA)


def validate(key, value):
    """Raise ValueError unless `key` is a known setting and `value` is valid for it."""
    if key not in SCHEMA:
        raise ValueError("unknown setting %r" % (key,))
    if SCHEMA[key][1] == "t" and isinstance(value, str):
        from sagatfw.core import tcparse

        tcparse.parse_sides(value)  # its ValueError names the bad part
    if not _ok(key, value):
        raise ValueError("bad value for %s: %r" % (key, value))


def check_all(values, changes):
    """`values` (a whole valid set) with `changes` applied, checked as the boot will use them:
    each value (validate: the TimeControl with the one parser, tcparse.parse_sides), then the
    clock's settings together (clock.Settings). Returns the new dict; ValueError, and nothing
    changed, on the first bad value."""
    if not isinstance(changes, dict):
        raise ValueError("settings must be an object")
    for key in changes:
        validate(key, changes[key])
    new = dict(values)
    for key in changes:
        new[key] = changes[key]
    _clock_settings(new)  # the clock's own check (raises ValueError)
    return new


# The settings a game is set up with: a file whose control the clock still refuses falls back to
# the defaults for all of them (App.boot).
GAME_KEYS = ("tc", "first", "freeze", "stage_advance", "extension_ms", "default_ms", "low_time_ms")


def _clock_settings(v):
    return C.Settings(v["freeze"], v["stage_advance"], v["extension_ms"], v["default_ms"], v["low_time_ms"])


def _valid_presets(v):
    if not isinstance(v, list) or len(v) > MAX_PRESETS:
        return False
    for p in v:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not _valid_tc(p.get("tc")):
            return False
        if not 0 < len(p["name"]) <= 16:  # a preset name's most characters (no global: the dict stays at 17)
            return False
    return True


class Store:
    """The settings file: `values` (every key of SCHEMA) and `presets` (user slots)."""

    def __init__(self, path="/settings.json"):
        self.path = path
        self.values = defaults()
        self.presets = []
        self.origin = R.ORIGIN_DEFAULTS_MISSING
        self.problem = None
        self.saved = False  # the file holds `values` and `presets` as they are (loaded whole, or saved)

    def load(self):
        """Read the file; never raises. Returns the origin (records.ORIGIN_*)."""
        self.values = defaults()
        self.presets = []
        self.problem = None
        self.saved = False
        try:
            f = open(self.path)
        except OSError:
            self.origin = R.ORIGIN_DEFAULTS_MISSING
            self.problem = "no settings file: defaults"
            return self.origin
        try:
            self._load(f)
        except Exception:  # noqa: BLE001 - whatever the file holds (MemoryError too): the defaults
            self.values = defaults()
            self.presets = []
            self.origin = R.ORIGIN_DEFAULTS_CORRUPT
            self.problem = "settings file unreadable: defaults"
        finally:
            f.close()
        self.saved = self.origin == R.ORIGIN_CHANGED  # every value the file's (or a default it lacks)
        return self.origin

    def _load(self, f):
        try:
            data = json.loads(f.read())  # not UTF-8, not JSON, nested too deep: an exception
        except Exception:  # noqa: BLE001
            data = None
        if not isinstance(data, dict):
            self.origin = R.ORIGIN_DEFAULTS_CORRUPT
            self.problem = "settings file unreadable: defaults"
            return
        bad = []
        for key in SCHEMA:
            if key in data:
                if _ok(key, data[key]):
                    self.values[key] = data[key]
                else:
                    bad.append(key)
        presets = data.get("presets", [])
        if _valid_presets(presets):
            self.presets = presets
        else:
            bad.append("presets")
        try:
            _clock_settings(self.values)  # each is valid; together too (the clock's own check)
        except ValueError:
            for key in GAME_KEYS[2:]:
                self.values[key] = SCHEMA[key][0]
            bad.append("clock settings")
        if bad:
            self.origin = R.ORIGIN_DEFAULTS_CORRUPT
            self.problem = "bad settings, defaults for: " + ", ".join(bad)
        else:
            self.origin = R.ORIGIN_CHANGED

    def reset_game_defaults(self, problem):
        """The clock refused the game these settings set up: the defaults for every game setting
        (GAME_KEYS), the others stay. Returns the origin to log (defaults_corrupt)."""
        for key in GAME_KEYS:
            self.values[key] = SCHEMA[key][0]
        self.origin = R.ORIGIN_DEFAULTS_CORRUPT
        self.problem = problem
        self.saved = False
        return self.origin

    def set(self, key, value):
        """Change one setting in memory (ValueError if bad); `save` makes it durable."""
        validate(key, value)
        self.values[key] = value
        self.saved = False

    def set_preset(self, slot, name, tc):
        if not isinstance(slot, int) or not 0 <= slot < MAX_PRESETS:
            raise ValueError("preset slot must be 0..%d" % (MAX_PRESETS - 1))
        p = {"name": name, "tc": tc}
        if not _valid_presets([p]):
            raise ValueError("a preset needs a name of 1..16 characters and a valid TimeControl")
        while len(self.presets) <= slot:
            self.presets.append({"name": "slot %d" % (len(self.presets) + 1), "tc": "420"})
        self.presets[slot] = p
        self.saved = False

    def save(self):
        """Write atomically: temporary file, flush, close, rename. Raises OSError on failure
        (the old file is then untouched)."""
        self.saved = False  # (until the rename: the values may have changed since the last save)
        data = dict(self.values)
        data["presets"] = self.presets
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write(json.dumps(data))
            f.flush()
        os.rename(tmp, self.path)
        self.origin = R.ORIGIN_CHANGED
        self.problem = None
        self.saved = True

    def clock_settings(self, values=None):
        """The clock.Settings for the next game (of `values`, default the store's)."""
        return _clock_settings(self.values if values is None else values)
