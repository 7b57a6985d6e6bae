"""The hall's web server: uvicorn (its h11 protocol) with what one client may hold bounded, so that a
hall served on the network (--host 0.0.0.0) keeps answering its arbiter whatever another PC of the
network does (docs/hall.md, "What one client may hold").

uvicorn has no timeout for a request's headers: a client that opens connections and never finishes
their headers (a slow-headers attack) held each of them for ever, until the hall's open files ran
out (1,024 on a desktop) and nothing was answered, the arbiter's actions neither. Here:

- a connection with no request in flight (its headers not yet complete, or idle after an answer) is
  closed after IDLE_S;
- one address (an IPv6 /64: one PC may have many of those addresses) holds at most PER_ADDRESS
  connections, and the server at most a quarter of the process's open files (MAX_CONNECTIONS at
  most): beyond either, a new connection takes the place of the oldest idle one (of that address; else
  of the address holding the most), one that never sent a whole request first; with none idle it is
  closed at once;
- connections are accepted at most BACKLOG at a time (half the cap at most), each counted before more
  are, so the open files never run out under a burst (three eighths of them at most), while the
  system keeps QUEUE more waiting (a wave of them drops no one's connect); if the files run out
  all the same (a cause elsewhere), that is one line in the log a minute, not a traceback for each
  connection."""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import sys
import time

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..i18n import N_, _, ngettext

IDLE_S = 5.0  # a connection with no request in flight: its request's headers must come within this
PER_ADDRESS = 16  # connections from one address at once (a browser opens at most 6 to one server)
MAX_CONNECTIONS = 256  # connections at once, at most; and at most a quarter of the open files' limit
BACKLOG = 128  # connections accepted in one go (at most half the cap)
QUEUE = 1024  # connections the system keeps waiting to be accepted (they hold none of this process's files)
MAX_HEADERS = 16 * 1024  # a request's line and headers kept unfinished, at most (h11's default, said here)
SWEEP_S = 0.5  # how often the idle connections are looked at
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def address_of(peer) -> str:
    """The address a connection counts against: its IPv4 address (an IPv4-mapped IPv6 one's too),
    or its IPv6 address's /64."""
    if not isinstance(peer, tuple) or not peer:
        return "?"
    try:
        ip = ipaddress.ip_address(str(peer[0]).split("%")[0])
    except ValueError:
        return str(peer[0])
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def connection_cap() -> int:
    """Connections at once: a quarter of this process's open files (RLIMIT_NOFILE's soft limit; the
    rest for the clocks' ports, the logs, the simulators), at least 16, at most MAX_CONNECTIONS."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if soft == resource.RLIM_INFINITY:
            return MAX_CONNECTIONS
    except (ImportError, OSError, ValueError):  # (Windows: no such limit)
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft // 4))


def _busy(proto) -> bool:
    """A request in flight on the connection: its headers complete, its answer not yet (uvicorn's
    protocols keep it as `cycle`)."""
    cycle = getattr(proto, "cycle", None)
    return cycle is not None and not cycle.response_complete


class Conns:
    """The server's open connections by address, each kept with when it last had a request in flight."""

    def __init__(self, cap: int, per_address: int = PER_ADDRESS, idle_s: float = IDLE_S):
        self.cap, self.per_address, self.idle_s = cap, per_address, idle_s
        self.by_address: dict[str, dict] = {}  # address: {protocol: None}, the oldest first
        self.count = 0
        self.closed = 0  # connections this closed (idle too long, or made room), and refused
        self.refused = 0

    def admit(self, proto, transport) -> bool:
        proto.hall_address = address_of(transport.get_extra_info("peername"))
        proto.hall_transport = transport
        proto.hall_since = time.monotonic()
        proto.hall_served = False  # a whole request seen on it
        mine = self.by_address.get(proto.hall_address, {})
        if len(mine) >= self.per_address and not self._make_room(mine):
            self.refused += 1
            return False
        if self.count >= self.cap and not any(
                self._make_room(c) for c in sorted(self.by_address.values(), key=len, reverse=True)):
            self.refused += 1
            return False
        self.by_address.setdefault(proto.hall_address, {})[proto] = None
        self.count += 1
        return True

    def _make_room(self, conns: dict) -> bool:
        """The oldest idle connection of these closed (one that never sent a whole request first)."""
        idle = [p for p in conns if not _busy(p)]
        for p in [p for p in idle if not p.hall_served] + idle:
            self.close(p)
            return True
        return False

    def close(self, proto) -> None:
        self.drop(proto)
        self.closed += 1
        proto.hall_transport.abort()

    def drop(self, proto) -> None:
        mine = self.by_address.get(proto.hall_address)
        if mine is not None and proto in mine:
            del mine[proto]
            self.count -= 1
            if not mine:
                del self.by_address[proto.hall_address]

    def sweep(self, now: float) -> None:
        for conns in list(self.by_address.values()):
            for p in list(conns):
                if _busy(p):
                    p.hall_since = now
                    p.hall_served = True
                elif now - p.hall_since > self.idle_s:
                    self.close(p)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_S)
            self.sweep(time.monotonic())


class _Protocol(H11Protocol):
    """uvicorn's h11 protocol, each connection counted by `conns` (a subclass per server sets it)."""

    conns: Conns

    def connection_made(self, transport) -> None:  # type: ignore[override]
        self.hall_in = self.conns.admit(self, transport)
        if not self.hall_in:
            transport.abort()
            return
        super().connection_made(transport)

    def on_response_complete(self) -> None:
        self.hall_since = time.monotonic()  # idle from now (the sweep sees only what is in flight then)
        self.hall_served = True
        super().on_response_complete()

    def connection_lost(self, exc) -> None:
        if not self.hall_in:  # (refused: uvicorn never saw it)
            return
        self.conns.drop(self)
        super().connection_lost(exc)


# uvicorn's warnings a client can cause, said in the user's language (English: uvicorn's own words)
UVICORN_SAYS = (N_("Invalid HTTP request received."), N_("Unsupported upgrade request."))
# and its advice for a WebSocket, which the hall never serves (ws="none"): nothing to install, not said
UVICORN_NOT_SAID = ("No supported WebSocket library detected.",)


class _OncePerMinute(logging.Filter):
    """uvicorn's warnings (`Invalid HTTP request received.`, one a bad request: any client can send
    thousands), each said once a minute at most, in the user's language (UVICORN_SAYS)."""

    def __init__(self):
        super().__init__()
        self.said: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING:
            return True
        now = time.monotonic()
        key = str(record.msg)
        if now - self.said.get(key, -1e9) < 60 or key.startswith(UVICORN_NOT_SAID):
            return False
        self.said[key] = now
        if key in UVICORN_SAYS and not record.args:
            record.msg = _(key)
        return True


class Server(uvicorn.Server):
    """uvicorn's server of the hall's app, with its connections bounded (the module's text)."""

    def __init__(self, app, cap: int | None = None):
        self.conns = Conns(connection_cap() if cap is None else cap)
        self.out_of_files_said = -1e9
        protocol = type("HallProtocol", (_Protocol,), {"conns": self.conns})
        backlog = max(8, min(BACKLOG, self.conns.cap // 2))
        super().__init__(uvicorn.Config(app, http=protocol, ws="none", log_level="warning", lifespan="on",
                                        access_log=False, backlog=backlog, timeout_keep_alive=int(IDLE_S),
                                        h11_max_incomplete_event_size=MAX_HEADERS))
        quiet = logging.getLogger("uvicorn.error")  # (uvicorn's Config has set up its loggers)
        if not any(isinstance(f, _OncePerMinute) for f in quiet.filters):
            quiet.addFilter(_OncePerMinute())

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        # (asyncio listens with its accept's batch; a wave of connections over it dropped the arbiter's
        # connect, which the system sends again only a second later)
        for sock in sockets or ():
            sock.listen(QUEUE)

    async def serve(self, sockets=None) -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        sweeper = loop.create_task(self.conns.run())
        try:
            await super().serve(sockets)
        finally:
            sweeper.cancel()

    def _loop_error(self, loop, context) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in OUT_OF_FILES:  # (asyncio's accept: it tries again in 1 s)
            now = time.monotonic()
            if now - self.out_of_files_said >= 60:
                self.out_of_files_said = now
                n = self.conns.count
                print("sagat hall: " + ngettext("new connections wait: {error} ({n} connection open)",
                                                "new connections wait: {error} ({n} connections open)", n).format(
                    error=exc.strerror or exc, n=n), file=sys.stderr, flush=True)
            return
        loop.default_exception_handler(context)
