"""`sagat logs verify` and the key records (settings with origin key_set / key_cleared), as the clock
writes them: `sagat key` against `sagat sim --serial --headless` (the firmware on a real
pseudo-terminal and a real littlefs image). A clock that has no key logs `sagat key ''` as a
key_cleared record too, sealed unkeyed: it retires no key, and the log verifies clean. A clock given
the key it already has (`sagat key K --key K`) logs a key_set record and goes on under the same key:
the log verifies clean too, and a record forged after it is still caught."""

import json

from codekit import LEFT_MOVES, NEW, START, _result
from imagekit import edit_image
from simkit import Sim, cli

from sagatfw.log import records as R

KEY = "hall secret"
KEY2 = "second hall secret"


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


def _key(capsys, port, new, old):
    code, _, err = cli(capsys, "key", new, "--port", port, *(["--key", old] if old else []))
    assert code == 0, err


def _game_played(capsys, tmp_path, flash):
    """A game set up, started, a move, its result, played by the sim in virtual time on `flash` (its key
    file as the key changes left it): the flash."""
    script = tmp_path / "game.jsonl"
    script.write_text("".join(json.dumps(a) + "\n" for a in [NEW, START, LEFT_MOVES, _result(8000, "1-0")]))
    code, _, err = cli(capsys, "sim", "--script", str(script), "--flash", flash, "--virtual")
    assert code == 0, err
    return flash


def _verify(capsys, flash, *keys):
    return cli(capsys, "logs", "verify", "--image", flash, *[a for k in keys for a in ("--key", k)])[:2]


def _key_sets(capsys, flash, *keys):
    code, out, _ = cli(capsys, "logs", "show", "--image", flash, "--json", *[a for k in keys for a in ("--key", k)])
    return [e["seq"] for e in map(json.loads, out.splitlines()) if e.get("origin") == "key_set"]


def test_the_same_key_set_again_then_a_game_verifies_under_it(sim, capsys, tmp_path):
    # before: the record after the second key_set links under the key it "retired" (the same one), and a
    # genuine log was BROKEN: "links under the key that the key change at seq N retired"
    _key(capsys, sim.port, KEY, None)
    _key(capsys, sim.port, KEY, KEY)
    sim.stop()
    flash = _game_played(capsys, tmp_path, sim.flash)
    assert len(_key_sets(capsys, flash, KEY)) == 2  # the clock logs both
    code, out = _verify(capsys, flash, KEY)
    assert code == 0 and out.startswith("OK: "), out
    code, out = _verify(capsys, flash, KEY, KEY)  # (the key given twice: the same)
    assert code == 0 and out.startswith("OK: "), out


def test_the_same_key_set_again_after_a_power_cut_verifies_under_it(sim, capsys, tmp_path):
    _key(capsys, sim.port, KEY, None)
    sim.stop()  # the power off: the clock boots again on its flash
    again = Sim(tmp_path, [])
    try:
        _key(capsys, again.port, KEY, KEY)
    finally:
        again.stop()
    flash = _game_played(capsys, tmp_path, sim.flash)
    assert len(_key_sets(capsys, flash, KEY)) == 2
    code, out = _verify(capsys, flash, KEY)
    assert code == 0 and out.startswith("OK: "), out
    # and pulled from the clock, with the head it signs under the key in force
    clock = Sim(tmp_path, [])
    try:
        code, _, err = cli(capsys, "logs", "pull", "--port", clock.port, "--key", KEY, "--out", str(tmp_path / "pull"))
        assert code == 0, err
    finally:
        clock.stop()
    code, out, _ = cli(capsys, "logs", "verify", "--records", str(tmp_path / "pull" / "records.bin"), "--key", KEY)
    assert code == 0 and out.startswith("OK: ") and "head" in out, out


def test_a_key_set_back_to_an_earlier_one_verifies_under_both(sim, capsys, tmp_path):
    _key(capsys, sim.port, KEY, None)
    _key(capsys, sim.port, KEY2, KEY)
    _key(capsys, sim.port, KEY, KEY2)
    sim.stop()
    flash = _game_played(capsys, tmp_path, sim.flash)
    code, out = _verify(capsys, flash, KEY, KEY2)
    assert code == 0 and out.startswith("OK: "), out
    # without the key of the range between them, that range cannot be checked: said, and which key it needs
    sets = _key_sets(capsys, flash, KEY, KEY2)
    code, out = _verify(capsys, flash, KEY)
    assert code == 1 and out.startswith(f"BROKEN at seq {sets[1] + 1}"), out
    assert f"the key set at seq {sets[1]} is needed" in out, out


def test_a_record_forged_after_the_same_key_set_again_is_caught(sim, capsys, tmp_path):
    _key(capsys, sim.port, KEY, None)
    _key(capsys, sim.port, KEY, KEY)
    sim.stop()
    flash = _game_played(capsys, tmp_path, sim.flash)
    at = _key_sets(capsys, flash, KEY)[-1] + 1  # the record after the second key_set
    chains = {s: R.Chain(k) for s, k in ((0, b""), (_key_sets(capsys, flash, KEY)[0] + 1, KEY.encode()))}

    def forge(segs):
        # the log resealed as it was up to the record after the key_set, that record changed and resealed
        # with a key that is not the clock's, and every record after it chained on under that key
        prev, chain = R.ZERO_CHAIN, None
        for name in sorted(segs):
            seg = segs[name]
            for i in range(0, len(seg), R.RECORD_SIZE):
                rec = memoryview(seg)[i : i + R.RECORD_SIZE]
                if rec[1] == R.T_ANCHOR:
                    R.pack_anchor(rec, R.game_of(rec), R.seq_of(rec), prev)
                    continue
                seq = R.seq_of(rec)
                chain = R.Chain(b"not the hall's key") if seq == at else chains.get(seq, chain)
                if seq == at:
                    rec[12] ^= 1  # its time
                assert seq >= at or chain.link(prev, rec[: R.CHAIN]) == R.chain_of(rec)  # (resealed as it was)
                prev = R.seal(rec, prev, chain)

    bad = edit_image(flash, tmp_path / "forged.img", forge)
    code, out = _verify(capsys, bad, KEY)
    assert code == 1 and out.startswith(f"BROKEN at seq {at}"), out
