"""Under LANG=kk_KZ.UTF-8 the README's commands print no English sentence: `sagat presets`, `sagat tc`,
a scripted game in the simulator (virtual time), `sagat logs show` and `sagat logs verify` on its flash,
`sagat logs verify --code` on the folder a pull saves (tests/kits/played.py), `sagat report` on it
(its line, and the text of the game's page), and `sagat hall --sim 1` until it serves. Each runs as an
arbiter runs it: one process of its own per command, LANG set and the other locale variables cleared.

The rule is tests/kits/englishkit.py's: a line is English when it holds two or more English words
(names, codes, paths and the clock's faces left out).
"""

from __future__ import annotations

import html as html_text
import json
import os
import re
import subprocess
import sys
import time

import pytest
from englishkit import english_lines
from langkit import env_for
from played import played_game
from webkit import free_port

from conftest import ROOT

KK = "kk_KZ.UTF-8"

def _env() -> dict:
    env = env_for(KK)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")])
    return env


def sagat(*argv: str, cwd) -> subprocess.CompletedProcess:
    """`sagat ARGV` in Kazakh, in a process of its own."""
    return subprocess.run([sys.executable, "-m", "sagat", *argv], env=_env(), cwd=str(cwd), capture_output=True,
                          text=True, timeout=300)


def test_the_rule_finds_english_and_passes_kazakh():
    """The rule itself: an English sentence is found, a Kazakh line with names and codes passes."""
    assert english_lines("sagat hall: starting 2 simulated clocks ...")
    assert english_lines("tk-blitz  420  Toguz kumalak blitz: 7 min per player (TK-B3)")
    assert english_lines("көзі: changed, бастаушы: left, кім: player")
    assert not english_lines("sagat hall: http://localhost:8716/  (3 сағат; Ctrl-C тоқтатады)")
    assert not english_lines("OK: 9 жазба, seq 0..7, ойындар 0, 1; head.json файлы дәлелдейді: docs/log-format.md")
    assert not english_lines("     3      0:00.000  game_start        7:00.000<  бақылау 420, бастаушы: сол")
    assert not english_lines("  ###### running ###### | M1 S1  B 100%", faces=True)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A flagged 0-1 game played by the simulator in virtual time, pulled as the hall saves it."""
    folder = tmp_path_factory.mktemp("played")
    played_game(str(folder))
    return folder


def _code(records) -> str:
    """The code the faces showed for game 1's result (the log's last result record)."""
    from sagat.log.decode import read_segments
    from sagatfw.log import records as R

    log = read_segments([("records.bin", records.read_bytes())], replay=False)
    return R.result_code(log.results[1][-1].link)


def test_presets_and_tc_in_kazakh(tmp_path):
    for argv in (("presets",), ("tc", "40/5400+30:1800+30"), ("tc", "byoyomi-jp"), ("tc", "*180")):
        run = sagat(*argv, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert not english_lines(run.stdout + run.stderr), (argv, english_lines(run.stdout + run.stderr))


def test_a_scripted_game_and_its_log_in_kazakh(tmp_path):
    """The README's scripted game (a power cut and a resume) in virtual time, its log shown and verified."""
    lines = [{"at": 0, "do": "new", "tc": "420", "first": "left"}, {"at": 0, "do": "start"},
             {"at": 2500, "do": "press", "side": "left"}, {"at": 20000, "do": "pause"},
             {"at": 25000, "do": "resume"}, {"at": 40000, "do": "power_cut", "off_ms": 3000},
             {"at": 45000, "do": "resume"}, {"at": 50000, "do": "press", "side": "right"}]
    (tmp_path / "game.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    run = sagat("sim", "--script", "game.jsonl", "--virtual", "--log-json", "log.jsonl", "--flash", "f.img",
                cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "sagat sim " in run.stdout and "running" not in run.stdout, run.stdout  # (its header and bar)
    assert not english_lines(run.stdout + run.stderr, faces=True), english_lines(run.stdout + run.stderr, True)
    for argv in (("logs", "show", "--image", "f.img"), ("logs", "verify", "--image", "f.img")):
        run = sagat(*argv, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() and not english_lines(run.stdout + run.stderr), english_lines(run.stdout + run.stderr)


def test_a_pulled_logs_code_and_its_report_in_kazakh(played, tmp_path):
    board = played / "logs" / "board-03-sim"
    records = board / "records.bin"
    for code, want in ((_code(records), 0), ("000000", 1), ("12", 2)):
        run = sagat("logs", "verify", "--records", str(records), "--game", "1", "--code", code, cwd=tmp_path)
        assert run.returncode == want, run.stderr
        out = run.stdout + run.stderr
        assert "код" in out and not english_lines(out), english_lines(out)
    run = sagat("report", str(played / "logs"), "--out", str(tmp_path / "report"), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert not english_lines(run.stdout + run.stderr), english_lines(run.stdout + run.stderr)
    (page,) = [p for p in os.listdir(tmp_path / "report") if p.endswith("-game-1.html")]
    html = (tmp_path / "report" / page).read_text(encoding="utf-8")
    text = re.sub(r"<style>.*?</style>", "", html, flags=re.S)
    text = html_text.unescape(re.sub(r"<[^>]+>", "\n", text))
    assert "OK: " in text and not english_lines(text), english_lines(text)


def test_report_errors_in_kazakh(tmp_path):
    for argv in (("report", str(tmp_path)), ("report", str(tmp_path / "none")),
                 ("hall", "--sim", "0", "--no-usb", "--no-browser"),
                 ("hall", "--pairings", str(tmp_path / "none.trf"), "--no-usb", "--no-browser")):
        run = sagat(*argv, cwd=tmp_path)
        assert run.returncode == 2 and run.stderr.startswith("sagat: "), (argv, run.stderr)
        assert not english_lines(run.stderr), (argv, run.stderr)
    (tmp_path / "p.csv").write_text("1;A;B\n", encoding="utf-8")
    (tmp_path / "p.trf").write_text("012 Open\n001    1 short\n", encoding="utf-8")
    for name in ("p.csv", "p.trf"):
        run = sagat("hall", "--pairings", str(tmp_path / name), "--no-usb", "--no-browser", cwd=tmp_path)
        assert run.returncode == 2 and not english_lines(run.stderr), run.stderr


def test_the_hall_starts_in_kazakh(tmp_path):
    """`sagat hall --sim 1` until it serves: its start-up lines on stderr (and stdout), then a stop."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "sagat", "hall", "--sim", "1", "--no-usb", "--no-browser",
                             "--http-port", str(port)], env=_env(), cwd=str(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    lines = []
    try:
        end = time.monotonic() + 90
        while time.monotonic() < end:
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
            if "http://" in line:
                break
        assert any(f":{port}/" in x for x in lines), "".join(lines)
        url = lines[-1].split()[2]
        assert url.startswith("http://"), lines[-1]  # (the address where tests read it)
        import urllib.request

        for _ in range(100):  # served: stopped then, not while uvicorn starts (its own warning, not ours)
            try:
                urllib.request.urlopen(url, timeout=5).read()
                break
            except OSError:
                time.sleep(0.1)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=60)
    text = "".join(lines) + err + out
    assert proc.returncode == 0, text
    assert not english_lines(text), english_lines(text)
