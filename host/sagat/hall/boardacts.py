"""One board's actions from the arbiter's seat: its result, its corrections (Hall.act: a game's
pause, resume, adjust, extension, late installation, adjournment and who moves first; a match's),
identify (the clock blinks) and assign (the clock now on its port becomes the board's)."""

from __future__ import annotations

import re

from .acts import GAME_ACTS, MATCH_ACTS
from .boards import BoardLink
from .jobs import NOT_CONNECTED, STRANGER, HallError, Jobs, job_result, one_at_a_time, then_state
from .mqttlink import NAME_RE
from .said import said, side, state

# One board's corrections from the arbiter's seat (Hall.act): GAME_ACTS, MATCH_ACTS (acts.py, from the
# firmware's table of actions), the action and the arguments it takes
MAX_ARG = 2 ** 31 - 1  # a correction's numbers: the clock checks its own ranges (ms at most 100 h)
# each action's name as the page says it in its report ("board 3: adjust")
CMDS = {"pause": said("cmd_pause", "pause"), "resume": said("cmd_resume", "resume"),
        "adjust": said("cmd_adjust", "adjust"), "extend": said("cmd_extend", "extend"),
        "late_install": said("cmd_late_install", "late_install"), "adjourn": said("cmd_adjourn", "adjourn"),
        "resume_adjourned": said("cmd_resume_adjourned", "resume_adjourned"), "start": said("cmd_start", "start"),
        "score": said("cmd_score", "score"), "card": said("cmd_card", "card"),
        "stoppage": said("cmd_stoppage", "stoppage"), "undo": said("cmd_undo", "undo"),
        "result": said("cmd_result", "result"), "restart": said("cmd_restart", "restart"),
        "toss": said("cmd_toss", "toss")}


class BoardActions(Jobs):
    """The Hall's actions on one board (core.Hall)."""

    @one_at_a_time
    def result(self, number: int | str, result: str, kazans: str | None = None) -> dict:
        """The arbiter's result for one board's game (left-right: 1-0, 0-1, 1/2-1/2, +/-, -/+, -/-),
        signed; its log is then pulled and verified. A forfeit may be entered before the start (TK-R4),
        and a wrong entry replaced after it (the last one counts, as on the clock; the log keeps both
        and is pulled again). `number`: the board's, or the page's text of it (ASCII digits). `kazans`:
        the final kazan counts, "82-79" (left's first; after a flag fall a draw or the flagged player's
        win needs them, TK-R7, TK-C12), which the clock checks with the result."""
        from sagatfw.engine.clock import RESULT_NAMES

        b = self.board_of(number, said("there_result", "enter its result there"))
        number = b.number
        if result not in RESULT_NAMES:
            raise HallError(said("err_result", "result must be one of {results}", results=", ".join(RESULT_NAMES)))
        counts = {}
        if kazans not in (None, ""):
            m = re.fullmatch(r"\s*([0-9]{1,3})\s*-\s*([0-9]{1,3})\s*", str(kazans))
            if m is None:
                raise HallError(said("err_kazans", "kazans are two counts, left's then right's, e.g. 82-79 (TK-R7)"))
            counts = {"left_kazan": int(m.group(1)), "right_kazan": int(m.group(2))}
        self._own_clock(b)
        with b.lock:
            st = b.state or {}
            mode, now = st.get("mode"), st.get("state")
        if mode or now not in ("setup", "running", "paused", "flagged", "adjourned", "finished"):
            why = said("now_a_match", "a match") if mode else said(
                "now_the_clock_is", "the clock is {state}", state=state(now) if now else NOT_CONNECTED)
            raise HallError(said("err_no_game", "board {n}: no game to enter a result for ({now})", n=number, now=why))
        res = {number: job_result(b.submit(lambda clock: then_state(b, clock, clock.request(
            "result", auth=True, result=result, **counts).get("state"))))}
        what = said("what_result_kazans", "board {n}: result {result} kazans {kazans}", n=number, result=result,
                    kazans=f"{counts['left_kazan']}-{counts['right_kazan']}") if counts else \
            said("what_result", "board {n}: result {result}", n=number, result=result)
        return self._report(what, res, {})

    @staticmethod
    def _own_clock(b: BoardLink) -> None:
        """HallError unless the clock on the board is the board's own: not a stranger on its port, nor a
        clock whose own number is another board's (shown here under a free number: whose players?)."""
        if b.stranger:
            raise HallError(said("err_board", "board {n}: {why}", n=b.number, why=STRANGER))
        if b.clash and b.clash[1]:
            raise HallError(said("err_clash", "board {n}: {why}: give the clock its board's number (Set up all) or "
                                 "take the other clock away first", n=b.number, why=b.clash[0]))

    def board_of(self, number: int | str, there: str = "") -> BoardLink:
        """This hall's board by its number, or the page's text of it (ASCII digits); HallError (another
        hall's board: what to do `there`)."""
        if isinstance(number, str):
            other = re.fullmatch(f"({NAME_RE}):[0-9]{{1,3}}", number)
            if other:  # another hall's board (mqtt.py): its clock is there
                raise HallError(said("err_other_hall", "board {board} belongs to hall {hall}: {there}", board=number,
                                     hall=other.group(1), there=there or said("there_act", "act on it there")))
            if not re.fullmatch(r"[0-9]{1,3}", number):  # not １ nor ١: the page's own numbers only
                raise HallError(said("err_no_board", "no board {n}", n=number[:8]))
            number = int(number)
        b = self.board(number)
        if b is None:
            raise HallError(said("err_no_board", "no board {n}", n=number))
        return b

    @one_at_a_time
    def assign(self, number: int | str) -> dict:
        """The clock now on a board's port becomes the board's clock (the arbiter checked it is)."""
        b = self.board_of(number)
        text = b.assign()
        self.save_round()  # (the report takes this clock's games for the board now)
        return self._report(said("what_assign", "board {n}: assign", n=b.number), {b.number: (text, None)}, {})

    @one_at_a_time
    def act(self, number: int | str, cmd: str, args: dict | None = None) -> dict:
        """One board's correction from the arbiter's seat, signed and logged by its clock: a game's
        pause and resume (TK-C13, TK-C15; the hall's pause is logged as the host's, apart from a
        player's and from START at the table), adjust (time, moves, stage: TK-C13), the extension
        (TK-C14), late installation (TK-C11), adjourn and resume (TK-A), who moves first (in setup:
        the game set up again with the other side first); a match's start, score, card, stoppage,
        resume, undo and result. The clock checks every value and says what it refuses."""
        b = self.board_of(number)
        self._own_clock(b)
        args = dict(args or {})
        with b.lock:
            st = dict(b.state or {})
        match = bool(st.get("mode"))
        allowed = MATCH_ACTS if match else GAME_ACTS
        if cmd not in allowed:
            acts = ", ".join(sorted(allowed))
            raise HallError(said("err_not_a_match_action", "board {n}: {cmd} is not an action for a match here (one "
                                 "of {acts})", n=b.number, cmd=repr(cmd), acts=acts) if match else
                            said("err_not_a_game_action", "board {n}: {cmd} is not an action for a game here (one "
                                 "of {acts})", n=b.number, cmd=repr(cmd), acts=acts))
        names = allowed[cmd]
        extra = sorted(set(args) - set(names))
        if extra:
            raise HallError(said("err_takes", "board {n}: {cmd} takes {names}, not {extra}", n=b.number, cmd=cmd,
                                 names=", ".join(names), extra=", ".join(extra)) if names else
                            said("err_takes_nothing", "board {n}: {cmd} takes nothing, not {extra}", n=b.number,
                                 cmd=cmd, extra=", ".join(extra)))
        for k, v in args.items():
            if not isinstance(v, (int, str)) or isinstance(v, bool) or (isinstance(v, str) and len(v) > 16):
                raise HallError(said("err_arg_word", "board {n}: {cmd}'s {arg} must be a number or a short word",
                                     n=b.number, cmd=cmd, arg=k))
            if isinstance(v, int) and not 0 <= v <= MAX_ARG:  # (a 600-digit number is no line a clock reads)
                raise HallError(said("err_arg_range", "board {n}: {cmd}'s {arg} must be a whole number 0..{top}",
                                     n=b.number, cmd=cmd, arg=k, top=MAX_ARG))
        if "side" in names and args.get("side") not in ("left", "right"):
            raise HallError(said("err_side", "board {n}: {cmd} needs side: left or right", n=b.number, cmd=cmd))
        if cmd == "pause":
            args["by"] = "host"  # the hall's pause, kept apart from a player's and the clock's START
        if cmd == "first":  # who moves first: the game set up again as it is, the other side first (TK-C5)
            if st.get("state") != "setup":
                raise HallError(said("err_first_before_start", "board {n}: who moves first is set before the start "
                                     "(the clock is {state})", n=b.number, state=state(st.get("state"))))
            if self._armed_now(b):  # (`new` would drop its start: the round would run without it)
                raise HallError(said("err_first_armed", "board {n}: armed to start with the round in a moment: who "
                                     "moves first is set before Start round (Pause all cancels the start)",
                                     n=b.number))
            tc = st.get("tc")
            if isinstance(tc, dict):
                tc = f"{tc.get('left')}|{tc.get('right')}"
            if not isinstance(tc, str):
                raise HallError(said("err_tc_unknown", "board {n}: its control is unknown: Set up all first",
                                     n=b.number))
            cmd, args = "new", {"tc": tc, "first": args.get("side")}

        def job(clock):
            ans = clock.request(cmd, auth=True, **args)
            if cmd == "new" and b.hall_tc is not None:
                with b.lock:
                    b.hall_tc = ans.get("tc") or b.hall_tc  # still this hall's set-up, the other side first
            return then_state(b, clock, ans.get("state") or "done")

        what = said("what_first", "board {n}: first {side}", n=b.number, side=side(args.get("first"))) \
            if cmd == "new" else said("what_act", "board {n}: {cmd}", n=b.number, cmd=CMDS.get(cmd, cmd))
        return self._report(what, {b.number: job_result(b.submit(job))}, {})

    def locate(self, number: int | str) -> dict:
        """The board's clock blinks its faces and beeps for a few seconds: the arbiter finds it in the
        hall. It changes nothing and logs nothing (unsigned), so it never waits for another action."""
        b = self.board_of(number)
        self._own_clock(b)  # (a stranger: the hall does nothing with it)

        def job(clock):
            ms = clock.request("locate").get("locate_ms")
            return f"blinking for {ms // 1000} s" if isinstance(ms, int) else "blinking"

        what = said("what_identify", "board {n}: identify", n=b.number)
        return self._report(what, {b.number: job_result(b.submit(job))}, {})
