"""Under LANG=kk_KZ.UTF-8 a round in the hall prints no English sentence: `sagat hall --sim 2 --sim-play`
with the arbiter's key, the pairings (a CSV with Kazakh names), the event and the round, as docs/hall.md
("At the event") starts it; the arbiter's page open on it (its files and its live stream, to the end);
then what the arbiter does through the page's actions (the HTTP API, as the page posts them): Set up all
with a 5-second control, Start round, the players move until a flag falls on each board, a result
entered per board (board 1 the flagged side's loss; board 2 the flagged side's win, refused without the
final kazans, then entered with them: TK-R7, TK-C12), both logs pulled and verified by the hall; then
`sagat report` of the round's folder, and the stop (Ctrl-C). Everything the hall and the report print,
on stdout and stderr, is read by the rule of tests/kits/englishkit.py. (The report's files are not
output: round.csv, round.trf and the PGN stay as they are for programs, docs/hall.md "Languages".)"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import threading

from englishkit import english_lines
from hallkit import until
from langkit import env_for
from webkit import free_port, request

from conftest import ROOT
from sagat.i18n import translation_for

KK = "kk_KZ.UTF-8"
KEY = "5b0e7c1d9a3f4e2b8c6d0a1f2e3b4c5d"
PAIRS = "board,left,right\n1,Асель Нурланқызы,Бекзат Ержанұлы\n2,Айгерім Сапарова,Дәулет Қасымов\n"


def _env() -> dict:
    env = env_for(KK)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")])
    return env


class _Hall:
    """`sagat hall` in Kazakh in its own process, both its streams read on by threads and kept."""

    def __init__(self, cwd, *argv: str):
        self.port = free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "sagat", "hall", "--no-usb", "--no-browser",
                                      "--http-port", str(self.port), *argv], env=_env(), cwd=str(cwd),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=lambda s=s, into=into: into.extend(s), daemon=True)
                        for s, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for r in self.readers:
            r.start()

    def text(self) -> str:
        return "".join(self.err) + "".join(self.out)

    def served(self) -> bool:
        assert self.proc.poll() is None, self.text()
        return any(f":{self.port}/" in line for line in self.err)

    def get(self) -> dict:
        status, body = request(self.port, "GET", "/api/state")
        assert status == 200, body
        return json.loads(body)

    def board(self, n: int) -> dict:
        return next(b for b in self.get()["boards"] if b["number"] == n)

    def post(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        # as the page posts it: JSON, from its own origin
        status, raw = request(self.port, "POST", path, {"Origin": f"http://localhost:{self.port}"},
                              json.dumps(body or {}).encode())
        return status, json.loads(raw)

    def open_page(self) -> None:
        """What the arbiter's browser loads (the page, its language, access and actions), and its live
        stream (/api/events), read on by a thread and left open until the hall stops, as a page is."""
        for path in ("/", "/api/lang", "/api/access", "/api/actions", "/static/hall.js"):
            status, body = request(self.port, "GET", path, {"Accept-Language": "kk-KZ,kk;q=0.9"})
            assert status == 200, (path, body)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("GET", "/api/events", headers={"Host": f"localhost:{self.port}"})
        resp = conn.getresponse()
        assert resp.status == 200
        self.stream = resp.fp.readline()  # ("retry: ...": the stream runs)

        def read_on():
            with contextlib.suppress(OSError, ValueError):
                while resp.fp.readline():
                    pass
            conn.close()

        threading.Thread(target=read_on, daemon=True).start()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # Ctrl-C, as the arbiter stops it
        code = self.proc.wait(timeout=60)
        for r in self.readers:
            r.join(timeout=10)
        return code


def _flagged(b: dict) -> str | None:
    """The side whose flag fell first on a board (TK-C12), or None."""
    return next((s for s in ("left", "right") if b["faces"][s]["flag"] == 1), None)


def test_a_round_in_the_hall_and_its_report_print_no_english(tmp_path):
    (tmp_path / "arbiter.key").write_text(KEY + "\n", encoding="utf-8")
    (tmp_path / "round3.csv").write_text(PAIRS, encoding="utf-8")
    hall = _Hall(tmp_path, "--sim", "2", "--sim-play", "0.2-0.5", "--key-file", "arbiter.key", "--pairings",
                 "round3.csv", "--event", "Қазақстан чемпионаты", "--round", "3")
    report = None
    try:
        until(hall.served, 90, "the hall serves its page")
        until(lambda: [b["link"] for b in hall.get()["boards"]] == ["up", "up"], 60, "both clocks up")
        hall.open_page()
        status, ans = hall.post("/api/setup", {"tc": "5"})
        assert status == 200 and ans["done"] == 2, ans
        until(lambda: all(b["state"] == "setup" for b in hall.get()["boards"]), 30, "both set up")
        status, ans = hall.post("/api/start")
        assert status == 200 and ans["done"] == 2, ans
        # the players move until a flag falls on each board (5 s a side)
        boards = until(lambda: (lambda bs: all(map(_flagged, bs)) and bs)(hall.get()["boards"]), 60,
                       "a flag on each board")
        fell = {b["number"]: _flagged(b) for b in boards}
        loss = {"left": "0-1", "right": "1-0"}
        win = {"left": "1-0", "right": "0-1"}
        status, ans = hall.post("/api/board/1/result", {"result": loss[fell[1]]})
        assert status == 200 and ans["done"] == 1, ans
        # board 2: the flagged side won on the board (82 kumalaks): the clock asks for the kazans first
        status, ans = hall.post("/api/board/2/result", {"result": win[fell[2]]})
        assert ans.get("done") != 1, ans
        kazans = "82-60" if fell[2] == "left" else "60-82"
        status, ans = hall.post("/api/board/2/result", {"result": win[fell[2]], "kazans": kazans})
        assert status == 200 and ans["done"] == 1, ans
        until(lambda: [b["pull"]["state"] for b in hall.get()["boards"]] == ["verified", "verified"], 60,
              "both logs pulled and verified")
        assert [b["result"] for b in hall.get()["boards"]] == [loss[fell[1]], win[fell[2]]]
        # the round's report, from the round's folder the hall wrote (its default: sagat-hall/round-3)
        report = subprocess.run([sys.executable, "-m", "sagat", "report", os.path.join("sagat-hall", "round-3"),
                                 "--key-file", "arbiter.key"], env=_env(), cwd=str(tmp_path),
                                capture_output=True, text=True, timeout=120)
    finally:
        code = hall.stop()
    text = hall.text()
    assert code == 0, text
    assert report is not None and report.returncode == 0, report.stderr
    assert (tmp_path / "sagat-hall" / "round-3" / "report" / "index.html").is_file(), report.stdout
    # its last line: the hall's stop, a sentence of its own (not a clock state's word, whose kk reads "pause")
    stop = "stopped (the page is no longer served)"
    said = translation_for("kk").gettext(stop)
    assert said != stop and "".join(hall.err).splitlines()[-1] == "sagat hall: " + said, text
    printed = text + report.stdout + report.stderr
    assert not english_lines(printed), english_lines(printed)
