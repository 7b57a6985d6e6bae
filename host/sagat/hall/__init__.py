"""`sagat hall`: the arbiter's hall (docs/hall.md). One local web page with every clock
of the round live, the round started on every board at one instant, pause all and resume all, and
each finished game's log pulled and verified in the background."""

from __future__ import annotations

import os
import re
import secrets
import socket
import sys
import tempfile

DEFAULT_HTTP_PORT = 8716
NAME_RE = r"[A-Za-z0-9_-]{1,32}"  # a hall's name on the MQTT broker (mqtt.py checks the same)


class StartError(Exception):
    """One line for the user (the cli turns it into `sagat: ...`, exit code 2)."""


def _listen(host: str, port: int) -> socket.socket:
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)  # (uvicorn listens again with server.py's BACKLOG)
    except OSError as e:
        hint = " (another `sagat hall`? give --http-port)" if e.errno == 98 else ""
        raise StartError(f"cannot serve the page on {host}:{port}: {e.strerror or e}{hint}") from None
    sock.set_inheritable(True)
    return sock


def run(ports: list[str], sims: int | None, key: bytes, keys: list[bytes], pairings_file: str | None, host: str,
        http_port: int, out_dir: str | None, usb: bool, browser: bool, timeout: float = 2.0,
        publish: str | None = None, subscribe: str | None = None, name: str | None = None,
        event: dict | None = None, sim_think: str | None = None, lang: str | None = None) -> int:
    try:
        from .server import Server
        from .web import make_app
    except ImportError as e:
        raise StartError(f"sagat hall needs its web stack: pip install 'sagat[hall]' ({e.name} is missing)") from None
    from ..round import pairings as P
    from .core import Hall
    from .sims import SimError, Sims

    pairs = {}
    event = dict(event or {})
    if pairings_file:
        try:  # a TRF: its round --round, else the round it has paired and not played (that round then)
            pairs, source, event["round"] = P.load(pairings_file, event.get("round"))
        except P.PairingsError as e:
            raise StartError(str(e)) from None
        if source is not None:  # kept beside the logs: the report's round.trf is that tournament's, updated
            event["trf"] = pairings_file
    if sims is not None and not 1 <= sims <= 64:  # (None: no --sim)
        raise StartError("--sim takes 1..64 simulated clocks")
    if sim_think is not None:
        from ..sim.runners import play_spec
        from ..sim.script import SimError as _SimError

        if sims is None:
            raise StartError("--sim-play moves the simulated clocks: give --sim N too")
        try:
            play_spec(0, sim_think)
        except _SimError as e:
            raise StartError(str(e).replace("--think", "--sim-play")) from None
    sims = sims or 0
    bridges = []
    if publish or subscribe:
        from . import mqtt

        if name is None:  # this PC's host name and a suffix of its own (cloned PCs share a host name)
            name = mqtt.default_name()
            print(f"sagat hall: this hall's name on the broker: {name} (--name gives it another)", file=sys.stderr,
                  flush=True)
        if not re.fullmatch(NAME_RE, name):
            raise StartError(f"--name {name!r}: a hall's name is 1 to 32 letters, digits, _ or -")
        try:
            for url in (publish, subscribe):
                if url:
                    mqtt.broker(url)
            mqtt._client("check")
        except mqtt.MqttError as e:
            raise StartError(str(e)) from None
    from .web import is_loopback

    sock = _listen(host, http_port)
    # beyond this PC anyone on the network can open the page: its actions need this run's token
    token = None if is_loopback(host) else secrets.token_urlsafe(18)
    hall = Hall(key, keys, pairs, out_dir, discover=usb, timeout=timeout, event=event)
    if publish:
        hall.publisher = mqtt.Publisher(hall, publish, name)
        bridges.append(hall.publisher)
    if subscribe:
        hall.subscriber = mqtt.Subscriber(subscribe, name)
        bridges.append(hall.subscriber)
    simset = None
    tmp = None
    try:
        if sims:
            tmp = tempfile.mkdtemp(prefix="sagat-hall-sims-")
            simset = Sims(sims, tmp, sim_think)
            print(f"sagat hall: starting {sims} simulated clocks ...", file=sys.stderr, flush=True)
            try:
                for i, port in enumerate(simset.start(), 1):
                    hall.add(port, "sim", i)
            except SimError as e:
                raise StartError(str(e)) from None
        for port in ports:
            hall.add(port, "port")
        hall.start()
        for bridge in bridges:
            bridge.start()
        # uvicorn stops on SIGINT and SIGTERM, then raises the signal again to its earlier handler:
        # SIGTERM's must end this process through `finally`, so the simulators go with it (set
        # before the address is printed: whoever read it may stop the hall at once)
        import signal

        def _term(*_):
            raise KeyboardInterrupt  # a stop like Ctrl-C: the simulators closed, exit code 0

        signal.signal(signal.SIGTERM, _term)
        try:
            url, *by_ip = addresses(host, sock.getsockname()[1], token)
            print(f"sagat hall: {url}  ({len(hall.boards)} clock(s){' + USB as plugged in' if usb else ''}; "
                  f"Ctrl-C stops)", file=sys.stderr, flush=True)
            for other in by_ip:  # a venue's PCs often cannot resolve this PC's name
                print(f"sagat hall: or by this PC's address: {other}", file=sys.stderr, flush=True)
            if token:
                print(f"sagat hall: served on {host}: anyone on the network can see the page; its buttons act only "
                      "in a browser that opened the address above (its access token, new each run, is kept in a "
                      "cookie). Keep it to the arbiters.", file=sys.stderr, flush=True)
            if browser:
                import webbrowser

                webbrowser.open(url)
            servers: list = []  # (the server, once made: the pages' streams end when it stops)
            app = make_app(hall, host, token, stopping=lambda: bool(servers) and servers[0].should_exit, lang=lang)
            server = Server(app)  # (what one client may hold bounded: server.py)
            servers.append(server)
            server.run(sockets=[sock])
        except KeyboardInterrupt:
            pass
        print("sagat hall: stopped", file=sys.stderr)
        return 0
    finally:
        hall.close()
        if simset is not None:
            simset.close()
        if tmp is not None:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
        sock.close()


def local_ips(v6: bool = False) -> list[str]:
    """This PC's own IP addresses (IPv4; with `v6` IPv6 too), never loopback, link-local or
    unspecified: from its name, the interface of its route out (a UDP socket's connect sends
    nothing), and on Linux every interface's IPv4 address (a hall network with no route out)."""
    import ipaddress

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
    from .web import is_loopback

    if is_loopback(host):
        return [f"http://localhost{tail}"]
    if host in ("0.0.0.0", "::", ""):
        return [f"http://{socket.gethostname()}{tail}"] + [
            f"http://[{ip}]{tail}" if ":" in ip else f"http://{ip}{tail}" for ip in local_ips(v6=host == "::")]
    return [f"http://[{host}]{tail}" if ":" in host else f"http://{host}{tail}"]


def wants_browser() -> bool:
    """Open the page in a browser: where there is a desktop to show it on."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
