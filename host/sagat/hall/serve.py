"""`sagat hall` run from the command line, in its steps: the options checked (the web stack, the
simulated clocks, the broker and this hall's name), the round (its pairings, its event), the
page's socket, the boards' links (simulators, --port, USB; the MQTT bridges), the web app and
its server, and the shutdown that lets go of all of it (the simulators go with the hall)."""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
import socket
import sys
import tempfile
from dataclasses import dataclass

from ..i18n import _, ngettext
from .mqttlink import NAME_RE

DEFAULT_HTTP_PORT = 8716


class StartError(Exception):
    """One line for the user (the cli turns it into `sagat: ...`, exit code 2)."""


@dataclass
class _Running:
    """What a run of the hall holds, let go of at its end (_shutdown)."""

    sock: socket.socket
    hall: object = None  # core.Hall
    simset: object = None  # sims.Sims
    tmp: str | None = None  # the simulators' folder


def run(ports: list[str], sims: int | None, key: bytes, keys: list[bytes], pairings_file: str | None, host: str,
        http_port: int, out_dir: str | None, usb: bool, browser: bool, timeout: float = 2.0,
        publish: str | None = None, subscribe: str | None = None, name: str | None = None,
        event: dict | None = None, sim_think: str | None = None, lang: str | None = None) -> int:
    """The hall, served until Ctrl-C (or SIGTERM); 0. StartError: what keeps it from starting."""
    web = _web_stack()
    pairs, event = _round(pairings_file, event)
    sims = _checked_sims(sims, sim_think)
    if publish or subscribe:
        name = _broker_name(publish, subscribe, name)
    running = _Running(_listen(host, http_port))
    # beyond this PC anyone on the network can open the page: its actions need this run's token
    token = None if is_loopback(host) else secrets.token_urlsafe(18)
    from .core import Hall

    running.hall = hall = Hall(key, keys, pairs, out_dir, discover=usb, timeout=timeout, event=event)
    bridges = _bridges(hall, publish, subscribe, name)
    try:
        _links(running, sims, sim_think, ports, bridges)
        _stop_on_sigterm()
        try:
            url = _announce(host, running.sock, token, len(hall.boards), usb)
            if browser:
                import webbrowser

                webbrowser.open(url)
            server = _server(web, hall, host, token, lang)
            server.run(sockets=[running.sock])
        except KeyboardInterrupt:
            pass
        # (a sentence of its own: the clock's state word "stopped" reads as a clock paused in Kazakh)
        print("sagat hall: " + _("stopped (the page is no longer served)"), file=sys.stderr)
        return 0
    finally:
        _shutdown(running)


# ------------------------------------------------------------------ the options checked


def _web_stack():
    """(server.Server, web.make_app); StartError without the hall's web stack (sagat[hall])."""
    try:
        from .server import Server
        from .web import make_app
    except ImportError as e:
        raise StartError(_("sagat hall needs its web stack: pip install 'sagat[hall]' ({module} is missing)").format(
            module=e.name)) from None
    return Server, make_app


def _round(pairings_file: str | None, event: dict | None) -> tuple[dict, dict]:
    """The round's pairings ({board: (left, right)}) and its event (name, round, date, site, and
    the pairing program's TRF when they came from one): round.json's, which the hall writes."""
    from ..round import pairings

    pairs = {}
    event = dict(event or {})
    if pairings_file:
        try:  # a TRF: its round --round, else the round it has paired and not played (that round then)
            pairs, source, event["round"] = pairings.load(pairings_file, event.get("round"))
        except pairings.PairingsError as e:
            raise StartError(str(e)) from None
        if source is not None:  # kept beside the logs: the report's round.trf is that tournament's, updated
            event["trf"] = pairings_file
    return pairs, event


def _checked_sims(sims: int | None, sim_think: str | None) -> int:
    """How many simulated clocks (--sim; 0: none), --sim-play's thinking checked."""
    if sims is not None and not 1 <= sims <= 64:  # (None: no --sim)
        raise StartError(ngettext("--sim takes 1..{n} simulated clock", "--sim takes 1..{n} simulated clocks",
                                  64).format(n=64))
    if sim_think is not None:
        from ..sim.runners import play_spec
        from ..sim.script import SimError

        if sims is None:
            raise StartError(_("--sim-play moves the simulated clocks: give --sim N too"))
        try:
            play_spec(0, sim_think)
        except SimError as e:
            raise StartError(str(e).replace("--think", "--sim-play")) from None
    return sims or 0


def _broker_name(publish: str | None, subscribe: str | None, name: str | None) -> str:
    """This hall's name on the broker (--name, else made and said), the brokers' addresses and the
    MQTT client checked."""
    from . import mqttlink

    if name is None:  # this PC's host name and a suffix of its own (cloned PCs share a host name)
        name = mqttlink.default_name()
        print("sagat hall: " + _("this hall's name on the broker: {name} (--name gives it another)").format(name=name),
              file=sys.stderr, flush=True)
    if not re.fullmatch(NAME_RE, name):
        raise StartError(_("--name {name}: a hall's name is 1 to 32 letters, digits, _ or -").format(name=repr(name)))
    try:
        for url in (publish, subscribe):
            if url:
                mqttlink.broker(url)
        mqttlink.new_client("check")
    except mqttlink.MqttError as e:
        raise StartError(str(e)) from None
    return name


def _listen(host: str, port: int) -> socket.socket:
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)  # (uvicorn listens again with server.py's BACKLOG)
    except OSError as e:
        hint = _(" (another `sagat hall`? give --http-port)") if e.errno == 98 else ""
        raise StartError(_("cannot serve the page on {host}:{port}: {error}").format(
            host=host, port=port, error=e.strerror or e) + hint) from None
    sock.set_inheritable(True)
    return sock


# ------------------------------------------------------------------ the boards' links


def _bridges(hall, publish: str | None, subscribe: str | None, name: str | None) -> list:
    """The MQTT bridges: this hall's boards published, other halls' subscribed (not started yet)."""
    if not (publish or subscribe):
        return []
    from . import mqtt

    bridges = []
    if publish:
        hall.publisher = mqtt.Publisher(hall, publish, name)
        bridges.append(hall.publisher)
    if subscribe:
        hall.subscriber = mqtt.Subscriber(subscribe, name)
        bridges.append(hall.subscriber)
    return bridges


def _links(running: _Running, sims: int, sim_think: str | None, ports: list[str], bridges: list) -> None:
    """The boards' links: the simulated clocks started (boards 1..N), each --port, the hall's own
    threads (USB found again and again) and the bridges."""
    from .sims import SimError, Sims

    hall = running.hall
    if sims:
        running.tmp = tempfile.mkdtemp(prefix="sagat-hall-sims-")
        running.simset = Sims(sims, running.tmp, sim_think)
        print("sagat hall: " + ngettext("starting {n} simulated clock ...", "starting {n} simulated clocks ...",
                                        sims).format(n=sims), file=sys.stderr, flush=True)
        try:
            for i, port in enumerate(running.simset.start(), 1):
                hall.add(port, "sim", i)
        except SimError as e:
            raise StartError(str(e)) from None
    for port in ports:
        hall.add(port, "port")
    hall.start()
    for bridge in bridges:
        bridge.start()


# ------------------------------------------------------------------ the web app and its server


def _stop_on_sigterm() -> None:
    """uvicorn stops on SIGINT and SIGTERM, then raises the signal again to its earlier handler:
    SIGTERM's must end this process through `finally`, so the simulators go with it (set before
    the address is printed: whoever read it may stop the hall at once)."""
    import signal

    def _term(*_):
        raise KeyboardInterrupt  # a stop like Ctrl-C: the simulators closed, exit code 0

    signal.signal(signal.SIGTERM, _term)


def _announce(host: str, sock: socket.socket, token: str | None, boards: int, usb: bool) -> str:
    """The page's addresses said (and, served beyond this PC, who may act on it); the first."""
    url, *by_ip = addresses(host, sock.getsockname()[1], token)
    # (the address first on its line, in every language: whoever starts the hall reads it from there)
    if usb:
        said = ngettext("{url}  ({n} clock + USB as plugged in; Ctrl-C stops)",
                        "{url}  ({n} clocks + USB as plugged in; Ctrl-C stops)", boards)
    else:
        said = ngettext("{url}  ({n} clock; Ctrl-C stops)", "{url}  ({n} clocks; Ctrl-C stops)", boards)
    print("sagat hall: " + said.format(url=url, n=boards), file=sys.stderr, flush=True)
    for other in by_ip:  # a venue's PCs often cannot resolve this PC's name
        print("sagat hall: " + _("or by this PC's address: {url}").format(url=other), file=sys.stderr, flush=True)
    if token:
        print("sagat hall: " + _("served on {host}: anyone on the network can see the page; its buttons act only "
                                 "in a browser that opened the address above (its access token, new each run, is "
                                 "kept in a cookie). Keep it to the arbiters.").format(host=host),
              file=sys.stderr, flush=True)
    return url


def _server(web, hall, host: str, token: str | None, lang: str | None):
    """The hall's web app (web.make_app) on its server (what one client may hold bounded:
    server.py); the pages' streams end when the server stops."""
    server_class, make_app = web
    servers: list = []  # (the server, once made)
    app = make_app(hall, host, token, stopping=lambda: bool(servers) and servers[0].should_exit, lang=lang)
    server = server_class(app)
    servers.append(server)
    return server


# ------------------------------------------------------------------ the shutdown


def _shutdown(running: _Running) -> None:
    """The hall's links closed, the simulators stopped and their folder removed, the socket closed."""
    if running.hall is not None:
        running.hall.close()
    if running.simset is not None:
        running.simset.close()
    if running.tmp is not None:
        import shutil

        shutil.rmtree(running.tmp, ignore_errors=True)
    running.sock.close()


# ------------------------------------------------------------------ the page's addresses


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def local_ips(v6: bool = False) -> list[str]:
    """This PC's own IP addresses (IPv4; with `v6` IPv6 too), never loopback, link-local or
    unspecified: from its name, the interface of its route out (a UDP socket's connect sends
    nothing), and on Linux every interface's IPv4 address (a hall network with no route out)."""
    found: list[str] = []
    try:
        found += [i[4][0] for i in socket.getaddrinfo(socket.gethostname(), None)]
    except OSError:
        pass
    for fam, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(fam, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
        except OSError:
            pass
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _i, name in socket.if_nameindex():
                try:  # SIOCGIFADDR: the interface's IPv4 address
                    got = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
                    found.append(socket.inet_ntoa(got[20:24]))
                except OSError:
                    pass
    except (ImportError, AttributeError, OSError):
        pass
    out = []
    for ip in found:
        try:
            a = ipaddress.ip_address(ip.split("%")[0])
        except ValueError:
            continue
        if a.is_loopback or a.is_link_local or a.is_unspecified or (a.version == 6 and not v6):
            continue
        if str(a) not in out:
            out.append(str(a))
    return sorted(out, key=lambda x: ":" in x)  # (IPv4 first: the easier to type)


def addresses(host: str, port: int, token: str | None) -> list[str]:
    """The page's addresses to print: the first by this PC's name (or the --host given), then, served
    on every interface, by each of this PC's IP addresses (the venue's PCs may not know its name)."""
    tail = f":{port}/" + (f"?t={token}" if token else "")
    if is_loopback(host):
        return [f"http://localhost{tail}"]
    if host in ("0.0.0.0", "::", ""):
        return [f"http://{socket.gethostname()}{tail}"] + [
            f"http://[{ip}]{tail}" if ":" in ip else f"http://{ip}{tail}" for ip in local_ips(v6=host == "::")]
    return [f"http://[{host}]{tail}" if ":" in host else f"http://{host}{tail}"]


def wants_browser() -> bool:
    """Open the page in a browser: where there is a desktop to show it on."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
