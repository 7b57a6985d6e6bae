"""Reading a clock's log on the PC: from a littlefs image (the simulator's flash or a dump of a
board's) through littlefs-python, decoded and checked with the firmware's own `records` and
`replay` modules (one codec, two runtimes)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field

from sagatfw import logread
from sagatfw import records as R
from sagatfw.replay import Mismatch, Replay

LOG_DIR = "/log"
SEG_SUFFIX = ".seg"
BLOCK_SIZES = (4096, 512, 1024, 2048, 8192, 16384)


class LogError(Exception):
    """A log that cannot be read at all: one line for the user."""


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
    import littlefs

    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise LogError(f"cannot read image {path}: {e.strerror or e}") from None
    if not data:
        raise LogError(f"image {path} is empty")
    sizes = (block_size,) if block_size else BLOCK_SIZES
    fs = None
    for size in sizes:
        if len(data) % size or len(data) // size < 2:
            continue
        ctx = littlefs.UserContext(len(data))
        ctx.buffer[:] = data
        try:
            fs = littlefs.LittleFS(context=ctx, block_size=size, block_count=len(data) // size, mount=True)
            break
        except Exception:  # littlefs raises LittleFSError (and others) for what is not a filesystem
            fs = None
    if fs is None:
        raise LogError(f"{path} is not a littlefs image (tried block sizes {', '.join(map(str, sizes))})")
    try:
        names = sorted(n for n in fs.listdir(LOG_DIR) if n.endswith(SEG_SUFFIX))
    except Exception:
        raise LogError(f"{path} has no log (no {LOG_DIR} folder): is it a sagat clock's flash?") from None
    out = []
    for name in names:
        try:
            with fs.open(f"{LOG_DIR}/{name}", "rb") as fh:
                out.append((name, fh.read()))
        except Exception as e:
            raise LogError(f"cannot read {LOG_DIR}/{name} in {path}: {e}") from None
    return out


def read_segments(segments: list[tuple[str, bytes]], key: bytes | list[bytes] = b"", replay: bool = True) -> Log:
    """Decode and check a log given as (name, bytes) segments."""
    log = Log(segments=[n for n, _ in segments])
    reader = logread.Reader(key, checkpoints=True)
    for name, data in segments:
        for at in range(0, len(data), R.RECORD_SIZE):
            got = reader.feed(data[at : at + R.RECORD_SIZE], f"in {name}")
            _add(log.events, got)
    _add(log.events, reader.finish())
    log.problems = list(reader.problems)
    log.records = reader.records
    log.start_seq = reader.start_seq
    log.last_seq = reader.last_seq
    if replay:
        log.replay_problems = check_games(log.events)
    return log


def _add(out: list, got) -> None:
    if got is None:
        return
    out.extend(got if isinstance(got, tuple) else (got,))


def check_games(events: list[dict]) -> list[str]:
    """Replay each complete game (from its setup record) through the engine; what the engine
    derives (flags, stages, low time, default) must be what the log says."""
    problems = []
    by_game: dict[int, list[dict]] = {}
    for e in events:
        by_game.setdefault(e["game"], []).append(e)
    for game, evs in sorted(by_game.items()):
        starts = [i for i, e in enumerate(evs) if e["type"] == "settings" and e.get("tc") is not None]
        if not starts:
            continue  # its setup was rotated out: nothing to replay from
        rp = Replay()
        try:
            for e in evs[starts[-1] :]:
                rp.feed(e)
        except Mismatch as e:
            problems.append(f"game {game}: {e}")
        except (ValueError, KeyError, IndexError) as e:
            problems.append(f"game {game}: cannot replay: {e}")
    return problems


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
        return f"tc {tc}, first {e.get('first')}"
    if kind == "settings":
        parts = [f"origin {e.get('origin')}"]
        if e.get("tc") is not None:
            parts.append(f"new game: tc {e['tc']}, first {e.get('first')}")
        return ", ".join(parts)
    if kind == "pause":
        return f"by {e.get('by')}"
    if kind == "flag":
        return "FIRST flag" if e.get("order") == 1 else f"flag #{e.get('order')}"
    if kind == "stage":
        return f"stage {e.get('stage')}"
    if kind == "result":
        return str(e.get("result"))
    if kind == "gap":
        until = clock_text(e.get("until_t") or 0)
        return f"the clock dropped {e.get('dropped')} records here (until t {until}): its log was full"
    if kind == "adjust":
        b, a = e["before"], e["after"]
        return (
            f"{e.get('reason')}: {clock_text(b['ms'])} {b['moves']} mv st{b['stage']}"
            f" -> {clock_text(a['ms'])} {a['moves']} mv st{a['stage']}"
        )
    return ""


def table(log: Log, checkpoints: bool = False, game: int | None = None) -> str:
    out = io.StringIO()
    for g in log.games():
        if game is not None and g != game:
            continue
        evs = log.shown(checkpoints, g)
        if not evs:
            continue
        out.write(f"game {g}\n")
        out.write(
            f"{'seq':>6}  {'t':>12}  {'event':<16} {'side':<5}  {'left':>12}  {'right':>12}  moves   "
            f"{'wall':<24} details\n"
        )
        for e in evs:
            moves = f"{e['left_moves']}-{e['right_moves']}"
            run = {"left": "<", "right": ">"}.get(e.get("running"), " ")
            out.write(
                f"{e['seq']:>6}  {clock_text(e['t']):>12}  {e['type']:<16} {e.get('side') or '':<5}  "
                f"{clock_text(e['left_ms']):>12}{run}{clock_text(e['right_ms']):>12}  {moves:<7} "
                f"{e.get('wall') or '-':<24} {_details(e)}\n"
            )
        out.write("\n")
    return out.getvalue()


CSV_FIELDS = ["game", "seq", "type", "t", "left_ms", "right_ms", "left_moves", "right_moves", "running", "wall",
              "side", "by", "order", "stage", "result", "reason", "tc", "first", "before", "after", "dropped"]


def to_csv(events: list[dict]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for e in events:
        row = dict(e)
        for k in ("before", "after", "tc"):
            if isinstance(row.get(k), dict):
                row[k] = json.dumps(row[k], sort_keys=True)
        w.writerow(row)
    return out.getvalue()


def to_json_lines(events: list[dict]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


def verify_report(log: Log, limit: int = 10) -> tuple[bool, list[str]]:
    """(ok, lines) for `sagat logs verify`: the first broken link by seq comes first."""
    if log.records == 0:
        return False, ["no records in the log"]
    found = [f"{kind}: {detail}" for kind, _seq, detail in log.problems] + list(log.replay_problems)
    gaps = gap_lines(log)  # records the clock itself says it dropped (a full log): named, never hidden
    if not found:
        return True, [
            f"OK: {log.records} records, seq {log.start_seq}..{log.last_seq}, games "
            f"{', '.join(map(str, log.games()))}; the chain links every record and the engine reproduces every game"
        ] + gaps
    first = next((p for p in log.problems if p[1] is not None), None)
    lines = [f"BROKEN at seq {first[1]} ({first[0]})" if first else "BROKEN"]
    lines.extend(found[:limit])
    if len(found) > limit:
        lines.append(f"... and {len(found) - limit} more")
    lines.extend(gaps)
    chain = [p for p in log.problems if p[0] == R.P_CHAIN]
    if chain and len(chain) >= log.records - 1:
        lines.append("no record links: the log is keyed with an arbiter key (give --key) or the key is wrong")
    return False, lines


def gap_lines(log: Log) -> list[str]:
    """One line per gap record: the clock's log was full and it dropped records there. The chain
    runs on through the gap (the record is sealed like any other), but the game is replayed only
    up to it."""
    return [
        f"GAP at seq {e['seq']} (game {e['game']}, t {clock_text(e['t'])}..{clock_text(e.get('until_t') or 0)}): "
        f"the clock dropped {e.get('dropped')} records here: its log was full; the game is replayed up to there"
        for e in log.events
        if e["type"] == "gap"
    ]
