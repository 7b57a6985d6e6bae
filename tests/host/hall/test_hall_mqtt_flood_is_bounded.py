"""A hostile client on a broker without the documented access rules (docs/hall.md, the broker's
users) publishes boards under as many hall names as it likes. The subscriber's slots are held per
hall (at most MAX_HALL_BOARDS boards of one hall, at most MAX_REMOTE_HALLS halls), and a hall that
stops publishing leaves the page after REMOTE_EXPIRE_MS: what the flood took is given back, and a
real hall's boards appear beside a hostile one's."""

from __future__ import annotations

import json
import time

import pytest
from hallkit import until
from mqttkit import GOOD, message, mosquitto, subscriber

from sagat.hall import mqtt as hall_mqtt


@pytest.fixture
def clock(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(hall_mqtt, "host_ms", lambda: now[0])
    return now


def _flood(sub, halls: int, boards: int, prefix: str = "evil"):
    for h in range(halls):
        for n in range(1, boards + 1):
            sub._message(None, None, message(f"sagat/hall/{prefix}{h}/board/{n}", GOOD))


def test_a_flood_of_hall_names_holds_at_most_the_halls_bound(clock):
    sub = subscriber()
    _flood(sub, 40, hall_mqtt.MAX_HALL_BOARDS + 5)
    views = sub.views()
    halls = {v["hall"] for v in views}
    assert len(halls) == hall_mqtt.MAX_REMOTE_HALLS
    assert len(views) == hall_mqtt.MAX_REMOTE_HALLS * hall_mqtt.MAX_HALL_BOARDS
    assert all(sum(1 for v in views if v["hall"] == h) == hall_mqtt.MAX_HALL_BOARDS for h in halls)


def test_the_boards_of_a_hall_that_stopped_publishing_expire_and_free_its_place(clock):
    sub = subscriber()
    _flood(sub, 40, hall_mqtt.MAX_HALL_BOARDS + 5)  # every hall's place taken ...
    sub._message(None, None, message("sagat/hall/annex/board/1", GOOD))
    assert "annex:1" not in [v["number"] for v in sub.views()]  # (while the flood goes on: no place)
    clock[0] += hall_mqtt.REMOTE_STALE_MS + 1
    assert {v["link"] for v in sub.views()} == {"lost"}  # first marked lost, still shown
    clock[0] += hall_mqtt.REMOTE_EXPIRE_MS  # ... and the flood stopped: its boards leave, its places are free
    assert sub.views() == [] and sub.held == {}
    sub._message(None, None, message("sagat/hall/annex/board/1", GOOD))
    assert [(v["number"], v["link"]) for v in sub.views()] == [("annex:1", "up")]


def test_a_hall_that_keeps_publishing_keeps_its_boards(clock):
    sub = subscriber()
    for _ in range(5):
        sub._message(None, None, message("sagat/hall/annex/board/1", GOOD))
        clock[0] += hall_mqtt.REMOTE_EXPIRE_MS // 3
    sub._message(None, None, message("sagat/hall/annex/board/1", GOOD))
    assert [v["number"] for v in sub.views()] == ["annex:1"]


def test_an_offline_flood_is_bounded_and_forgotten(clock):
    sub = subscriber()
    for i in range(10 * hall_mqtt.MAX_STATUS_HALLS):
        sub._message(None, None, message(f"sagat/hall/gone{i}/status", "offline"))
    assert len(sub.offline) == hall_mqtt.MAX_STATUS_HALLS
    clock[0] += hall_mqtt.REMOTE_EXPIRE_MS + hall_mqtt.PRUNE_MS + 1
    sub.views()
    assert sub.offline == {}


def test_a_hostile_flood_on_a_real_broker_is_given_back_when_it_stops(tmp_path, clock):
    """Over a real broker, with the hall's clock virtual (its expiry is what is tested, not the
    machine's speed): the flood is held at the bounds while it arrives, however long a loaded machine
    takes to deliver it, and given back only when the hall's clock passes REMOTE_EXPIRE_MS."""
    import paho.mqtt.client as mqtt

    proc, port = mosquitto(tmp_path)  # anonymous, no access rules: anyone writes under any name
    url = f"mqtt://127.0.0.1:{port}"
    sub = hall_mqtt.Subscriber(url, "main")
    evil = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="evil")
    annex = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="annex")
    try:
        sub.start()
        until(lambda: sub.error is None and sub.client.is_connected(), 30, "connected")
        time.sleep(0.3)  # (its subscription made)
        evil.connect("127.0.0.1", port)
        evil.loop_start()
        halls = hall_mqtt.MAX_REMOTE_HALLS + 4
        for h in range(halls):  # retained, as a hall publishes: the broker keeps them after it leaves
            for n in range(1, hall_mqtt.MAX_HALL_BOARDS + 3):
                evil.publish(f"sagat/hall/evil{h}/board/{n}", json.dumps(GOOD), retain=True)
        evil.publish(f"sagat/hall/evil{halls - 1}/board/1", json.dumps(GOOD)).wait_for_publish(10)
        until(lambda: len(sub.views()) == hall_mqtt.MAX_REMOTE_BOARDS, 60, "the flood received")
        views = sub.views()
        assert len({v["hall"] for v in views}) == hall_mqtt.MAX_REMOTE_HALLS
        assert max(sum(1 for v in views if v["hall"] == h) for h in {v["hall"] for v in views}) == \
            hall_mqtt.MAX_HALL_BOARDS
        evil.loop_stop()
        evil.disconnect()  # the hostile client stops publishing
        clock[0] += hall_mqtt.REMOTE_EXPIRE_MS + hall_mqtt.PRUNE_MS + 1  # nothing heard from it for the expiry
        annex.connect("127.0.0.1", port)
        annex.loop_start()

        def annex_shown():
            annex.publish("sagat/hall/annex/board/1", json.dumps(GOOD)).wait_for_publish(5)  # as a hall does, every 2 s
            time.sleep(0.2)
            return [v for v in sub.views() if v["number"] == "annex:1" and v["link"] == "up"]

        until(annex_shown, 30, "a real hall's board, once the flood expired")
        assert [v["hall"] for v in sub.views()] == ["annex"] and sub.client._thread.is_alive()
    finally:
        for c in (evil, annex):
            c.loop_stop()
            c.disconnect()
        sub.close()
        proc.terminate()
        proc.wait(timeout=10)

