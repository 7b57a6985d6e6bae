"""Talking to a clock over USB serial (or the simulator's pseudo-terminal): finding it, opening the
port without resetting an ESP32, requests and answers (docs/protocol.md), arbiter authority."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from sagatfw import auth as signing

# USB vendor/product ids of the boards sagat runs on (contract 5)
USB_IDS = {
    (0x2E8A, None): "Raspberry Pi (Pico, Pico W, Pico 2)",
    (0x303A, None): "Espressif native USB",
    (0x10C4, 0xEA60): "Silicon Labs CP210x (ESP32 DevKit)",
    (0x1A86, 0x7523): "WCH CH340 (ESP32 DevKit)",
    (0x1A86, 0x55D4): "WCH CH9102 (ESP32 DevKit)",
}
BAUD = 115200


class LinkError(Exception):
    """One line for the user."""


@dataclass
class Port:
    device: str
    description: str
    serial_number: str | None


def find_ports() -> list[Port]:
    """Serial ports that look like a sagat board, by USB VID/PID."""
    from serial.tools import list_ports

    found = []
    for p in list_ports.comports():
        if p.vid is None:
            continue
        for (vid, pid), what in USB_IDS.items():
            if p.vid == vid and (pid is None or p.pid == pid):
                found.append(Port(p.device, what, p.serial_number))
                break
    return found


def pick_port(port: str | None) -> str:
    if port:
        return port
    ports = find_ports()
    if not ports:
        raise LinkError("no clock found on USB (give --port, e.g. /dev/ttyACM0 or the simulator's pty)")
    if len(ports) > 1:
        raise LinkError("several clocks found: " + ", ".join(p.device for p in ports) + " (give --port)")
    return ports[0].device


class Clock:
    """A clock on a serial port. Opening holds DTR and RTS low, so an ESP32 is not reset."""

    def __init__(self, port: str, timeout: float = 3.0, key: bytes = b""):
        import serial

        self.key = key
        self.timeout = timeout
        self.next_id = 1
        self.buf = b""
        s = serial.Serial()
        s.port = port
        s.baudrate = BAUD
        s.timeout = 0.05
        s.write_timeout = timeout
        s.dtr = False  # set before open: the ESP32's auto-reset circuit sees no edge
        s.rts = False
        try:
            s.open()
        except (serial.SerialException, OSError) as e:
            raise LinkError(f"cannot open {port}: {e}") from None
        self.serial = s

    def close(self) -> None:
        self.serial.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _line(self, deadline: float) -> bytes | None:
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line, self.buf = self.buf[:i], self.buf[i + 1 :]
                return line
            if time.monotonic() > deadline:
                return None
            try:
                chunk = self.serial.read(1)  # waits at most the port timeout for the first byte
                waiting = self.serial.in_waiting if chunk else 0
                if waiting:
                    chunk += self.serial.read(waiting)  # then takes what is there, no more waiting
            except OSError as e:
                raise LinkError(f"serial link lost: {e}") from None
            self.buf += chunk

    def request(self, cmd: str, auth: bool = False, **args):
        """Send one request and wait for its answer (a dict with ok true). Raises LinkError with the
        clock's error code and message otherwise."""
        return self.wait(self.send(cmd, auth, **args), cmd)

    def send(self, cmd: str, auth: bool = False, **args) -> int:
        """Send a request without waiting (requests may be pipelined; answers come in order)."""
        req = {"id": self.next_id, "cmd": cmd, **args}
        self.next_id += 1
        if auth and self.key:
            nonce = self.request("auth.challenge")["nonce"]
            try:
                req["auth"] = signing.sign(self.key, nonce, req)  # the firmware's own canonical form
            except ValueError as e:  # e.g. a decimal number: the protocol carries whole numbers
                raise LinkError(f"{cmd}: {e}") from None
        try:
            self.serial.write(json.dumps(req, separators=(",", ":")).encode() + b"\n")
        except OSError as e:
            raise LinkError(f"serial link lost: {e}") from None
        return req["id"]

    def wait(self, rid: int, cmd: str = "request"):
        """The answer to request `rid`."""
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._line(deadline)
            if line is None:
                raise LinkError(f"no answer from the clock to {cmd} within {self.timeout:g} s")
            try:
                ans = json.loads(line)
            except ValueError:
                continue  # not ours (a REPL banner, noise)
            if not isinstance(ans, dict) or ans.get("id") != rid:
                continue
            if ans.get("ok"):
                return ans
            err = ans.get("error") or {}
            raise LinkError(f"clock refused {cmd}: {err.get('code', '?')}: {err.get('message', '')}".rstrip(": "))
