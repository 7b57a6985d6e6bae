"""`sagat presets` and `sagat tc`: the time controls, built-in and on a clock, checked and explained."""

from __future__ import annotations

import argparse
import json

from sagatfw.core import presets, tcparse
from sagatfw.core import timecontrol as tcm

from ..cliutil import UserError, adder, call, duration, out
from ..i18n import N_, _, ngettext

# a stage's time added per move, by its mode (docs/timecontrol.md; docs/glossary.md: increment, delay)
_MODES = {tcm.SUDDEN: N_("sudden death"), tcm.FISCHER: N_("Fischer"), tcm.DELAY: N_("delay"),
          tcm.BRONSTEIN: N_("Bronstein")}


def describe(tc: tcm.TimeControl) -> list[str]:
    """Plain-language lines for one side's control, in the user's language."""
    if tc.kind == tcm.COUNTUP:
        return [_("no limit: the faces count up")]
    if tc.kind == tcm.HOURGLASS:
        return [_("hourglass {time}: time one side uses goes to the other").format(time=duration(tc.stages[0].time_ms))]
    lines = []
    for i, st in enumerate(tc.stages, 1):
        if st.moves:
            text = ngettext("stage {stage}: {n} move in {time}", "stage {stage}: {n} moves in {time}", st.moves)
        else:
            text = _("stage {stage}: {time} for the rest of the game")
        text = text.format(stage=i, n=st.moves, time=duration(st.time_ms))
        if st.mode != tcm.SUDDEN:
            text += _(", {mode} {seconds} s").format(mode=_(_MODES[st.mode]), seconds=st.bonus_ms // 1000)
        if st.moves and i == len(tc.stages):
            text += _(" (repeats)")
        lines.append(text)
    if tc.byo == tcm.BYO_JAPANESE:
        lines.append(ngettext("then Japanese byo-yomi: {n} period of {seconds} s",
                              "then Japanese byo-yomi: {n} periods of {seconds} s", tc.byo_count).format(
            n=tc.byo_count, seconds=tc.byo_ms // 1000))
    elif tc.byo == tcm.BYO_CANADIAN:
        lines.append(ngettext("then Canadian byo-yomi: {n} move per {time}", "then Canadian byo-yomi: {n} moves per "
                              "{time}", tc.byo_count).format(n=tc.byo_count, time=duration(tc.byo_ms)))
    return lines


def cmd_presets(args: argparse.Namespace) -> int:
    if args.action == "push":
        if len(args.rest) != 3:
            raise UserError(_("presets push SLOT NAME TC (e.g. presets push 0 club 600+5)"))
        slot, name, text = args.rest
        if not slot.isdigit():
            raise UserError(_("presets push: slot {slot} is not a number").format(slot=repr(slot)))
        text = time_control(text)
        call(args, lambda c: c.request("presets.set", auth=True, slot=int(slot), name=name, tc=text))
        return out(args, {"slot": int(slot), "name": name, "tc": text},
                   _("slot {slot}: {name} = {tc}").format(slot=slot, name=name, tc=text))
    if args.rest:
        raise UserError(_("presets [list|push SLOT NAME TC]"))
    rows = [(name, text, desc) for name, text, desc in presets.PRESETS]
    if args.port:  # the clock's own user slots too
        ans = call(args, lambda c: c.request("presets.list"))
        rows += [(f"slot {p['slot']}: {p['name']}", p["tc"], USER_PRESET) for p in ans.get("user", [])]
    if args.json:
        for name, text, desc in rows:
            print(json.dumps({"name": name, "tc": text, "description": desc}))
        return 0
    width = max(len(r[0]) for r in rows)
    tcw = max(len(r[1]) for r in rows)
    for name, text, desc in rows:
        print(f"{name:<{width}}  {text:<{tcw}}  {_(desc)}")
    return 0


USER_PRESET = N_("user preset on the clock")  # (--json's description: English, as the built-in presets')
# the built-in presets' descriptions (firmware/sagatfw/core/presets.py: the clock carries them in English),
# marked for the catalogue: `sagat presets` shows each in the user's language (--json keeps the firmware's)
PRESET_WORDS = (
    N_("Toguz kumalak blitz: 7 min per player (TK-B3)"),
    N_("Toguz kumalak rapid: 20 min per player (TK-B3)"),
    N_("Toguz kumalak classical: 60 min per player"),
    N_("Toguz kumalak classical: 90 min per player"),
    N_("Toguz kumalak classical: 40 moves in 90 min, then 30 min (TK-C16)"),
    N_("Bullet: 1 min sudden death"),
    N_("Bullet: 1 min + 1 s Fischer"),
    N_("Blitz: 3 min sudden death"),
    N_("Blitz: 3 min + 2 s Fischer"),
    N_("Blitz: 5 min sudden death"),
    N_("Blitz: 5 min + 3 s Fischer"),
    N_("Blitz: 5 min, 5 s simple (US) delay"),
    N_("Blitz: 5 min, 3 s Bronstein delay"),
    N_("Rapid: 10 min sudden death"),
    N_("Rapid: 10 min + 5 s Fischer"),
    N_("Rapid: 15 min + 10 s Fischer"),
    N_("Rapid: 25 min + 10 s Fischer (FIDE rapid)"),
    N_("Rapid: 25 min, 5 s simple delay"),
    N_("Rapid: 25 min, 10 s Bronstein delay"),
    N_("Classical: 90 min + 30 s Fischer"),
    N_("Classical: 40 moves in 90 min, then 30 min, +30 s from move 1"),
    N_("Classical: 40 moves in 2 h, then 1 h sudden death"),
    N_("Classical: 40 moves in 2 h, then 1 h per 20 moves, repeated"),
    N_("Hourglass: 1 min, time used is added to the opponent"),
    N_("Hourglass: 3 min"),
    N_("No limit: both faces count up"),
    N_("Japanese byo-yomi: 10 min, then 5 periods of 30 s"),
    N_("Canadian byo-yomi: 20 min, then 25 moves per 5 min"),
)


def time_control(given: str) -> str:
    """A time control given on the command line: a built-in preset's name or a TimeControl string,
    checked (UserError). A word that is neither is an unknown preset, with the nearest names."""
    text = presets.preset(given) or given
    try:
        tcparse.parse_sides(text)
    except ValueError as e:
        # preset-shaped: a word of letters, digits and - + . (a TimeControl never starts with a letter)
        if given[:1].isalpha() and all(ch.isalnum() or ch in "-+." for ch in given):
            import difflib

            near = difflib.get_close_matches(given.lower(), [p[0] for p in presets.PRESETS], n=3, cutoff=0.6)
            if near:
                text = _("unknown preset {name}: did you mean {near}? sagat presets lists them")
            else:
                text = _("unknown preset {name}: sagat presets lists them")
            raise UserError(text.format(name=repr(given), near=_(" or ").join(near))) from None
        raise UserError(str(e)) from None
    return text


def cmd_tc(args: argparse.Namespace) -> int:
    text = time_control(args.control)
    left, right = tcparse.parse_sides(text)
    canonical = tcm.format_sides(left, right)
    if args.json:
        print(json.dumps({"tc": canonical, "left": tcm.format(left), "right": tcm.format(right)}))
        return 0
    print(canonical)
    sides = ((_("both sides"), left),) if left == right else ((_("left"), left), (_("right"), right))
    for label, tc in sides:
        print(f"{label}:")
        for line in describe(tc):
            print(f"  {line}")
    return 0


def add(subparsers) -> None:
    """Adds `sagat presets` and `sagat tc`."""
    cmd = adder(subparsers)
    sp = cmd("presets", _("list the presets (built-in, and the clock's with --port); push one to a slot"),
             _("The built-in time controls (toguz kumalak's first), and with --port the clock's user presets. "
               "`sagat presets push SLOT NAME TC` writes a user preset to the clock."))
    sp.add_argument("action", nargs="?", choices=("list", "push"), default="list",
                    help=_("list (default) or push"))
    sp.add_argument("rest", nargs="*", metavar="SLOT NAME TC",
                    help=_("for push: the slot (a number), the preset's name and its TimeControl string"))
    sp.add_argument("--port", metavar="PORT",
                    help=_("also the user presets on the clock at this serial port (push: the clock to write to)"))
    sp.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                    help=_("seconds to wait for each answer (default: 3)"))
    sp.add_argument("--key", action="append", metavar="KEY",
                    help=_("push: the arbiter key, once one is set on the clock (it signs the change)"))
    sp.add_argument("--key-file", metavar="FILE", help=_("read the arbiter key from FILE (instead of --key)"))
    sp.add_argument("--json", action="store_true", help=_("one JSON object per line"))
    sp.set_defaults(func=cmd_presets)
    sp = cmd("tc", _("check and explain a TimeControl string or preset name"),
             _("Check a TimeControl string (docs/timecontrol.md) or a preset name and explain it; no clock needed."))
    sp.add_argument("control", help=_('a TimeControl string in seconds, e.g. 420, "40/5400+30:1800+30", '
                                      '"300+2|180+2", or a preset name, e.g. tk-blitz'))
    sp.add_argument("--json", action="store_true", help=_("the canonical string and each side's, as JSON"))
    sp.set_defaults(func=cmd_tc)
