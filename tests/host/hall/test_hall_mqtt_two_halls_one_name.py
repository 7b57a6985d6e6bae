"""Two halls under one name: two PCs started with the same --name, or two cloned PCs whose host names
(the default name's start) are the same. Both publish under sagat/hall/<name>/, and a subscriber
showed each board number as whichever hall published it last: the boards flipped between the two
halls at every publish. Each publisher now marks what it publishes with an id of its run; a
subscriber that hears two runs interleaved under one name says so (its status line, an alert on
each of that hall's boards) and keeps showing the run it showed first; each publisher hears the
other on its own status topic and says so too. A hall started again (its old run gone) is no such
clash: its new run is shown. And the default name carries a suffix of the PC's own, so cloned PCs
do not share it."""

from __future__ import annotations

import re
import socket

import pytest
from hallkit import until
from mqttkit import GOOD, Boards, message, mosquitto, subscriber

from sagat.hall import mqtt as hall_mqtt
from sagat.hall import mqttlink
from sagat.hall.core import Hall
from sagat.hall.mqttlink import NAME_RE

NOTE = "hall annex: two halls publish under this name (another PC with --name annex?): give each its own --name"
A, B = "a1a1a1a1", "b2b2b2b2"


@pytest.fixture
def clock(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(hall_mqtt, "host_ms", lambda: now[0])
    return now


def _board(run: str, who: str, number: int = 3, **kw) -> dict:
    return dict(GOOD, number=number, instance=run, players=[who + "-left", who + "-right"], **kw)


def _annex(sub) -> dict[str, dict]:
    return {v["number"]: v for v in sub.views() if v["hall"] == "annex"}


def _clash(v: dict) -> bool:
    return any("two halls" in a["text"] for a in v["alerts"])


def test_two_halls_under_one_name_are_said_and_the_board_does_not_flip(clock):
    hall = Hall(discover=False)
    hall.subscriber = sub = subscriber()
    try:
        sub._message(None, None, message("sagat/hall/other/board/1", GOOD))  # (another hall: untouched)
        sub._message(None, None, message("sagat/hall/annex/board/3", _board(A, "first")))
        assert _annex(sub)["annex:3"]["players"] == ["first-left", "first-right"]
        for _ in range(4):  # both publish, each every 2 s at most: their messages interleave
            clock[0] += 400
            sub._message(None, None, message("sagat/hall/annex/board/3", _board(B, "second")))
            sub._message(None, None, message("sagat/hall/annex/board/4", _board(B, "second", 4)))
            assert _annex(sub)["annex:3"]["players"] == ["first-left", "first-right"]  # never the second's
            clock[0] += 400
            sub._message(None, None, message("sagat/hall/annex/board/3", _board(A, "first")))
            assert _annex(sub)["annex:3"]["players"] == ["first-left", "first-right"]
        boards = _annex(sub)
        assert list(boards) == ["annex:3"]  # the second run's boards are not mixed in
        assert _clash(boards["annex:3"]) and boards["annex:3"]["link"] == "up"
        assert {"kind": "number", "text": "two halls publish as annex: give each its own --name",
                "msg": {"key": "alert_twin_halls", "hall": "annex"}} in \
            boards["annex:3"]["alerts"]
        view = hall.view()
        assert NOTE in view["discover_error"], view["discover_error"]
        assert not _clash(next(b for b in view["boards"] if b["number"] == "other:1"))
        # the other PC stops (its run says nothing more): the note goes once the clash is past
        clock[0] += hall_mqtt.TWIN_MS + 1
        sub._message(None, None, message("sagat/hall/annex/board/3", _board(A, "first")))
        assert not _clash(_annex(sub)["annex:3"]) and hall.view()["discover_error"] is None
    finally:
        hall.close()


def test_a_hall_started_again_is_shown_without_a_clash(clock):
    # its old run gone (Ctrl-C and started again, or a crash): no two halls, its new run shown
    sub = subscriber()
    sub._message(None, None, message("sagat/hall/annex/board/3", _board(A, "old")))
    sub._message(None, None, message("sagat/hall/annex/status", "offline " + A))  # Ctrl-C: its farewell
    clock[0] += 1500
    sub._message(None, None, message("sagat/hall/annex/status", "online " + B))
    sub._message(None, None, message("sagat/hall/annex/board/3", _board(B, "new")))
    v = _annex(sub)["annex:3"]
    assert v["players"] == ["new-left", "new-right"] and v["link"] == "up" and not _clash(v)
    # a crash: no farewell (its will comes 15 s later), and the hall started again at once
    C = "c3c3c3c3"
    clock[0] += 1000
    sub._message(None, None, message("sagat/hall/annex/board/5", _board(B, "crashed", 5)))
    sub._message(None, None, message("sagat/hall/annex/board/3", _board(B, "crashed")))  # (then it stopped)
    shown = []
    for _ in range(20):
        clock[0] += 500
        sub._message(None, None, message("sagat/hall/annex/board/3", _board(C, "restarted")))
        shown.append(_annex(sub))
    assert not any(_clash(v) for views in shown for v in views.values())
    assert shown[-1]["annex:3"]["players"] == ["restarted-left", "restarted-right"]
    assert shown[-1]["annex:3"]["link"] == "up" and "annex:5" not in shown[-1]  # (the old run's board went)
    sub._message(None, None, message("sagat/hall/annex/status", "offline " + B))  # the old run's late will
    assert _annex(sub)["annex:3"]["link"] == "up"  # not the shown run's: the hall is not offline
    sub._message(None, None, message("sagat/hall/annex/status", "offline " + C))  # the shown run's: offline
    assert _annex(sub)["annex:3"]["alerts"][-1] == {"kind": "link", "text": "hall annex offline",
                                                      "msg": {"key": "alert_hall_offline", "hall": "annex"}}


def test_an_old_runs_retained_boards_are_no_clash(clock):
    # the broker keeps each board's last message: a board the old run published and the new one
    # does not is handed over with the new run's as the subscription is made, and is no second hall
    sub = subscriber()
    sub._message(None, None, message("sagat/hall/annex/board/3", _board(B, "new"), retain=True))
    sub._message(None, None, message("sagat/hall/annex/board/5", _board(A, "old", 5), retain=True))
    for _ in range(10):
        clock[0] += 700
        sub._message(None, None, message("sagat/hall/annex/board/3", _board(B, "new")))
        assert not any(_clash(v) for v in _annex(sub).values())
    assert _annex(sub)["annex:3"]["players"] == ["new-left", "new-right"]


def test_two_halls_under_one_name_on_a_real_broker(tmp_path, monkeypatch, clock):
    # two PCs with --name annex: each hall's status line says so, and the subscriber's shows the
    # boards of one of them, steadily, and says so; once one stops, the other is shown, no clash.
    # The halls' clock is virtual (their refresh, stale and clash times are what is tested, not the
    # machine's speed: before, a loaded machine's late publish let a shortened clash time lapse):
    # each step of it is a REFRESH_MS, after which each hall still publishing is heard again
    monkeypatch.setattr(hall_mqtt, "TWIN_MS", 3000, raising=False)
    proc, port = mosquitto(tmp_path)
    url = f"mqtt://127.0.0.1:{port}"
    one, two, near = Hall(discover=False), Hall(discover=False), Hall(discover=False)

    def step(*halls):
        clock[0] += hall_mqtt.REFRESH_MS
        runs = [h.publisher.run for h in halls]
        until(lambda: all((near.subscriber.runs.get("annex", {}).get(r) or [0, 0, 0])[2] == clock[0] for r in runs),
              60, "each hall's board published again and heard")

    try:
        # (each board's view as its hall has it: the publisher adds its run's id)
        board = Boards(dict(GOOD, number=3, players=["one-left", "one-right"]))
        one.publisher = hall_mqtt.Publisher(board, url, "annex")
        board = Boards(dict(GOOD, number=3, players=["two-left", "two-right"]))
        two.publisher = hall_mqtt.Publisher(board, url, "annex")
        near.subscriber = hall_mqtt.Subscriber(url, "main")
        near.subscriber.start()
        until(lambda: near.subscriber.error is None, 30, "connected")
        one.publisher.start()
        until(lambda: [b for b in near.view()["boards"] if b["link"] == "up"], 30, "the first hall's board")
        two.publisher.start()
        until(lambda: two.publisher.run in near.subscriber.runs.get("annex", {}), 60, "the second hall heard")
        step(one, two)  # both publish again: heard interleaved
        for hall in (near, one, two):
            until(lambda hall=hall: NOTE in (hall.view()["discover_error"] or ""), 60,
                  f"the clash said in each hall's status line: {hall.view()['discover_error']}")
        (b,) = near.view()["boards"]
        first = b["players"]
        assert first == ["one-left", "one-right"] and _clash(b)
        # both keep publishing (every 2 s each): no flip
        for _ in range(hall_mqtt.REMOTE_STALE_MS // hall_mqtt.REFRESH_MS + 1):
            step(one, two)
            (b,) = near.view()["boards"]
            assert b["players"] == first and b["link"] == "up" and _clash(b), b
        one.publisher.close()  # the PC shown stops: the other's boards are shown, the clash is past
        one.publisher = None
        for _ in range((hall_mqtt.TWIN_MS + hall_mqtt.REMOTE_STALE_MS) // hall_mqtt.REFRESH_MS + 2):
            shown = [b for b in near.view()["boards"] if b["players"] == ["two-left", "two-right"] and
                     b["link"] == "up" and not _clash(b)]
            if shown:
                break
            step(two)
        assert shown, near.view()["boards"]
        assert shown[0]["alerts"] == GOOD["alerts"]
        until(lambda: near.view()["discover_error"] is None and two.view()["discover_error"] is None, 60,
              "the clash note gone")
    finally:
        for hall in (one, two, near):
            hall.close()
        proc.terminate()
        proc.wait(timeout=10)


def test_the_default_name_differs_on_cloned_pcs_and_stays_on_one(monkeypatch):
    monkeypatch.setattr(socket, "gethostname", lambda: "venue-pc.local")
    names = {}
    for machine in ("machine-one", "machine-two", "machine-one"):
        monkeypatch.setattr(mqttlink, "_machine_id", lambda machine=machine: machine)
        names.setdefault(machine, set()).add(mqttlink.default_name())
    one, two = names["machine-one"], names["machine-two"]
    assert len(one) == 1 and one != two  # stable on one PC, another on a clone with the same host name
    for name in one | two:
        assert re.fullmatch(NAME_RE, name) and name.startswith("venue-pc-"), name
    monkeypatch.setattr(socket, "gethostname", lambda: "Зал №1 " + "x" * 60)
    name = mqttlink.default_name()
    assert re.fullmatch(NAME_RE, name) and len(name) <= 32, name
    monkeypatch.setattr(mqttlink, "_machine_id", lambda: None)  # nothing of the PC's own: its host name alone
    monkeypatch.setattr(socket, "gethostname", lambda: "venue-pc")
    assert mqttlink.default_name() == "venue-pc"


def test_the_default_name_on_this_pc_is_stable():
    assert mqttlink.default_name() == mqttlink.default_name()
    assert re.fullmatch(NAME_RE, mqttlink.default_name())
    if mqttlink._machine_id() is not None:
        assert mqttlink.default_name() != re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname().split(".")[0])[:32]
