"""The hall's MQTT tests' kit (sagat/hall/mqtt.py): a real Mosquitto (Debian's package) started on a
free port, skipped without it or paho-mqtt and failed under CI; a broker's message as paho hands
it over; a Subscriber fed by hand; a well-formed remote board. Used by
tests/host/hall/test_hall_mqtt.py, test_hall_mqtt_flood_is_bounded.py,
test_hall_mqtt_two_halls_one_name.py and test_hall_browser.py."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time

import pytest

from sagat.hall import mqtt as hall_mqtt

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)


def need():
    """Skip (fail under CI) unless mosquitto and paho-mqtt are installed, saying what to install."""
    missing = []
    if MOSQUITTO is None:
        missing.append("mosquitto (apt-get install mosquitto)")
    try:
        import paho.mqtt  # noqa: F401
    except ImportError:
        missing.append("paho-mqtt (pip install -e '.[dev]')")
    if missing:
        why = "the MQTT bridge's test needs " + ", ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def mosquitto(tmp_path, extra: str = "allow_anonymous true\n", port: int | None = None):
    """A real Mosquitto on a free local port, or on `port` (a broker started again where it was):
    its conf in tmp_path, `extra` appended; (proc, port)."""
    need()
    want = port
    for attempt in range(5):
        if want is None:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
        conf = tmp_path / "mosquitto.conf"
        conf.write_text(f"listener {port} 127.0.0.1\npersistence false\n" + extra, encoding="utf-8")
        proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        end = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return proc, port
            except OSError:
                if proc.poll() is not None:
                    break
                assert time.monotonic() < end, "mosquitto did not listen within 30 s"
                time.sleep(0.05)
        why = proc.stderr.read()
        # the free port was taken between our close and mosquitto's bind (another test run on this
        # machine): another port; anything else is an error
        assert "Address already in use" in why and attempt < 4, why
        if want is not None:  # (the port given: its last connections may still hold it a moment)
            time.sleep(0.5)


def message(topic: str, payload, retain: bool = False) -> object:
    """What paho hands the subscriber's _message: `payload` as bytes (a str encoded, anything else
    as JSON); `retain`: a retained message the broker kept, handed over as the subscription is
    made (else one published now)."""
    import types

    if not isinstance(payload, bytes):
        payload = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
    return types.SimpleNamespace(topic=topic, payload=payload, retain=retain, qos=0)


class Boards:
    """A hall's stand-in for a Publisher: its view() has `boards` (views as a hall's page shows them)."""

    def __init__(self, *boards: dict):
        self.boards = list(boards)

    def view(self, remote: bool = True) -> dict:
        return {"boards": [dict(b) for b in self.boards]}


def subscriber():
    """A Subscriber as connected, to no broker: a test calls its _message by hand."""
    pytest.importorskip("paho.mqtt")
    sub = hall_mqtt.Subscriber("mqtt://127.0.0.1:1", "main")
    sub.error = None  # as connected
    return sub


# a remote board's message with every field the subscriber knows
GOOD = {"number": 3, "link": "up", "state": "running", "mode": "game", "game": 2, "battery": 80, "rtt_ms": 1.5,
        "players": ["Aibek", "Dana"], "running": "left", "pull": {"state": "idle", "message": ""},
        "faces": {s: {"text": "4:59", "ms": 299000, "moves": 3, "stage": 1, "flag": 0, "first": False, "low": False,
                      "default": False, "stage_mark": False, "delay_ms": 0} for s in ("left", "right")},
        "alerts": [{"kind": "battery", "text": "low battery"}], "protest_ms": None, "start": None}
