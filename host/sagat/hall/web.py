"""The hall's web server: Starlette on uvicorn, the page's plain HTML/CSS/JS (no build step, no
CDN: it works offline), live updates over Server-Sent Events, and the arbiter's actions as POSTs.
Every serial port is served by its own thread (boards.py): nothing here waits on a link, and an
action's waiting runs in a worker thread (asyncio.to_thread). The routes are one list (ROUTES), each
finding the hall, the shared feed, the access token and --lang in the app's state, which the app
factory (make_app) gives it; what an action does is the hall's (core.py), not this module's."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import json
import socket
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request, cookie_parser
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import client
from ..i18n import _
from . import acts
from . import lang as hall_lang
from .core import Hall, HallError
from .said import said, text_of, with_msg

STATIC = Path(__file__).parent / "static"
PUSH_S = 0.25  # the page gets the hall 4 times a second
MAX_EVENT_CLIENTS = 32  # pages open on the hall at once (each a Server-Sent Events stream)
ARBITER_PAGES = 8  # of those, kept for pages with the access token (spectators cannot take them all)
COOKIE = "sagat_hall"  # the access token, once the arbiter opened the address `sagat hall` printed
# the page loads nothing but its own files: no inline script, no other site, never in a frame
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


MAX_BODY = 1 << 20  # an action's JSON body, at most (the page's are under a hundred bytes)


class _NotJson(Exception):
    pass


class _BadBody(Exception):
    """An action's body the hall does not read: (its HTTP status, the one-line error)."""


READ_ONLY = said("err_read_only", "this page is read-only here: act from the address `sagat hall` printed (with its "
                 "access token, ?t=...)")


def _error(text) -> dict:
    """An error's answer: {"error": its English text, "msg": its code for the page (when it has one)}."""
    return with_msg({}, "error", text, "msg")


def host_names(host: str) -> set[str]:
    """The names the hall answers to (beside any IP address, which no DNS rebinding can use: the
    attack needs a name of the attacker's, made to point at the hall): localhost, the --host given,
    and for all interfaces (0.0.0.0, ::) this PC's own names."""
    names = {"localhost", host.lower().strip("[]")}
    if host in ("0.0.0.0", "::", ""):
        short = socket.gethostname().lower()
        names |= {short, short.split(".")[0], short.split(".")[0] + ".local", socket.getfqdn().lower()}
    return {n for n in names if n}


def _host_of(header: str | None) -> str | None:
    if not header or any(c.isspace() or c in "/\\@?#" for c in header):
        return None
    try:
        u = urlsplit("//" + header)
        u.port  # noqa: B018 - a port that is not a number: no host
    except ValueError:
        return None
    return u.hostname


def cookie_name(token: str) -> str:
    """The token's cookie: named after the token (a browser keeps one jar per host whatever the
    port, so two halls on one PC would each overwrite the other's under one name)."""
    return f"{COOKIE}_{hashlib.sha256(token.encode()).hexdigest()[:12]}"


def has_token(headers: Headers, token: str | None) -> bool:
    """The request carries the access token (its cookie, or X-Hall-Token from a script); True when
    the hall needs none."""
    if token is None:
        return True
    given = headers.get("x-hall-token") or cookie_parser(headers.get("cookie", "")).get(cookie_name(token), "")
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode())


class _Guard:
    """Every request: answered only under the hall's own names (Host; DNS rebinding). Every action
    (a POST): only from the hall's own page (Origin, Sec-Fetch-Site), and with the access token when
    the hall is served beyond this PC."""

    def __init__(self, app, names: set[str], token: str | None):
        self.app = app
        self.names = names
        self.token = token

    def host_ok(self, header: str | None) -> bool:
        name = _host_of(header)
        if name is None:
            return False
        if name.lower() in self.names:
            return True
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            return False

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        host = headers.get("host")
        if not self.host_ok(host):
            return await JSONResponse({"error": f"this hall answers to {', '.join(sorted(self.names))} or its "
                                       "IP address, not to this Host"}, status_code=400)(scope, receive, send)
        if scope["method"] not in ("GET", "HEAD"):
            origin = headers.get("origin")
            site = headers.get("sec-fetch-site")
            if (origin is not None and urlsplit(origin).netloc.lower() != host.lower()) or \
                    (site is not None and site not in ("same-origin", "none")):
                return await JSONResponse({"error": "refused: the hall takes actions only from its own page"},
                                          status_code=403)(scope, receive, send)
            if not has_token(headers, self.token):
                return await JSONResponse(_error(READ_ONLY), status_code=401)(scope, receive, send)
        return await self.app(scope, receive, send)


class _Feed:
    """The hall's view as JSON, computed once per tick however many pages are open, and only while
    one is; GET /api/state shares it too (a view under PUSH_S old is never computed again: the view
    is computed in the event loop, so a script or spectator spamming requests would slow the pages)."""

    def __init__(self, hall: Hall):
        self.hall = hall
        self.text = ""
        self.at: float | None = None  # time.monotonic() of self.text
        self.tick = 0
        self.clients = 0
        self.changed: asyncio.Event | None = None
        self.task: asyncio.Task | None = None
        self.failed: str | None = None
        self.stopping = lambda: False  # the server stops: every page's stream ends (else it waits on them)

    def current(self) -> str:
        """The view: the shared one while it is under PUSH_S old, else computed anew (and shared)."""
        if self.at is None or time.monotonic() - self.at >= PUSH_S:
            self.text = self.compute()
            self.at = time.monotonic()
        return self.text

    def compute(self) -> str:
        try:
            text = json.dumps(self.hall.view())
            self.failed = None
            return text
        except Exception as e:  # noqa: BLE001 - the page says so, and the next tick tries again
            why = f"{type(e).__name__}: {e}"
            if why != self.failed:
                print("sagat hall: " + _("the page's view failed: {error}").format(error=why), file=sys.stderr,
                      flush=True)
            self.failed = why
            return json.dumps(_error(said("err_view_failed", "the hall's view failed ({why})", why=why)))

    def join(self) -> None:
        self.clients += 1
        if self.changed is None:
            self.changed = asyncio.Event()
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    def leave(self) -> None:
        self.clients -= 1

    async def _run(self) -> None:
        while self.clients > 0:
            self.current()  # (one a GET /api/state computed just now serves this tick too)
            self.tick += 1
            done, self.changed = self.changed, asyncio.Event()
            done.set()
            await asyncio.sleep(PUSH_S)
        self.task = None

    async def stream(self):
        seen = 0
        yield "retry: 1000\n\n"
        while not self.stopping():
            if self.tick == seen:
                await self.changed.wait()
                if self.stopping():
                    return
            seen = self.tick
            yield "data: " + self.text + "\n\n"


class _Events:
    """GET /api/events: the shared feed, to at most MAX_EVENT_CLIENTS pages at once; on a hall
    served beyond this PC, pages without the access token (spectators) to ARBITER_PAGES fewer, so
    the arbiters' own pages always find a place. (An ASGI app: the stream is its own response.)"""

    async def __call__(self, scope, receive, send):
        feed, token = scope["app"].state.feed, scope["app"].state.token
        limit = MAX_EVENT_CLIENTS if has_token(Headers(scope=scope), token) else MAX_EVENT_CLIENTS - ARBITER_PAGES
        if feed.clients >= limit:
            return await JSONResponse({"error": f"{MAX_EVENT_CLIENTS} pages are open on the hall already: "
                                       "close one"}, status_code=503)(scope, receive, send)
        feed.join()
        try:
            await StreamingResponse(feed.stream(), media_type="text/event-stream",
                                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})(
                scope, receive, send)
        except (OSError, ClientDisconnect):
            pass  # the page went away
        finally:
            feed.leave()


# ------------------------------------------------------------------ the routes (request.app.state: make_app's)


async def index(request: Request):
    token = request.app.state.token
    given = request.query_params.get("t")
    if token is not None and given is not None and hmac.compare_digest(given.encode("utf-8", "replace"),
                                                                       token.encode()):
        resp = RedirectResponse("/", status_code=303)  # the token to a cookie, out of the address bar
        resp.set_cookie(cookie_name(token), token, httponly=True, samesite="strict", path="/")
        resp.headers["Referrer-Policy"] = "no-referrer"
        return resp
    return FileResponse(STATIC / "index.html", headers={
        "Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"})


async def access(request: Request):
    return JSONResponse({"act": has_token(request.headers, request.app.state.token)})


async def language(request: Request):
    # the page's language: --lang, else the browser's; the page may choose another (kept in the browser)
    lang = request.app.state.lang
    chosen = lang or hall_lang.accept(request.headers.get("accept-language")) or hall_lang.DEFAULT
    return JSONResponse({"lang": chosen, "languages": list(hall_lang.LANGUAGES), "hall": lang},
                        headers={"Cache-Control": "no-store"})


async def actions(request: Request):  # the arbiter dialog's, from the firmware's table (acts.py)
    return JSONResponse(acts.page())


async def state(request: Request):
    feed = request.app.state.feed
    text = feed.current()
    return JSONResponse(json.loads(text), status_code=500 if feed.failed else 200)


async def _body(request: Request) -> dict:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        # another web site's form cannot send JSON to this page without the browser asking first
        # (CORS, which this server never allows); a page of another site that reaches the hall
        # under its own name (DNS rebinding) is refused by _Guard (Host, Origin)
        raise _NotJson()
    size = request.headers.get("content-length", "")
    if size.isdigit() and int(size) > MAX_BODY:
        raise _BadBody(413, f"the body is over {MAX_BODY} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise _BadBody(413, f"the body is over {MAX_BODY} bytes")
    if not raw.strip():
        return {}  # (none: a script's POST)
    try:  # the project's bounded reader: nesting too deep is bad JSON, not a RecursionError
        data = client.loads(raw)
    except ValueError as e:  # (UnicodeDecodeError too)
        raise _BadBody(400, f"the body is not JSON: {e}") from None
    return data if isinstance(data, dict) else {}


async def _action(request: Request, fn, *args):  # (every POST reads its body with _body first)
    try:
        return JSONResponse(await asyncio.to_thread(fn, *args))
    except HallError as e:  # (HallBusy: 409, another action still running)
        return JSONResponse(_error(text_of(e)), status_code=getattr(e, "status", 400))
    finally:
        request.app.state.feed.at = None  # the shared view is from before the action: never given after it


async def setup(request: Request):
    data = await _body(request)
    tc = data.get("tc")
    mode = data.get("mode") or None  # a match round: kokboru, kilithattu (the pairings' names go with it)
    if mode is not None and not isinstance(mode, str):
        return JSONResponse(_error(said("err_mode_name", "mode must be a match mode's name")), status_code=400)
    if mode is None and (not isinstance(tc, str) or not tc.strip()):
        return JSONResponse(_error(said("err_give_tc", "give a time control, e.g. 420 or tk-blitz")),
                            status_code=400)
    first = data.get("first") or "left"
    hall = request.app.state.hall
    # the clocks' language (their faces'): the hall's (--lang), which its arbiter chose for the whole hall and
    # its players, else the language of the page the arbiter set up from (one browser's choice, so second);
    # neither (a script's POST without one): each clock keeps its own
    page = data.get("lang")
    lang = request.app.state.lang or (page if isinstance(page, str) and page in hall_lang.LANGUAGES else None)
    return await _action(request, hall.set_up, tc.strip() if isinstance(tc, str) else "", first, mode, lang)


async def start(request: Request):
    await _body(request)
    app, hall = request.app, request.app.state.hall
    resp = await _action(request, hall.start_round)
    rnd = hall.last_start  # (the round's, or a late start's)
    if resp.status_code == 200 and rnd is not None and not rnd["measured"]:  # (not a refused start's)
        async def later():
            await asyncio.sleep(hall.measure_wait_s(rnd))
            await asyncio.to_thread(hall.measure_round)
            app.state.feed.at = None

        task = asyncio.get_running_loop().create_task(later())
        app.state.tasks.add(task)
        task.add_done_callback(app.state.tasks.discard)
    return resp


async def pause(request: Request):
    await _body(request)
    return await _action(request, request.app.state.hall.pause_all)


async def resume(request: Request):
    data = await _body(request)
    # a board restored after a power cut only when the page asked the arbiter first (TK-C18)
    return await _action(request, request.app.state.hall.resume_all, data.get("restored") is True)


async def act(request: Request):
    data = await _body(request)
    cmd = data.pop("cmd", None)
    if not isinstance(cmd, str):
        return JSONResponse(_error(said("err_give_cmd", "give the action as cmd (adjust, extend, pause, ...)")),
                            status_code=400)
    return await _action(request, request.app.state.hall.act, request.path_params["number"], cmd, data)


async def locate(request: Request):
    await _body(request)
    return await _action(request, request.app.state.hall.locate, request.path_params["number"])


async def assign(request: Request):
    await _body(request)
    return await _action(request, request.app.state.hall.assign, request.path_params["number"])


async def result(request: Request):
    data = await _body(request)
    # the path's text as it is: the hall takes only the page's ASCII digits (int() takes any script's)
    kazans = data.get("kazans")  # the final kazans, "82-79" (TK-R7): the hall and the clock check them
    return await _action(request, request.app.state.hall.result, request.path_params["number"],
                         str(data.get("result")), None if kazans is None else str(kazans))


async def not_json(request: Request, exc: Exception):
    return JSONResponse({"error": "the hall's actions take a JSON body (Content-Type: application/json)"},
                        status_code=415)


async def bad_body(request: Request, exc: Exception):
    status, text = exc.args
    return JSONResponse({"error": text}, status_code=status)



class _Revalidated(StaticFiles):
    """The page's files, each checked again on every load (Cache-Control: no-cache; an unchanged
    file is a 304 by its ETag): a browser that kept the modules of an older sagat would mix them
    with the new ones after an upgrade, one module importing a name another no longer has."""

    def file_response(self, *args, **kwargs):
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response

ROUTES = [
    Route("/", index),
    Route("/api/state", state),
    Route("/api/access", access),
    Route("/api/lang", language),
    Route("/api/actions", actions),
    Route("/api/events", _Events()),
    Route("/api/setup", setup, methods=["POST"]),
    Route("/api/start", start, methods=["POST"]),
    Route("/api/pause", pause, methods=["POST"]),
    Route("/api/resume", resume, methods=["POST"]),
    Route("/api/board/{number}/result", result, methods=["POST"]),
    Route("/api/board/{number}/assign", assign, methods=["POST"]),
    Route("/api/board/{number}/act", act, methods=["POST"]),
    Route("/api/board/{number}/locate", locate, methods=["POST"]),
    Mount("/static", _Revalidated(directory=str(STATIC)), name="static"),
]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette):
    """The app's life on its server: the start's measures still waiting end with it."""
    yield
    for task in list(app.state.tasks):
        task.cancel()


def make_app(hall: Hall, host: str = "127.0.0.1", token: str | None = None, stopping=None,
             lang: str | None = None) -> Starlette:
    """The hall's app; `host` as served (--host), `token`: the access token its actions need (a
    hall served beyond this PC), or None; `stopping()`: True once the server stops; `lang`: the
    page's language (--lang: kk, ru, ky, en), else each browser's (its Accept-Language)."""
    hall_lang.check(lang)
    feed = _Feed(hall)
    if stopping is not None:
        feed.stopping = stopping
    app = Starlette(routes=ROUTES, exception_handlers={_NotJson: not_json, _BadBody: bad_body}, lifespan=lifespan)
    app.state.hall, app.state.feed, app.state.token, app.state.lang = hall, feed, token, lang
    app.state.tasks = set()  # (the start's measures waiting: a task is kept until it is done)
    app.add_middleware(_Guard, host_names(host), token)
    return app
