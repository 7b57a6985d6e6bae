"""`sagat hall`: the arbiter's hall (docs/hall.md). One local web page with every clock
of the round live, the round started on every board at one instant, pause all and resume all, and
each finished game's log pulled and verified in the background.

The package's face: `run` (serve.py, the hall run from the command line, in its steps) and what
the command needs with it. Its parts: core.py (the hall's state, its boards numbered, its view and
round.json), roundstart.py and boardacts.py (the arbiter's actions on every board, on one), jobs.py
(what they share), boards.py (each clock's link, its thread, its log's pull), tile.py (a board's
tile), mqtt.py, mqttlink.py and remoteview.py (other halls' boards), web.py and server.py (the
page's app and its server), said.py (the texts the page says in its language)."""

from __future__ import annotations

from .serve import StartError, run, wants_browser

__all__ = ["StartError", "run", "wants_browser"]

