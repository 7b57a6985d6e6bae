"""The hall beyond one PC: a hall publishes its clocks to a real Mosquitto broker (Debian's
package, started on a free port by tests/kits/mqttkit.py), and a second hall, subscribed, shows
them live beside its own; when the first hall goes away the broker says so (its last will) and the
board is marked lost.
Without mosquitto or paho-mqtt the test skips, saying what to install; under CI it fails.

And what any broker client may send: a board
under a bad topic, a payload of any shape or size, a "verified" from another hall, a cleared
retained board, a hall that says nothing more."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time

import pytest
from hallkit import until as _until
from mqttkit import GOOD, message, mosquitto, need, subscriber

from sagat.hall import boards as HB
from sagat.hall import core, mqttlink
from sagat.hall import mqtt as hall_mqtt
from sagat.hall.core import Hall, HallError
from sagat.hall.sims import Sims


@pytest.fixture
def broker(tmp_path):
    proc, port = mosquitto(tmp_path)
    yield f"mqtt://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=10)


def test_addresses(monkeypatch):
    assert mqttlink.broker("mqtt://localhost") == ("localhost", 1883)
    assert mqttlink.broker("mqtt://annex:s%40cret@broker-pc:1884") == ("broker-pc", 1884)
    assert mqttlink.credentials("mqtt://annex:s%40cret@broker-pc") == ("annex", "s@cret")
    monkeypatch.setenv("SAGAT_MQTT_PASSWORD", "from-env")
    assert mqttlink.credentials("mqtt://annex@broker-pc") == ("annex", "from-env")
    assert mqttlink.credentials("mqtt://broker-pc") is None
    assert mqttlink.broker("10.0.0.2:1884") == ("10.0.0.2", 1884)
    for bad in ("http://x", "mqtt://", "mqtt://h:port"):
        with pytest.raises(mqttlink.MqttError):
            mqttlink.broker(bad)


def test_a_hall_shows_the_clocks_of_a_hall_on_another_pc(broker, tmp_path):
    sims = Sims(1, str(tmp_path / "sims"))
    far = Hall(discover=False)  # the PC with the clock
    near = Hall(discover=False)  # the chief arbiter's PC: no clock of its own
    try:
        (port,) = sims.start()
        far.add(port, "sim", 1)
        far.publisher = hall_mqtt.Publisher(far, broker, "annex")
        near.subscriber = hall_mqtt.Subscriber(broker, "main")
        far.publisher.start()
        near.subscriber.start()
        b = _until(lambda: [b for b in near.view()["boards"] if b.get("faces") and b["link"] == "up"], 30,
                   "the far hall's clock on the near hall's page")[0]
        assert b["number"] == "annex:1" and b["hall"] == "annex" and b["source"] == "mqtt"
        assert b["faces"]["left"]["text"] == "7:00" and b["state"] == "setup"
        assert near.view(remote=False)["boards"] == []  # shown, never acted on: not the near hall's
        # live: the far hall sets up a game, the near hall shows it
        assert far.set_up("5")["done"] == 1
        _until(lambda: near.view()["boards"][0]["faces"]["left"]["text"] == "5.0", 30, "the change arrives")
        # the far hall goes away: its last will (and its farewell) marks its board lost
        far.publisher.close()
        far.publisher = None
        b = _until(lambda: [b for b in near.view()["boards"] if b["link"] == "lost"], 30, "marked lost")[0]
        assert b["alerts"][-1] == {"kind": "link", "text": "hall annex offline",
                                   "msg": {"key": "alert_hall_offline", "hall": "annex"}}
    finally:
        far.close()
        near.close()
        sims.close()


# ------------------------------------------------------------ what a broker client may send (attacks)
# Anyone who can publish to the broker can publish under any hall's name: what the subscriber
# shows is rebuilt from known fields of known types, and no message can stop it.

EVIL = '<img src=x onerror="document.title=\'X\'">'


def test_a_remote_board_is_rebuilt_from_known_fields():
    sub = subscriber()
    evil = dict(GOOD, number=EVIL, game=EVIL, battery=EVIL, rtt_ms=EVIL, link=EVIL, state=EVIL, mode=EVIL,
                players=[EVIL, 7], extra=EVIL, start={"dev_ms": EVIL, "err_ms": 1, "armed": True},
                faces={"left": dict(GOOD["faces"]["left"], moves=EVIL, stage=EVIL, text=EVIL * 10), "right": EVIL},
                alerts=[{"kind": EVIL, "text": "x"}, {"kind": "flag", "text": EVIL}, 1, "y"] + [
                    {"kind": "log", "text": "z"}] * 50,
                pull={"state": EVIL, "message": EVIL})
    sub._message(None, None, message("sagat/hall/annex/board/3", evil))
    (v,) = sub.views()
    assert v["number"] == "annex:3" and v["hall"] == "annex" and v["source"] == "mqtt"  # the topic's, checked
    assert "extra" not in v
    assert v["game"] is None and v["battery"] is None and v["rtt_ms"] is None and v["start"]["dev_ms"] is None
    assert v["link"] == "lost" and v["state"] is None and v["mode"] == "game"  # not a link/state/mode known
    assert v["players"] == [EVIL[:64], "7"]  # text is text (the page escapes it)
    assert v["faces"]["left"]["moves"] is None and v["faces"]["left"]["stage"] is None
    assert len(v["faces"]["left"]["text"]) <= 16 and v["faces"]["right"]["text"] == "-"
    assert v["alerts"][0] == {"kind": "flag", "text": EVIL[:80]}  # a kind not known, and non-alerts: dropped
    assert len(v["alerts"]) <= 8 and all(set(a) == {"kind", "text"} for a in v["alerts"])
    assert v["pull"]["state"] not in ("verified", EVIL)

    def strings(x):
        if isinstance(x, dict):
            for k, y in x.items():
                assert isinstance(k, str)
                yield from strings(y)
        elif isinstance(x, list):
            for y in x:
                yield from strings(y)
        else:
            assert x is None or isinstance(x, str) or type(x) in (int, float, bool), x  # (a str: said.Said too)
            yield x
    list(strings(v))


@pytest.mark.parametrize("topic", ["sagat/hall/<img>/board/1", "sagat/hall/" + "a" * 33 + "/board/1",
                                   "sagat/hall/annex/board/x", "sagat/hall/annex/board/1/more",
                                   "sagat/hall/annex/board/１", "sagat/hall/annex/board/00001"])
def test_a_board_under_a_bad_topic_is_not_shown(topic):
    sub = subscriber()
    sub._message(None, None, message(topic, GOOD))
    assert sub.views() == []


def test_a_remote_verification_is_reported_not_verified_here():
    sub = subscriber()
    done = dict(GOOD, state="finished", pull={"state": "verified", "message": "verified (code 1)"})
    sub._message(None, None, message("sagat/hall/annex/board/3", done))
    (v,) = sub.views()
    assert v["pull"]["state"] == "reported"
    assert v["pull"]["message"] == "verified (code 1), reported by hall annex: not verified here"
    for state in ("failed", "pulling", "unkeyed", "idle"):
        sub._message(None, None, message("sagat/hall/annex/board/3", dict(GOOD, pull={"state": state, "message": "m"})))
        assert sub.views()[0]["pull"]["state"] == state


@pytest.mark.parametrize("payload", [b"[1]", b"{}", b'{"alerts":[1]}', b'{"alerts":1,"faces":[],"pull":3}',
                                     b"[" * 200000, b"\xff\xfe", b"1e999999", b'{"number": NaN}',
                                     b'{"players":"' + b"x" * 20000 + b'"}'])
def test_no_message_stops_the_subscriber(payload):
    sub = subscriber()
    sub._message(None, None, message("sagat/hall/bad/board/1", payload))  # (paho's thread: nothing escapes)
    sub._message(None, None, message("sagat/hall/bad/status", "offline"))
    sub._message(None, None, message("sagat/hall/bad/status", payload))
    sub._message(None, None, message("sagat/hall/bad/status", "offline"))
    for v in sub.views():
        assert v["link"] == "lost" and v["number"] == "bad:1"
    sub._message(None, None, message("sagat/hall/annex/board/7", GOOD))
    assert "annex:7" in [v["number"] for v in sub.views()]
    json.dumps(sub.views(), allow_nan=False)


def test_a_board_is_lost_when_nothing_comes_whatever_the_broker_says(monkeypatch):
    sub = subscriber()
    now = [1_000_000.0]
    monkeypatch.setattr(hall_mqtt, "host_ms", lambda: now[0])
    sub._message(None, None, message("sagat/hall/annex/board/3", GOOD))
    assert sub.views()[0]["link"] == "up"
    now[0] += hall_mqtt.REMOTE_STALE_MS + 1  # the broker is up, the hall says online, its board said nothing
    (v,) = sub.views()
    assert v["link"] == "lost" and v["alerts"][-1] == {"kind": "link", "text": "nothing from hall annex for 5 s",
                                                      "msg": {"key": "remote_silent", "hall": "annex", "s": 5}}


def test_an_empty_retained_message_removes_the_board():
    sub = subscriber()
    sub._message(None, None, message("sagat/hall/annex/board/3", GOOD))
    sub._message(None, None, message("sagat/hall/annex/board/4", GOOD))
    sub._message(None, None, message("sagat/hall/annex/board/3", b""))
    assert [v["number"] for v in sub.views()] == ["annex:4"]


def test_a_broker_client_cannot_flood_the_page():
    sub = subscriber()
    for i in range(1, 4000):
        sub._message(None, None, message(f"sagat/hall/h{i % 40}/board/{i}", GOOD))
    views = sub.views()
    halls = {v["hall"] for v in views}
    assert len(views) == hall_mqtt.MAX_REMOTE_BOARDS and len(halls) == hall_mqtt.MAX_REMOTE_HALLS  # (the halls bound)
    assert all(sum(1 for v in views if v["hall"] == h) == hall_mqtt.MAX_HALL_BOARDS for h in halls)  # (each hall's)


def _subscribed(views, client, hall="probe"):
    """Publish one board as `hall` until the subscriber shows it: its subscription is in place
    (the broker's SUBACK comes after `connected`; a fixed sleep for it raced a loaded machine, and a
    message published before it is lost)."""

    def shown():
        client.publish(f"sagat/hall/{hall}/board/1", json.dumps(GOOD), qos=1).wait_for_publish(5)
        return [v for v in views() if v["number"] == f"{hall}:1"]

    _until(shown, 30, "the subscriber's subscription made")


def test_a_hostile_message_on_a_real_broker_kills_nothing(broker):
    import paho.mqtt.client as mqtt

    sub = hall_mqtt.Subscriber(broker, "main")
    evil = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="evil")
    try:
        sub.start()
        evil.connect("127.0.0.1", int(broker.rsplit(":", 1)[1]))
        evil.loop_start()
        _until(lambda: sub.error is None, 30, "connected")
        _subscribed(sub.views, evil)
        evil.publish("sagat/hall/evil/board/1", "[" * 200000).wait_for_publish(5)
        evil.publish("sagat/hall/evil/board/2", json.dumps(dict(GOOD, alerts=[1]))).wait_for_publish(5)
        evil.publish("sagat/hall/evil/status", "offline").wait_for_publish(5)
        evil.publish("sagat/hall/good/board/7", json.dumps(GOOD)).wait_for_publish(5)
        b = _until(lambda: [v for v in sub.views() if v["number"] == "good:7"], 30, "a good board after the bad ones")
        assert b[0]["link"] == "up" and sub.client._thread.is_alive()
        assert [v["link"] for v in sub.views() if v["hall"] == "evil"] == ["lost"]
    finally:
        evil.loop_stop()
        evil.disconnect()
        sub.close()


def test_a_standing_clock_stays_up(broker, tmp_path, monkeypatch):
    # a board is lost when nothing comes for REMOTE_STALE_MS: a clock that shows the same thing
    # (set up, paused) is published again every REFRESH_MS all the same. The halls' clock is virtual
    # (their refresh and stale times are what is tested, not the machine's speed: before, a loaded
    # machine held the far hall's poll of its sim or the broker's delivery past a shortened stale
    # time); each step of it is a REFRESH_MS, and the near hall must hear the clock again in each
    now = [1_000_000.0]
    for mod in (hall_mqtt, HB, core):  # (the subscriber's and publisher's clock; the far hall's polls and view)
        monkeypatch.setattr(mod, "host_ms", lambda: now[0])
    sims = Sims(1, str(tmp_path / "sims"))
    far = Hall(discover=False)
    near = Hall(discover=False)
    try:
        (port,) = sims.start()
        far.add(port, "sim", 1)
        far.publisher = hall_mqtt.Publisher(far, broker, "annex")
        near.subscriber = hall_mqtt.Subscriber(broker, "main")
        far.start()
        far.publisher.start()
        near.subscriber.start()
        _until(lambda: [b for b in near.view()["boards"] if b.get("faces") and b["link"] == "up"], 60, "up")
        assert hall_mqtt.REFRESH_MS < hall_mqtt.REMOTE_STALE_MS
        for _ in range(hall_mqtt.REMOTE_STALE_MS // hall_mqtt.REFRESH_MS + 2):  # past the stale time, twice over
            now[0] += hall_mqtt.REFRESH_MS
            # heard again at this instant (seen 0 ms ago), its hall's poll of the clock done since
            (b,) = _until(lambda: far.boards[0].updated is not None and far.boards[0].updated >= now[0] and
                          [b for b in near.view()["boards"] if b["seen_ms"] == 0], 60,
                          "the standing clock published again")
            assert b["link"] == "up" and b["state"] == "setup", b
    finally:
        far.close()
        near.close()
        sims.close()


def test_the_documented_broker_acl_keeps_each_hall_to_its_own_name(tmp_path):
    # docs/hall.md: one broker user per hall, writing only under its own name, reading all
    need()
    import paho.mqtt.client as mqtt

    PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if not os.path.exists(PASSWD):
        pytest.skip("needs mosquitto_passwd (Debian's mosquitto package)")
    pw = tmp_path / "passwd"
    pw.write_text("", encoding="utf-8")
    for user in ("annex", "main", "evil"):
        subprocess.run([PASSWD, "-b", str(pw), user, "pw-" + user], check=True, capture_output=True)
    acl = tmp_path / "acl"
    acl.write_text("pattern read sagat/hall/#\npattern write sagat/hall/%u/#\n", encoding="utf-8")
    # (as root mosquitto becomes the user mosquitto, who cannot read pytest's folders)
    root = "user root\n" if os.geteuid() == 0 else ""
    proc, port = mosquitto(tmp_path, f"allow_anonymous false\npassword_file {pw}\nacl_file {acl}\n{root}")
    near = Hall(discover=False)
    evil = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="evil")
    try:
        near.subscriber = hall_mqtt.Subscriber(f"mqtt://main:pw-main@127.0.0.1:{port}", "main")
        near.subscriber.start()
        _until(lambda: near.subscriber.error is None, 30, "the hall's user connected")
        evil.username_pw_set("evil", "pw-evil")
        evil.connect("127.0.0.1", port)
        evil.loop_start()
        _subscribed(lambda: near.view()["boards"], evil, "evil")  # its own board: shown
        evil.publish("sagat/hall/annex/board/9", json.dumps(GOOD), qos=1).wait_for_publish(5)  # not its own
        marked = dict(GOOD, players=["after", "annex"])
        evil.publish("sagat/hall/evil/board/1", json.dumps(marked), qos=1).wait_for_publish(5)  # its own
        # the broker keeps one client's messages in order: once the later one is shown, the
        # earlier one would have been too, had the broker let it through
        _until(lambda: [v for v in near.view()["boards"] if v["players"] == ["after", "annex"]], 30, "its own board")
        assert [v["number"] for v in near.view()["boards"]] == ["evil:1"]
        bad = hall_mqtt.Subscriber(f"mqtt://main:wrong@127.0.0.1:{port}", "main2")
        try:
            bad.start()
            _until(lambda: bad.error and "refused" in bad.error, 30, "a wrong password refused")
        finally:
            bad.close()
    finally:
        evil.loop_stop()
        evil.disconnect()
        near.close()
        proc.terminate()
        proc.wait(timeout=10)


def test_a_remote_board_keeps_its_link_state():
    # each link state a hall's own board can be in reaches the other halls as it is (a clock
    # answering garbage there is `error`, not `lost`); anything else is lost
    sub = subscriber()
    for link in ("opening", "up", "lost", "unreachable", "error", "<b>", 1):
        view = dict(GOOD, link=link, error="the clock answered garbage")
        sub._message(None, None, message("sagat/hall/annex/board/3", view))
        v = sub.views()[0]
        assert v["link"] == (link if link in ("opening", "up", "lost", "unreachable", "error") else "lost"), link
        assert v["error"] == "the clock answered garbage"


def test_a_remote_hall_cannot_word_its_log_as_verified_here():
    # every state's text a remote hall sends is its report: 'unkeyed' says what it means whatever
    # the text says, and nothing reads as this hall's own verification
    sub = subscriber()
    for state in ("unkeyed", "failed", "pulling", "retrying", "idle", "verified", "reported"):
        view = dict(GOOD, state="finished", pull={"state": state, "message": "verified by the chief arbiter"})
        sub._message(None, None, message("sagat/hall/annex/board/3", view))
        pull = sub.views()[0]["pull"]
        msg = pull["message"]
        if state == "idle":
            assert msg == "", msg
        elif state == "pulling":
            assert msg == "pulling the log at hall annex", msg
        elif state == "retrying":  # (its pull failed on its link, tried again soon)
            assert msg == "pulling the log at hall annex (its link failed: trying again)", msg
            assert pull["state"] == "retrying"
        else:
            assert msg.endswith(", reported by hall annex: not verified here"), (state, pull)
        if state == "unkeyed":
            assert msg == "chain intact, authorship unproven, reported by hall annex: not verified here"


def test_one_hall_cannot_fill_the_page_for_the_others():
    # a broker user allowed to write only under its own name (docs/hall.md's ACL) still chooses its
    # board numbers: one hall's boards are capped, so another hall's boards still appear
    from sagat.hall import mqtt as hall_mqtt

    sub = subscriber()
    for n in range(1, hall_mqtt.MAX_REMOTE_BOARDS + 10):
        sub._message(None, None, message(f"sagat/hall/evil/board/{n}", GOOD))
    sub._message(None, None, message("sagat/hall/annex/board/1", GOOD))
    views = sub.views()
    assert "annex:1" in [v["number"] for v in views]
    assert sum(1 for v in views if v["hall"] == "evil") == hall_mqtt.MAX_HALL_BOARDS
    sub._message(None, None, message("sagat/hall/evil/board/1", dict(GOOD, state="paused")))  # its own: updated
    assert next(v for v in sub.views() if v["number"] == "evil:1")["state"] == "paused"


def test_a_subscriber_says_when_its_broker_cannot_be_reached(tmp_path):
    # a broker that is not there, or that went away: the page's status line says "no broker at",
    # never "connecting to the broker" for ever (docs/hall.md: a broker that cannot be reached is said)
    need()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # (nobody listens there once closed)
    sub = hall_mqtt.Subscriber(f"mqtt://127.0.0.1:{port}", "main")
    sub.start()
    try:
        _until(lambda: sub.error == f"no broker at 127.0.0.1:{port}", 30, sub.error)
    finally:
        sub.close()
    proc, port = mosquitto(tmp_path)
    sub = hall_mqtt.Subscriber(f"mqtt://127.0.0.1:{port}", "main")
    sub.start()
    try:
        _until(lambda: sub.error is None, 30, sub.error)
        proc.terminate()
        proc.wait(timeout=10)
        _until(lambda: sub.error == f"no broker at 127.0.0.1:{port}", 30, sub.error)
    finally:
        sub.close()
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)


def test_another_halls_board_is_acted_on_in_its_own_hall():
    # a result for annex:2, or "set up all" with only other halls' boards: the hall says where
    hall = Hall(discover=False)
    hall.subscriber = subscriber()
    try:
        hall.subscriber._message(None, None, message("sagat/hall/annex/board/2", GOOD))
        with pytest.raises(HallError) as e:
            hall.result("annex:2", "1-0")
        assert str(e.value) == "board annex:2 belongs to hall annex: enter its result there"
        for act, verb in ((lambda: hall.set_up("420"), "set up"), (hall.start_round, "started"),
                          (hall.pause_all, "paused"), (hall.resume_all, "resumed")):
            r = act()
            assert (r["done"], r["failed"], r["skipped"]) == (0, 0, 0)
            assert r["note"] == f"this hall has no clocks of its own: hall annex's boards are {verb} in hall annex", r
        hall.subscriber = None
        assert hall.set_up("420")["note"] == "no clocks: none is connected to this hall"
        with pytest.raises(HallError) as e:
            hall.result("7", "1-0")
        assert str(e.value) == "no board 7"
    finally:
        hall.close()


# ------------------------------------------------------------ the subscriber's own broker lost
# When the broker stops, it publishes every client's last will first: every hall said "offline",
# which only says that this hall's broker went. Whether the other halls stopped is not known: the
# status line says the broker cannot be reached (once), and their boards are shown stale, their
# last state with its age, until the broker is back; a hall's own will, the broker up, still says
# offline.


class _Ok:
    is_failure = False


class _Client:
    def subscribe(self, *_):
        pass


def test_a_lost_broker_leaves_the_remote_boards_stale_not_offline(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(hall_mqtt, "host_ms", lambda: now[0])
    hall = Hall(discover=False)
    hall.subscriber = sub = subscriber()
    sub.host, sub.port = "broker-pc", 1883
    try:
        for name in ("annex", "gym"):
            sub._message(None, None, message(f"sagat/hall/{name}/board/3", GOOD))
        now[0] += 1000
        for name in ("annex", "gym"):  # the broker stops: its clients' wills first ...
            sub._message(None, None, message(f"sagat/hall/{name}/status", "offline"))
        sub._unreachable()  # ... then this hall's connection goes
        for wait in (0, 3000, hall_mqtt.REMOTE_EXPIRE_MS):  # (stale, however long: not gone while nothing can come)
            now[0] += wait
            view = hall.view()
            assert view["discover_error"] == "MQTT broker-pc:1883: no broker at broker-pc:1883"  # said once
            assert [b["number"] for b in view["boards"]] == ["annex:3", "gym:3"]
            for b in view["boards"]:
                assert "offline" not in b["error"] and not any("offline" in a["text"] for a in b["alerts"]), b
                assert b["link"] == "lost" and b["stale"] is True and b["seen_ms"] == 1000 + wait + (
                    3000 if wait == hall_mqtt.REMOTE_EXPIRE_MS else 0), b
                assert b["alerts"][-1] == {"kind": "link", "text": "broker lost: its last state",
                                           "msg": {"key": "alert_broker_lost"}}
                assert b["error"] == f"no broker at broker-pc:1883: hall {b['hall']}'s last state, " \
                    f"{b['seen_ms'] // 1000} s ago"
                assert b["faces"]["left"]["text"] == "4:59" and b["state"] == "running"  # its last state
        sub._connected(_Client(), None, None, _Ok())  # the broker back
        assert hall.view()["discover_error"] is None
        sub._message(None, None, message("sagat/hall/annex/board/3", GOOD))  # annex publishes again
        sub._message(None, None, message("sagat/hall/gym/status", "offline"))  # gym's will: it is offline
        annex, gym = hall.view()["boards"]
        assert annex["link"] == "up" and "stale" not in annex and annex["seen_ms"] == 0
        assert gym["link"] == "lost" and gym["alerts"][-1] == {"kind": "link", "text": "hall gym offline",
                                                               "msg": {"key": "alert_hall_offline", "hall": "gym"}}
    finally:
        hall.close()


def test_a_dead_broker_on_a_real_network_is_not_every_hall_offline(tmp_path):
    from mqttkit import Boards

    proc, port = mosquitto(tmp_path)
    url = f"mqtt://127.0.0.1:{port}"
    far, near = Hall(discover=False), Hall(discover=False)
    try:
        far.publisher = hall_mqtt.Publisher(Boards(dict(GOOD, number=3)), url, "annex")
        near.subscriber = hall_mqtt.Subscriber(url, "main")
        near.subscriber.start()
        far.publisher.start()
        _until(lambda: [b for b in near.view()["boards"] if b["link"] == "up"], 30, "the far hall's board")
        proc.terminate()  # (mosquitto publishes every client's will as it stops)
        proc.wait(timeout=10)
        _until(lambda: near.subscriber.error == f"no broker at 127.0.0.1:{port}", 30, near.subscriber.error)
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            view = near.view()
            assert view["discover_error"] == f"MQTT 127.0.0.1:{port}: no broker at 127.0.0.1:{port}"
            (b,) = view["boards"]
            assert b["alerts"][-1] == {"kind": "link", "text": "broker lost: its last state",
                                       "msg": {"key": "alert_broker_lost"}}, b
            assert b["link"] == "lost" and b["stale"] is True and isinstance(b["seen_ms"], int), b
            time.sleep(0.1)
        proc, _ = mosquitto(tmp_path, port=port)  # the broker back: both halls come back to it

        def back():
            (b,) = near.view()["boards"]
            assert not any("offline" in a["text"] for a in b["alerts"]), b
            return b["link"] == "up" and near.view()["discover_error"] is None

        _until(back, 30, "the far hall's board up again")
    finally:
        far.close()
        near.close()
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)
