"""The corrections the arbiter makes at one board from the hall's page (Hall.act, the page's "arbiter"
dialog), derived from the firmware's one table of actions (sagatfw/ui/actions.py): an action the clock
takes is offered here with the arguments the clock takes, unless the hall does it with a button of its
own. Nothing of the table is restated: a new action of the clock's appears on the page by itself.

What the hall adds is its own: which of the table's actions its own buttons do instead, the fields
the page has to fill an argument (index.html's #act-fields), and `first` (who moves first: a game set
up again, the other side first)."""

from __future__ import annotations

import inspect

from sagatfw.engine.matchbase import Match
from sagatfw.ui import actions as fw_actions

# the arguments the page has a field for (index.html: #act-fields [data-for]); an argument without one is
# left out (the clock's default: a pause's `by` is the hall's, a resumed adjournment's times the clock's)
FIELDS = ("side", "ms", "moves", "stage", "elapsed_ms", "points", "kind", "winner")
# what the hall does with its own buttons, not in the dialog: Set up all (new; who moves first: `first`),
# Start round (a game's start, armed), Pause all (an armed start cancelled: disarm), the result dialog (a
# game's result with its kazans). An action that needs an argument the page has no field for (arm's
# ticks, the settings' values) is not offered either.
NOT_IN_DIALOG = {"game": ("new", "start", "disarm", "result"), "match": ("new",)}
FIRST = ("first", ("side",))  # the hall's own: the game set up again with the other side first (TK-C5)


def _engine_takes(method: str) -> set[str]:
    """What a match engine's method takes (actions.do passes a match's action only these: a match's
    adjust is the period's clock, ms; its result the winner)."""
    return set(inspect.signature(getattr(Match, method)).parameters) - {"self", "now"}


def _derive(serves: str) -> dict[str, tuple[str, ...]]:
    out = {}
    for name, (method, what, _auth, spec) in fw_actions.ACTIONS.items():
        if what not in (serves, "both") or name in NOT_IN_DIALOG[serves]:
            continue
        if any(s[2] and s[0] not in FIELDS for s in spec):
            continue  # it needs an argument the page cannot give
        takes = _engine_takes(method) if serves == "match" else {s[0] for s in spec}
        out[name] = tuple(s[0] for s in spec if s[0] in FIELDS and s[0] in takes)
    if serves == "game":
        out[FIRST[0]] = FIRST[1]
    return out


# each action the dialog offers, in the table's order, and the arguments it takes from the page
GAME_ACTS = _derive("game")
MATCH_ACTS = _derive("match")


def page() -> dict:
    """The dialog's table for the page (/api/actions): for a game and a match, each action's name,
    the fields it takes and the key of its words in the page's tables (static/lang/*.json)."""
    return {kind: [{"cmd": name, "args": list(args), "label": ("mact_" if kind == "match" else "act_") + name}
                   for name, args in acts.items()]
            for kind, acts in (("game", GAME_ACTS), ("match", MATCH_ACTS))}
