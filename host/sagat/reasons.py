"""The clock's refusals in the user's language: each reason code of docs/protocol.md ("Reason codes"), the
`why` of an error answer, is a sentence of the catalogue here, its parts (the answer's `with`) filled in. A
code or a part this host does not know (a newer or an older clock) is None: the caller says the clock's own
text then. The firmware raises them (sagatfw.Refused, engine/kazans.py's ValueErrors, link/wire.py's Error:
each with its code after its text); the test tests/host/link/test_refusals_in_the_users_language.py finds
every code it can send and holds this table and the catalogues to them."""

from __future__ import annotations

from .i18n import N_

# the clock's states, as `with`'s state names them (a game's, engine/clock.py; a match's, engine/matchwords.py)
STATES = {
    "setup": N_("setup"), "running": N_("running"), "paused": N_("paused"), "flagged": N_("flagged"),
    "adjourned": N_("adjourned"), "finished": N_("finished"), "ready": N_("ready"), "stopped": N_("stopped"),
    "break": N_("break"), "lot": N_("lot"), "over": N_("over"),
}
MODES = {"kokboru": N_("kokboru"), "kilithattu": N_("kilithattu")}

WORD_PARTS = ("state", "mode")  # the parts sentence() gives as a msgid of their own (translate them too)

# code: its sentence, whose {names} are the answer's `with`
REASONS = {
    "no_flag": N_("no flag is down (TK-C14); the clock's state: {state}"),
    "state": N_("not in this state of the clock: {state}"),
    "state_start": N_("a game starts from setup (a paused one goes on with resume); the clock's state: {state}"),
    "state_arm": N_("an armed start (TK-C5) is for a game set up, not started; the clock's state: {state}"),
    "state_disarm": N_("a game started has no armed start to cancel; the clock's state: {state}"),
    "state_pause": N_("only a running clock is paused; the clock's state: {state}"),
    "state_resume": N_("only a paused clock is resumed; the clock's state: {state}"),
    "resume_adjourned_game": N_("the game is adjourned: it goes on with resume_adjourned and the envelope's times "
                                "(TK-A4), not with resume"),
    "state_adjourn": N_("a game is adjourned while it runs or is paused (TK-A1); the clock's state: {state}"),
    "state_resume_adjourned": N_("only an adjourned game goes on with resume_adjourned (TK-A4); the clock's state: "
                                 "{state}"),
    "game_in_progress": N_("a game is in progress: pause it and enter its result first"),
    "settings_between_games": N_("settings change between games only (a pause is not enough)"),
    "events_pending": N_("the clock's last events are still being written to its log: try again in a moment"),
    "correction_running": N_("a correction needs the clock stopped: pause it first"),
    "late_started": N_("late installation is set before the clock is started"),
    "late_countup": N_("late installation needs a time limit, not a count-up"),
    "match_set_up": N_("a {mode} match is set up: this is a game's action (set up a game first)"),
    "no_match": N_("no match is set up: this is a match's action (set up a match first)"),
    "break_runs": N_("the match's break is running: call a stoppage first"),
    "period_runs": N_("the match's period is running: call a stoppage first"),
    "no_stoppage": N_("there is no stoppage to end"),
    "stop_period_first": N_("call a stoppage of the period first"),
    "no_scores": N_("there are no scores to take back"),
    "too_many_entries": N_("the match has too many entries"),
    "score_limit": N_("the score is at its limit"),
    "no_cards": N_("this game has no cards"),
    "no_lot": N_("this game has no lot"),
    "no_lot_due": N_("no lot is due"),
    "nothing_to_undo": N_("there is nothing to undo"),
    "undo_scores_first": N_("undo the scores first"),
    "not_entering_team": N_("only the entering team scores a pazham (KT-5.5)"),
    "match_in_progress": N_("the match is in progress: enter its result first"),
    "erase_in_progress": N_("game {game} is in progress: only finished games are erased"),
    "key_between_games": N_("the arbiter key changes between games only; the clock's state: {state}"),
    "maintenance_in_game": N_("maintenance waits for the end of the game (its result); the clock's state: {state}"),
    "kazans_range": N_("the kazans are two counts of 0 to 162, left's then right's"),
    "kazans_over_162": N_("kazans {left}-{right}: more than the 162 kumalaks of the board (TK-R1)"),
    "kazans_forfeit": N_("the kazans go with a game played (1-0, 0-1, 1/2-1/2), not with a forfeit (TK-R4)"),
    "kazans_draw": N_("kazans 81-81 are a draw (TK-R5)"),
}

# codes said by one of their parts: {code: (the part's name, {its value: the sentence})}
BY_PART = {
    "match_state": ("state", {
        "setup": N_("the match has not started"), "ready": N_("the period has not started"),
        "running": N_("the period is running"), "stopped": N_("a stoppage is on"),
        "break": N_("the break is running"), "lot": N_("a lot is due"),
        "over": N_("the time is over: enter the result"), "finished": N_("the match is over"),
    }),
    "flag_needs_kazans": ("side", {
        "left": N_("left's flag is down: a draw or left's win needs the final kazans (TK-R7, TK-C12)"),
        "right": N_("right's flag is down: a draw or right's win needs the final kazans (TK-R7, TK-C12)"),
    }),
    "flag_lost": ("side", {
        "left": N_("left's flag is down and left's kazan holds {kazan}, under 81: left lost (TK-C12)"),
        "right": N_("right's flag is down and right's kazan holds {kazan}, under 81: right lost (TK-C12)"),
    }),
    "kazans_over_half": ("side", {
        "left": N_("kazans {left}-{right}: left has more than 81, so left wins (TK-R1, TK-R7)"),
        "right": N_("kazans {left}-{right}: right has more than 81, so right wins (TK-R1, TK-R7)"),
    }),
}


def sentence(why, values) -> tuple[str, dict] | None:
    """The refusal `why` (an error answer's `why`) with its parts `values` (its `with`, or None): (the
    catalogue's msgid, its {names}' values, a state or a mode as a msgid of its own: translate those too),
    or None when this host cannot say it (an unknown code, a part missing or not as the protocol says)."""
    if not isinstance(why, str):
        return None
    values = values if isinstance(values, dict) else {}
    if why in BY_PART:
        name, texts = BY_PART[why]
        msgid = texts.get(values.get(name)) if isinstance(values.get(name), str) else None
    else:
        msgid = REASONS.get(why)
    if msgid is None:
        return None
    fields = {}
    for name in _names(msgid):
        v = values.get(name)
        if name == "state" and v in STATES:
            v = STATES[v]
        elif name == "mode" and v in MODES:
            v = MODES[v]
        elif not (isinstance(v, int) and not isinstance(v, bool)):
            return None  # (a state or a mode this host does not know, a count that is not one)
        fields[name] = v
    return msgid, fields


def _names(msgid: str) -> list[str]:
    import re

    return re.findall(r"\{([a-z_]+)\}", msgid)
