"""The MQTT link of a hall (mqtt.py shares its boards over it): a broker's address and its user
(mqtt://USER[:PASSWORD]@HOST[:PORT]), the paho client, and this hall's name on the broker (given
by --name, or made from this PC's host name and an id of its own)."""

from __future__ import annotations

import hashlib
import os
import re
import socket
import uuid
from urllib.parse import unquote, urlparse

from .said import said

NAME_RE = r"[A-Za-z0-9_-]{1,32}"  # a hall's name on the broker (sagat hall --name), in its topics
NAME = re.compile(NAME_RE)


class MqttError(Exception):
    """One line for the user."""


CONNECTING = said("mqtt_connecting", "connecting to the broker")


def refused(reason) -> str:
    return said("mqtt_refused", "the broker refused: {why}", why=reason)


def no_broker(host: str, port: int) -> str:
    return said("mqtt_no_broker", "no broker at {host}:{port}", host=host, port=port)


def _hardware_address() -> str | None:
    """The PC's network card's hardware address, the same whichever card is connected: on Linux
    the least of its physical cards' (not a virtual one, which may be new each boot), elsewhere
    uuid.getnode()'s; None if there is none (a random address is none)."""
    try:
        names = sorted(os.listdir("/sys/class/net"))
    except OSError:
        node = uuid.getnode()
        return None if node >> 40 & 1 else f"{node:012x}"  # (a random one has its multicast bit set)
    found = []
    for name in names:
        if not os.path.exists(f"/sys/class/net/{name}/device"):
            continue  # a virtual one (a bridge, a container's, a VPN's)
        try:
            with open(f"/sys/class/net/{name}/address", encoding="ascii") as fh:
                mac = fh.read().strip().lower()
        except (OSError, ValueError):
            continue
        if mac and mac.strip("0:"):
            found.append(mac)
    return min(found) if found else None


def _machine_id() -> str | None:
    """What tells this PC from another, the same on each run: its system's machine id (a cloned
    disk keeps it) and its network card's address (a cloned disk runs on another card); None if
    neither is known."""
    parts = []
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            with open(path, encoding="ascii", errors="replace") as fh:
                mid = fh.read().strip()
        except OSError:
            continue
        if mid:
            parts.append(mid)
            break
    mac = _hardware_address()
    if mac:
        parts.append(mac)
    return "/".join(parts) or None


def default_name() -> str:
    """A hall's name when --name is not given: this PC's host name and 4 hex digits of its own
    (cloned PCs share their host name), the same on each run; the host name alone when nothing of
    the PC's own is known. 1 to 32 letters, digits, _ or -."""
    host = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname().split(".")[0]) or "hall"
    mid = _machine_id()
    if mid is None:
        return host[:32]
    # (hashed: the machine id is not published; sagat's own key, so it is no other program's hash)
    return f"{host[:27]}-{hashlib.sha256(b'sagat hall name/' + mid.encode()).hexdigest()[:4]}"


def broker(url: str) -> tuple[str, int]:
    """(host, port) of mqtt://HOST[:PORT] (or HOST[:PORT])."""
    u = urlparse(url if "://" in url else "mqtt://" + url)
    if u.scheme != "mqtt" or not u.hostname:
        raise MqttError(f"{url!r} is not a broker's address: mqtt://HOST[:PORT] (e.g. mqtt://localhost:1883)")
    try:
        port = u.port or 1883
    except ValueError:
        raise MqttError(f"{url!r}: the port must be a number") from None
    return u.hostname, port


def credentials(url: str) -> tuple[str, str | None] | None:
    """(user, password) of mqtt://USER[:PASSWORD]@HOST: the hall's broker user (docs/hall.md); the
    password may come from SAGAT_MQTT_PASSWORD instead (not in the process list)."""
    u = urlparse(url if "://" in url else "mqtt://" + url)
    if not u.username:
        return None
    return unquote(u.username), unquote(u.password) if u.password is not None else os.environ.get("SAGAT_MQTT_PASSWORD")


def new_client(name: str):
    """(paho.mqtt.client, a client of its own under `name`) (MqttError: no paho-mqtt)."""
    try:
        import paho.mqtt.client as mqtt
    except ImportError:
        raise MqttError("the MQTT bridge needs paho-mqtt: pip install 'sagat[mqtt]'") from None
    return mqtt, mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name)
