"""`sagat logs verify` and the key records (settings with origin key_set / key_cleared), as the clock
writes them: `sagat key` against `sagat sim --serial --headless` (the firmware on a real
pseudo-terminal and a real littlefs image). A clock that has no key logs `sagat key ''` as a
key_cleared record too, sealed unkeyed: it retires no key, and the log verifies clean."""

import json

from simkit import cli

KEY = "hall secret"


def _keyed_changes(capsys, sim, *changes):
    """Each `sagat key NEW [--key OLD]` on the sim, then a game set up, the sim stopped: its flash."""
    for new, old in changes:
        code, _, err = cli(capsys, "key", new, "--port", sim.port, *(["--key", old] if old else []))
        assert code == 0, err
    assert cli(capsys, "new", "60", "--port", sim.port)[0] == 0
    sim.stop()  # (its flash written)
    return sim.flash


def _origins(capsys, flash, *key):
    code, out, _ = cli(capsys, "logs", "show", "--image", flash, "--json", *key)
    return [e.get("origin") for e in map(json.loads, out.splitlines()) if e["type"] == "settings"]


def test_a_key_cleared_on_a_clock_that_never_had_one_verifies(sim, capsys):
    flash = _keyed_changes(capsys, sim, ("", None))
    assert "key_cleared" in _origins(capsys, flash)  # the clock writes it
    code, out, _ = cli(capsys, "logs", "verify", "--image", flash)
    assert code == 0 and out.startswith("OK: "), out


def test_a_key_cleared_again_after_the_keys_own_clear_verifies_under_that_key(sim, capsys):
    # before: the second clear (unkeyed: the clock had no key any more) took the place of the key's own
    # clear, and a genuine log "ended unkeyed with no key_cleared record under the first --key"
    flash = _keyed_changes(capsys, sim, (KEY, None), ("", KEY), ("", None))
    assert _origins(capsys, flash, "--key", KEY).count("key_cleared") == 2
    code, out, _ = cli(capsys, "logs", "verify", "--image", flash, "--key", KEY)
    assert code == 0 and out.startswith("OK: "), out
