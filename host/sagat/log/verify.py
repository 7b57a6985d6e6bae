"""ONE verify of a pulled log, for `sagat logs verify`, the hall's check of each finished game and
`sagat report`: the chain and the records (the firmware's reader), each game and match replayed
(the firmware's engines), the pull's signed head, the result code from the faces. It returns a
typed Verdict: its status (OK, BROKEN, UNVERIFIED), the problems as records with codes
(problem.py), the game's result and the code's line. Callers decide on those, never on the words."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field

from sagatfw.log import records as R

from ..i18n import _, english, ngettext
from . import problem as problem
from .code import check_code
from .decode import Log, Result, read_segments
from .head import check_head
from .problem import Problem
from .pulled import Pulled
from .resultcheck import Line, said
from .show import stamp_text

OK = "ok"  # the chain links every record, the engines reproduce every game, the head and the code agree
BROKEN = "broken"  # something is wrong (the problems say what)
UNVERIFIED = "unverified"  # a keyed clock's log checked without its key: nothing wrong that can be seen without it


@dataclass
class Verdict:
    """What a verify found. `lines` say it as `sagat logs verify` does (the first: OK..., BROKEN at
    seq N (kind), ...); `notes` what was checked and holds (said after an OK)."""

    status: str
    keyed: bool  # checked under a key given: OK is then authentic (else an intact chain, authorship unproven)
    sealed: bool  # a log (or head) sealed with an arbiter key, checked without one
    log: Log
    problems: list[Problem] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    head: dict | None = None  # the pull's head (None: none beside the records, or not asked for)
    uid: str | None = None  # the clock the log is: the one given, clock.json's, else the head's
    result: Result | None = None  # the game's last result record (a game asked for)
    code_ok: bool | None = None  # the code given is the game's result's (None: no code checked)
    code_line: str | None = None  # what the code check says, right or wrong

    @property
    def ok(self) -> bool:
        return self.status == OK

    def part(self, part: str) -> list[Problem]:
        """The problems of one part (problem.RECORDS, REPLAY, HEAD, CODE)."""
        return [p for p in self.problems if p.part == part]


def verify(pulled: Pulled, keys: list[bytes], *, game: int | None = None, code: str | None = None,
           uid: str | None = None, unkeyed_ok: bool = False, need_head: bool = False,
           translate: bool = False, limit: int = 10) -> Verdict:
    """Verify a pulled log (pulled.py: its records, its head, its clock) under `keys` (the arbiter
    keys the log may be chained under). `game`, `code`: the result code copied from game's
    scoresheet, checked against the log (check_code; `unkeyed_ok`: a result in an unkeyed stretch
    counts). `uid`: the clock the log should be (else clock.json's, else the head's). `need_head`:
    a keyed log without its head is a problem (the head alone shows that nothing was cut off the
    end). `translate`: the lines in the user's language (`sagat logs verify`'s text), else English
    (the hall, `--json`, the report)."""
    with nullcontext() if translate else english():
        return _verify(pulled, [k for k in keys if k], game, code, uid, unkeyed_ok, need_head, limit)


def _verify(pulled: Pulled, keys: list[bytes], game, code, uid, unkeyed_ok: bool, need_head: bool,
            limit: int) -> Verdict:
    log = read_segments(pulled.segments, keys, replay=True)
    v = Verdict(BROKEN, bool(keys), False, log, head=pulled.head, uid=uid if uid is not None else pulled.uid)
    v.problems += [Problem(problem.RECORDS, kind, f"{kind}: {_options(detail)}", seq)
                   for kind, seq, detail in log.problems]
    v.problems += [Problem(problem.REPLAY, "result" if isinstance(x, Line) else "replay", said(x)) for x in
                   log.replay_problems]
    _head(v, pulled, keys, need_head)
    if code and isinstance(game, int):
        v.code_ok, v.code_line = check_code(log, game, code, keys, unkeyed_ok, uid=v.uid, translate=True)
        if v.code_ok:
            v.notes.append(v.code_line)
        else:
            v.problems.append(Problem(problem.CODE, "code", v.code_line))
    if isinstance(game, int) and log.results.get(game):
        v.result = log.results[game][-1]
    v.problems += [Problem(problem.REPLAY, "gap", f"gap: the gap record at seq {seq} is not under a key given: anybody "
                           f"could have written it, and the engine does not replay its game past it (without a key, "
                           f"a gap proves nothing)", seq) for seq in log.unkeyed_gaps]
    ok, v.lines = _report(log, v.problems, limit)
    v.sealed = not keys and any(p.code in (R.P_KEY, problem.HEAD_SEALED) for p in v.problems)
    seen = [p for p in v.problems if p.code not in (R.P_KEY, problem.HEAD_SEALED, "gap")]  # (seen without the key)
    v.status = OK if ok else UNVERIFIED if v.sealed and not seen else BROKEN
    return v


def _head(v: Verdict, pulled: Pulled, keys: list[bytes], need_head: bool) -> None:
    """The pull's head against the log: its problems, or the note that it holds."""
    head, log = pulled.head, v.log
    if pulled.head_error is not None:
        v.problems.append(Problem(problem.HEAD, problem.HEAD_UNREADABLE, f"head: cannot read {pulled.head_path}: "
                                                             f"{pulled.head_error}"))
    elif head is not None:
        found = check_head(log, head, keys)
        their = head.get("uid") if isinstance(head, dict) else None
        if v.uid is not None and their != v.uid:
            found.append(Problem(problem.HEAD, problem.HEAD_CLOCK,
                                 _("head: it is clock {uid}'s, not clock {want}'s").format(uid=their, want=v.uid)))
        v.uid = v.uid or (their if isinstance(their, str) else None)
        v.problems += found
        if not found:
            text = _("head: clock {uid}: the log reaches its last record (seq {seq}), signed with the key, "
                     "as the clock gave it at the pull: nothing was cut off its end") if head.get("mac") else \
                _("head: clock {uid}: the log reaches its last record (seq {seq}), as the clock gave it at "
                  "the pull: nothing was cut off its end")
            v.notes.append(text.format(uid=their, seq=head.get("seq")))
    elif need_head and keys:
        v.problems.append(Problem(problem.HEAD, problem.HEAD_MISSING, _(
            "head: none beside the records: a keyed pull's end is proven only by the head.json it saved (--head "
            "FILE; --no-head checks the records alone, which cannot show records cut off the end)")))
    elif log.records:
        v.notes.append(_("head: not checked (a pull's head.json proves that nothing was cut off the end; an "
                         "image or records alone cannot: see docs/log-format.md)"))


def _report(log: Log, problems: list[Problem], limit: int) -> tuple[bool, list[str]]:
    """(ok, lines) as `sagat logs verify` says them: the first broken link by seq comes first."""
    if log.records == 0:
        return False, [_("no records in the log")]
    if log.good == 0:
        return False, [ngettext("BROKEN: the {n} record is not a sagat record (not a log, or wiped)",
                                "BROKEN: none of the {n} records is a sagat record (not a log, or wiped)",
                                log.records).format(n=log.records)]
    found = [p.line for p in problems]
    gaps = gap_lines(log, translate=True)  # records the clock itself says it dropped (a full log): named, never hidden
    games = ", ".join(map(str, log.games()))
    if not found:
        if gaps:  # whole and authentic, but the clock could not keep everything: not a plain OK
            dropped = sum(e.get("dropped") or 0 for e in log.events if e["type"] == "gap")
            # three counts, a clause each (one ngettext counts one number)
            text = "; ".join((
                ngettext("OK, WITH GAPS: {n} record, seq {first}..{last}, games {games}; the chain links every "
                         "record", "OK, WITH GAPS: {n} records, seq {first}..{last}, games {games}; the chain "
                         "links every record", log.records).format(n=log.records, first=log.start_seq,
                                                                   last=log.last_seq, games=games),
                ngettext("the clock dropped {n} record where its log was full",
                         "the clock dropped {n} records where its log was full", dropped).format(n=dropped),
                ngettext("{n} gap (below): its game is replayed up to the gap",
                         "{n} gaps (below): those games are replayed up to the gaps", len(gaps)).format(n=len(gaps))))
            return True, [text] + gaps
        match = any(e["type"] == "match" for e in log.events)
        n = log.records
        text = ngettext("OK: {n} record, seq {first}..{last}, games {games}; the chain links every record and "
                        "the engine reproduces every game and match",
                        "OK: {n} records, seq {first}..{last}, games {games}; the chain links every record and "
                        "the engine reproduces every game and match", n) if match else \
            ngettext("OK: {n} record, seq {first}..{last}, games {games}; the chain links every record and the "
                     "engine reproduces every game",
                     "OK: {n} records, seq {first}..{last}, games {games}; the chain links every record and the "
                     "engine reproduces every game", n)
        return True, [text.format(n=log.records, first=log.start_seq, last=log.last_seq, games=games)]
    first = next((p for p in log.problems if p[1] is not None), None)
    lines = [_("BROKEN at seq {seq} ({kind})").format(seq=first[1], kind=first[0]) if first else _("BROKEN")]
    lines.extend(found[:limit])
    if len(found) > limit:
        more = len(found) - limit
        lines.append(ngettext("... and {n} more", "... and {n} more", more).format(n=more))
    lines.extend(gaps)
    return False, lines


def _options(detail: str) -> str:
    """A reader's problem that asks for the key names the options that give it."""
    return detail.replace("give --key", "give the key with --key KEY or --key-file FILE")


def gap_lines(log: Log, translate: bool = False) -> list[str]:
    """One line per gap record: the clock's log was full and it dropped records there. The chain
    runs on through the gap (the record is sealed like any other), but the game is replayed only
    up to it. `translate`: in the user's language (else English: the hall reads it)."""
    lines = []
    for e in log.events:
        if e["type"] != "gap":
            continue
        n = e.get("dropped") or 0
        with english() if not translate else nullcontext():
            text = ngettext("GAP at seq {seq} (game {game}, t {start}..{end}): the clock dropped {n} record here: "
                            "its log was full; the game is replayed up to there",
                            "GAP at seq {seq} (game {game}, t {start}..{end}): the clock dropped {n} records here: "
                            "its log was full; the game is replayed up to there", n)
        lines.append(text.format(seq=e["seq"], game=e["game"], start=stamp_text(e["t"]),
                                 end=stamp_text(e.get("until_t") or 0), n=n))
    return lines
