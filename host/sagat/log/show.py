"""`sagat logs show` on the PC: a game's table and a match's score sheet, from a log decoded by the
firmware's reader (decode.py), in the user's language."""

from __future__ import annotations

import io

import sagatfw
from sagatfw.log import matchrecords as matchlog

from ..i18n import N_, Nn_, _, ngettext
from .decode import Log
from .matchreplay import engine


def names_words(names: dict | None) -> str:
    """A match's names on a line: "left Asan, right Usen" ("-" for a side without one)."""
    if not names:
        return _("names unreadable (not UTF-8 text)")
    return _("left {left}, right {right}").format(left=names.get("left") or "-", right=names.get("right") or "-")



def stamp_text(ms: int) -> str:
    """A log time stamp (a clock's time, a record's t) as H:MM:SS.mmm, or M:SS.mmm under an hour
    (faces.matchfaces.clock_text is a match time as M:SS)."""
    s, milli = divmod(ms, 1000)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}.{milli:03d}" if h else f"{m}:{sec:02d}.{milli:03d}"


# the values of a game's records (the log's fields: engine/clock.py BY_NAMES, REASON_NAMES, log/read.py
# ORIGIN_NAMES) as the table shows them to a person; a value this sagat does not know is shown as the log has it
VALUE_WORDS = {
    "left": N_("left"), "right": N_("right"), "arbiter": N_("arbiter"), "host": N_("host"), "player": N_("player"),
    "changed": N_("changed"), "defaults_missing": N_("defaults missing"), "defaults_corrupt": N_("defaults corrupt"),
    "key_set": N_("key set"), "key_cleared": N_("key cleared"), "maintenance": N_("maintenance"),
    "correction": N_("correction"), "late_install": N_("late installation"),
}


def value_word(v) -> str:
    """A record's value in the user's language (VALUE_WORDS); None as "-"."""
    if v is None:
        return "-"
    word = VALUE_WORDS.get(v) if isinstance(v, str) else None
    return _(word) if word else str(v)


def _details(e: dict) -> str:
    kind = e["type"]
    if kind == "game_start":
        tc = e.get("tc")
        tc = tc if isinstance(tc, str) else f"{tc['left']} | {tc['right']}" if tc else "?"
        return _("tc {tc}, first {first}").format(tc=tc, first=value_word(e.get("first")))
    if kind == "settings":
        parts = [_("origin {origin}").format(origin=value_word(e.get("origin")))]
        if e.get("tc") is not None:
            parts.append(_("new game: tc {tc}, first {first}").format(tc=e["tc"], first=value_word(e.get("first"))))
        return ", ".join(parts)
    if kind == "pause":
        return _("by {who}").format(who=value_word(e.get("by")))
    if kind == "flag":
        return _("FIRST flag") if e.get("order") == 1 else _("flag #{number}").format(number=e.get("order"))
    if kind == "stage":
        return _("stage {stage}").format(stage=e.get("stage"))
    if kind == "result":  # with the final kazans when the arbiter gave them (TK-R7: why a flagged side won)
        k = e.get("kazans")
        return str(e.get("result")) + (_(", kazans {left}-{right}").format(left=k[0], right=k[1]) if k else "")
    if kind == "names":
        return names_words(e.get("names"))
    if kind == "gap":
        until = stamp_text(e.get("until_t") or 0)
        n = e.get("dropped") or 0
        return ngettext("the clock dropped {n} record here (until t {until}): its log was full",
                        "the clock dropped {n} records here (until t {until}): its log was full", n).format(
            n=n, until=until)
    if kind == "adjust":
        b, a = e["before"], e["after"]
        face = _("{time} {moves} mv st{stage}")  # a side's face: its time, moves and stage, before and after
        before, after = (face.format(time=stamp_text(x["ms"]), moves=x["moves"], stage=x["stage"]) for x in (b, a))
        return f"{value_word(e.get('reason'))}: {before} -> {after}"
    return ""


# `logs show`'s column headings (a game's table), for the catalogue
TABLE_HEADINGS = (N_("seq"), N_("t"), N_("event"), N_("side"), N_("left"), N_("right"), N_("moves"), N_("wall"),
                  N_("details"))


def table(log: Log, checkpoints: bool = False, game: int | None = None) -> str:
    out = io.StringIO()
    for g in log.games():
        if game is not None and g != game:
            continue
        evs = log.shown(checkpoints, g)
        if not evs:
            continue
        if any(e["type"] == "match" for e in evs):
            _match_table(out, g, evs)
            continue
        out.write(_("game {game}").format(game=g) + "\n")
        head = {k: _(k) for k in TABLE_HEADINGS}
        out.write(
            f"{head['seq']:>6}  {head['t']:>12}  {head['event']:<16} {head['side']:<5}  {head['left']:>12}  "
            f"{head['right']:>12}  {head['moves']:<7} {head['wall']:<24} {head['details']}\n"
        )
        for e in evs:
            if "left_moves" not in e:  # a match's record in a game's log (a damaged or forged one)
                _match_row(out, e)
                continue
            moves = f"{e['left_moves']}-{e['right_moves']}"
            run = {"left": "<", "right": ">"}.get(e.get("running"), " ")
            out.write(
                f"{e['seq']:>6}  {stamp_text(e['t']):>12}  {e['type']:<16} {value_word(e.get('side') or ''):<5}  "
                f"{stamp_text(e['left_ms']):>12}{run}{stamp_text(e['right_ms']):>12}  {moves:<7} "
                f"{e.get('wall') or '-':<24} {_details(e)}\n"
            )
        out.write("\n")
    return out.getvalue()


# why a match ended (engine/matchwords.py WHY_NAMES), for the score sheet
_WHY = {
    "points": N_("more points at the end of time"),
    "lead": Nn_("a lead of more than {n} point (KB-14)", "a lead of more than {n} points (KB-14)"),
    "golden_score": N_("the first score in golden score (KB-17)"),
    "removal": N_("the other rider was removed: a second warning or a red card (KB-11, KB-12)"),
    "lot": N_("the lot after the extra time (KT-4.6, method lot)"),
    "draw": N_("level after the extra time (KT-4.6, method draw)"),
    "referee": N_("the referee's entry"),
    "sudden": N_("the first score in the sudden period (KT-4.6, method sudden)"),
}
# a match's words from its log (the modes', periods', breaks', sides' and cards' names: the log's
# fields, sagatfw/engine/kokboru.py, kilithattu.py, matchwords.py) as the score sheet shows them; a name
# this sagat does not know (a newer firmware's) is shown as the log has it
SHEET_WORDS = {
    "kokboru": N_("kokboru"), "kilithattu": N_("kilithattu"),
    "1st half": N_("1st half"), "2nd half": N_("2nd half"), "golden score": N_("golden score"), "rest": N_("rest"),
    "innings 1": N_("innings 1"), "innings 2": N_("innings 2"), "extra 1": N_("extra 1"), "extra 2": N_("extra 2"),
    "sudden": N_("sudden"), "changeover": N_("changeover"),
    "left": N_("left"), "right": N_("right"),
    "warning": N_("warning"), "red": N_("red"),
}
# the score sheet's column headings, for the catalogue
SHEET_HEADINGS = (N_("seq"), N_("t"), N_("period"), N_("time"), N_("score"), N_("wall"), N_("what"))


def sheet_word(name) -> str:
    """A name from a match's log in the user's language (SHEET_WORDS); "?" for none."""
    if not name:
        return "?"
    word = SHEET_WORDS.get(name) if isinstance(name, str) else None
    return _(word) if word else str(name)


def _value(v) -> str:
    """A card's or an option's value from the log in the user's language; an absent one as the log has it."""
    return sheet_word(v) if v else str(v)


def _ms(ms) -> str:
    """A length on the score sheet: M:SS.mmm."""
    return stamp_text(ms) if isinstance(ms, int) else "?"


def _minutes(ms) -> str:
    """A period's or a break's set length: 4:00, 0:45."""
    if not isinstance(ms, int):
        return "?"
    s = ms // 1000
    return f"{s // 60}:{s % 60:02d}" + (f".{ms % 1000:03d}" if ms % 1000 else "")


def _lead_words(v) -> str:
    if v:
        return ngettext("lead {n} (a lead of more than {n} point wins at once, KB-14)",
                        "lead {n} (a lead of more than {n} points wins at once, KB-14)", v).format(n=v)
    return _("lead 0 (no lead rule)")


_OPTION_WORDS = {  # a match's option in words, by its name (a mode's options: sagatfw.MODES)
    "lead": _lead_words,
    "first": lambda v: _("{side} enters first").format(side=_value(v)),
    "changeover_ms": lambda v: _("changeover {time}").format(time=_minutes(v)),
    "method": lambda v: _("a tie after the extra time: {method} (KT-4.6)").format(method=v),
}


def _mode_label(e: dict) -> str:
    """A setup's mode by name ("kokboru"), or by its number when this sagat does not know it."""
    if e.get("mode"):
        return sheet_word(e["mode"])
    return _("mode-{number}").format(number=e.get("mode_number", "?"))


def _match_options(e: dict) -> str:
    """The setup record's options, in words."""
    mode = e.get("mode")
    i = matchlog.mode_index(mode) if isinstance(mode, str) else -1
    if i < 0:
        return _("mode {number}, which this sagat does not know (a newer firmware's?)").format(
            number=e.get("mode_number", "?"))
    opts = []
    for name in sagatfw.MODES[i][2]:
        value = e.get(name)
        opts.append(_OPTION_WORDS[name](value) if name in _OPTION_WORDS else f"{name} {value}")
    if "seed" in e:
        opts.append(_("lots drawn from seed {seed} (a script's)").format(seed=e["seed"]))
    return ", ".join(opts) or _("no options")


class MatchSheet:
    """What the score sheet needs to remember while it reads a match's events in order."""

    def __init__(self, setup: dict):
        self.setup = setup
        self.lead = setup.get("lead")
        self.warnings = {"left": 0, "right": 0}
        self.finished: dict | None = None  # the standing result
        self.ended_by_result = False  # the last line of `periods` is the standing result's
        self.periods: list[tuple[str, str, int]] = []  # (period, score at its end, its stopped total)
        brk = "break"
        try:
            brk = engine(setup.get("mode")).BREAK_NAME
        except ValueError:
            pass
        self.brk = _("break") if brk == "break" else sheet_word(brk)

    def text(self, e: dict) -> str:
        """The event's line on the score sheet."""
        kind = e["type"]
        side = sheet_word(e.get("side"))
        name = sheet_word(e.get("period_name"))
        score = f"{e.get('left')}-{e.get('right')}"
        if kind == "period_start":
            length = _("{time} of match time").format(time=_minutes(e.get("length_ms"))) if e.get("length_ms") \
                else _("counts up, the first score wins")
            how = _("the referee's start") if e.get("how") == "referee" else \
                _("by the clock at the {brk}'s end").format(brk=self.brk)
            line = _("{period} starts: {length}, {how}").format(period=name, length=length, how=how)
            return line + (_("; {side} enters").format(side=side) if e.get("side") else "")
        if kind == "period_end":
            self.periods.append((name, score, e.get("stopped_ms") or 0))
            return _("{period} ends: time up at {time} of match time, {stopped} stopped in all").format(
                period=name, time=_ms(e.get("match_ms")), stopped=_ms(e.get("stopped_ms")))
        if kind == "break_start":
            return _("{brk} starts ({length})").format(brk=self.brk, length=_minutes(e.get("length_ms")))
        if kind == "break_end":
            cut = _(", cut short by the referee's start") if e.get("early") else ""
            if e.get("power_cut"):
                cut = _(", at its last durable instant before the power cut (the referee starts the next "
                        "period)")
            return _("{brk} ends after {length}").format(brk=self.brk, length=_ms(e.get("length_ms"))) + cut
        if kind == "score":
            return _("SCORE {side} +{points} (entry {entry})").format(side=side, points=e.get("points"),
                                                                      entry=e.get("entry"))
        if kind in ("late_score", "late_card"):  # entered after the period ended by time, for it
            if self.periods and self.periods[-1][0] == name:  # the period's score as it now stands
                self.periods[-1] = (name, score, self.periods[-1][2])
            if kind == "late_score":
                text = _("SCORE {side} +{points} (entry {entry}), entered after the {period} ended: counts "
                         "for it")
            else:
                text = _("CARD {side} {card} (entry {entry}), entered after the {period} ended: counts for it")
            return text.format(side=side, points=e.get("points"), card=_value(e.get("card")),
                               entry=e.get("entry"), period=name)
        if kind == "restart":
            return _("RESTART (KB-3): the {period} back to its start; {time} of match time discarded").format(
                period=name, time=_ms(e.get("discarded_ms")))
        if kind == "adjust":
            return _("ADJUST: the referee sets the {period}'s clock to {time}").format(period=name,
                                                                                      time=_ms(e.get("face_ms")))
        if kind == "card":
            card = e.get("card")
            raw = e.get("side")
            more = ""
            if card == "warning" and raw in self.warnings:
                self.warnings[raw] += 1
                if self.warnings[raw] >= 2:
                    more = _(": the 2nd warning (KB-11)")
            return _("CARD {side} {card} (entry {entry})").format(side=side, card=_value(card),
                                                                  entry=e.get("entry")) + more
        if kind == "undo":
            raw = e.get("side")
            if "points" in e:
                text = _("UNDO entry {entry}: {side} +{points} taken back")
            else:
                text = _("UNDO entry {entry}: {side} {card} card taken back")
            line = text.format(entry=e.get("entry"), side=side, points=e.get("points"),
                               card=_value(e.get("card")))
            if e.get("card") == "warning" and raw in self.warnings:
                self.warnings[raw] -= 1
            if self.finished is not None:
                won = self.finished.get("winner")
                line += _("; the result ({winner}, {why}) is withdrawn").format(
                    winner=sheet_word(won) if won else _("a draw"), why=self.finished.get("why"))
                self.finished = None
                if self.ended_by_result:  # the period goes on: its line comes at its real end
                    self.periods.pop()
                    self.ended_by_result = False
            return line
        if kind == "stoppage_start":
            if e.get("length_ms"):  # an undo withdrew a result: stopped since the result (KB-16, KT-4.5)
                return _("stoppage {number}: match time stopped since the result, {time} ago").format(
                    number=e.get("stoppage"), time=_ms(e["length_ms"]))
            return _("stoppage {number} starts: match time stopped").format(number=e.get("stoppage"))
        if kind == "stoppage_end":
            return _("stoppage {number} ends after {length}; {period} stopped so far: {stopped}").format(
                number=e.get("stoppage"), length=_ms(e.get("length_ms")), period=name, stopped=_ms(e.get("stopped_ms")))
        if kind == "lot":
            by = _("the referee's toss, entered") if e.get("by") == "toss" else _("the clock's draw")
            if e.get("lot") == 1:
                return _("LOT 1 (KT-4.6, {by}): {side} enters first in the extra time").format(by=by, side=side)
            return _("LOT {lot} (KT-4.6, {by}): {side} wins the lot").format(lot=e.get("lot"), by=by, side=side)
        if kind == "result":
            again = _(" (it replaces the result before)") if self.finished is not None else ""
            self.finished = e
            if not self.periods or self.periods[-1][0] != name:  # a period the result ended
                self.periods.append((name, score, e.get("stopped_ms") or 0))
                self.ended_by_result = True
            return _("RESULT {result}").format(result=self.result_words(e)) + again
        if kind == "power_restore":
            if e.get("stoppage"):
                return _("power restored: the {period} comes back stopped (stoppage {number})").format(
                    period=name, number=e["stoppage"])
            if e.get("break_ended"):
                return _("power restored in the {brk}: it ends, the referee starts the next period").format(
                    brk=self.brk)
            return _("power restored: the match goes on from its last record")
        return kind

    def result_words(self, e: dict) -> str:
        why = e.get("why") or ""
        words = _WHY.get(why)
        why = (ngettext(*words, self.lead or 0) if isinstance(words, tuple) else _(words)).format(n=self.lead) \
            if words else str(e.get("why"))
        if e.get("winner"):
            text = _("{side} wins {left}-{right}: {why}")
        else:
            text = _("a draw {left}-{right}: {why}")
        return text.format(side=sheet_word(e.get("winner")), left=e.get("left"), right=e.get("right"), why=why)


def _match_table(out, g: int, evs: list[dict]) -> None:
    """A match's score sheet: its options, then one line per event (the period, its match time and
    the running score), then each period's score and the result."""
    setups = [e for e in evs if e["type"] == "match"]
    setup = setups[-1] if setups else {}
    sheet = MatchSheet(setup)
    walls = any(e.get("wall") for e in evs)
    named = [e for e in evs if e["type"] == "names"]
    who = f"; {names_words(named[-1].get('names'))}" if named else ""
    out.write(_("game {game}: {mode} match (score sheet), {options}").format(
        game=g, mode=_mode_label(setup), options=_match_options(setup)) + who + "\n")
    periods = [sheet.brk if e["type"] in ("break_start", "break_end") else sheet_word(e.get("period_name"))
               for e in evs if "period" in e]
    width = max([13] + [len(p) for p in periods])  # (a period's name in another language may be longer)
    head = {k: _(k) for k in SHEET_HEADINGS}
    out.write(f"{head['seq']:>6}  {head['t']:>10}  {head['period']:<{width}} {head['time']:>9}  {head['score']:>7}  "
              + (f"{head['wall']:<24}  " if walls else "") + f"{head['what']}\n")
    for e in evs:
        wall = f"{e.get('wall') or '-':<24}  " if walls else ""
        if "period" not in e:  # the setup, or a clock record in the match's game
            what = _("{mode} match set up").format(mode=_mode_label(e)) if e["type"] == "match" else \
                f"{e['type']} {_details(e)}"
            out.write(f"{e['seq']:>6}  {stamp_text(e['t']):>10}  {'':<{width}} {'':>9}  {'':>7}  {wall}{what}\n")
            continue
        in_break = e["type"] in ("break_start", "break_end")
        period = sheet.brk if in_break else sheet_word(e.get("period_name"))
        time = "" if in_break else _ms(e.get("match_ms"))
        score = f"{e.get('left')}-{e.get('right')}"
        out.write(f"{e['seq']:>6}  {stamp_text(e['t']):>10}  {period:<{width}} {time:>9}  {score:>7}  {wall}"
                  f"{sheet.text(e)}\n")
    if sheet.periods:
        out.write(_("periods: {periods}").format(periods="; ".join(
            _("{period} {score} ({time} stopped)").format(period=p, score=score, time=_ms(st)) if st
            else f"{p} {score}" for p, score, st in sheet.periods)) + "\n")
    if sheet.finished is not None:
        out.write(_("result: {result}").format(result=sheet.result_words(sheet.finished)) + "\n")
    else:
        out.write(_("result: none in the log (the match goes on, or its end is not in this log)") + "\n")
    out.write("\n")


def _match_row(out, e: dict) -> None:
    """A match's record in a clock game's log (a damaged or forged one): one plain line."""
    score = f"{e.get('left')}-{e.get('right')}" if "left" in e else ""
    out.write(f"{e['seq']:>6}  {stamp_text(e['t']):>12}  {e['type']:<16} {e.get('side') or '':<5}  "
              f"{e.get('period_name') or '':<12} {score:<7}  {e.get('wall') or '-':<24} "
              + _("(a match's record)") + "\n")

