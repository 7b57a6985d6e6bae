# sagat: the protocol's part of a match mode (contract 6, docs/protocol.md "Matches"):
# `state` while a match is set up (everything a scoreboard shows), and the match's guards of the
# clock's own commands: no key change and no maintenance while the match is in progress, no erasing
# it. The referee's actions (new with a mode, start, score, card, stoppage, resume, undo, result)
# are ui/actions.py's, done by commands.act. protocol.Server loads this module for a request only
# while a match is set up, and forgets it after that feed, as link/commands.py.

from sagatfw.engine import matchwords as M
from sagatfw.faces import game as F
from sagatfw.link import wire as W


def _busy(mapp):
    """The match is in progress: started and without a result (SETUP 0 .. FINISHED 7)."""
    return mapp is not None and M.SETUP < mapp.m.state < M.FINISHED


def serve(srv, req, now, command):
    """key.set, maintenance, log.erase and log.info (`command`: its function, of link/commands.py or
    link/log.py) while a match is set up, with the match's guards. Returns the answer's body or
    raises wire.Error."""
    cmd = req["cmd"]
    mapp = srv.app.match
    busy = _busy(mapp)
    if busy and (cmd == "key.set" or cmd == "maintenance"):
        raise W.Error(W.REFUSED, "%s: the match is in progress: enter its result first" % cmd, "match_in_progress")
    # a match set up is logged (its setup record) as much as a game set up: its game stays too
    if mapp.m.state < M.FINISHED and cmd == "log.erase" and (
            W.int_arg(req, "game", 0, 0xFFFF) >= srv.app.journal.game):
        g = srv.app.journal.game
        raise W.Error(W.REFUSED, "game %d is a match in progress: only finished games are erased" % g,
                      "erase_in_progress", {"game": g})
    body = command(srv, req, now)
    if busy and cmd == "log.info":
        body["in_progress"] = srv.app.journal.game
    return body


def _name(names, i):
    return names[i] if 0 <= i < len(names) else None


def state(srv, now):
    """`state` while a match is set up: everything a scoreboard shows (docs/protocol.md)."""
    nm = None  # the names `new` gave (docs/protocol.md): log/names.py, loaded only when there are any
    if getattr(srv.app.match, "names", None) is not None or getattr(srv, "match_names", None) != srv.app.journal.game:
        from sagatfw import forget
        from sagatfw.log import names as N

        nm = N.match_names(srv)
        forget("sagatfw.log.names")
    app = srv.app
    m = app.match.m
    j = app.journal
    level, low = srv.battery()
    sides = {}
    for s in (M.LEFT, M.RIGHT):
        sides[M.SIDE_NAMES[s]] = {"score": m.scores[s], "warnings": m.warnings[s], "reds": m.reds[s]}
    opts = {}
    for name, _, names in m.OPTIONS:  # the mode's options, as `new` took them
        v = getattr(m, name)
        opts[name] = _name(names, v) if names is not None else v
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
        "names": nm,
        "entering": _name(M.SIDE_NAMES, m.entering),
        "lot_due": m.lot_due,
        "undoable": m.undoable,
        "winner": winner,
        "why": _name(M.WHY_NAMES, m.why),
        "message": F.status_text(app),
        "locating": F.locating(app, now) > 0,
        "log_error": j.error,
        "log_full": j.full,
        "time_synced": j.sync_wall_ms is not None,
        "battery": level,
        "battery_mv": getattr(app.board, "mv", None),
        "low_battery": low,
    }
