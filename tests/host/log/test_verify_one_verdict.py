"""One verify of a pulled log (sagat/log/verify.py) for its three users: `sagat logs verify`, the
hall's check of each finished game (hall/boards.py) and `sagat report`. Each takes its verdict from
it (a typed Verdict), and no module outside sagat/log reads a pulled folder's files or runs the
checks itself (the pull writes them: sagat/pull.py)."""

from __future__ import annotations

import ast
import os
import shutil
from pathlib import Path

import pytest
from hallkit import RUNNING, Clocks, until
from played import played_game

import sagat
from sagat.cli import main
from sagat.hall import boards as HB
from sagat.hall.core import Hall
from sagat.log import problem as problem
from sagat.log import verify as V
from sagat.round import report

HOST = Path(sagat.__file__).parent
FILES = ("records.bin", "head.json", "clock.json")  # what a pull saves and log/pulled.py reads
FILE_NAMES = ("RECORDS_FILE", "HEAD_FILE", "CLOCK_FILE")
CHECKS = ("check_head", "check_code", "verify_report", "check_games", "read_segments")


@pytest.fixture(scope="module")
def pulled(tmp_path_factory):
    """A pulled folder (board-03-sim/records.bin) of a played game."""
    folder = tmp_path_factory.mktemp("played")
    played_game(str(folder))
    return folder / "logs" / "board-03-sim"


@pytest.fixture
def verdicts(monkeypatch):
    """Every Verdict the one verify returns, as it returns it."""
    got = []
    real = V.verify

    def spy(*args, **kwargs):
        v = real(*args, **kwargs)
        got.append(v)
        return v

    callers = [HB, report]  # (imported before the spy: a caller takes the name at its import)
    monkeypatch.setattr(V, "verify", spy)
    for module in callers:
        if getattr(module, "verify", None) is real:
            monkeypatch.setattr(module, "verify", spy)
    return got


def test_logs_verify_says_the_verdict_of_the_one_verify(pulled, verdicts, capsys):
    assert main(["logs", "verify", "--records", str(pulled / "records.bin")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(verdicts) == 1 and isinstance(verdicts[0], V.Verdict)
    v = verdicts[0]
    assert v.status == V.OK and not v.keyed and v.problems == []
    assert out == v.lines + v.notes and out[0].startswith("OK: ")


def test_the_report_takes_each_folders_verdict_from_the_one_verify(pulled, verdicts, tmp_path):
    assert main(["report", str(pulled), "--out", str(tmp_path / "report")]) == 0
    assert len(verdicts) == 1 and isinstance(verdicts[0], V.Verdict)
    assert verdicts[0].status == V.OK and 1 in verdicts[0].log.games()  # (game 1: the one played)


def test_the_halls_check_of_a_finished_game_is_the_one_verify(pulled, verdicts, monkeypatch, tmp_path):
    monkeypatch.setattr(HB.client, "Clock", Clocks({"/dev/p1": dict(RUNNING, state="finished", game=1,
                                                                    running=None)}))
    monkeypatch.setattr(HB.pull, "pull", lambda clock, folder, progress=None: (
        os.makedirs(folder, exist_ok=True), shutil.copy(pulled / "records.bin", folder)))
    hall = Hall(discover=False, out_dir=str(tmp_path / "out"))
    try:
        hall.add("/dev/p1", "usb")
        view = until(lambda: (lambda p: p if p["state"] not in ("idle", "pulling") else None)(
            hall.view()["boards"][0]["pull"]), 30, "the pull verified")
    finally:
        hall.close()
    assert len(verdicts) == 1 and isinstance(verdicts[0], V.Verdict) and verdicts[0].status == V.OK
    assert view["state"] == "unkeyed", view  # (no key: an intact chain, authorship unproven)


def test_a_sealed_log_without_its_key_is_unverified_not_broken(tmp_path):
    from played import keyed_log

    from sagat.log import pulled as pulled_folder

    folder = Path(keyed_log(str(tmp_path))) / "board-05-e6614103e7"
    v = V.verify(pulled_folder.read_folder(str(folder)), [])
    assert v.status == V.UNVERIFIED and v.sealed and not v.keyed
    assert [p.code for p in v.part(problem.HEAD)] == [problem.HEAD_SEALED]
    v = V.verify(pulled_folder.read_folder(str(folder)), [b"secret"])
    assert v.status == V.OK and v.keyed and v.problems == []


def _host_modules(outside_log: bool = True):
    for path in sorted(HOST.rglob("*.py")):
        rel = path.relative_to(HOST).as_posix()
        if outside_log and (rel.startswith("log/") or rel == "pull.py"):
            continue
        yield rel, ast.parse(path.read_text(encoding="utf-8"))


def _names(node) -> set:
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.add(n.value)
        elif isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
    return out


def test_no_module_outside_log_opens_a_pulled_folders_files():
    found = []
    for rel, tree in _host_modules():
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "open" and \
                    _names(n) & set(FILES + FILE_NAMES):
                found.append(f"{rel}:{n.lineno}")
    assert found == [], "a pulled folder is read by sagat/log/pulled.py alone: " + ", ".join(found)


def test_no_module_outside_log_runs_the_logs_checks_itself():
    found = []
    for rel, tree in _host_modules():
        for n in ast.walk(tree):
            name = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else None
            if name in CHECKS[:4]:
                found.append(f"{rel}:{n.lineno} {name}")
            if name == "read_segments" and isinstance(n, ast.Name | ast.Attribute):
                calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and c.func is n]
                for c in calls:  # a read that replays the games is verify's (show, export, the sim: replay=False)
                    replay = next((k.value for k in c.keywords if k.arg == "replay"), None)
                    if not (isinstance(replay, ast.Constant) and replay.value is False):
                        found.append(f"{rel}:{c.lineno} read_segments with the replay")
    assert found == [], "the log's checks are sagat/log/verify.py's: " + ", ".join(found)

