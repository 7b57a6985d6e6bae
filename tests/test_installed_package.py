"""What a user gets is what is tested: the sdist and the wheel built from this tree as `pip install .`
builds them, the wheel's contents, and the wheel installed with its `hall` extra into a fresh
virtual environment outside the checkout, its `sagat` command run from another folder with no
PYTHONPATH (so nothing of the checkout can stand in for what the wheel lacks): every command's
--help, --version, a scripted game in virtual time, `sagat hall --sim 2` answering /api/state and
pulling a finished game's log, `sagat report` of the hall's folder and `sagat logs verify` of that
pulled log. The dependencies come from PyPI through pip's cache (CI's own install fills it)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from browserkit import children
from hallkit import until

ROOT = Path(__file__).resolve().parent.parent
KEY = b"installed-arbiter-key"
WAIT = 90  # s: the longest any step may take on a loaded machine (each returns as soon as it is done)


def _tree_copy(dst: Path) -> None:
    """The checkout's files as git sees them (committed, or new and not ignored): no build/, .venv,
    caches or egg-info of the checkout get into the build. Without git, the folder less those."""
    try:
        files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                               capture_output=True, check=True, timeout=60).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, dst, dirs_exist_ok=True, ignore=shutil.ignore_patterns(
            ".git", ".venv*", "venv", "build", "dist", "*.egg-info", "__pycache__", ".cache", ".*_cache",
            ".hypothesis"))
        return
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():  # (a file deleted but not yet committed is still listed)
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / rel)


def _run(cmd, timeout=WAIT, **kw):
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    assert run.returncode == 0, f"{cmd}: exit {run.returncode}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return run


class Installed:
    """The fresh environment: its `sagat`, the environment to run it in, and a folder to run it from."""

    def __init__(self, base: Path):
        self.base = base
        self.dist = base / "dist"
        self.venv = base / "venv"
        self.work = base / "work"  # the user's folder: far from the checkout
        self.work.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        env["PATH"] = os.pathsep.join([str(self.venv / "bin"), "/usr/bin", "/bin"])
        env["XDG_CACHE_HOME"] = str(base / "cache")  # the simulator compiles its own firmware copy
        env["LANGUAGE"] = "en"
        self.env = env
        self.sagat = str(self.venv / "bin" / "sagat")

    def run(self, *argv, timeout=WAIT, check=True):
        run = subprocess.run([self.sagat, *argv], capture_output=True, text=True, timeout=timeout, env=self.env,
                             cwd=self.work, stdin=subprocess.DEVNULL)
        if check:
            assert run.returncode == 0, f"sagat {' '.join(argv)}: exit {run.returncode}\n{run.stdout}\n{run.stderr}"
        assert "Traceback" not in run.stderr, run.stderr
        return run


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The sdist and the wheel, built with `python -m build` from a copy of the tree (the wheel from the sdist,
    as PyPI's users get it): (the folder, the sdist, the wheel)."""
    base = tmp_path_factory.mktemp("installed")
    tree = base / "tree"
    tree.mkdir()
    _tree_copy(tree)
    t0 = time.monotonic()
    _run([sys.executable, "-m", "build", "--outdir", str(base / "dist"), str(tree)], timeout=600)
    print(f"\nbuild: {time.monotonic() - t0:.1f} s")
    (sdist,) = (base / "dist").glob("sagat-*.tar.gz")
    (wheel,) = (base / "dist").glob("sagat-*.whl")
    return base, sdist, wheel


@pytest.fixture(scope="module")
def installed(built):
    base, _sdist, wheel = built
    inst = Installed(base)
    t0 = time.monotonic()
    # a fresh environment from the interpreter behind this one (never the dev environment's packages)
    _run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(inst.venv)], timeout=300)
    pip_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    _run([str(inst.venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
          f"{wheel}[hall]"], timeout=900, env=pip_env, cwd=inst.work)
    print(f"\nfresh venv and install: {time.monotonic() - t0:.1f} s")
    return inst


def _commands(parser: argparse.ArgumentParser, path=()):
    """Every command path of the parser, the top level's () first: ("logs", "pull"), ("sim",), ..."""
    yield path
    seen = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if id(sub) not in seen:  # (an alias names the same parser)
                    seen.add(id(sub))
                    yield from _commands(sub, path + (name,))


def test_the_wheel_holds_every_module_the_firmware_the_catalogues_and_the_page_and_no_tests(built):
    _base, sdist, wheel = built
    names = set(zipfile.ZipFile(wheel).namelist())
    host, firmware = ROOT / "host", ROOT / "firmware"
    modules = {p.relative_to(host).as_posix() for p in (host / "sagat").rglob("*.py")} | \
              {p.relative_to(firmware).as_posix() for p in (firmware / "sagatfw").rglob("*.py")}
    assert "sagat/commands/logs.py" in modules and "sagatfw/engine/clock.py" in modules
    assert sorted(modules - names) == []
    catalogues = {p.relative_to(host).as_posix() for p in (host / "sagat" / "locale").rglob("*.mo")}
    assert len(catalogues) == 3 and sorted(catalogues - names) == []
    page = {p.relative_to(host).as_posix() for p in (host / "sagat" / "hall" / "static").rglob("*") if p.is_file()}
    assert "sagat/hall/static/index.html" in page and "sagat/hall/static/lang/kk.json" in page
    assert sorted(page - names) == []
    assert [n for n in names if n.startswith(("tests/", "kits/", "benchmarks/", "tools/")) or "conftest" in n] == []
    assert {n.split("/")[0] for n in names if not n.startswith("sagat-")} == {"sagat", "sagatfw"}
    assert sdist.stat().st_size > 0


def test_every_command_of_the_installed_sagat_answers_help(installed):
    from sagat.cli import build_parser

    paths = list(_commands(build_parser()))
    assert ("logs", "pull") in paths and ("hall",) in paths and len(paths) > 20
    for path in paths:
        out = installed.run(*path, "--help").stdout
        assert out.startswith("usage: sagat" + "".join(" " + p for p in path)), (path, out)


def test_the_installed_sagat_says_its_version_and_its_firmwares(installed):
    import sagatfw

    meta = _run([str(installed.venv / "bin" / "python"), "-c",
                 "from importlib.metadata import version; print(version('sagat'))"], env=installed.env,
                cwd=installed.work).stdout.strip()
    out = installed.run("--version").stdout
    assert out == f"sagat {meta}, firmware {sagatfw.VERSION}\n", out


def test_the_installed_simulator_plays_a_script_in_virtual_time(installed):
    script = installed.work / "game.jsonl"
    script.write_text("".join(json.dumps(a) + "\n" for a in (
        {"at": 0, "do": "new", "tc": "420", "first": "left"}, {"at": 0, "do": "start"},
        {"at": 2500, "do": "press", "side": "left"}, {"at": 6000, "do": "press", "side": "right"})))
    installed.run("sim", "--script", "game.jsonl", "--virtual", "--log-json", "log.jsonl", timeout=300)
    events = [json.loads(line) for line in (installed.work / "log.jsonl").read_text().splitlines()]
    presses = [(e["side"], e["t"]) for e in events if e["type"] == "press"]
    assert presses == [("left", 2500), ("right", 6000)], events
    firmware = list((installed.base / "cache" / "sagat").rglob("main.py"))
    assert firmware, "the simulator ran no firmware of its own cache"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def _post(url: str, data: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(data).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def test_the_installed_hall_serves_its_clocks_and_its_folder_reports_and_verifies(installed):
    """`sagat hall --sim 2` with the hall extra alone: /api/state answers with both clocks up, a forfeit
    entered on board 1 has its log pulled and verified by the hall; then `sagat report` of the hall's
    folder (matplotlib: the hall extra brings it) and `sagat logs verify` of the pulled log."""
    key = installed.work / "arbiter.key"
    key.write_bytes(KEY + b"\n")
    port = _free_port()
    proc = subprocess.Popen([installed.sagat, "hall", "--sim", "2", "--no-usb", "--no-browser", "--http-port",
                             str(port), "--key-file", "arbiter.key", "--event", "Installed", "--round", "1",
                             "--timeout", "10"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=installed.env, cwd=installed.work)
    try:
        url = None
        while url is None:
            line = proc.stderr.readline()
            assert line, f"sagat hall stopped: {proc.stderr.read()}"
            assert "Traceback" not in line
            url = next((w for w in line.split() if w.startswith("http://")), None)
        boards = until(lambda: [b for b in _get(url + "api/state")["boards"]
                                 if b["link"] == "up" and b["key_set"]], WAIT, "both clocks up with the hall's key")
        assert len(_get(url + "api/state")["boards"]) == 2 and len(boards) == 2
        _post(url + "api/setup", {"tc": "600"})
        until(lambda: all(b["state"] == "setup" and b["tc"] == "600" for b in _get(url + "api/state")["boards"]),
               WAIT, "both clocks set up")
        assert _post(url + "api/board/1/result", {"result": "+/-"})["done"] == 1
        until(lambda: next((b for b in _get(url + "api/state")["boards"]
                             if b["number"] == 1 and b["pull"]["state"] == "verified"), None), WAIT,
              "board 1's log verified")
        sims = children(proc.pid)
        assert len(sims) == 2
    finally:
        proc.send_signal(signal.SIGTERM)  # as a service manager stops it: its simulators go with it
        code = proc.wait(timeout=30)
    assert code == 0, proc.stderr.read()
    until(lambda: not [p for p in sims if os.path.exists(f"/proc/{p}")], WAIT, "the hall's simulators stopped")
    folder = installed.work / "sagat-hall" / "round-1"
    (records,) = folder.rglob("records.bin")
    report = installed.run("report", str(folder), "--key-file", "arbiter.key", "--out", "report", "--json")
    figures = json.loads(report.stdout)
    assert figures["games"] == 1 and figures["verified"] == 1 and figures["failed"] == 0, figures
    assert (installed.work / "report" / "index.html").is_file()
    verify = installed.run("logs", "verify", "--records", str(records.relative_to(installed.work)), "--key-file",
                           "arbiter.key")
    assert verify.stdout.startswith("OK"), verify.stdout
