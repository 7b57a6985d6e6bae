"""The few lines `sagat hall` prints while it serves, besides its start-up and its stop, are in the user's
language too: the page's view that failed (the page says so, the hall's log too), new connections that
wait for the open files (asyncio's accept tries again a second later), uvicorn's warnings that a client
causes (a bad request), and a Ctrl-C while the command still loads. The OS's own text of an error
(strerror) is the OS's; the rest is the catalogue's."""

from __future__ import annotations

import errno
import sys
import types

from englishkit import english_lines

KK = "kk_KZ.UTF-8"


class _BrokenHall:
    def view(self):
        raise RuntimeError("x")


def test_the_pages_view_that_failed_is_said_in_kazakh(lang, capsys):
    from sagat.hall import web

    lang(KK)
    feed = web._Feed(_BrokenHall())
    feed.current()
    err = capsys.readouterr().err
    assert err.startswith("sagat hall: ") and "RuntimeError: x" in err, err
    assert not english_lines(err), err


def test_new_connections_waiting_for_open_files_is_said_in_kazakh(lang, capsys):
    import asyncio

    from sagat.hall.server import Server

    lang(KK)
    server = Server(lambda *a: None, cap=16)
    loop = asyncio.new_event_loop()
    try:
        server._loop_error(loop, {"message": "socket.accept() out of system resource",
                                  "exception": OSError(errno.EMFILE, "Too many open files")})
    finally:
        loop.close()
    err = capsys.readouterr().err
    assert err.startswith("sagat hall: ") and "Too many open files" in err and err.count("\n") == 1, err
    assert not english_lines(err.replace("Too many open files", "")), err


class _Loading(types.ModuleType):
    def __getattr__(self, name):
        raise KeyboardInterrupt  # (a Ctrl-C while the command's modules load)


def test_a_ctrl_c_while_the_command_loads_is_said_in_kazakh(lang, capsys, monkeypatch):
    from sagat import entry
    from sagat.i18n import _

    lang(KK)
    monkeypatch.setitem(sys.modules, "sagat.cli", _Loading("sagat.cli"))
    assert entry.run() == 130
    err = capsys.readouterr().err
    assert err == "sagat: " + _("interrupted") + "\n" and _("interrupted") != "interrupted", err


def test_uvicorns_warnings_a_client_causes_are_said_in_kazakh(lang):
    # (any PC of the venue's network can send a request that is not HTTP: the hall's log says so once a minute)
    import logging

    from sagat.hall.server import Server

    lang(KK)
    Server(lambda *a: None, cap=16)  # (its filter on uvicorn's logger)
    said = []

    class Keep(logging.Handler):
        def emit(self, record):
            said.append(record.getMessage())

    log = logging.getLogger("uvicorn.error")
    keep = Keep()
    log.addHandler(keep)
    try:
        for msg in ("Invalid HTTP request received.", "Unsupported upgrade request.",
                    "No supported WebSocket library detected. Please use \"pip install 'uvicorn[standard]'\", or "
                    "install 'websockets' or 'wsproto' manually."):
            log.warning(msg)
    finally:
        log.removeHandler(keep)
    assert len(said) == 2 and not english_lines("\n".join(said)), said
