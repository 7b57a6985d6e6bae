"""A log's records decoded and checked by the firmware's own reader (sagatfw/log/read.py): the
events, the reader's problems, the chain's end and each game's result records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from sagatfw.engine import clock as C
from sagatfw.log import matchrecords as matchlog
from sagatfw.log import names as N
from sagatfw.log import read as logread
from sagatfw.log import records as R

from ..client import Msg
from .reproduce import check_games


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


def read_segments(segments: list[tuple[str, bytes]], key: bytes | list[bytes] = b"", replay: bool = True) -> Log:
    """Decode and check a log given as (name, bytes) segments; `replay`: each game and match
    replayed through the firmware's engines too (reproduce.py), its problems in replay_problems."""
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
            if not R.check(rec) and R.type_of(rec) in (C.EV_RESULT, matchlog.EV_RESULT):  # the firmware's decoder
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


def _add(out: list, got) -> None:
    if got is None:
        return
    out.extend(got if isinstance(got, tuple) else (got,))
