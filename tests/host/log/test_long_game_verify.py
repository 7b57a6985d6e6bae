"""The log's time range on the host: games whose times once passed the log's range (an hour a move for
700 moves each; a count-up game running 26 days; a game paused for 9 days) are made by the real App
and journal (CPython, a temporary directory), and `sagat logs verify` checks them: OK, no crash (it
crashed with OverflowError when the engine replayed such a log)."""

import os

import pytest
from appkit import RootBoard
from apprig import records

from sagat.cli import main
from sagatfw.app.main import App
from sagatfw.engine import clock as C

DAY = 86400000


def _verify(path: str, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["logs", "verify", "--records", path])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", (out, err)
    assert out.startswith("OK: "), out
    return out


def test_long_games_verify(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(tmp_path) + "/"
    app = App(RootBoard(root))
    app.boot(0)
    app.set_settings({"log_max_bytes": 1048576}, 0)
    # game 1: an hour a move (Fischer 3600 s), 700 moves each
    app.new_game("86400+3600", "left", 0)
    app.start(0)
    ms = 0
    for i in range(1400):
        ms += 20
        assert app.clock.press(C.LEFT if i % 2 == 0 else C.RIGHT, ms)
        app.step(ms)
    assert app.clock.rem == [C.MAX_FACE_MS, C.MAX_FACE_MS]
    app.result("1-0", ms + 1)
    # game 2: count-up for 26 days: adjourned by the clock at the game's bound, then a result
    app.new_game("-", "right", ms + 2)
    base = ms + 2
    app.start(base)
    t = 0
    while t < 26 * DAY:
        t += 5 * DAY
        app.step(base + t)
    assert app.clock.state == C.ADJOURNED and app.clock.t == C.MAX_GAME_MS
    app.result("0-1", base + t + 1)
    # game 3: paused for 9 days (events further apart than the ticks reach), then played on
    app.new_game("300", "left", base + t + 2)
    base = base + t + 2
    app.start(base)
    app.pause(C.BY_ARBITER, base + 1000)
    for d in range(1, 10):
        app.step(base + 1000 + d * DAY)
    assert app.resume(base + 1000 + 9 * DAY + 5)
    assert app.clock.press(C.LEFT, base + 1000 + 9 * DAY + 2000)
    app.result("1/2-1/2", base + 1000 + 9 * DAY + 3000)
    path = os.path.join(str(tmp_path), "records.bin")
    records(root, path)
    out = _verify(path, capsys)
    assert "games 0, 1, 2, 3" in out, out


def _reseal(data: bytes, edit) -> bytes:
    """Apply edit(index, bytearray) to each record, then recompute every CRC and chain link (an
    unkeyed log: what an older firmware's wrapped log, or a forger without a key, can produce)."""
    from sagatfw.log import records as R

    out = bytearray()
    prev = R.ZERO_CHAIN
    chain = R.Chain(b"")
    for i in range(0, len(data), R.RECORD_SIZE):
        rec = bytearray(data[i : i + R.RECORD_SIZE])
        edit(i // R.RECORD_SIZE, rec)
        prev = R.seal(rec, prev, chain)
        out += rec
    return bytes(out)


def test_verify_of_times_past_the_range_reports_and_never_crashes(tmp_path, capsys) -> None:
    # (A guard, not the attack: the engine that replays a log holds its own values in range, so
    # whatever numbers a log claims end in a named mismatch, never in an OverflowError.)
    import struct

    from sagatfw.log import records as R

    root = str(tmp_path) + "/"
    app = App(RootBoard(root))
    app.boot(0)
    app.new_game("600+5", "left", 0)
    app.start(0)
    for i in range(6):
        assert app.clock.press(C.LEFT if i % 2 == 0 else C.RIGHT, 1000 * (i + 1))
        app.step(1000 * (i + 1))
    app.result("1-0", 9000)
    path = os.path.join(str(tmp_path), "records.bin")
    records(root, path)
    with open(path, "rb") as f:
        data = f.read()
    presses = [i for i in range(len(data) // R.RECORD_SIZE)
               if data[i * R.RECORD_SIZE + 1] == C.EV_PRESS]
    # the fields an older firmware wrapped (a face past 2^31 as u32, a t of 34 days, a huge adjust)
    for offset, value in ((12, 2**31 + 5), (8, 3000000000), (16, 2**32 - 1)):
        def edit(i: int, rec: bytearray, offset: int = offset, value: int = value) -> None:
            if i == presses[3]:
                struct.pack_into("<I", rec, offset, value)

        forged = _reseal(data, edit)
        with open(path, "wb") as f:
            f.write(forged)
        code = main(["logs", "verify", "--records", path])
        out, err = capsys.readouterr()
        assert code == 1 and "Traceback" not in err and out.startswith("BROKEN"), (out, err)
        assert "game 1" in out, out

    # a log of an older firmware whose control the parser now refuses (a day a move)
    text = [i for i in range(len(data) // R.RECORD_SIZE) if data[i * R.RECORD_SIZE + 1] == R.T_TEXT][-1]

    def old_tc(i: int, rec: bytearray) -> None:
        if i == text:
            rec[R.TEXT_AT : R.TEXT_AT + R.TEXT_SIZE] = b"1/86400".ljust(R.TEXT_SIZE, b"\0")

    with open(path, "wb") as f:
        f.write(_reseal(data, old_tc))
    code = main(["logs", "verify", "--records", path])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err and "cannot replay" in out and "3600 s a move" in out, (out, err)
