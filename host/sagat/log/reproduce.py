"""Whether the firmware's engines reproduce each game and match of a log: a game replayed from its
setup record (sagatfw/log/replay.py), each of its result records one the clock enters
(resultcheck.py), a match through its mode's engine (matchreplay.py)."""

from __future__ import annotations

from sagatfw.log.replay import Mismatch, Replay

from . import matchreplay, resultcheck


def check_games(events: list[dict]) -> list[str]:
    """Replay each complete game (from its setup record) through the engine; what the engine
    derives (flags, stages, low time, default) must be what the log says, and each result record one
    the clock enters (resultcheck.py: the firmware's kazans.check, with the flag the engine has down)."""
    problems: list[str] = []
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
                found = resultcheck.problem(game, e, clock)
                if found is not None:
                    problems.append(found)
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
    try:
        matchreplay.check_match(setup, evs)
    except matchreplay.Mismatch as e:
        return [f"game {game} ({matchreplay.label(setup)}): {e}"]
    except Exception as e:  # noqa: BLE001 - any record a forger can make: a problem, never a crash
        return [f"game {game} ({matchreplay.label(setup)}): cannot replay: {e!r}"]
    return []
