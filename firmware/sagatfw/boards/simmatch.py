# sagat: the sim's script actions for a match mode (issue 14; contract 4 of docs/design.md).
#
# Loaded by boards/sim.py's do_action only for a `new` with a mode or while a match is set up, so
# a game's script never pays for it. The actions go through matchapp.py, as the buttons and the
# protocol will:
#   {"do": "new", "mode": "kokboru", "lead": 8}
#   {"do": "new", "mode": "kilithattu", "first": "left", "changeover_ms": 60000, "method": "lot",
#    "seed": 7}                                  seed: the lot's (scripts only), else a true random bit
#   start, stoppage, resume, undo; score (side, points); card (side, kind: warning | red);
#   result (winner: left | right | none)
import sys

from sagatfw.modes import base as M

_OPS = ("start", "stoppage", "resume", "undo")


def handles(app, a):
    """Whether the action is a match's: a `new` with a mode, or anything but a game's `new`, the
    settings and a power cut while a match is set up."""
    what = a["do"]
    if what == "new":
        return "mode" in a
    return app.match is not None and what not in ("settings", "power_cut")


def do(app, board, a, now, n):
    """One match action at ticks `now` (script line n); a refusal is a warning on stderr."""
    from sagatfw import matchapp

    what = a["do"]
    try:
        if what == "new":
            opts = dict((k, a[k]) for k in matchapp.OPTION_NAMES if k in a)
            matchapp.new(app, a["mode"], opts, now, a.get("seed", 0))
        else:
            mapp = app.match
            if what in _OPS:
                mapp.do(what, now)
            elif what == "score":
                mapp.do("score", now, M.SIDE_NAMES.index(a["side"]), a["points"])
            elif what == "card":
                mapp.do("card", now, M.SIDE_NAMES.index(a["side"]), M.CARD_NAMES.index(a["kind"]))
            elif what == "result":
                w = a["winner"]
                mapp.do("result", now, M.SIDE_NAMES.index(w) if w in M.SIDE_NAMES else M.NONE)
            else:
                raise ValueError("not an action of a match (%s)" % app.match.m.MODE)
    except (ValueError, KeyError) as e:
        sys.stderr.write("script line %d: %s refused: %s\n" % (n, what, e))
    app.step(board.ticks())
