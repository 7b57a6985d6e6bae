"""A match's names on the link (docs/protocol.md, Framing and Matches): the host cuts them to what
the clock keeps (sagatfw.log.names.fit_names) before it signs `new`, and sends text as UTF-8, so
two long Cyrillic team names fit the clock's 512-byte line with the signature; a line the clock
finds too long (its answer `line_too_long` has no id) is the clock's refusal of that request at once,
not a silence. Against `sagat sim --serial` on a real pseudo-terminal, with an arbiter key."""

import json
import time

import pytest
from simkit import cli

from sagat import client
from sagatfw.link import wire as W
from sagatfw.log import names as N

KEY = "referee secret"
SOUTH = "Оңтүстік Қазақстан облысының құрамасы"
NORTH = "Солтүстік Қазақстан облысының құрамасы"


def test_a_signed_new_with_two_long_cyrillic_names_reaches_the_clock_cut_as_it_keeps_them(sim, capsys):
    code, out, err = cli(capsys, "key", KEY, "--port", sim.port)
    assert code == 0, err
    code, out, err = cli(capsys, "new", "--mode", "kokboru", "--names", SOUTH, NORTH, "--port", sim.port, "--key", KEY)
    assert code == 0, err
    kept = N.names_of(N.fit_names(SOUTH, NORTH))
    assert out.strip().endswith(f"({kept[0]} - {kept[1]})"), out
    code, out, err = cli(capsys, "state", "--json", "--port", sim.port)
    st = json.loads(out)
    assert st["mode"] == "kokboru" and st["names"] == {"left": kept[0], "right": kept[1]}
    assert SOUTH.startswith(kept[0]) and NORTH.startswith(kept[1]) and len("".join(kept).encode()) <= N.NAMES_SIZE - 1


def test_a_request_line_carries_text_as_utf8_and_the_names_as_the_clock_keeps_them(sim):
    with client.Clock(sim.port, key=KEY.encode()) as c:
        c.request("key.set", key=KEY.encode().hex())
        ans = c.request("new", auth=True, mode="kokboru", names=[SOUTH, NORTH])
        line = c.sent
    kept = N.names_of(N.fit_names(SOUTH, NORTH))
    assert ans["names"] == {"left": kept[0], "right": kept[1]}
    assert kept[0].encode() in line and b"\\u" not in line  # a letter is its two bytes, not six
    assert len(line) + 1 <= W.MAX_LINE


def test_a_line_the_clock_finds_too_long_is_refused_as_such_at_once(sim):
    with client.Clock(sim.port, timeout=10) as c:
        c.request("identify")
        t0 = time.monotonic()
        with pytest.raises(client.LinkError) as e:
            c.request("presets.set", slot=1, name="x" * W.MAX_LINE, tc="300")
        took = time.monotonic() - t0
        assert e.value.code == W.LINE_TOO_LONG and "line_too_long" in str(e.value), str(e.value)
        assert "no answer" not in str(e.value) and took < 5, (str(e.value), took)
        assert c.request("identify")["protocol"] == W.PROTOCOL  # the link goes on


def test_sagat_new_refuses_a_name_the_terminal_gave_that_is_not_utf8_in_one_line(sim, capsys):
    bad = b"Asan \xff".decode("utf-8", "surrogateescape")  # what Python makes of such an argument
    code, out, err = cli(capsys, "new", "--mode", "kokboru", "--names", bad, "Usen", "--port", sim.port)
    assert code == 2 and out == "" and err == "sagat: --names: a name is not UTF-8 text\n", err
    with client.Clock(sim.port) as c:  # the link says it in one line too, before anything is sent
        with pytest.raises(client.LinkError, match="^new: .*surrogates not allowed"):
            c.request("new", mode="kokboru", names=[bad, "Usen"])
        with pytest.raises(client.LinkError, match="^presets.set: .*surrogates not allowed"):
            c.request("presets.set", slot=1, name=bad, tc="300")
        assert c.request("state")["state"] == "setup"
