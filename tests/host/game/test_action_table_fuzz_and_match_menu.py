"""Attacks on the one table of actions (ui/actions.py) over the protocol on a real App under CPython
(its flash a temporary directory), on the host's script checker against the firmware, and on the
referee's menu and buttons in a match."""

import json

import pytest
from apprig import KEY, Rig
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sagatfw.link import auth as A
from sagatfw.link import wire as W
from sagatfw.ui import actions as ACT


def test_rig_runs_the_firmware_under_cpython(tmp_path):
    rig = Rig(tmp_path)
    rig.ok("new", tc="300")
    rig.ok("start")
    rig.at(1000)
    assert rig.ok("state")["left"]["ms"] == 299000


# ---------------------------------------------------------------- fuzz: no `internal` for any value

GARBAGE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(1 << 70), max_value=1 << 70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
    | st.sampled_from(["left", "right", "none", "300", "300+2", "kokboru", "kilithattu", "lot", "red",
                       "warning", "arbiter", "1-0", "", "0", "-", "*60"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["left", "right", "sound", "freeze", "extension_ms", "x"]), inner, max_size=3),
    max_leaves=6,
)
ARG_NAMES = sorted({s[0] for row in ACT.ACTIONS.values() for s in row[3]} | {"x", "by", "values"})


def _game_setup(rig):
    rig.ok("new", tc="300")


def _game_running(rig):
    rig.ok("new", tc="300")
    rig.ok("start")
    rig.at(1000)


def _game_paused(rig):
    _game_running(rig)
    rig.ok("pause")


def _match_setup_kb(rig):
    rig.ok("new", mode="kokboru", lead=8)


def _match_running_kt(rig):
    rig.ok("new", mode="kilithattu", first="left")
    rig.ok("start")
    rig.at(1000)


def _match_stopped_kb(rig):
    rig.ok("new", mode="kokboru")
    rig.ok("start")
    rig.at(1000)
    rig.ok("stoppage")


STATES = (_game_setup, _game_running, _game_paused, _match_setup_kb, _match_running_kt, _match_stopped_kb)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@example(_game_setup, "settings.set", {"changeover_ms": {"left": "0", "right": {"x": 1 << 70, "left": False,
                                                                                "right": 1 << 80}},
                                       "side": {"left": "0" * 200, "right": [False, "x" * 200]}}, True)
@given(st.sampled_from(STATES), st.sampled_from(sorted(ACT.ACTIONS)),
       st.dictionaries(st.sampled_from(ARG_NAMES), GARBAGE, max_size=3), st.booleans())
def test_fuzz_no_action_answers_internal_for_any_argument(state, name, args, keyed):
    import tempfile

    rig = Rig(tempfile.mkdtemp(), key=KEY if keyed else b"")
    proof = KEY if keyed else None
    call = rig.call
    if keyed:  # sign every request of the state's setup and the attack
        rig.call = lambda cmd, p=None, **a: call(cmd, p or (KEY if cmd != "auth.challenge" else None), **a)
    state(rig)
    try:
        r = rig.call(name, proof, **args)
    except ValueError:  # no canonical form (a float): no MAC can prove it, the clock says so
        call("auth.challenge")
        r = call(name, None, auth="0" * 64, **args)
        assert r["error"]["code"] in ("auth_failed", "line_too_long"), r
    # (a request over the line's 512 bytes is refused whole, before its arguments are read)
    assert r["ok"] or r["error"]["code"] in ("bad_arg", "refused", "auth_failed", "line_too_long"), (name, args, r)
    if keyed:  # the nonce went with the request: the same signature again fails
        rig.call = call
        assert rig.call("state", auth="0" * 64)["error"]["code"] == "auth_failed"
        r2 = rig.call(name, None, **args)
        too_long = not r["ok"] and r["error"]["code"] == "line_too_long"
        # (a signed line over 512 bytes may fit without its signature: then the key is asked for)
        assert r2["error"]["code"] in (("line_too_long", "auth_required") if too_long else ("auth_required",)), r2
    assert rig.srv.internal_errors == 0 and not rig.board.notes, rig.board.notes
    rig.at(2000)  # the app goes on
    assert rig.ok("state")


# ---------------------------------------------------------------- findings


def test_a_match_set_up_while_a_game_runs_is_refused_not_bad_arg(tmp_path):
    # before: matchsetup.new said no with a plain ValueError ("pause the game in progress first"),
    # so the protocol answered bad_arg where a game's `new` in the same state is `refused`
    # (ui/actions.py: a state that does not allow it is Refused)
    rig = Rig(tmp_path)
    rig.ok("new", tc="300")
    rig.ok("start")
    rig.at(1000)
    r = rig.err("new", "refused", tc="600")
    assert "pause" in r["error"]["message"]
    r = rig.err("new", "refused", mode="kokboru", lead=8)
    assert "pause" in r["error"]["message"]
    r = rig.err("new", "refused", mode="kilithattu")
    assert rig.app.match is None and rig.app.clock.state == 1  # C.RUNNING: nothing changed


def test_a_bad_option_for_the_other_mode_leaves_the_match_set_up(tmp_path):
    rig = Rig(tmp_path)
    rig.ok("new", tc="300")
    rig.ok("start")
    rig.at(1000)
    rig.ok("pause")
    rig.ok("new", mode="kokboru", lead=8)
    game = rig.app.journal.game
    for bad in ({"method": "bogus"}, {"changeover_ms": 90000}, {"lead": 8}, {"first": "middle"}):
        # before: the engine's check came after the kok-boru match was dropped: the old game's
        # paused clock came back, and a `resume` ran it, its record in the match's game. Now the
        # table (and the mode's option names) refuse it before anything changes
        rig.err("new", "bad_arg", mode="kilithattu", **bad)
        st = rig.ok("state")
        assert st.get("mode") == "kokboru", (bad, st)  # matchapp.new: nothing changes on a bad option
        r = rig.call("resume")
        assert not r["ok"], r
        assert rig.app.journal.game == game


def test_the_nonce_is_used_up_by_an_unknown_command_that_carries_auth(tmp_path):
    # docs/protocol.md: "The next request that carries auth uses it up, whether the MAC is right or
    # wrong, and whether or not that command needed authority"; "If auth is present and a key is
    # set, the MAC is checked before the arguments". Before: an unknown command (looked up in the
    # action table before the MAC) and a command of COMMANDS with an unknown argument were answered
    # before _authorize, and the nonce stayed live for the next request
    rig = Rig(tmp_path, key=KEY)
    nonce = rig.ok("auth.challenge")["nonce"]
    r = rig.call("bogus", auth="0" * 64)
    assert r["error"]["code"] in ("auth_failed", "unknown_cmd"), r
    req = {"id": 50, "cmd": "new", "tc": "300"}
    req["auth"] = A.sign(KEY, nonce, req, "x")
    assert rig.raw(json.dumps(req).encode())[0]["error"]["code"] == "auth_failed"

    nonce = rig.ok("auth.challenge")["nonce"]
    r = rig.call("time.sync", wall_ms=W.WALL_MIN_MS, x=1, auth="0" * 64)
    assert r["error"]["code"] == "auth_failed", r  # the MAC before the arguments
    req = {"id": 51, "cmd": "new", "tc": "300"}
    req["auth"] = A.sign(KEY, nonce, req, "x")
    assert rig.raw(json.dumps(req).encode())[0]["error"]["code"] == "auth_failed"

    # a signed request with a bad argument: the MAC is right, the argument is bad_arg (and no change)
    r = rig.call("time.sync", KEY, wall_ms=W.WALL_MIN_MS, x=1)
    assert r["error"]["code"] == "bad_arg", r
    r = rig.call("new", KEY, tc="300", x=1)
    assert r["error"]["code"] == "bad_arg", r
    # unsigned, unknown, with a key set: still unknown_cmd (no authority to ask for); reads keyless
    rig.err("bogus", "unknown_cmd")
    rig.err("START", "unknown_cmd")
    rig.err("settings", "unknown_cmd")
    rig.err(" start", "unknown_cmd")
    rig.ok("state")
    rig.ok("settings.get")
    rig.ok("log.info")
    rig.ok("identify")


# ---------------------------------------------------------------- the host's checker vs the firmware


def _checker_accepts(lines):
    from sagat.sim.script import SimError, parse_script

    try:
        parse_script("\n".join(json.dumps(x) for x in lines))
    except SimError:
        return False
    return True


@pytest.mark.parametrize(
    "setup,line",
    [
        ({"do": "new", "mode": "kokboru"}, {"do": "result", "winner": "left", "result": "1-0"}),
        ({"do": "new", "mode": "kokboru"}, {"do": "result", "winner": None}),
        ({"do": "new", "tc": "300"}, {"do": "result", "result": "1-0", "winner": "left"}),
        ({"do": "new", "tc": "300"}, {"do": "result", "result": None}),
    ],
)
def test_a_result_line_the_checker_accepts_is_one_the_firmware_takes(tmp_path, setup, line):
    # before: the checker asked only that "winner" (a match) or "result" (a game) be a key of the
    # line: a null one, or the other one beside it, passed the check and the firmware's actions.do
    # refused the line at runtime (a bad value: the script's line did nothing)
    setup = dict(setup, at=0)
    line = dict(line, at=1000)
    rig = Rig(tmp_path)
    args = {k: v for k, v in setup.items() if k not in ("at", "do")}
    ACT.do(rig.app, "new", ACT.args("new", args), 0)
    try:
        ACT.do(rig.app, "result", ACT.args("result", {k: v for k, v in line.items() if k not in ("at", "do")}), 1000)
        firmware = True
    except ValueError:
        firmware = False
    assert not firmware  # each of these is a bad value on the clock...
    assert not _checker_accepts([setup, line])  # ...so the checker rejects the script before it runs


# ---------------------------------------------------------------- the menu in a match


class Buttons:
    """The referee's hands on a Rig's app (ui/buttons.py's edges, each step taken)."""

    def __init__(self, rig):
        self.rig = rig
        self.app = rig.app

    def tap(self, button, ms, hold=100):
        app = self.app
        app.buttons.edge(button, ms, True)
        app.step(ms)
        app.buttons.edge(button, ms + hold, False)
        app.step(ms + hold)
        self.rig.ms = ms + hold

    def lever(self, side, ms):
        app = self.app
        app.buttons.edge(side, ms, True)
        app.step(ms + 1)
        app.buttons.edge(side, ms + 80, False)
        app.step(ms + 81)
        self.rig.ms = ms + 81

    def view(self):
        menu = self.app.menu
        return menu.view() if menu is not None and menu.active else None


def _menu_kokboru(rig, hands, ms):
    """MENU, MATCH, KOK-BORU, LEAD 8, START: a bout set up from the buttons alone."""
    from sagatfw.ui import buttons as B

    hands.tap(B.MENU, ms)
    for _ in range(8):
        if hands.view()[1] == "MATCH":
            break
        ms += 300
        hands.tap(B.PLUS, ms)
    for _ in range(3):
        ms += 300
        hands.tap(B.START, ms)
    assert hands.view() is None and rig.app.match is not None
    return ms + 300


def test_a_match_set_up_from_the_menu_is_back_after_a_power_cut(tmp_path):
    from sagatfw.engine import matchwords as M

    rig = Rig(tmp_path)
    hands = Buttons(rig)
    ms = _menu_kokboru(rig, hands, 1000)
    rig2 = Rig(tmp_path)  # the power goes, the clock boots from the same flash
    assert rig2.app.match is not None and rig2.app.match.m.MODE == "kokboru"
    assert rig2.app.match.m.state == M.SETUP and rig2.app.match.m.lead == 8
    assert rig2.ok("state")["mode"] == "kokboru"
    assert ms


def test_a_match_the_host_resumes_while_the_menu_is_open_scores_its_levers(tmp_path):
    # before: the referee's menu, open in a stoppage, stayed open when the host resumed the match
    # (the faces showed the menu over the running period: hw.show draws an active menu first) and
    # MatchApp._button swallowed every lever behind it ("nothing scores behind the menu"), while
    # the match time ran: a rider's goal was lost without a word
    from sagatfw.engine import matchwords as M
    from sagatfw.ui import buttons as B

    rig = Rig(tmp_path)
    hands = Buttons(rig)
    ms = _menu_kokboru(rig, hands, 1000)
    hands.tap(B.START, ms)  # the 1st half
    ms += 5000
    hands.tap(B.START, ms)  # a stoppage
    assert rig.app.match.m.state == M.STOPPED
    ms += 300
    hands.tap(B.MENU, ms)
    assert hands.view() == ("MENU", "MATCH")
    rig.ok("resume")  # the host (the table's resume): the period runs again
    assert rig.app.match.m.state == M.RUNNING
    rig.app.step(ms + 500)
    assert hands.view() is None  # the menu gives way to the running period (as its doc says)
    hands.lever(B.LEVER_LEFT, ms + 1000)
    hands.lever(B.LEVER_LEFT, ms + 1500)  # the same lever again: +1 (KB-10)
    assert list(rig.app.match.m.scores) == [1, 0]


def test_new_answers_the_first_player_it_set_up_not_the_raw_argument(tmp_path):
    # before: commands.act echoed req.get("first", "left"): a null first (absent, by the table: the
    # game's first is left) was answered "first": null
    rig = Rig(tmp_path)
    r = rig.ok("new", tc="300", first=None)
    assert r["first"] == "left" == rig.ok("state")["first"], r
    r = rig.ok("new", tc="300", first="right")
    assert r["first"] == "right" == rig.ok("state")["first"], r


# ---------------------------------------------------------------- fuzz: the referee's buttons

_PRESSES = st.lists(
    st.tuples(
        st.sampled_from(["MENU", "PLUS", "MINUS", "START", "LEVER_LEFT", "LEVER_RIGHT", "host_resume", "host_start",
                         "host_stoppage", "host_pause", "wait"]),
        st.sampled_from([100, 1200]),  # a tap or a hold (LONG from 1000 ms)
        st.integers(min_value=50, max_value=40000),
    ),
    max_size=40,
)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from([{"tc": "60"}, {"mode": "kokboru", "lead": 8}, {"mode": "kilithattu", "changeover_ms": 1000,
                                                         "method": "referee"}]), _PRESSES)
def test_fuzz_the_buttons_and_the_host_in_a_match_never_break_the_menu_or_the_match(setup, presses):
    import tempfile

    from sagatfw.engine import matchwords as M
    from sagatfw.ui import buttons as B

    rig = Rig(tempfile.mkdtemp())
    hands = Buttons(rig)
    rig.ok("new", **setup)
    ms = 1000
    for what, hold, gap in presses:
        ms += gap
        if what.startswith("host_"):
            rig.at(ms)
            rig.call(what[5:])
        elif what == "wait":
            rig.at(ms)
        elif what.startswith("LEVER"):
            hands.lever(getattr(B, what), ms)
        else:
            hands.tap(getattr(B, what), ms, hold)
        ms = rig.ms + 10
        rig.at(ms)
        app = rig.app
        assert not rig.board.notes, rig.board.notes
        assert rig.srv.internal_errors == 0
        if app.menu is not None:
            assert app.menu.errors == 0
        if app.match is not None and app.menu is not None and app.menu.active:
            st_ = app.match.m.state
            assert st_ not in (M.RUNNING, M.BREAK, M.LOT, M.OVER), (what, st_)
        assert rig.ok("state")
    # and the clock still answers its buttons: MENU opens the menu once the time stands still
    if rig.app.match is not None and rig.app.match.m.state in (M.RUNNING, M.BREAK):
        hands.tap(B.START, ms + 100)


def test_a_game_the_host_resumes_while_the_menu_is_open_shows_its_times(tmp_path):
    # the game's side of the same: the arbiter's menu, open on a paused game, stayed on the faces
    # (hw.show draws an active menu first) after the host resumed the game, until a control button
    from sagatfw.ui import buttons as B

    rig = Rig(tmp_path)
    hands = Buttons(rig)
    rig.ok("new", tc="300")
    rig.ok("start")
    rig.at(1000)
    rig.ok("pause")
    hands.tap(B.MENU, 2000)
    assert hands.view() is not None
    rig.ok("resume")
    rig.app.step(2500)
    assert hands.view() is None
