# sagat: the protocol's commands for a match mode (issue 14; contract 6, docs/protocol.md "Matches").
#
# protocol.Server loads this module for a request only while a match is set up (app.match), for a
# `new` with a `mode`, and for the match's own commands (score, card, stoppage, undo: "m_" in
# COMMANDS), and forgets it after that feed, as commands.py: a game's loop never holds it, and a
# match's only for a request. Every request of a match's time comes here first (serve): the
# referee's actions go to the engine (matchapp.MatchApp.do, Refused becomes `refused`), a game
# command that would act on the clock is refused, and the rest (reads, the wall time, the log, the
# key) goes on to commands.py with the match's guards (no key change, no maintenance, no erasing
# the match while it is in progress).

from sagatfw import faces as F
from sagatfw import protocol as P
from sagatfw.modes import base as M

# The game's commands that act on the game clock: refused while a match is set up.
_GAME = ("pause", "adjust", "extend", "late_install", "adjourn", "resume_adjourned", "settings.set")
_OPS = ("start", "stoppage", "resume", "undo")


def _mapp(srv, cmd):
    mapp = srv.app.match
    if mapp is None:
        raise P.Error(P.REFUSED, "%s: no match is set up (new with a mode first)" % cmd)
    return mapp


def _busy(mapp):
    """The match is in progress: started and without a result (SETUP 0 .. FINISHED 7)."""
    return mapp is not None and M.SETUP < mapp.m.state < M.FINISHED


def _side(req, name, extra=None):
    v = req.get(name)
    if v in M.SIDE_NAMES:
        return M.SIDE_NAMES.index(v)
    if extra is not None and v == extra:
        return M.NONE
    names = "left, right" + (", " + extra if extra else "")
    raise P.Error(P.BAD_ARG, "%s must be one of %s" % (name, names))


def serve(srv, req, now, handler):
    """The request `req` (its handler's name from COMMANDS) while a match is set up, or a match's
    command, or a `new` with a mode. Returns the answer's body or raises protocol.Error."""
    cmd = req["cmd"]
    mapp = srv.app.match
    if cmd == "new":
        return _new(srv, req, now, mapp)
    if handler[:2] == "m_" or cmd in _OPS or cmd == "result":
        return _op(srv, req, now, _mapp(srv, cmd), cmd)
    if mapp is not None and cmd in _GAME:
        raise P.Error(P.REFUSED, "%s: a %s match is set up: a game's command (sagat new TC sets up a game)"
                      % (cmd, mapp.m.MODE))
    busy = _busy(mapp)
    if busy and (cmd == "key.set" or cmd == "maintenance"):
        raise P.Error(P.REFUSED, "%s: the match is in progress: enter its result first" % cmd)
    # a match set up is logged (its setup record) as much as a game set up: its game stays too
    if mapp is not None and mapp.m.state < M.FINISHED and cmd == "log.erase" and (
            P._int(req, "game", 0, 0xFFFF) >= srv.app.journal.game):
        raise P.Error(P.REFUSED, "game %d is a match in progress: only finished games are erased"
                      % srv.app.journal.game)
    body = getattr(_commands(srv), handler)(srv, req, now)
    if busy and cmd == "log.info":
        body["in_progress"] = srv.app.journal.game
    return body


def _commands(srv):
    if srv.cmds is None:
        from sagatfw import commands

        srv.cmds = commands
        srv.loaded = True
    return srv.cmds


def _new(srv, req, now, mapp):
    from sagatfw import clock as C

    st = mapp.m.state if mapp is not None else M.SETUP
    if st == M.RUNNING or st == M.BREAK or st == M.LOT:
        raise P.Error(P.REFUSED, "new: the match's %s runs: a stoppage first" % (
            "break" if st == M.BREAK else "period"))
    if "mode" not in req:
        return _commands(srv).new(srv, req, now)  # a game: the match leaves the clock
    if srv.app.clock.state == C.RUNNING:
        raise P.Error(P.REFUSED, "new: pause the game in progress first")
    if "tc" in req:
        raise P.Error(P.BAD_ARG, "new takes tc (a game) or mode (a match), not both")
    mode = req["mode"]
    if not isinstance(mode, str):
        raise P.Error(P.BAD_ARG, "mode must be kokboru or kilithattu")
    from sagatfw import matchapp

    opts = {}
    for k in matchapp.OPTION_NAMES:
        if k in req:
            opts[k] = req[k]

    try:
        matchapp.new(srv.app, mode, opts, now)
    except ValueError as e:
        raise P.Error(P.BAD_ARG, "new: %s" % (e,)) from None
    return state(srv, now)


def _op(srv, req, now, mapp, cmd):
    m = mapp.m
    args = ()  # type: tuple
    if cmd == "score":
        side = _side(req, "side")
        points = P._int(req, "points", 0, M.MAX_SCORE)
        try:
            m._points(points)
        except ValueError as e:  # Refused (whichever import of modes.base made it)
            raise P.Error(P.BAD_ARG, "score: %s" % (e,)) from None
        args = (side, points)
    elif cmd == "card":
        side = _side(req, "side")
        kind = req.get("kind")
        if kind not in M.CARD_NAMES[1:]:
            raise P.Error(P.BAD_ARG, "kind must be warning or red")
        args = (side, M.CARD_NAMES.index(kind))
    elif cmd == "result":
        if "result" in req:
            raise P.Error(P.BAD_ARG, "a match's result is winner: left, right or none (not result)")
        args = (_side(req, "winner", "none"),)
    try:
        mapp.do(cmd, now, *args)
    except ValueError as e:  # Refused
        raise P.Error(P.REFUSED, "%s: %s" % (cmd, e)) from None
    return state(srv, now)


def _name(names, i):
    return names[i] if 0 <= i < len(names) else None


def state(srv, now):
    """`state` while a match is set up: everything a scoreboard shows (docs/protocol.md)."""
    app = srv.app
    m = app.match.m
    j = app.journal
    level, low = srv._battery()
    sides = {}
    for s in (M.LEFT, M.RIGHT):
        sides[M.SIDE_NAMES[s]] = {"score": m.scores[s], "warnings": m.warnings[s], "reds": m.reds[s]}
    if m.MODE == "kokboru":
        opts = {"lead": m.lead}
    else:
        from sagatfw.modes.kilithattu import METHOD_NAMES

        opts = {"first": M.SIDE_NAMES[m.first], "changeover_ms": m.changeover_ms,
                "method": METHOD_NAMES[m.method]}
    winner = None
    if m.state == M.FINISHED:
        winner = _name(M.SIDE_NAMES, m.winner) or "none"
    return {
        "mode": m.MODE,
        "state": M.STATE_NAMES[m.state],
        "t": m.t,
        "game": j.game,
        "seq": j.seq - 1 if j.seq else None,
        "options": opts,
        "period": m.period,
        "period_name": m.period_name(),
        "match_ms": m.match_ms(),
        "counts_up": m.counts_up(),
        "break_ms": m.break_ms(),
        "stoppage_ms": m.stoppage_ms(),
        "stopped_ms": m.stopped_ms(),
        "left": sides["left"],
        "right": sides["right"],
        "entering": _name(M.SIDE_NAMES, m.entering),
        "lot_due": m.lot_due,
        "undoable": m.undoable,
        "winner": winner,
        "why": _name(M.WHY_NAMES, m.why),
        "message": F.status_text(app),
        "log_error": j.error,
        "log_full": j.full,
        "time_synced": j.sync_wall_ms is not None,
        "battery": level,
        "battery_mv": getattr(app.board, "mv", None),
        "low_battery": low,
    }
