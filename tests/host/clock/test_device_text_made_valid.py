"""A device's text is made valid where it enters (client.loads, which reads every answer on the
link and every file a pull wrote): a lone surrogate, "\\ud800" (valid JSON) or its own UTF-8 bytes,
becomes U+FFFD. Before, the `sagat` command failed printing it (`internal error
(UnicodeEncodeError)`), and the hall's GET /api/state with it (tests/host/hall/
test_hall_text_made_valid.py). A fake clock on a real pseudo-terminal (fakedev's ScriptedClock)."""

from __future__ import annotations

import json

import pytest
from fakedev import ScriptedClock

from sagat import client
from sagat.cli import main

LONE = "\ud800"
BAD = "\ufffd"


@pytest.mark.parametrize("text", [
    b'{"a": "x\\ud800y", "\\udfffk": ["\\uDBFF", {"b": "\\ud83d"}]}',  # escapes (any case)
    b'{"a": "x\xed\xa0\x80y", "\xed\xbf\xbfk": ["\xed\xaf\xbf", {"b": "\xed\xa0\xbd"}]}',  # a surrogate's bytes
    '{"a": "x\\ud800y", "\\udfffk": ["\\udbff", {"b": "\\ud83d"}]}',  # (a str as a bytes)
])
def test_loads_makes_every_lone_surrogate_the_replacement_character(text):
    got = client.loads(text)
    assert got == {"a": f"x{BAD}y", f"{BAD}k": [BAD, {"b": BAD}]}
    json.dumps(got, ensure_ascii=False).encode("utf-8")  # (strict: valid text)


def test_loads_keeps_valid_text_as_it_is():
    assert client.loads(b'{"a": "\\ud83d\\ude00 \xf0\x9f\x98\x80 \\\\ud800 \xd0\x90\\u0410"}') == \
        {"a": "\U0001F600 \U0001F600 \\ud800 \u0410\u0410"}  # a pair is one character; "\\\\ud800" is text


def _answers(req):
    if req.get("cmd") == "state":  # a match's state: its message is printed
        return {"mode": "kokboru", "state": "running", "game": 1, "match_ms": 1000, "period_name": "1",
                "left": {"score": 1, "warnings": 0, "reds": 0}, "right": {"score": 0, "warnings": 0, "reds": 0},
                "message": "message " + LONE}
    return {"uid": "clock-" + LONE, "firmware": "0.1." + LONE, "protocol": 2, "board": "sim" + LONE}


@pytest.mark.parametrize("argv, said", [(["info"], "clock-" + BAD), (["state"], "message " + BAD)])
def test_the_sagat_command_prints_a_clocks_lone_surrogate_as_the_replacement_character(capsys, argv, said):
    dev = ScriptedClock(_answers)  # (json.dumps escapes each surrogate: "\ud800" on the link)
    try:
        rc = main(argv + ["--port", dev.port, "--timeout", "2"])
    finally:
        dev.close()
    cap = capsys.readouterr()
    assert rc == 0 and "internal error" not in cap.err and "Traceback" not in cap.err, cap.err
    assert said in cap.out, cap.out
