"""The simulator's script language (contract 4, docs/design.md): one JSON action a line, "at" ms from
the start. Every line is checked before anything runs (parse_script), against the firmware's one
table of actions; the script is then split at its power cuts into the boots of the clock
(plan_boots). `sagat sim --help` lists the actions (actions_help). Running a script: runners.py."""

from __future__ import annotations

import json
from dataclasses import dataclass

import sagatfw  # sagatfw.MODES: the match modes, each one's engine and options
from sagatfw.app import setup as _MA  # a match's options as its engine takes them (the firmware's option_args)
from sagatfw.core import tcparse
from sagatfw.engine import clock as C
from sagatfw.engine.matchbase import Match
from sagatfw.log import matchrecords as matchlog
from sagatfw.log import names as _N  # a match's names: how much of them the clock keeps
from sagatfw.log import settings as fw_settings
from sagatfw.ui import actions as ACT  # the one table of actions (the firmware's)

from ..i18n import _, ngettext

# The script's actions: every row of the firmware's one table of actions (sagatfw/ui/actions.py: its
# arguments, their kinds and ranges, what it serves), under the script's names ("settings" takes
# the settings as fields, the protocol's settings.set an object of them), plus what only a script
# does: press a lever, cut the power, seed a match's lot.
SCRIPT_NAMES = {"settings.set": "settings"}
OPTION_HELP = {  # what a match's option means (its values are the table's)
    "lead": "kokboru: the lead that wins at once (KB-14; default 8)",
    "changeover_ms": "kilithattu: the changeover in ms (KT-4.4; default 60000)",
    "method": "kilithattu: how a further tie is broken (KT-4.6; default lot)",
}


def _draws_lots(engine: type) -> bool:
    """Whether a match mode's engine draws lots (a draw_lot of its own, not Match's refusal): a
    script's seed draws them. (By the defining class's name: the firmware may load matchbase again.)"""
    owner = next(c for c in engine.__mro__ if "draw_lot" in vars(c))
    return owner.__name__ != Match.__name__


def _kind_help(spec) -> str:
    name, kind, _req, a, b = spec
    a, b = ACT.const_of(a), ACT.const_of(b)
    if name in OPTION_HELP:
        return OPTION_HELP[name] + ", " + _kind_help((None, kind, _req, a, b))
    if kind == "side":
        return "left or right"
    if kind == "int":
        return f"a whole number {a}..{b}"
    if kind in ("index", "name"):
        return " or ".join(", ".join(a[b or 0:]).rsplit(", ", 1))
    if kind == "tc":
        return 'a TimeControl string or {"left": ..., "right": ...}'
    if kind == "names":  # (log/names.py fit_names: both in one record, each cut on a character boundary)
        return (f'a match\'s two sides\' names, ["left\'s", "right\'s"] (a list of two texts; the clock keeps '
                f'{_N.NAMES_SIZE - 1} bytes of UTF-8 for the two, a longer name cut)')
    if kind == "values":
        return "an object of settings"
    raise ValueError(f"{kind}: an argument kind without help")  # (a new kind of the table: say what it takes)


ACTIONS: dict[str, dict] = {"press": {"side": (True, None, "left or right")}}
for _name, (_m, _serves, _auth, _spec) in ACT.ACTIONS.items():
    ACTIONS[SCRIPT_NAMES.get(_name, _name)] = {} if _name == "settings.set" else {
        s[0]: (bool(s[2]), s, _kind_help(s)) for s in _spec}
ACTIONS["new"]["seed"] = (False, None, "a match's lot drawn from this seed, 1..2^32-1 (scripts only; else a true "
                                       "random bit)")
ACTIONS["power_cut"] = {"off_ms": (True, None, "ms the board stays off, >= 0")}
# what each kind of play takes: a game's actions, a match's (after a `new` with a mode)
GAME_ONLY = ("press",) + tuple(SCRIPT_NAMES.get(k, k) for k, v in ACT.ACTIONS.items() if v[1] == "game")
MATCH_ONLY = tuple(k for k, v in ACT.ACTIONS.items() if v[1] == "match")


def actions_help() -> str:
    """The script actions and their fields, for `sagat sim --help`."""
    lines = ['script actions (one JSON object a line, "at": ms from the start, in time order):']
    for what, fields in ACTIONS.items():
        parts = [f"{k}{'' if req else '?'}: {meaning}" for k, (req, _c, meaning) in fields.items()]
        if what == "settings":
            parts = ["any of " + ", ".join(SCRIPT_SETTINGS)]
        lines.append(f"  {what:<17} " + ("; ".join(parts) if parts else "-"))
    lines.append("(? marks an optional field; a refused action is a warning with its line number, on stderr)")
    lines.append('a match: new with "mode" instead of "tc", then start, score, card, stoppage, resume, '
                 'undo, result (winner); a lot due is drawn at once')
    lines.append('e.g. {"at": 0, "do": "new", "mode": "kokboru", "lead": 8}  {"at": 0, "do": "new", '
                 '"mode": "kilithattu", "first": "left", "changeover_ms": 60000, "method": "lot", "seed": 7}')
    lines.append('e.g. {"at": 0, "do": "new", "tc": "420", "first": "left"}  {"at": 0, "do": "start"}  '
                 '{"at": 2500, "do": "press", "side": "left"}')
    return "\n".join(lines)


SCRIPT_SETTINGS = ("freeze", "stage_advance", "extension_ms", "default_ms", "low_time_ms", "tenths_below_ms", "sound",
                   "lang")


class SimError(Exception):
    """One line for the user."""


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass
class Action:
    line: int
    data: dict

    @property
    def at(self) -> int:
        return self.data["at"]


def parse_script(text: str, name: str = "script") -> tuple[list[Action], list[str]]:
    """Check every line; return the actions and warnings, or raise SimError naming the first bad
    line and why. Nothing runs before the whole script is known to be good."""
    actions: list[Action] = []
    warnings: list[str] = []
    last_at = 0
    match = False  # the last `new` set up a match (a mode)
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue

        def bad(why: str, n: int = n) -> SimError:
            return SimError(_("{script} line {line}: {why}").format(script=name, line=n, why=why))

        try:
            a = json.loads(line)
        except ValueError as e:
            raise bad(_("not JSON ({error})").format(error=e.msg)) from None
        if not isinstance(a, dict):
            raise bad(_("each line must be a JSON object"))
        at = a.get("at")
        if not _int(at) or at < 0:
            raise bad(_('"at" must be a whole number of ms >= 0'))
        if at < last_at:
            raise bad(_('"at" {at} is before the previous line\'s {last}: lines must be in time order').format(
                at=at, last=last_at))
        last_at = at
        what = a.get("do")
        if what not in ACTIONS:
            raise bad(_('unknown "do" {what} (one of {actions})').format(what=repr(what), actions=", ".join(ACTIONS)))
        fields = ACTIONS[what]
        if what in ("press", "power_cut"):  # a script's own: a lever, the power
            key = "side" if what == "press" else "off_ms"
            if key not in a:
                raise bad(_('{what} needs "{key}" ({meaning})').format(what=what, key=key, meaning=fields[key][2]))
            v = a[key]
            if (v not in C.SIDE_NAMES) if what == "press" else (not _int(v) or v < 0):
                raise bad(_('{what}: "{key}" must be {meaning}, not {value}').format(
                    what=what, key=key, meaning=fields[key][2], value=repr(v)))
            extra = sorted(set(a) - {"at", "do", key})
            if extra:
                warnings.append(ngettext("{script} line {line}: ignored unknown field {fields}",
                                         "{script} line {line}: ignored unknown fields {fields}", len(extra)).format(
                    script=name, line=n, fields=", ".join(extra)))
        elif what == "settings":
            for key, value in a.items():
                if key in ("at", "do"):
                    continue
                if key not in SCRIPT_SETTINGS:
                    raise bad(_("unknown setting {key} (known: {keys})").format(key=repr(key),
                                                                               keys=", ".join(SCRIPT_SETTINGS)))
                try:
                    fw_settings.validate(key, value)
                except ValueError as e:
                    raise bad(str(e)) from None
        else:  # a row of the firmware's table: its own check of the arguments
            try:
                vals = ACT.args(what, {k: v for k, v in a.items() if k not in ("at", "do", "seed")})
            except ValueError as e:
                raise bad(f"{what}: {e}") from None
            engine = None
            if what == "new" and vals["mode"] is not None:  # its mode's engine (sagatfw.MODES)
                engine = matchlog.engine_class(matchlog.mode_index(vals["mode"]))()
            if "seed" in a and not (engine is not None and _draws_lots(type(engine))):
                lots = " or ".join(matchlog.mode_name(i) for i in range(len(sagatfw.MODES))
                                   if _draws_lots(matchlog.engine_class(i)))
                raise bad(_('"seed" is the lots\' of a match that draws them: new with "mode": {modes}').format(
                    modes=lots))
            if "seed" in a and not (_int(a["seed"]) and 1 <= a["seed"] <= 0xFFFFFFFF):
                raise bad(_("new: seed must be 1..2^32-1, not {seed}").format(seed=repr(a["seed"])))
            if engine is not None:
                mode = vals["mode"]
                mine = sagatfw.MODES[matchlog.mode_index(mode)][2]
                for key in (k for e in sagatfw.MODES for k in e[2]):
                    if a.get(key) is not None and key not in mine:  # (null: absent, as on the clock)
                        raise bad(_('a {mode} match has no "{key}"').format(mode=mode, key=key))
                try:  # the options' values: the mode's own engine checks them, as on the clock
                    opts = {k: vals[k] for k in mine if vals[k] is not None}
                    engine.new_match(**_MA.option_args(engine, opts))
                except ValueError as e:
                    raise bad(f"new: {e}") from None
                match = True
            elif what == "new":
                match = False
                try:
                    tcparse.parse_sides(vals["tc"])
                except ValueError as e:
                    raise bad(str(e)) from None
        if match and what in GAME_ONLY:
            raise bad(_("{what} is a game's action, not a match's (the last new has a mode)").format(what=what))
        if not match and what in MATCH_ONLY:
            raise bad(_('{what} is a match\'s action: a new with "mode" first').format(what=what))
        # actions.do's rule (the firmware's): a match's result is a winner and nothing else, a
        # game's a result (a null is no value: the table reads it as absent)
        if what == "result" and (a.get("winner" if match else "result") is None
                                 or a.get("result" if match else "winner") is not None):
            raise bad(_('result needs "winner" (left, right or none), not "result", in a match') if match
                      else _('result needs "result" ({results}), not "winner", in a game').format(
                          results=", ".join(C.RESULT_NAMES)))
        actions.append(Action(n, a))
    if not actions:
        raise SimError(_("{script}: no actions").format(script=name))
    return actions, warnings


@dataclass
class Boot:
    start: int  # virtual ms at which the board boots
    actions: list[Action]  # up to and including the power_cut that ends it (if any)


def plan_boots(actions: list[Action]) -> tuple[list[Boot], list[str]]:
    """Split at power cuts; actions timed while the board is off are dropped with a warning."""
    boots = [Boot(0, [])]
    warnings = []
    off_until = None
    for a in actions:
        if off_until is not None:
            if a.at < off_until:
                warnings.append(_("line {line}: {what} at {at} ms dropped: the board is off until {until}").format(
                    line=a.line, what=a.data["do"], at=a.at, until=off_until))
                continue
            boots.append(Boot(off_until, []))
            off_until = None
        boots[-1].actions.append(a)
        if a.data["do"] == "power_cut":
            off_until = a.at + a.data["off_ms"]
    return [b for b in boots if b.actions], warnings

