# sagat: the actions that change the clock, in one table: each action's name,
# its arguments, the method it calls and who may call it; one check of the arguments (`args`) and
# one way to refuse (`sagatfw.Refused(reason)`). The protocol (link/commands.py), the simulator's scripts
# (boards/simulator.py), the on-clock menu (ui/menu.py) and the host's script checker (host/sagat/sim/script.py)
# all go through this table: nobody else checks an action's arguments or turns an engine's "no"
# into a reason. Loaded for a request, a script line or a menu choice, and forgotten after it.
#
#   vals = args("adjust", {"side": "left", "ms": 60000})  # ValueError: a bad or unknown argument
#   do(app, "adjust", vals, now)                            # Refused: not now (why); ValueError: a
#                                                           # value the engine refuses
#
# An argument is (name, kind, required, a, b); `args` gives each by name, converted (None when an
# optional one is absent). A game's action calls App.<method>(*arguments in the table's order, now);
# a match's calls MatchApp.do(<method>, now, *arguments) (app/matchmode.py, its engine in engine/); `new`
# sets up either, by its `tc` or its `mode`.

from sagatfw import Refused
from sagatfw.engine import clock as C

# The table's columns (a row: name: (method, serves, authority, arguments)):
#   serves      "game", "match" or "both": what the action acts on (the last `new` decides which
#               is set up; an action for the other is Refused)
#   authority   1, protocol.GAME: over the link, the key's holder whenever an arbiter key is set
#               (every action changes the clock). At the clock, the buttons and the
#               menu are the arbiter's and the referee's hands (docs/protocol.md "Arbiter authority")
#   arguments   (name, kind, required, a, b), a kind of:
#       "side"    "left" / "right" -> 0 / 1
#       "int"     a whole number a..b
#       "index"   one of the names a, from index b on -> its index
#       "name"    one of the names a -> the name
#       "tc"      a TimeControl string, or {"left": TC, "right": TC} (a handicap) -> "LEFT|RIGHT"
#       "values"  an object of settings (settings.check_all checks each: App.set_settings)
#       "names"   two texts, left's and right's -> a T_NAMES record's bytes (None: both empty)
#     a and b may name a constant of the clock's (BY_NAMES, MAX_MS), of this module (CARDS) or
#     "MODES" (the match modes' names, from sagatfw.MODES when asked):
#     the table then holds only constants, which stay in flash when frozen into a board's image
#     (only the dict is made in the heap when the module loads), and kinds as strings need no
#     names in this module's globals either.

WINNERS = ("left", "right", "none")  # a match's result: engine/matchwords.py SIDE_NAMES, and NONE (a draw)
CARDS = ("", "warning", "red")  # engine/matchwords.py CARD_NAMES
METHODS = ("sudden", "lot", "draw", "referee")  # engine/kilithattu.py METHOD_NAMES
# A match's options (new's arguments after mode; which mode takes which: sagatfw.MODES) are checked
# here too, with the ranges the engines accept (KB-14's lead 0..99, KT-4.4's changeover 1..60 s,
# KT-4.6's methods; tests/firmware/ui/test_actions.py holds the two to each other): a bad one is
# refused before anything changes, even the other mode's match set up now, which App.new_match
# must drop before it loads this mode's engine. A new mode's new option is one more entry here.

ACTIONS = {
    "new": ("new_game", "both", 1, (
        ("tc", "tc", 0, None, None), ("first", "name", 0, "SIDE_NAMES", None), ("mode", "name", 0, "MODES", None),
        ("lead", "int", 0, 0, 99), ("changeover_ms", "int", 0, 1000, 60000),
        ("method", "name", 0, "METHODS", None), ("names", "names", 0, None, None))),
    "start": ("start", "both", 1, ()),
    # the hall's round: start at the board's own ticks `ticks` (0..2^30-1, core/ticks.py)
    "arm": ("arm", "game", 1, (("ticks", "int", 1, 0, 0x3FFFFFFF),)),
    # an armed start cancelled (the hall's Pause all): armed or not in setup, refused once started
    "disarm": ("disarm", "game", 1, ()),
    "pause": ("pause", "game", 1, (("by", "index", 0, "BY_NAMES", 0),)),
    "resume": ("resume", "both", 1, ()),
    # a game: a side's time, moves, stage (side needed); a match: the period's clock, ms only (in a stoppage)
    "adjust": ("adjust", "both", 1, (("side", "side", 0, None, None), ("ms", "int", 0, 0, "MAX_MS"),
                                     ("moves", "int", 0, 0, "MAX_MOVES"), ("stage", "int", 0, 1, 255))),
    "extend": ("extend", "game", 1, ()),
    "late_install": ("late_install", "game", 1, (("elapsed_ms", "int", 1, 0, "MAX_MS"),
                                                 ("moves", "int", 0, 0, "MAX_MOVES"))),  # TK-C11
    "adjourn": ("adjourn", "game", 1, ()),
    # TK-A4: the envelope's times (TK-A3) put back, each side's remaining or used (rules.resume_adjourned)
    "resume_adjourned": ("resume_adjourned", "game", 1, (
        ("left_ms", "int", 0, 0, "MAX_MS"), ("right_ms", "int", 0, 0, "MAX_MS"),
        ("left_used_ms", "int", 0, 0, "MAX_MS"), ("right_used_ms", "int", 0, 0, "MAX_MS"))),
    # a game's result with the final kazan counts, both or neither (TK-R1, TK-R5, TK-R7: engine/kazans.py)
    "result": ("result", "both", 1, (("result", "name", 0, "RESULT_NAMES", None),
                                     ("winner", "index", 0, "WINNERS", 0),
                                     ("left_kazan", "int", 0, 0, 162), ("right_kazan", "int", 0, 0, 162))),
    "settings.set": ("set_settings", "game", 1, (("values", "values", 1, None, None),)),
    "score": ("score", "match", 1, (("side", "side", 1, None, None), ("points", "int", 1, 0, 999))),
    "card": ("card", "match", 1, (("side", "side", 1, None, None), ("kind", "index", 1, "CARDS", 1))),
    "stoppage": ("stoppage", "match", 1, ()),
    "undo": ("undo", "match", 1, ()),
    "restart": ("restart", "match", 1, ()),  # KB-3's false start: the period back to 0:00, before its first score
    "toss": ("draw_lot", "match", 1, (("side", "side", 1, None, None),)),  # KT-4.6: the toss's winner, entered
}

_KEYS = ("id", "cmd", "auth")  # a request's own keys (link/server.py), not an action's arguments


def const_of(x):
    """A name in the table: the clock's (BY_NAMES, MAX_MS, ...), this module's (CARDS, ...) or MODES."""
    if isinstance(x, str):
        if x == "MODES":  # the match modes' names, as registered now (a test may add one)
            from sagatfw import MODES

            return tuple([e[0][e[0].rfind(".") + 1 :] for e in MODES])
        v = globals().get(x)
        return v if v is not None else getattr(C, x)
    return x


def arg(spec, v):
    """One argument's value checked against its spec and converted; ValueError names it."""
    name, kind, _req, a, b = spec
    a = const_of(a)
    b = const_of(b)
    if kind == "side":
        if v == "left" or v == "right":
            return 0 if v == "left" else 1
        want = "left or right"
    elif kind == "int":
        if isinstance(v, int) and not isinstance(v, bool) and a <= v <= b:
            return v
        want = "a whole number %d..%d" % (a, b)
    elif kind == "index" or kind == "name":
        i = b or 0
        if isinstance(v, str):
            while i < len(a):
                if a[i] == v:
                    return i if kind == "index" else v
                i += 1
        want = "one of " + ", ".join(a[b or 0:])
    elif kind == "tc":
        if isinstance(v, dict):
            left = v.get("left")
            right = v.get("right")
            if len(v) == 2 and isinstance(left, str) and isinstance(right, str):
                return left + "|" + right
        elif isinstance(v, str):
            return v
        want = 'a TimeControl string or {"left": ..., "right": ...}'
    elif kind == "names":  # new's: a match's two names, left's then right's (log/names.py fit_names)
        if isinstance(v, (list, tuple)) and len(v) == 2:
            from sagatfw import forget
            from sagatfw.log import names as N  # loaded for this only

            try:
                return N.fit_names(v[0], v[1])  # ValueError: not text
            finally:
                forget("sagatfw.log.names")
        want = 'two names, ["left", "right"] (text)'
    else:
        if isinstance(v, dict):
            return v
        want = "an object of settings"
    raise ValueError("%s must be %s" % (name, want))


def args(name, req):
    """The arguments of action `name` in `req` (a dict: a request, a script line without "at"
    and "do", a menu's choice), checked and converted, by name; absent optional ones are None.
    ValueError (with the reason, without the action's name: the caller says it) on an unknown
    action or argument, a missing or bad one."""
    entry = ACTIONS.get(name)
    if entry is None:
        raise ValueError("unknown action %s" % name)
    spec = entry[3]
    for k in req:
        if k in _KEYS:
            continue
        for s in spec:
            if s[0] == k:
                break
        else:
            raise ValueError("takes no argument %s" % k)
    vals = {}
    for s in spec:
        v = req.get(s[0])
        if v is None:
            if s[2]:
                raise ValueError("needs %s" % s[0])
            vals[s[0]] = None
        else:
            vals[s[0]] = arg(s, v)
    # what one argument alone does not say
    if name == "new":
        if vals["mode"] is None:
            if vals["tc"] is None:
                raise ValueError("needs tc (a game) or mode (a match)")
            for s in spec[3:]:  # (after tc, first and mode: a match's options)
                if vals[s[0]] is not None:
                    raise ValueError("%s is a match's option: give mode too" % s[0])
        elif vals["tc"] is not None:
            raise ValueError("takes tc (a game) or mode (a match), not both")
    elif name == "adjust" and vals["ms"] is None and vals["moves"] is None and vals["stage"] is None:
        raise ValueError("needs ms, moves or stage")
    elif name == "result" and (vals["left_kazan"] is None) != (vals["right_kazan"] is None):
        raise ValueError("needs left_kazan and right_kazan together (the final kazans, TK-R7)")
    return vals


def do(app, name, vals, now, seed=0):
    """Action `name` with `vals` (from args, or a caller's own values of the same kinds) at ticks
    `now`, through the app or the match. Returns True. Refused(reason) when the clock or the match
    does not allow it now (nothing changed; the reason without the action's name: the caller says
    which it was); ValueError for a value the engine refuses. `seed`: a match's lot, scripts only."""
    method, what, _auth, spec = ACTIONS[name]
    if name == "new":  # an armed start was the game set up before: dropped once the new one is (not if refused)
        if vals["mode"] is not None:
            if app.match is not None:
                _idle(app.match.m)
            opts = {}
            for s in spec[1:]:  # first and the match options given (App.new_match refuses another mode's)
                if s[0] != "mode" and vals[s[0]] is not None:
                    opts[s[0]] = vals[s[0]]
            ok = app.new_match(vals["mode"], opts, now, seed)
            app.armed = None
            return ok
        if app.match is not None:
            _idle(app.match.m)
        return app.new_game(vals["tc"], vals["first"] or "left", now)
    mapp = app.match
    if mapp is not None:
        if what == "game":
            raise Refused("a %s match is set up: a game's action (new with tc sets up a game)" % mapp.m.MODE,
                          "match_set_up", {"mode": mapp.m.MODE})
        if name == "result":
            if vals["result"] is not None or vals["left_kazan"] is not None:
                raise ValueError("a match's result is winner: left, right or none (not result, nor kazans)")
            w = vals["winner"]
            if w is None:
                raise ValueError("result needs winner: left, right or none")
            return mapp.do("result", now, -1 if w == 2 else w)
        if name == "adjust":
            if vals["ms"] is None or vals["side"] is not None or vals["moves"] is not None or vals["stage"] is not None:
                raise ValueError("a match's adjust is ms only: the period's clock")
            return mapp.do("adjust", now, vals["ms"])
        a = [vals[s[0]] for s in spec]
        return mapp.do(method, now, *a)
    if what == "match":
        raise Refused("no match is set up (new with a mode first)", "no_match")
    if name == "result":
        if vals["winner"] is not None:
            raise ValueError("a game's result is result: " + ", ".join(C.RESULT_NAMES))
        if vals["result"] is None:
            raise ValueError("result needs result: " + ", ".join(C.RESULT_NAMES))
        lk = -1 if vals["left_kazan"] is None else vals["left_kazan"]
        rk = -1 if vals["right_kazan"] is None else vals["right_kazan"]
        from sagatfw import forget
        from sagatfw.engine.kazans import check  # the counts' sense, with the clock's flags: loaded for a result

        try:
            check(app.clock, C.RESULT_NAMES.index(vals["result"]), lk, rk)
        finally:
            forget("sagatfw.engine.kazans")
        if not app.result(vals["result"], now, lk, rk):
            raise refusal(app.clock, name)
        return True
    if name == "resume_adjourned":  # App.resume_adjourned(now, left_ms, right_ms, left_used_ms, right_used_ms)
        if not app.resume_adjourned(now, *[vals[s[0]] for s in spec]):
            raise refusal(app.clock, name)
        return True
    if name == "pause":
        a = [C.BY_HOST if vals["by"] is None else vals["by"]]
    elif name == "adjust" and vals["side"] is None:
        raise ValueError("needs side")
    else:
        a = [vals[s[0]] for s in spec]
    if not getattr(app, method)(*a, now):
        raise refusal(app.clock, name)  # the engine's False: nothing happened, and why
    return True


def _idle(m):
    """A new game or match replaces a match only while its time stands still."""
    from sagatfw.engine import matchwords as M

    st = m.state
    if st == M.RUNNING or st == M.BREAK or st == M.LOT:
        if st == M.BREAK:
            raise Refused("the match's break runs: a stoppage first", "break_runs")
        raise Refused("the match's period runs: a stoppage first", "period_runs")


def refusal(c, name):
    """Refused: why the clock `c` did nothing for action `name` (why()), with its reason code (docs/protocol.md):
    no_flag, state_<action> where the action names the state it needs, else state; the clock's state with it."""
    if name == "extend" and not (c.flag[C.LEFT] or c.flag[C.RIGHT]):
        code = "no_flag"
    elif name == "resume" and c.state == C.ADJOURNED:
        code = "resume_adjourned_game"
    else:  # (made on a refusal only: no RAM while the clock runs)
        code = {"start": "state_start", "arm": "state_arm", "disarm": "state_disarm", "pause": "state_pause",
                "resume": "state_resume", "adjourn": "state_adjourn",
                "resume_adjourned": "state_resume_adjourned"}.get(name, "state")
    return Refused(why(c, name), code, {"state": C.STATE_NAMES[c.state]})


def why(c, name):
    """Why the clock `c` did nothing for action `name`: its state, and the one it needs."""
    st = C.STATE_NAMES[c.state]
    if name == "extend" and not (c.flag[C.LEFT] or c.flag[C.RIGHT]):
        return "no flag is down (TK-C14; the clock is %s)" % st
    want = {
        "start": "setup (a paused clock goes on with resume)",
        "arm": "setup (TK-C5: an armed start starts a game set up)",
        "disarm": "setup (a game started has no armed start to cancel)",
        "pause": "running",
        "resume": "paused" + (" (an adjourned game: resume_adjourned)" if c.state == C.ADJOURNED else ""),
        "adjourn": "running or paused (TK-A1)",
        "resume_adjourned": "adjourned (TK-A4)",
    }.get(name)
    if want is not None:
        return "the clock is %s, not %s" % (st, want)
    return "the clock is %s" % st
