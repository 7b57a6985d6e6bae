"""An action's JSON body as anyone may send it (docs/hall.md, "Serving the page on the network"): the
hall reads it with the project's bounded JSON reader (client.loads), so a body nested a hundred
thousand levels deep, or one that is not JSON, is a 400 with a one-line error, never a 500 and a
traceback in the hall's log; a body over the hall's bound is a 413 before it is all read."""

from __future__ import annotations

import json

import pytest
from webkit import request, start_hall, stop_hall

ACTIONS = ("/api/setup", "/api/start", "/api/pause", "/api/resume", "/api/board/1/act", "/api/board/1/result",
           "/api/board/1/assign", "/api/board/1/locate")


@pytest.fixture(scope="module")
def hall():
    proc, port, _url, lines = start_hall()
    yield port, lines
    stop_hall(proc)


@pytest.mark.parametrize("path", ACTIONS)
def test_a_deeply_nested_body_is_a_400_on_every_action(hall, path):
    port, lines = hall
    for body in (b"[" * 100000, b'{"a":' * 100000, b"[" * 100000 + b"]" * 100000):
        st, answer = request(port, "POST", path, body=body)
        assert st == 400, (path, st, answer[:200])
        error = json.loads(answer)["error"]
        assert error.startswith("the body is not JSON") and "nested deeper than" in error, error
        assert "\n" not in error
    assert "Traceback" not in "".join(lines), "".join(lines)


def test_a_body_that_is_not_json_is_a_400(hall):
    port, lines = hall
    for body in (b"{", b"\xff\xfe", b'{"cmd": "pause"', b"nope"):
        st, answer = request(port, "POST", "/api/pause", body=body)
        assert st == 400, (body, st, answer)
        assert json.loads(answer)["error"].startswith("the body is not JSON"), answer
    # no body at all is none (a script's `curl -X POST -H 'Content-Type: application/json'`)
    st, answer = request(port, "POST", "/api/pause", body=b"")
    assert st == 200 and json.loads(answer)["what"] == "pause all", answer
    assert "Traceback" not in "".join(lines), "".join(lines)


def test_a_body_over_the_bound_is_a_413(hall):
    from sagat.hall.web import MAX_BODY

    port, lines = hall
    body = b'{"cmd": "pause", "pad": "' + b"x" * MAX_BODY + b'"}'
    st, answer = request(port, "POST", "/api/board/1/act", body=body)
    assert st == 413, (st, answer)
    assert json.loads(answer)["error"].startswith("the body is over"), answer
    # one under it is read
    st, answer = request(port, "POST", "/api/pause", body=b'{"pad": "' + b"x" * (MAX_BODY - 20) + b'"}')
    assert st == 200, (st, answer[:200])
    assert "Traceback" not in "".join(lines), "".join(lines)
