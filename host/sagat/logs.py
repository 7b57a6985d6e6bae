"""Reading a clock's log on the PC: from a littlefs image (the simulator's flash or a dump of a
board's) through littlefs-python, decoded and checked with the firmware's own `records` and
`replay` modules (one codec, two runtimes)."""

from __future__ import annotations

import csv
import io
import json
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import NamedTuple

import sagatfw
from sagatfw.engine import clock as C
from sagatfw.log import match as matchlog
from sagatfw.log import names as N
from sagatfw.log import read as logread
from sagatfw.log import records as R
from sagatfw.log.replay import Mismatch, Replay

from . import resultcheck
from .client import Msg, say
from .i18n import N_, _, english, ngettext

LOG_DIR = "/log"
SEG_SUFFIX = ".seg"
BLOCK_SIZES = (4096, 512, 1024, 2048, 8192, 16384)
MATCH_RESULT = matchlog.EV_RESULT  # a match's result record (log/match.py)


class LogError(Exception):
    """A log that cannot be read at all: one line for the user. str(e) is English (the hall shows
    it), e.text() in the user's language (the `sagat` command's)."""

    def text(self) -> str:
        m = self.args[0] if len(self.args) == 1 else None
        return m.text() if isinstance(m, Msg) else str(self)


class Result(NamedTuple):
    """A result record of a game or a match, as `check_code` and the hall's report read it."""

    seq: int
    link: bytes  # its chain value: its result code is records.result_code(link)
    event: dict  # the record decoded by the firmware's decoder (log/read.py decode): result, kazans; winner, why
    keyed: bool  # it links under a key given
    unkeyed: bool  # it links in an unkeyed stretch (before any key, or after a key_cleared record)
    tag: bytes | None  # the tag of the clock that entered it (records.clock_tag), None if it names none


@dataclass
class Log:
    """Everything read from one log."""

    events: list[dict] = field(default_factory=list)  # decoded events, checkpoints included
    problems: list[tuple] = field(default_factory=list)  # (kind, seq, detail) from the reader
    replay_problems: list[str] = field(default_factory=list)  # games the engine cannot reproduce
    records: int = 0
    segments: list[str] = field(default_factory=list)
    start_seq: int | None = None
    last_seq: int | None = None
    last_link: bytes | None = None  # chain value of the last record (None if it is damaged)
    last_key: int | None = None  # the chain the log ends under: a --key's index, -1 unkeyed, None unknown
    # game -> [Result] of its result records, in the log's order
    results: dict = field(default_factory=dict)
    good: int = 0  # well-formed records
    unkeyed_gaps: list = field(default_factory=list)  # seqs of gap records not under a key given

    def games(self) -> list[int]:
        return sorted({e["game"] for e in self.events})

    def shown(self, checkpoints: bool = False, game: int | None = None) -> list[dict]:
        return [
            e
            for e in self.events
            if (checkpoints or e["type"] != "checkpoint") and (game is None or e["game"] == game)
        ]


def read_image(path: str, block_size: int | None = None) -> list[tuple[str, bytes]]:
    """The log segments (name, bytes) in a littlefs image file, oldest first."""
    from . import image

    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise LogError(say(N_("cannot read image {file}: {error}"), file=path, error=e.strerror or e)) from None
    if not data:
        raise LogError(say(N_("image {file} is empty"), file=path))
    sizes = (block_size,) if block_size else BLOCK_SIZES
    fs = image.mount_any(data, sizes)
    if fs is None:
        raise LogError(say(N_("{file} is not a littlefs image (tried block sizes {sizes})"), file=path,
                            sizes=", ".join(map(str, sizes))))
    try:
        names = sorted(n for n in fs.listdir(LOG_DIR) if n.endswith(SEG_SUFFIX))
    except Exception:
        raise LogError(say(N_("{file} has no log (no {dir} folder): is it a sagat clock's flash?"), file=path,
                            dir=LOG_DIR)) from None
    out = []
    for name in names:
        try:
            with fs.open(f"{LOG_DIR}/{name}", "rb") as fh:
                out.append((name, fh.read()))
        except Exception as e:
            raise LogError(say(N_("cannot read {segment} in {file}: {error}"), segment=f"{LOG_DIR}/{name}",
                                file=path, error=str(e))) from None
    return out


def read_segments(segments: list[tuple[str, bytes]], key: bytes | list[bytes] = b"", replay: bool = True) -> Log:
    """Decode and check a log given as (name, bytes) segments."""
    log = Log(segments=[n for n, _ in segments])
    reader = logread.Reader(key, checkpoints=True)
    for name, data in segments:
        for at in range(0, len(data), R.RECORD_SIZE):
            rec = data[at : at + R.RECORD_SIZE]
            got = reader.feed(rec, f"in {name}")
            _add(log.events, got)
            if not R.check(rec) and R.type_of(rec) == N.T_NAMES and log.events and \
                    log.events[-1].get("seq") == R.seq_of(rec):
                log.events[-1] = names_event(rec)  # (logread decodes it as an unknown type)
            if not R.check(rec) and R.type_of(rec) == R.T_GAP and not (reader.linked is not None
                                                                      and reader.linked >= 0):
                log.unkeyed_gaps.append(R.seq_of(rec))
            if not R.check(rec) and R.type_of(rec) in (C.EV_RESULT, MATCH_RESULT):  # the firmware's decoder
                keyed = reader.linked is not None and reader.linked >= 0  # it links under a key given
                log.results.setdefault(R.game_of(rec), []).append(Result(
                    R.seq_of(rec), R.chain_of(rec), logread.decode(rec), keyed, reader.linked == -1,
                    logread.tag_of(rec)))
    _add(log.events, reader.finish())
    log.problems = list(reader.problems)
    log.records = reader.records
    log.good = reader.good
    log.start_seq = reader.start_seq
    log.last_seq = reader.last_seq
    log.last_link = reader.last_link
    log.last_key = None if reader.lost else reader.cur
    if replay:
        log.replay_problems = check_games(log.events)
    return log


def names_event(rec: bytes) -> dict:
    """A T_NAMES record (a match's names, after its setup record) as an event: `names` is
    {"left": ..., "right": ...}, or None if its text is not UTF-8 (a damaged or forged record)."""
    pair = N.names_of(N.names_text(rec))
    return {"game": R.game_of(rec), "seq": R.seq_of(rec), "type": "names", "t": R.t_of(rec), "wall": None,
            "names": {"left": pair[0], "right": pair[1]} if pair else None}


def names_words(names: dict | None) -> str:
    """A match's names on a line: "left Asan, right Usen" ("-" for a side without one)."""
    if not names:
        return _("names unreadable (not UTF-8 text)")
    return _("left {left}, right {right}").format(left=names.get("left") or "-", right=names.get("right") or "-")


def _add(out: list, got) -> None:
    if got is None:
        return
    out.extend(got if isinstance(got, tuple) else (got,))


def check_games(events: list[dict]) -> list[str]:
    """Replay each complete game (from its setup record) through the engine; what the engine
    derives (flags, stages, low time, default) must be what the log says, and each result record one
    the clock enters (resultcheck.py: the firmware's kazans.check, with the flag the engine has down)."""
    problems = []
    by_game: dict[int, list[dict]] = {}
    for e in events:
        by_game.setdefault(e["game"], []).append(e)
    for game, evs in sorted(by_game.items()):
        matches = [i for i, e in enumerate(evs) if e["type"] == "match"]
        if matches:
            problems.extend(_check_match(game, evs[matches[-1]], evs[matches[-1] + 1 :]))
            continue
        starts = [i for i, e in enumerate(evs) if e["type"] == "settings" and e.get("tc") is not None]
        rp = Replay() if starts else None  # (no setup: rotated out, nothing to replay from)
        for e in evs[starts[-1] :] if starts else evs:
            if e["type"] == "result":  # one the clock enters, with the flag the engine has down (kazans.check)
                clock = rp.clock if rp is not None and rp.gap is None else None
                _add(problems, resultcheck.problem(game, e, clock))
            if rp is None:
                continue
            try:
                rp.feed(e)
            except Mismatch as x:
                problems.append(f"game {game}: {x}")
                rp = None
            except Exception as x:  # noqa: BLE001 - any record a forger can make: a problem, never a crash
                problems.append(f"game {game}: cannot replay: {x!r}")
                rp = None
    return problems


def _check_match(game: int, setup: dict, evs: list[dict]) -> list[str]:
    """A match (from its setup record) replayed through its mode's engine (matchreplay.py)."""
    from .matchreplay import Mismatch, check_match, label

    try:
        check_match(setup, evs)
    except Mismatch as e:
        return [f"game {game} ({label(setup)}): {e}"]
    except Exception as e:  # noqa: BLE001 - any record a forger can make: a problem, never a crash
        return [f"game {game} ({label(setup)}): cannot replay: {e!r}"]
    return []


# ------------------------------------------------------------------ output


def clock_text(ms: int) -> str:
    """H:MM:SS.mmm or M:SS.mmm."""
    s, milli = divmod(ms, 1000)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}.{milli:03d}" if h else f"{m}:{sec:02d}.{milli:03d}"


def _details(e: dict) -> str:
    kind = e["type"]
    if kind == "game_start":
        tc = e.get("tc")
        tc = tc if isinstance(tc, str) else f"{tc['left']} | {tc['right']}" if tc else "?"
        return _("tc {tc}, first {first}").format(tc=tc, first=e.get("first"))
    if kind == "settings":
        parts = [_("origin {origin}").format(origin=e.get("origin"))]
        if e.get("tc") is not None:
            parts.append(_("new game: tc {tc}, first {first}").format(tc=e["tc"], first=e.get("first")))
        return ", ".join(parts)
    if kind == "pause":
        return _("by {who}").format(who=e.get("by"))
    if kind == "flag":
        return _("FIRST flag") if e.get("order") == 1 else _("flag #{n}").format(n=e.get("order"))
    if kind == "stage":
        return _("stage {stage}").format(stage=e.get("stage"))
    if kind == "result":  # with the final kazans when the arbiter gave them (TK-R7: why a flagged side won)
        k = e.get("kazans")
        return str(e.get("result")) + (_(", kazans {left}-{right}").format(left=k[0], right=k[1]) if k else "")
    if kind == "names":
        return names_words(e.get("names"))
    if kind == "gap":
        until = clock_text(e.get("until_t") or 0)
        return _("the clock dropped {n} records here (until t {until}): its log was full").format(
            n=e.get("dropped"), until=until)
    if kind == "adjust":
        b, a = e["before"], e["after"]
        return (
            f"{e.get('reason')}: {clock_text(b['ms'])} {b['moves']} mv st{b['stage']}"
            f" -> {clock_text(a['ms'])} {a['moves']} mv st{a['stage']}"
        )
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
                f"{e['seq']:>6}  {clock_text(e['t']):>12}  {e['type']:<16} {e.get('side') or '':<5}  "
                f"{clock_text(e['left_ms']):>12}{run}{clock_text(e['right_ms']):>12}  {moves:<7} "
                f"{e.get('wall') or '-':<24} {_details(e)}\n"
            )
        out.write("\n")
    return out.getvalue()


# why a match ended (engine/match.py WHY_NAMES), for the score sheet
_WHY = {
    "points": N_("more points at the end of time"),
    "lead": N_("a lead of more than {lead} points (KB-14)"),
    "golden_score": N_("the first score in golden score (KB-17)"),
    "removal": N_("the other rider was removed: a second warning or a red card (KB-11, KB-12)"),
    "lot": N_("the lot after the extra time (KT-4.6, method lot)"),
    "draw": N_("level after the extra time (KT-4.6, method draw)"),
    "referee": N_("the referee's entry"),
    "sudden": N_("the first score in the sudden period (KT-4.6, method sudden)"),
}
# a match's words from its log (the modes', periods', breaks', sides' and cards' names: the log's
# fields, sagatfw/engine/kokboru.py, kilithattu.py, match.py) as the score sheet shows them; a name
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
    return clock_text(ms) if isinstance(ms, int) else "?"


def _minutes(ms) -> str:
    """A period's or a break's set length: 4:00, 0:45."""
    if not isinstance(ms, int):
        return "?"
    s = ms // 1000
    return f"{s // 60}:{s % 60:02d}" + (f".{ms % 1000:03d}" if ms % 1000 else "")


def _lead_words(v) -> str:
    if v:
        return _("lead {lead} (a lead of more than {lead} points wins at once, KB-14)").format(lead=v)
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


class _Sheet:
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
            from .matchreplay import engine

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
                return _("stoppage {n}: match time stopped since the result, {time} ago").format(
                    n=e.get("stoppage"), time=_ms(e["length_ms"]))
            return _("stoppage {n} starts: match time stopped").format(n=e.get("stoppage"))
        if kind == "stoppage_end":
            return _("stoppage {n} ends after {length}; {period} stopped so far: {stopped}").format(
                n=e.get("stoppage"), length=_ms(e.get("length_ms")), period=name, stopped=_ms(e.get("stopped_ms")))
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
                return _("power restored: the {period} comes back stopped (stoppage {n})").format(
                    period=name, n=e["stoppage"])
            if e.get("break_ended"):
                return _("power restored in the {brk}: it ends, the referee starts the next period").format(
                    brk=self.brk)
            return _("power restored: the match goes on from its last record")
        return kind

    def result_words(self, e: dict) -> str:
        why = e.get("why") or ""
        why = _(_WHY[why]).format(lead=self.lead) if why in _WHY else str(e.get("why"))
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
    sheet = _Sheet(setup)
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
            out.write(f"{e['seq']:>6}  {clock_text(e['t']):>10}  {'':<{width}} {'':>9}  {'':>7}  {wall}{what}\n")
            continue
        in_break = e["type"] in ("break_start", "break_end")
        period = sheet.brk if in_break else sheet_word(e.get("period_name"))
        time = "" if in_break else _ms(e.get("match_ms"))
        score = f"{e.get('left')}-{e.get('right')}"
        out.write(f"{e['seq']:>6}  {clock_text(e['t']):>10}  {period:<{width}} {time:>9}  {score:>7}  {wall}"
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
    out.write(f"{e['seq']:>6}  {clock_text(e['t']):>12}  {e['type']:<16} {e.get('side') or '':<5}  "
              f"{e.get('period_name') or '':<12} {score:<7}  {e.get('wall') or '-':<24} "
              + _("(a match's record)") + "\n")


# (kazans: a result's final kazan counts, "85-60", left's first, when they were entered: TK-R7)
CSV_FIELDS = ["game", "seq", "type", "t", "left_ms", "right_ms", "left_moves", "right_moves", "running", "wall",
              "side", "by", "order", "stage", "result", "reason", "tc", "first", "before", "after", "dropped",
              "kazans"]


# A match's columns (sagatfw/log/match.py decode): each event's fields, then the setup's: every
# mode's options (sagatfw.MODES, in their order, each name once) and the lots' seed.
MATCH_EVENT_CSV_FIELDS = ["game", "seq", "type", "t", "wall", "mode", "period", "period_name", "match_ms",
                          "stopped_ms", "left", "right", "side", "points", "card", "entry", "how", "length_ms",
                          "early", "stoppage", "lot", "winner", "why", "names"]


def match_csv_fields() -> list[str]:
    """A match's CSV columns: the events' fields, every registered mode's options, the seed."""
    options = [k for e in sagatfw.MODES for k in e[2]]
    return MATCH_EVENT_CSV_FIELDS + [k for i, k in enumerate(options) if k not in options[:i]] + ["seed"]


def csv_fields(events: list[dict]) -> list[str]:
    """The CSV's columns: a game's (CSV_FIELDS, as before matches) when no event is a match's; a
    match's (match_csv_fields) when every game shown is a match; both when a log holds both (the
    game's columns first, then the match's that a game has not: a row fills those that apply)."""
    matches = {e["game"] for e in events if e["type"] == "match" or "period" in e}
    if not matches:
        return CSV_FIELDS
    match_fields = match_csv_fields()
    if all(e["game"] in matches for e in events):
        return match_fields
    return CSV_FIELDS + [k for k in match_fields if k not in CSV_FIELDS]


def to_csv(events: list[dict]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=csv_fields(events), extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for e in events:
        row = dict(e)
        for k in ("before", "after", "tc", "names"):
            if isinstance(row.get(k), dict):
                row[k] = json.dumps(row[k], sort_keys=True)
        k = row.get("kazans")  # (as the firmware's decoder gives them: [left's, right's])
        if isinstance(k, list) and len(k) == 2:
            row["kazans"] = f"{k[0]}-{k[1]}"
        w.writerow(row)
    return out.getvalue()


def to_json_lines(events: list[dict]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


def check_head(log: Log, head: dict, keys: list[bytes]) -> list[str]:
    """Problems of a pull against the head the clock gave at its end (pull.HEAD_FILE): the records
    must reach that head, and with a key set the head must carry the key's MAC over the pull's
    nonce, under the key the log ends under (a retired key cannot sign for a later log)."""
    from . import pull

    keys = [k for k in keys if k]  # as the reader numbers them
    out = []
    if not _head_shaped(head):
        return ["head: not a head file (seq, first: whole numbers or null; link, nonce, uid: text; mac: text "
                "or null)"]
    seq, link = head["seq"], head["link"]
    if seq is None:
        return [] if log.records == 0 else ["head: the clock said its log was empty"]
    first = head.get("first")
    if first is not None and (log.start_seq is None or log.start_seq > first):  # (earlier is fine: erased since)
        out.append(f"head: the clock's log began at seq {first} at the pull, this one at seq {log.start_seq}: "
                   f"records were cut off its start")
    if log.last_seq is None or log.last_seq < seq:
        out.append(f"head: the clock's last record was seq {seq}, the log ends at seq {log.last_seq}: "
                   f"records were cut off the end")
    elif log.last_seq > seq:
        out.append(f"head: the log goes on past the clock's head (seq {seq}) to seq {log.last_seq}")
    elif log.last_link is None or log.last_link.hex() != link:
        out.append(f"head: seq {seq} is not the record the clock signed for (its chain value differs)")
    if head.get("mac"):
        if not keys:
            out.append("head: it is signed with the arbiter key: give --key to check it")
        elif log.last_key is None or log.last_key < 0 or log.last_key >= len(keys):
            out.append("head: signed, but the log does not end under a key given")
        elif not pull.head_ok(head, keys[log.last_key]):
            out.append("head: its MAC does not verify under the key the log ends under: not this clock's head")
    elif head.get("key_set") or (keys and log.last_key is not None and log.last_key >= 0):
        out.append("head: not signed, but the log is keyed: not a head this clock gave")
    return out


def _head_shaped(head) -> bool:
    """Whether `head` has the fields and types of a head that `sagat logs pull` saves."""
    if not isinstance(head, dict):
        return False
    for k in ("seq", "first"):
        v = head.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            return False
    for k in ("link", "nonce", "uid", "mac"):
        v = head.get(k)
        if v is None and k in ("uid", "mac"):
            continue
        if not isinstance(v, str) or not v.isascii() or not v.isprintable():  # (no lone surrogates)
            return False
    return True


def code_problem(code: str) -> str | None:
    """What is wrong with a result code as typed (None if it has the code's shape): six digits."""
    code = code.strip()
    digits = logread.CODE_DIGITS
    if len(code) != digits or not code.isdigit():
        return f"a result code is {digits} digits (the faces show CODE and {digits} digits), not {code!r}"
    return None


def _flag_down(log: Log, game: int, seq: int) -> str | None:
    """The side whose flag was down first when the result at `seq` was entered ("left", "right"), as the
    firmware's engine has it (log/replay.py: a flag that an extension or a correction raised again is
    not down); None if none was, or the game cannot be replayed up to there (its setup cut off)."""
    evs = [e for e in log.events if e["game"] == game and e["seq"] < seq]
    starts = [i for i, e in enumerate(evs) if e["type"] == "settings" and e.get("tc") is not None]
    if not starts:
        return None
    rp = Replay()
    try:
        for e in evs[starts[-1] :]:
            rp.feed(e)
    except Exception:  # noqa: BLE001 - a game the engine cannot replay (verify says so): no flag named
        return None
    side = rp.clock.first_flag()
    return C.SIDE_NAMES[side] if side in (C.LEFT, C.RIGHT) else None


def result_words(log: Log, game: int, res: Result) -> str:
    """A result record as the arbiter reads it, in the user's language: "1-0 by flag, kazans 85-60",
    "+/-: right did not appear, left wins by default (TK-R4)", a match's winner and why. From the
    firmware's decoding of the record (res.event) and the flag that was down first when it was
    entered (the firmware's engine replaying the game: TK-C12, TK-R7)."""
    e = res.event
    if "winner" in e or "why" in e:  # a match's result (log/match.py)
        setups = [x for x in log.events if x["game"] == game and x["type"] == "match" and x["seq"] < res.seq]
        return _Sheet(setups[-1] if setups else {}).result_words(e)
    r, k = e.get("result"), e.get("kazans")
    flag = _flag_down(log, game, res.seq)
    winner = {"1-0": "left", "0-1": "right"}.get(r)
    if r is None:
        text = _("a result this sagat does not know")
    elif winner and flag and flag != winner:
        text = _("{result} by flag").format(result=r)  # the loser's flag fell first
    elif winner and flag:
        text = _("{result} with {side}'s flag down (TK-R7)").format(result=r, side=sheet_word(flag))
    elif r == "1/2-1/2" and flag:
        text = _("{result}, a draw with {side}'s flag down").format(result=r, side=sheet_word(flag))
    elif r == "1/2-1/2":
        text = _("{result}, a draw").format(result=r)
    elif r == "+/-":
        text = _("+/-: right did not appear, left wins by default (TK-R4)")
    elif r == "-/+":
        text = _("-/+: left did not appear, right wins by default (TK-R4)")
    elif r == "-/-":
        text = _("-/-: neither player appeared (TK-R4)")
    else:
        text = r
    return text + (_(", kazans {left}-{right}").format(left=k[0], right=k[1]) if k else "")


def check_code(log: Log, game: int, code: str, keys: list[bytes] | None = None,
               unkeyed_ok: bool = False, uid: str | None = None, translate: bool = False) -> tuple[bool, str]:
    """(ok, line): the result code copied from the faces onto game `game`'s scoresheet against the
    log. The code comes from the chain at the result record, whose clock tag names the clock that
    entered it (records.clock_tag): two clocks with the same history give different codes. Under a
    key given, a match proves the log holds that game as it was when its result was entered (no
    forger can make one). In an unkeyed stretch (no key yet, or after a key was cleared) anyone can
    recompute the code of any history, so a match says only that this log gives the code the faces
    showed: nothing about tampering. With keys given, such a result counts only with `unkeyed_ok`
    (`logs verify`: a game played before the key was set); the hall, which expects its clocks keyed,
    refuses it. `uid`: the clock the log should be (its head's, or --clock): a result record that
    names another clock is refused. `translate`: the line in the user's language (else English: the
    hall reads it)."""
    if not translate:
        with english():
            return check_code(log, game, code, keys, unkeyed_ok, uid, translate=True)
    code = code.strip()
    wrong = code_problem(code)
    if wrong:
        return False, f"code: {wrong}"
    results = log.results.get(game)
    if not results:
        return False, _("code: game {game} has no result in this log: it was cut off, or this is another log").format(
            game=game)
    for i, res in enumerate(results):
        if R.result_code(res.link) != code:
            continue
        words = dict(code=code, game=game, seq=res.seq, result=result_words(log, game, res), uid=uid)
        if uid and res.tag is not None and res.tag != R.clock_tag(uid):
            return False, _("code: game {game}'s result at seq {seq} was entered on another clock, not clock "
                            "{uid}: this log is another clock's, or the code is checked against the wrong "
                            "clock").format(**words)
        on = _(" on clock {uid}").format(uid=uid) if uid and res.tag is not None else ""
        if res.keyed:
            line = _("code {code}: game {game}'s result {result} at seq {seq} is the one the faces showed: "
                     "the log holds game {game} as it was when its result was entered").format(**words) + on
        elif res.unkeyed and keys and not unkeyed_ok:
            return False, _("code: game {game}'s result at seq {seq} does not link under a key given: its "
                            "code proves nothing").format(**words)
        elif res.unkeyed:
            line = _("code {code}: matches game {game}'s result {result} at seq {seq}, which is not under an "
                     "arbiter key: anyone can recompute an unkeyed code for any history, so this shows "
                     "nothing about tampering (only a code under the key does)").format(**words)
        else:  # its record links under no chain this check knows: a damaged or sealed stretch
            return False, _("code: game {game}'s result at seq {seq} does not link under a key given nor "
                            "unkeyed: its code proves nothing").format(**words)
        if i < len(results) - 1:
            later = results[-1]
            line += _(" (a later result record, seq {seq}, changed it to {result})").format(
                seq=later.seq, result=result_words(log, game, later))
        return True, line
    last = results[-1]
    words = dict(code=code, game=game, seq=last.seq, result=result_words(log, game, last),
                 gives=R.result_code(last.link), uid=uid)
    if uid and last.tag is not None and last.tag == R.clock_tag(uid):
        text = _("code: {code} is not the code of game {game}'s result in this log (seq {seq}, {result}, "
                 "gives {gives}): the game was changed or cut, or {code} is another clock's code (this log "
                 "is clock {uid}'s)")
    else:
        text = _("code: {code} is not the code of game {game}'s result in this log (seq {seq}, {result}, "
                 "gives {gives}): the game was changed or cut, or this is another clock's log")
    return False, text.format(**words)


def verify_report(log: Log, limit: int = 10, extra: list[str] | None = None,
                  translate: bool = False) -> tuple[bool, list[str]]:
    """(ok, lines) for `sagat logs verify`: the first broken link by seq comes first. `extra`: the
    problems of the head and code checks. `translate`: the verdict's words in the user's language
    (`sagat logs verify`'s text); else English (the hall reads the verdict)."""
    if not translate:
        with english():
            return verify_report(log, limit, extra, translate=True)
    extra = list(extra or [])
    if log.records == 0:
        return False, [_("no records in the log")]
    if log.good == 0:
        return False, [_("BROKEN: none of the {n} records is a sagat record (not a log, or wiped)").format(
            n=log.records)]
    found = [f"{kind}: {_options(detail)}" for kind, _seq, detail in log.problems] + \
        [resultcheck.said(p) for p in log.replay_problems] + extra
    found += [f"gap: the gap record at seq {seq} is not under a key given: anybody could have written it, and "
              f"the engine does not replay its game past it (without a key, a gap proves nothing)"
              for seq in log.unkeyed_gaps]
    gaps = gap_lines(log, translate)  # records the clock itself says it dropped (a full log): named, never hidden
    games = ", ".join(map(str, log.games()))
    if not found:
        if gaps:  # whole and authentic, but the clock could not keep everything: not a plain OK
            dropped = sum(e.get("dropped") or 0 for e in log.events if e["type"] == "gap")
            text = ngettext("OK, WITH GAPS: {n} records, seq {first}..{last}, games {games}; the chain links "
                            "every record; the clock dropped {dropped} records in {gaps} gap where its log "
                            "was full (below), and those games are replayed up to the gap",
                            "OK, WITH GAPS: {n} records, seq {first}..{last}, games {games}; the chain links "
                            "every record; the clock dropped {dropped} records in {gaps} gaps where its log "
                            "was full (below), and those games are replayed up to the gap", len(gaps))
            return True, [text.format(n=log.records, first=log.start_seq, last=log.last_seq, games=games,
                                      dropped=dropped, gaps=len(gaps))] + gaps
        match = any(e["type"] == "match" for e in log.events)
        text = _("OK: {n} records, seq {first}..{last}, games {games}; the chain links every record and the "
                 "engine reproduces every game and match") if match else \
            _("OK: {n} records, seq {first}..{last}, games {games}; the chain links every record and the "
              "engine reproduces every game")
        return True, [text.format(n=log.records, first=log.start_seq, last=log.last_seq, games=games)]
    first = next((p for p in log.problems if p[1] is not None), None)
    lines = [_("BROKEN at seq {seq} ({kind})").format(seq=first[1], kind=first[0]) if first else _("BROKEN")]
    lines.extend(found[:limit])
    if len(found) > limit:
        lines.append(_("... and {n} more").format(n=len(found) - limit))
    lines.extend(gaps)
    return False, lines


def _options(detail: str) -> str:
    """A reader's problem that asks for the key names the options that give it."""
    return detail.replace("give --key", "give the key with --key KEY or --key-file FILE")


def gap_lines(log: Log, translate: bool = False) -> list[str]:
    """One line per gap record: the clock's log was full and it dropped records there. The chain
    runs on through the gap (the record is sealed like any other), but the game is replayed only
    up to it. `translate`: in the user's language (else English: the hall reads it)."""
    with english() if not translate else nullcontext():
        text = _("GAP at seq {seq} (game {game}, t {start}..{end}): the clock dropped {n} records here: its "
                 "log was full; the game is replayed up to there")
    return [
        text.format(seq=e["seq"], game=e["game"], start=clock_text(e["t"]), end=clock_text(e.get("until_t") or 0),
                    n=e.get("dropped"))
        for e in log.events
        if e["type"] == "gap"
    ]
