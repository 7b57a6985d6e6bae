"""Talking to a clock over USB serial (or the simulator's pseudo-terminal): finding it, opening the
port without resetting an ESP32, requests and answers (docs/protocol.md), arbiter authority."""

from __future__ import annotations

import errno
import json
import os
import random
import re
import time
from dataclasses import dataclass

from sagatfw.link import auth as signing
from sagatfw.link import wire
from sagatfw.log import names as clocknames

from . import reasons
from .i18n import N_, Nn_, _, decimal, english, ngettext

# USB vendor/product ids of the boards sagat runs on (contract 5)
USB_IDS = {
    (0x2E8A, None): "Raspberry Pi (Pico, Pico W, Pico 2)",
    (0x303A, None): "Espressif native USB",
    (0x10C4, 0xEA60): "Silicon Labs CP210x (ESP32 DevKit)",
    (0x1A86, 0x7523): "WCH CH340 (ESP32 DevKit)",
    (0x1A86, 0x55D4): "WCH CH9102 (ESP32 DevKit)",
}
BAUD = 115200
# What one answer may be, whatever the device sends: a line (the longest of the protocol's, a log.read
# of 32 records in base64, is under 3 KB) and the raw bytes after a log.read's line (256 records are
# 16 KB). A device that sends more, or streams without a newline, gets one line, not the host's memory.
MAX_ANSWER_LINE = 256 << 10
MAX_ANSWER_BIN = 1 << 20
DRAIN_BYTES = 64 << 10  # what the connection throws away at its start, at most (then answers are sought)
ECHO_S = 0.5  # after our request came back as it was sent: how long a REPL gets to say more


class Msg:
    """A message for a person, kept until it is shown: str() is its English (what the hall matches
    and shows, whatever the language), text() the user's language (the `sagat` command's one line).
    msgid: a catalogue's text (marked with N_() where it is written) whose {fields} are filled in,
    or a counted one's two forms (marked with Nn_()), told for the count in the field n; a field may be
    a Msg too (a hint, a part of a sentence), and a float is a decimal in the language's writing."""

    def __init__(self, msgid: str | tuple[str, str], **fields):
        self.msgid = msgid
        self.fields = fields

    def __str__(self) -> str:
        with english():
            return self.text()

    def text(self) -> str:
        fields = {k: v.text() if isinstance(v, Msg) else decimal(v) if isinstance(v, float) else v
                  for k, v in self.fields.items()}
        said = ngettext(*self.msgid, int(self.fields["n"])) if isinstance(self.msgid, tuple) else _(self.msgid)
        return said.format(**fields)


def say(msgid: str, **fields) -> Msg:
    """Msg(msgid, **fields): what a LinkError's message is made of (LinkError(say(N_("..."), ...)))."""
    return Msg(msgid, **fields)


class LinkError(Exception):
    """One line for the user. code: the clock's error code when the clock refused (else None).
    str(e) is English (the hall shows it); e.text() is in the user's language. What went wrong is
    told by the type (LinkLost, NotAClock) and the code, never by the words."""

    code: str | None = None
    # a refusal this host says in its user's language (sagat/reasons.py): its reason code, the command
    # refused and the reason's (msgid, fields); else None
    why: str | None = None
    values: dict | None = None
    refused_cmd: str | None = None
    reason: tuple | None = None

    def text(self) -> str:
        """The message in the user's language (a Msg's), or as it was given (text)."""
        m = self.args[0] if len(self.args) == 1 else None
        return m.text() if isinstance(m, Msg) else str(self)


class LinkLost(LinkError):
    """The link itself is gone: the port failed once open, or the clock did not answer within the
    timeout. The connection is of no more use (the hall drops it and opens the port again)."""


JSON_DEPTH = 64  # no answer of the protocol and no file a pull writes nests deeper than a few levels
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")
# where a lone surrogate may come from: a \uD800-\uDFFF escape, or one's own UTF-8 bytes (which
# Python's decoder takes from bytes as it takes an escape: "surrogatepass")
_MAY_SURROGATE = re.compile(rb"\\u[dD][89abcdefABCDEF]|\xed[\xa0-\xbf]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _valid_text(x):
    """x with every lone surrogate of its texts (keys too) made U+FFFD: valid Unicode (a pair's
    halves are one character once decoded, so a surrogate left is alone)."""
    if isinstance(x, str):
        return _SURROGATE.sub("\ufffd", x)
    if isinstance(x, list):
        return [_valid_text(v) for v in x]
    if isinstance(x, dict):
        return {_valid_text(k): _valid_text(v) for k, v in x.items()}
    return x


def _nested() -> str:
    return ngettext("JSON nested deeper than {n} level", "JSON nested deeper than {n} levels", JSON_DEPTH).format(
        n=JSON_DEPTH)


def loads(text):
    """json.loads for text from a device, a peer hall (MQTT) or a file that may be hostile:
    nesting deeper than JSON_DEPTH is refused as a ValueError like any other bad JSON (Python's
    decoder would raise RecursionError at about 1,000 levels, and what decodes must also encode
    again), so every caller's one-line error for bad JSON covers it. A lone surrogate in a text
    (the escape "\\ud800", valid JSON, or its own UTF-8 bytes) becomes U+FFFD: such a text cannot
    be encoded as UTF-8, so a clock's name printed (`sagat info`) or served by the hall (its
    /api/state, every board's) would fail with it; it is made valid here, where the text enters."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    depth = 0
    for m in _BRACKET.finditer(_STRING.sub(b"", raw)):
        if m.group() in (b"[", b"{"):
            depth += 1
            if depth > JSON_DEPTH:
                raise ValueError(_nested())
        else:
            depth -= 1
    try:
        out = json.loads(text)
    except RecursionError:  # (not reached after the check above; kept as the last guard)
        raise ValueError(_nested()) from None
    return _valid_text(out) if _MAY_SURROGATE.search(raw) else out


def load(fh):
    """json.load of an open file, as `loads`."""
    return loads(fh.read())


class NotAClock(LinkError):
    """Something answered on the port, but not a sagat clock. kind: "repl" (MicroPython's REPL:
    a board without sagat, or whose firmware stopped), "echo" (it sends back what it is sent),
    "other" (it talks, but not sagat's protocol)."""

    def __init__(self, message, kind: str):
        super().__init__(message)
        self.kind = kind

    def why(self) -> str:
        """What answered instead of a clock, in the user's language (the message's part after
        "... is not a sagat clock:")."""
        m = self.args[0]
        why = m.fields.get("why") if isinstance(m, Msg) else None
        return why.text() if isinstance(why, Msg) else str(self).split(": ", 1)[-1]


# a port error's sentence (port_error's `what`): opening the port, or the link lost once open
OPEN = N_("cannot open {port}: {error}{hint}")
LOST = N_("serial link lost on {port}: {error}{hint}")
PORT_HINTS = {  # by errno: what to do about the usual causes
    "ENOENT": N_(" (is the board plugged in? `sagat ports` lists clocks on USB)"),
    "EACCES": N_(" (on Linux: add yourself to the dialout group, then log in again)"),
    "EBUSY": N_(" (is another program using it? mpremote, a serial monitor, Thonny)"),
}


def port_error(port: str, e: BaseException, what: str = OPEN) -> LinkError:
    """A port error as one line: pyserial's SerialException repeats the errno and the path
    ("could not open port X: [Errno 2] could not open port X: [Errno 2] No such file..."); the
    system's own words say it once (as the system says them), with a hint for the usual causes.
    what: OPEN or LOST (then a LinkLost)."""
    import errno
    import os

    kind = LinkLost if what == LOST else LinkError
    code = getattr(e, "errno", None)
    if isinstance(code, int) and code > 0:
        text = os.strerror(code)
        hint = next((PORT_HINTS[n] for n in PORT_HINTS if getattr(errno, n, None) == code), None)
        return kind(say(what, port=port, error=text, hint=say(hint) if hint else ""))
    text = str(e)
    m = re.search(r"\[Errno (\d+)\] ([^:\[]+)", text)  # a message that carries an errno as text
    if m:
        text = m.group(2).strip()
    return kind(say(what, port=port, error=text or type(e).__name__, hint=""))


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
        raise LinkError(say(N_("no clock found on USB (give --port, e.g. /dev/ttyACM0 or the simulator's pty)")))
    if len(ports) > 1:
        raise LinkError(say(N_("several clocks found: {ports} (give --port)"),
                            ports=", ".join(p.device for p in ports)))
    return ports[0].device


SIGNED_UID_PROTOCOL = 2  # the firmware's protocol from which a request's MAC covers the clock's id


def kept_names(left: str, right: str) -> list[str]:
    """A match's two names as the clock keeps them (sagatfw.log.names.fit_names: NAMES_SIZE bytes of
    UTF-8 for both, each cut on a character boundary; both empty: ["", ""], none). ValueError (a
    UnicodeError for text that is not UTF-8) for names that are not text."""
    pair = clocknames.names_of(clocknames.fit_names(left, right) or b"")
    return ["", ""] if pair is None else list(pair)


class Clock:
    """A clock on a serial port. Opening holds DTR and RTS low, so an ESP32 is not reset.

    A connection starts clean (docs/protocol.md, Framing): what waited in the input is thrown away,
    and a single "\\n" ends any partial line an earlier host or line noise left on the link (its
    error answer, id null, is skipped). Request ids start at a random number on every connection,
    so an answer meant for an earlier connection (a late `identify`) never passes for one to this
    connection's request: answers are matched by id."""

    def __init__(self, port: str, timeout: float = 3.0, key: bytes = b"", uid: str | None = None):
        import serial

        self.port = port
        self.key = key
        # the clock's id that signed requests name (docs/protocol.md, Proving the key): given (the
        # hall knows each board's clock), else asked of the clock once, before the first signature
        self.uid = uid
        self.timeout = timeout
        self.next_id = random.SystemRandom().randrange(1, 1 << 48)
        self.buf = b""
        self.sent: bytes = b""  # the last request line, to recognise a device that echoes it
        self.junk: bytes = b""  # the first line that was not an answer (for the error message)
        self.heard = False  # anything at all came back since the last request
        self.echoed = False  # our own request came back
        self.answers: dict = {}  # answers to requests of this connection that arrived early
        self.too_long: list = []  # the ids of requests sent in lines over the clock's MAX_LINE, in order
        s = serial.Serial()
        s.port = port
        s.baudrate = BAUD
        s.timeout = 0.05
        s.write_timeout = timeout
        s.dtr = False  # set before open: the ESP32's auto-reset circuit sees no edge
        s.rts = False
        if os.name == "posix":  # the port for this connection alone: two programs on one port
            s.exclusive = True  # steal each other's answers (Windows opens a port exclusively anyway)
        try:
            s.open()
        except (serial.SerialException, OSError) as e:
            if s.exclusive and getattr(e, "errno", None) in (errno.EAGAIN, errno.EWOULDBLOCK):  # (its flock's)
                raise LinkError(say(N_("cannot open {port}: it is in use by another program (a hall, another "
                                       "sagat, mpremote, a serial monitor): close that first"), port=port)) from None
            raise port_error(port, e) from None
        self.serial = s
        try:
            s.reset_input_buffer()  # old answers, a REPL banner: nothing of this connection
            s.write(b"\n")  # ends a partial line left on the link
            s.flush()
            thrown = 0  # what is already here (answers in flight are skipped by id); a device that
            while s.in_waiting and thrown < DRAIN_BYTES:  # streams is left to the answer's bounds
                thrown += len(s.read(min(s.in_waiting, DRAIN_BYTES)))
        except (serial.SerialException, OSError) as e:
            s.close()
            raise port_error(port, e, LOST) from None

    def close(self) -> None:
        self.serial.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _not_a_clock(self) -> NotAClock | None:
        """What the bytes that came back say, if they say this is no sagat clock."""
        tail = self.buf.lstrip(b"\r\n")
        if tail.startswith(b">>> ") or self.buf.endswith(b"\n>>> ") or tail.startswith(b"raw REPL"):
            return self._repl()
        return None

    def _repl(self) -> NotAClock:
        return NotAClock(say(N_("{port} runs MicroPython without sagat (its REPL answered): put sagat on it "
                                "with `sagat deploy` (or, if sagat is on it, its firmware stopped: reset the "
                                "board)"),
                             port=self.port), "repl")

    def _line(self, deadline: float) -> bytes | None:
        import serial

        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line, self.buf = self.buf[:i], self.buf[i + 1 :]
                return line
            found = self._not_a_clock()
            if found is not None:
                raise found
            if len(self.buf) > MAX_ANSWER_LINE:
                n, self.buf = len(self.buf), b""
                raise LinkError(say(Nn_("the device on {port} sent {n} byte without an end of line: no sagat "
                                        "clock answers that (a line is at most {kb} KB)",
                                        "the device on {port} sent {n} bytes without an end of line: no "
                                        "sagat clock answers that (a line is at most {kb} KB)"),
                                    port=self.port, n=n, kb=MAX_ANSWER_LINE >> 10))
            if time.monotonic() > deadline:
                return None
            try:
                chunk = self.serial.read(1)  # waits at most the port timeout for the first byte
                waiting = self.serial.in_waiting if chunk else 0
                if waiting:
                    chunk += self.serial.read(waiting)  # then takes what is there, no more waiting
            except (serial.SerialException, OSError) as e:
                raise port_error(self.port, e, LOST) from None
            if chunk:
                self.heard = True
            self.buf += chunk

    def signing_uid(self) -> str:
        """The clock id a signature names: the one given, else the clock's own (identify), from a
        clock that speaks a protocol with the id in the MAC (2 and later)."""
        if self.uid is None:
            ident = self.request("identify")
            uid, proto = ident.get("uid"), ident.get("protocol")
            if not isinstance(proto, int) or isinstance(proto, bool) or proto < SIGNED_UID_PROTOCOL:
                raise LinkError(say(N_("the clock on {port} speaks protocol {protocol}: its firmware is "
                                       "older than this sagat, whose signed requests name the clock "
                                       "(protocol {needed}); update it (sagat deploy, or the UF2 in rp2/)"),
                                    port=self.port, protocol=repr(proto), needed=SIGNED_UID_PROTOCOL))
            if not isinstance(uid, str) or not uid:
                raise LinkError(say(N_("the clock on {port} gave no id (identify's uid): a signed request "
                                       "names it"),
                                    port=self.port))
            self.uid = uid
        return self.uid

    def request(self, cmd: str, auth: bool = False, **args):
        """Send one request and wait for its answer (a dict with ok true). Raises LinkError with the
        clock's error code and message otherwise."""
        return self.wait(self.send(cmd, auth, **args), cmd)

    def send(self, cmd: str, auth: bool = False, **args) -> int:
        """Send a request without waiting (requests may be pipelined; answers come in order)."""
        import serial

        req = {"id": self.next_id, "cmd": cmd, **args}
        self.next_id += 1
        names = args.get("names")
        if cmd == "new" and isinstance(names, (list, tuple)) and len(names) == 2 and all(
                isinstance(n, str) for n in names):  # what the clock keeps, no more, in the signed line
            try:
                req["names"] = kept_names(*names)
            except ValueError as e:
                raise LinkError(say(N_("{cmd}: {error}"), cmd=cmd, error=str(e))) from None
        if auth and self.key:
            uid = self.signing_uid()
            nonce = self.request("auth.challenge")["nonce"]
            try:
                req["auth"] = signing.sign(self.key, nonce, req, uid)  # the firmware's own canonical form
            except ValueError as e:  # e.g. a decimal number: the protocol carries whole numbers
                raise LinkError(say(N_("{cmd}: {error}"), cmd=cmd, error=str(e))) from None
        # UTF-8, not \\uXXXX: the protocol's lines are UTF-8 (a Cyrillic letter is 2 bytes of the 512, not
        # 6); the MAC covers the request's canonical form (link/auth.py), whatever escapes the line has
        try:
            line = json.dumps(req, separators=(",", ":"), ensure_ascii=False).encode()
        except UnicodeError as e:  # a lone surrogate: an argument that was not UTF-8 text
            raise LinkError(say(N_("{cmd}: {error}"), cmd=cmd, error=str(e))) from None
        if len(line) >= wire.MAX_LINE:  # the clock answers it line_too_long, with no id: it is this one's
            self.too_long.append(req["id"])
        try:
            self.serial.write(line + b"\n")
        except (serial.SerialException, OSError) as e:
            raise port_error(self.port, e, LOST) from None
        self.sent = line
        self.heard = False
        return req["id"]

    def wait(self, rid: int, cmd: str = "request"):
        """The answer to request `rid` (answers to this connection's other requests are kept for
        their own wait; anything else is skipped)."""
        deadline = time.monotonic() + self.timeout
        while rid not in self.answers:
            line = self._line(deadline)
            if line is None:
                raise self._silence(cmd)
            text = line.strip()
            if not text:
                continue
            try:
                ans = loads(text)
            except ValueError:
                ans = None
            if not isinstance(ans, dict) or "ok" not in ans:
                self._other(text, ans)
                if self.echoed:
                    deadline = min(deadline, time.monotonic() + ECHO_S)
                continue
            size = ans.get("bin")
            if ans.get("ok") is True and isinstance(size, int) and not isinstance(size, bool) and size >= 0:
                if size > MAX_ANSWER_BIN:
                    raise LinkError(say(Nn_("the device on {port} announced {n} raw byte after its answer "
                                            "to {cmd}: no sagat clock sends more than {kb} KB at once",
                                            "the device on {port} announced {n} raw bytes after its answer "
                                            "to {cmd}: no sagat clock sends more than {kb} KB at once"),
                                        port=self.port, n=size, cmd=cmd, kb=MAX_ANSWER_BIN >> 10))
                ans["raw"] = self._take(size, deadline, cmd)  # a log.read's records, raw, after its line
            aid = ans.get("id")
            err = ans.get("error")
            if aid is None and self.too_long and isinstance(err, dict) and err.get("code") == wire.LINE_TOO_LONG:
                aid = self.too_long.pop(0)  # (answers come in order: the oldest over-long line's)
            elif aid in self.too_long:  # a clock that took it after all
                self.too_long.remove(aid)
            if isinstance(aid, int) and not isinstance(aid, bool) and self.next_id - 4096 <= aid < self.next_id:
                self.answers[aid] = ans  # ours (a skipped wait's answer is dropped with the connection)
            # else: not ours (id null: the error for the partial line the "\n" ended; a stale answer)
        ans = self.answers.pop(rid)
        if ans.get("ok"):
            return ans
        err = ans.get("error")
        if not isinstance(err, dict):  # (not the protocol's {"code", "message"}: a broken device's)
            err = {}
        # the clock's own code and reason as the clock gave them (its language is the clock's)
        code, reason = str(err.get("code", "?")), str(err.get("message", "")).rstrip(": ")
        said = reasons.sentence(err.get("why"), err.get("with"))  # a reason code this host knows: its words
        if said is not None:
            msgid, fields = said
            words = {k: Msg(v) if k in reasons.WORD_PARTS else v for k, v in fields.items()}
            refused = LinkError(say(N_("the clock refused: {reason}"), reason=Msg(msgid, **words)))
            refused.why, refused.refused_cmd, refused.reason = err["why"], cmd, said
            refused.values = err.get("with") if isinstance(err.get("with"), dict) else {}
        elif reason:
            refused = LinkError(say(N_("clock refused {cmd}: {code}: {reason}"), cmd=cmd, code=code, reason=reason))
        else:
            refused = LinkError(say(N_("clock refused {cmd}: {code}"), cmd=cmd, code=code.rstrip(": ")))
        refused.code = err.get("code") if isinstance(err.get("code"), str) else None
        raise refused

    def _take(self, n: int, deadline: float, cmd: str) -> bytes:
        """The n raw bytes that follow an answer line (log.read with bin)."""
        import serial

        while len(self.buf) < n:
            if time.monotonic() > deadline:
                raise LinkError(say(Nn_("the clock on {port} sent {got} of the {n} byte of its answer to "
                                        "{cmd} within {seconds} s",
                                        "the clock on {port} sent {got} of the {n} bytes of its answer to "
                                        "{cmd} within {seconds} s"),
                                    port=self.port, got=len(self.buf), n=n, cmd=cmd, seconds=float(self.timeout)))
            try:
                chunk = self.serial.read(min(n - len(self.buf), 1 << 16))
            except (serial.SerialException, OSError) as e:
                raise port_error(self.port, e, LOST) from None
            self.buf += chunk
        raw, self.buf = self.buf[:n], self.buf[n:]
        return raw

    def _other(self, text: bytes, ans) -> None:
        """A line that is no answer: a REPL's, our own request echoed, or something else's."""
        if text.startswith((b">>>", b"Traceback (most recent call last)", b"MicroPython v", b"raw REPL")):
            raise self._repl()
        if text == self.sent.strip() or (isinstance(ans, dict) and "cmd" in ans):
            self.echoed = True  # a REPL echoes too, then says more: wait a moment for that
            return
        if not self.junk:
            self.junk = text[:60]

    def _silence(self, cmd: str) -> LinkError:
        if self.echoed:
            why = say(N_("it echoes what it is sent (a serial adapter with nothing behind it, or a loopback?)"))
            return NotAClock(say(NOT_A_CLOCK, port=self.port, why=why), "echo")
        if self.junk:
            why = say(N_("it answers, but not in sagat's protocol ({line})"),
                      line=repr(self.junk.decode("utf-8", "replace")))
            return NotAClock(say(NOT_A_CLOCK, port=self.port, why=why), "other")
        return LinkLost(say(N_("no answer from the clock on {port} to {cmd} within {seconds} s (is it a "
                               "sagat clock? `sagat info` says what answers there)"),
                            port=self.port, cmd=cmd, seconds=float(self.timeout)))


NOT_A_CLOCK = N_("{port} is not a sagat clock: {why}")
