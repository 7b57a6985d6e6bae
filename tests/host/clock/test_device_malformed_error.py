"""A device that answers one of our requests with ok false and an `error` that is not an object (a
string, a number, a list: valid JSON, not the protocol's {"code", "message"}) is refused in one line
by the `sagat` command, never a traceback or "internal error". A fake clock on a real
pseudo-terminal (fakedev's ScriptedClock)."""

from __future__ import annotations

import json

import pytest
from fakedev import ScriptedClock

from sagat.cli import main


@pytest.mark.parametrize("error", ['"broken"', "42", '["a", "b"]', "null", "true"])
def test_an_error_that_is_not_an_object_is_refused_in_one_line(capsys, error):
    def answer(req):
        return b'{"id": %d, "ok": false, "error": %s}\n' % (req.get("id"), error.encode())

    dev = ScriptedClock(answer)
    try:
        rc = main(["info", "--port", dev.port, "--timeout", "2"])
    finally:
        dev.close()
    cap = capsys.readouterr()
    assert rc != 0 and "internal error" not in cap.err and "Traceback" not in cap.err, cap.err
    lines = [ln for ln in cap.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "refused" in lines[0], cap.err


def test_the_error_objects_code_and_message_are_still_said(capsys):
    def answer(req):
        err = {"code": "busy", "message": "the clock is busy"}
        return json.dumps({"id": req.get("id"), "ok": False, "error": err}).encode() + b"\n"

    dev = ScriptedClock(answer)
    try:
        rc = main(["info", "--port", dev.port, "--timeout", "2"])
    finally:
        dev.close()
    cap = capsys.readouterr()
    assert rc != 0 and "busy" in cap.err and "the clock is busy" in cap.err, cap.err
