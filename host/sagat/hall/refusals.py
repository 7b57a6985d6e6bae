"""A refusal of a clock, said on the page in the page's language: each reason code the host knows
(sagat/reasons.py, docs/protocol.md "Reason codes") as a Said of its own (key why_<code>, or why_<code>_<part>
for a code said by one of its parts), its English the catalogue's msgid, its names the answer's `with` (a
game's state as the page says it). A refusal the host cannot say stays the clock's own text."""

from __future__ import annotations

from sagat import reasons

from .said import said, state


def _part(values: dict, name: str):
    v = values.get(name)
    return state(v) if name == "state" else v


SAID = {
    "no_flag": lambda v: said(
        "why_no_flag", "no flag is down (TK-C14); the clock's state: {state}", state=_part(v, "state")
    ),
    "state": lambda v: said("why_state", "not in this state of the clock: {state}", state=_part(v, "state")),
    "state_start": lambda v: said(
        "why_state_start",
        "a game starts from setup (a paused one goes on with resume); the clock's state: {state}",
        state=_part(v, "state"),
    ),
    "state_arm": lambda v: said(
        "why_state_arm",
        "an armed start (TK-C5) is for a game set up, not started; the clock's state: {state}",
        state=_part(v, "state"),
    ),
    "state_disarm": lambda v: said(
        "why_state_disarm",
        "a game started has no armed start to cancel; the clock's state: {state}",
        state=_part(v, "state"),
    ),
    "state_pause": lambda v: said(
        "why_state_pause", "only a running clock is paused; the clock's state: {state}", state=_part(v, "state")
    ),
    "state_resume": lambda v: said(
        "why_state_resume", "only a paused clock is resumed; the clock's state: {state}", state=_part(v, "state")
    ),
    "resume_adjourned_game": lambda v: said(
        "why_resume_adjourned_game",
        "the game is adjourned: it goes on with resume_adjourned and the envelope's times (TK-A4), not with resume",
    ),
    "state_adjourn": lambda v: said(
        "why_state_adjourn",
        "a game is adjourned while it runs or is paused (TK-A1); the clock's state: {state}",
        state=_part(v, "state"),
    ),
    "state_resume_adjourned": lambda v: said(
        "why_state_resume_adjourned",
        "only an adjourned game goes on with resume_adjourned (TK-A4); the clock's state: {state}",
        state=_part(v, "state"),
    ),
    "game_in_progress": lambda v: said(
        "why_game_in_progress", "a game is in progress: pause it and enter its result first"
    ),
    "settings_between_games": lambda v: said(
        "why_settings_between_games", "settings change between games only (a pause is not enough)"
    ),
    "events_pending": lambda v: said(
        "why_events_pending", "the clock's last events are still being written to its log: try again in a moment"
    ),
    "correction_running": lambda v: said(
        "why_correction_running", "a correction needs the clock stopped: pause it first"
    ),
    "late_started": lambda v: said("why_late_started", "late installation is set before the clock is started"),
    "late_countup": lambda v: said("why_late_countup", "late installation needs a time limit, not a count-up"),
    "match_set_up": lambda v: said(
        "why_match_set_up",
        "a {mode} match is set up: this is a game's action (set up a game first)",
        mode=_part(v, "mode"),
    ),
    "no_match": lambda v: said("why_no_match", "no match is set up: this is a match's action (set up a match first)"),
    "break_runs": lambda v: said("why_break_runs", "the match's break is running: call a stoppage first"),
    "period_runs": lambda v: said("why_period_runs", "the match's period is running: call a stoppage first"),
    "no_stoppage": lambda v: said("why_no_stoppage", "there is no stoppage to end"),
    "stop_period_first": lambda v: said("why_stop_period_first", "call a stoppage of the period first"),
    "no_scores": lambda v: said("why_no_scores", "there are no scores to take back"),
    "too_many_entries": lambda v: said("why_too_many_entries", "the match has too many entries"),
    "score_limit": lambda v: said("why_score_limit", "the score is at its limit"),
    "no_cards": lambda v: said("why_no_cards", "this game has no cards"),
    "no_lot": lambda v: said("why_no_lot", "this game has no lot"),
    "no_lot_due": lambda v: said("why_no_lot_due", "no lot is due"),
    "nothing_to_undo": lambda v: said("why_nothing_to_undo", "there is nothing to undo"),
    "undo_scores_first": lambda v: said("why_undo_scores_first", "undo the scores first"),
    "not_entering_team": lambda v: said("why_not_entering_team", "only the entering team scores a pazham (KT-5.5)"),
    "match_in_progress": lambda v: said("why_match_in_progress", "the match is in progress: enter its result first"),
    "erase_in_progress": lambda v: said(
        "why_erase_in_progress", "game {game} is in progress: only finished games are erased", game=_part(v, "game")
    ),
    "key_between_games": lambda v: said(
        "why_key_between_games",
        "the arbiter key changes between games only; the clock's state: {state}",
        state=_part(v, "state"),
    ),
    "maintenance_in_game": lambda v: said(
        "why_maintenance_in_game",
        "maintenance waits for the end of the game (its result); the clock's state: {state}",
        state=_part(v, "state"),
    ),
    "kazans_range": lambda v: said("why_kazans_range", "the kazans are two counts of 0 to 162, left's then right's"),
    "kazans_over_162": lambda v: said(
        "why_kazans_over_162",
        "kazans {left}-{right}: more than the 162 kumalaks of the board (TK-R1)",
        left=_part(v, "left"),
        right=_part(v, "right"),
    ),
    "kazans_forfeit": lambda v: said(
        "why_kazans_forfeit", "the kazans go with a game played (1-0, 0-1, 1/2-1/2), not with a forfeit (TK-R4)"
    ),
    "kazans_draw": lambda v: said("why_kazans_draw", "kazans 81-81 are a draw (TK-R5)"),
    ("match_state", "setup"): lambda v: said("why_match_state_setup", "the match has not started"),
    ("match_state", "ready"): lambda v: said("why_match_state_ready", "the period has not started"),
    ("match_state", "running"): lambda v: said("why_match_state_running", "the period is running"),
    ("match_state", "stopped"): lambda v: said("why_match_state_stopped", "a stoppage is on"),
    ("match_state", "break"): lambda v: said("why_match_state_break", "the break is running"),
    ("match_state", "lot"): lambda v: said("why_match_state_lot", "a lot is due"),
    ("match_state", "over"): lambda v: said("why_match_state_over", "the time is over: enter the result"),
    ("match_state", "finished"): lambda v: said("why_match_state_finished", "the match is over"),
    ("flag_needs_kazans", "left"): lambda v: said(
        "why_flag_needs_kazans_left", "left's flag is down: a draw or left's win needs the final kazans (TK-R7, TK-C12)"
    ),
    ("flag_needs_kazans", "right"): lambda v: said(
        "why_flag_needs_kazans_right",
        "right's flag is down: a draw or right's win needs the final kazans (TK-R7, TK-C12)",
    ),
    ("flag_lost", "left"): lambda v: said(
        "why_flag_lost_left",
        "left's flag is down and left's kazan holds {kazan}, under 81: left lost (TK-C12)",
        kazan=_part(v, "kazan"),
    ),
    ("flag_lost", "right"): lambda v: said(
        "why_flag_lost_right",
        "right's flag is down and right's kazan holds {kazan}, under 81: right lost (TK-C12)",
        kazan=_part(v, "kazan"),
    ),
    ("kazans_over_half", "left"): lambda v: said(
        "why_kazans_over_half_left",
        "kazans {left}-{right}: left has more than 81, so left wins (TK-R1, TK-R7)",
        left=_part(v, "left"),
        right=_part(v, "right"),
    ),
    ("kazans_over_half", "right"): lambda v: said(
        "why_kazans_over_half_right",
        "kazans {left}-{right}: right has more than 81, so right wins (TK-R1, TK-R7)",
        left=_part(v, "left"),
        right=_part(v, "right"),
    ),
}


def refusal(e) -> str | None:
    """The clock's refusal `e` (a client.LinkError) as a Said for the page, or None when the host cannot say it."""
    if e.reason is None or e.why is None:
        return None
    name = reasons.BY_PART.get(e.why, (None,))[0]
    values = e.values or {}
    make = SAID.get((e.why, values.get(name)) if name else e.why)
    if make is None:
        return None
    return said("err_clock_refused", "the clock refused: {reason}", reason=make(values))
