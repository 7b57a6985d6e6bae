"""The hall's web server: Starlette on uvicorn, the page's plain HTML/CSS/JS (no build step, no
CDN: it works offline), live updates over Server-Sent Events, and the arbiter's actions as POSTs.
Every serial port is served by its own thread (boards.py): nothing here waits on a link, and an
action's waiting runs in a worker thread (asyncio.to_thread)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .core import Hall, HallError

STATIC = Path(__file__).parent / "static"
PUSH_S = 0.25  # the page gets the hall 4 times a second


class _NotJson(Exception):
    pass


def make_app(hall: Hall) -> Starlette:
    async def index(request: Request):
        return FileResponse(STATIC / "index.html")

    async def state(request: Request):
        return JSONResponse(hall.view())

    async def events(request: Request):
        async def stream():
            yield "retry: 1000\n\n"
            while True:
                if await request.is_disconnected():
                    return
                yield "data: " + json.dumps(hall.view()) + "\n\n"
                await asyncio.sleep(PUSH_S)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def _body(request: Request) -> dict:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            # another web site's form cannot send JSON to this page without the browser asking first
            # (CORS, which this server never allows): so no page but this one presses its buttons
            raise _NotJson()
        try:
            data = await request.json()
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    async def action(fn, *args):  # (every POST reads its body with _body first)
        try:
            return JSONResponse(await asyncio.to_thread(fn, *args))
        except HallError as e:
            return JSONResponse({"error": str(e)}, status_code=400)

    async def setup(request: Request):
        data = await _body(request)
        tc = data.get("tc")
        if not isinstance(tc, str) or not tc.strip():
            return JSONResponse({"error": "give a time control, e.g. 420 or tk-blitz"}, status_code=400)
        return await action(hall.set_up, tc.strip(), data.get("first") or "left")

    async def start(request: Request):
        await _body(request)
        resp = await action(hall.start_round)
        rnd = hall.round
        if rnd is not None and not rnd["measured"]:
            async def later():
                from .boards import host_ms

                await asyncio.sleep(max(0.0, (rnd["target"] - host_ms()) / 1000) + 0.4)
                await asyncio.to_thread(hall.measure_round)

            task = asyncio.get_running_loop().create_task(later())
            app.state.tasks.add(task)
            task.add_done_callback(app.state.tasks.discard)
        return resp

    async def pause(request: Request):
        await _body(request)
        return await action(hall.pause_all)

    async def resume(request: Request):
        await _body(request)
        return await action(hall.resume_all)

    async def result(request: Request):
        data = await _body(request)
        try:
            number = int(request.path_params["number"])
        except ValueError:
            return JSONResponse({"error": "no such board"}, status_code=404)
        return await action(hall.result, number, str(data.get("result")))

    async def not_json(request: Request, exc: Exception):
        return JSONResponse({"error": "the hall's actions take a JSON body (Content-Type: application/json)"},
                            status_code=415)

    app = Starlette(exception_handlers={_NotJson: not_json}, routes=[
        Route("/", index),
        Route("/api/state", state),
        Route("/api/events", events),
        Route("/api/setup", setup, methods=["POST"]),
        Route("/api/start", start, methods=["POST"]),
        Route("/api/pause", pause, methods=["POST"]),
        Route("/api/resume", resume, methods=["POST"]),
        Route("/api/board/{number}/result", result, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ])
    app.state.tasks = set()
    return app
