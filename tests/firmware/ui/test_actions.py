# One table of actions (sagatfw/ui/actions.py) for the protocol, the scripts, the
# on-clock menu and the host's script checker. Its rows, the one check of arguments, and that
# nothing else keeps a copy (CPython and the MicroPython unix port).
import sagatfw
from sagatfw import Refused
from sagatfw.app.main import App
from sagatfw.core import tcparse
from sagatfw.engine import clock as C
from sagatfw.engine import matchwords as M
from sagatfw.engine.matchbase import Match
from sagatfw.link import commands, wire
from sagatfw.log import matchrecords as matchlog
from sagatfw.ui import actions as ACT


def _raises(fn, *args):
    try:
        fn(*args)
    except ValueError as e:
        return e
    raise AssertionError("no ValueError from %r" % (args,))


def test_every_row_calls_a_method_that_exists():
    for name in ACT.ACTIONS:
        method, serves, auth, spec = ACT.ACTIONS[name]
        assert auth == wire.GAME, name  # every action changes the clock: the key's holder's
        assert serves in ("game", "match", "both"), name
        if serves != "match":
            assert callable(getattr(App, method, None)), (name, method)
        if serves != "game" and name != "new":
            assert callable(getattr(Match, method, None)), (name, method)
        for s in spec:
            assert len(s) == 5 and isinstance(s[0], str), (name, s)
            assert s[1] in ("side", "int", "index", "name", "tc", "values", "names"), (name, s)
            if s[1] in ("index", "name"):
                assert isinstance(ACT.const_of(s[3]), tuple), (name, s)
            if s[1] == "int":
                assert isinstance(ACT.const_of(s[3]), int) and isinstance(ACT.const_of(s[4]), int), (name, s)


def test_the_tables_names_are_the_engines_names():
    from sagatfw.engine.kilithattu import METHOD_NAMES

    names = tuple(matchlog.mode_name(i) for i in range(len(sagatfw.MODES)))
    assert ACT.const_of("MODES") == names == ("kokboru", "kilithattu")
    assert ACT.CARDS == M.CARD_NAMES
    assert ACT.WINNERS[:2] == M.SIDE_NAMES and M.NONE == -1
    assert ACT.METHODS == METHOD_NAMES


def test_the_tables_match_options_are_what_the_engines_accept():
    # the table checks a match's options before anything changes (the other mode's match set up
    # now is dropped before this mode's engine is loaded: the engine's check comes too late then),
    # so its ranges must be exactly the engines' own (KB-14, KT-4.4, KT-4.6)
    from sagatfw.engine.kilithattu import Kilithattu
    from sagatfw.engine.kokboru import KokBoru

    spec = dict((s[0], s) for s in ACT.ACTIONS["new"][3])

    def table(name, v):
        try:
            ACT.arg(spec[name], v)
            return True
        except ValueError:
            return False

    def engine(make, **kw):
        try:
            make().new_match(**kw)
            return True
        except ValueError:
            return False

    for v in (-1, 0, 1, 8, 98, 99, 100, 1000, True, 8.0, "8", None):
        assert table("lead", v) == engine(KokBoru, lead=v) or v is None, ("lead", v)
    for v in (-1, 0, 999, 1000, 1001, 30000, 59999, 60000, 60001, True, 1000.0, "1000"):
        assert table("changeover_ms", v) == engine(Kilithattu, changeover_ms=v), ("changeover_ms", v)
    for i, name in enumerate(ACT.METHODS):
        assert table("method", name) and engine(Kilithattu, method=i)
    assert not table("method", "coin") and not table("method", 1)


def test_the_protocol_has_no_copy_of_the_actions():
    # the protocol's COMMANDS are its reads and its own (the key, the log, the wall time); each
    # action is only in the table, and link/commands.py has no function of its own for one
    for name in ACT.ACTIONS:
        assert name not in wire.COMMANDS, name
        assert not hasattr(commands, name.replace(".", "_")), name


def test_arguments_are_checked_and_converted_once():
    v = ACT.args("adjust", {"side": "right", "ms": 60000, "id": 3, "cmd": "adjust"})
    assert v == {"side": C.RIGHT, "ms": 60000, "moves": None, "stage": None}
    assert ACT.args("pause", {"by": "arbiter"})["by"] == C.BY_ARBITER
    assert ACT.args("new", {"tc": {"left": "300", "right": "600"}})["tc"] == "300|600"
    assert ACT.args("card", {"side": "left", "kind": "red"})["kind"] == 2
    assert ACT.args("result", {"winner": "none"})["winner"] == 2
    assert ACT.args("result", {"result": "1/2-1/2"})["result"] == "1/2-1/2"
    bad = (
        ("adjust", {"side": "up", "ms": 1}, "side must be left or right"),
        ("adjust", {"side": "left"}, "needs ms, moves or stage"),
        ("adjust", {"side": "left", "ms": -1}, "ms must be a whole number 0.."),
        ("adjust", {"side": "left", "ms": True}, "ms must be a whole number"),
        ("adjust", {"side": "left", "ms": 1.5}, "ms must be a whole number"),
        ("start", {"side": "left"}, "takes no argument side"),
        ("pause", {"by": "referee"}, "by must be one of left, right, arbiter, host"),
        ("new", {}, "needs tc (a game) or mode (a match)"),
        ("new", {"tc": "300", "mode": "kokboru"}, "not both"),
        ("new", {"tc": "300", "lead": 8}, "lead is a match's option"),
        ("new", {"tc": {"left": "300"}}, "tc must be a TimeControl string"),
        ("new", {"tc": 300}, "tc must be a TimeControl string"),
        ("new", {"mode": "polo"}, "mode must be one of kokboru, kilithattu"),
        ("card", {"side": "left", "kind": ""}, "kind must be one of warning, red"),
        ("result", {"winner": "both"}, "winner must be one of left, right, none"),
        ("settings.set", {"values": [1]}, "values must be an object of settings"),
        ("fly", {}, "unknown action fly"),
    )
    for name, req, why in bad:
        e = _raises(ACT.args, name, req)
        assert why in str(e) and not isinstance(e, Refused), (name, req, str(e))


def test_the_engines_no_becomes_refused_with_why():
    # a clock that returns False for an action (nothing happened) is Refused with the reason, and
    # the reason names the state and the rule
    c = C.Clock()
    c.new_game(tcparse.parse("300"))
    assert "no flag is down (TK-C14" in ACT.why(c, "extend")
    assert ACT.why(c, "resume") == "the clock is setup, not paused"
    assert "(TK-A1)" in ACT.why(c, "adjourn")


def test_the_menus_match_choices_are_the_tables_and_the_engines():
    # the on-clock menu shows its own labels for the modes and methods: their names must be the
    # ones the table and the engines take (a renamed method would make MATCH set up nothing)
    from sagatfw.engine.kilithattu import METHOD_NAMES
    from sagatfw.ui import editors

    assert tuple(m[2] for m in editors.MODES) == ACT.const_of("MODES")
    assert tuple(m[2] for m in editors.METHODS) == ACT.METHODS == METHOD_NAMES
    assert editors.MAX_LEAD == 99 and editors.MAX_CHANGE_S * 1000 == 60000  # the table's ranges (KB-14, KT-4.4)
