# A power cut at every flash operation of a key change (key.set K1 -> K2) and of a key clearing
# (K1 -> none), on the real littlefs (vfs.VfsLfs2), and a torn operation at each too. After each
# cut the clock boots again on what the chip holds, logs a new game's setup under the key then in
# force, and:
#   - the key in force and the log agree: the pulled log verifies with no problem, given the key
#     in force first and the retired one after it (a key file changed without its key_set or
#     key_cleared record made every later genuine log fail, whatever the keys given);
#   - a change the clock acknowledged as durable is in force after the cut.
import gc

from flash import Flash, mount, unmount
from protocolrig import KEY, Rig, _events

from sagatfw import load_key
from sagatfw.link.commands import save_key

K2 = b"the second key"


def _boot_keyed(flash):
    mount(flash, fresh=True)
    save_key("/flash/", KEY)
    return Rig(key=KEY, fresh=False)


def _change(flash, new):
    """A clock with KEY, then key.set to `new` with the chip's cut counter armed; whether the
    clock acknowledged the change as durable."""
    rig = _boot_keyed(flash)
    rig.ok("new", KEY, tc="60", first="left")
    flash.arm()
    ans = rig.call("key.set", KEY, key=new.hex())
    return ans["ok"] and ans.get("durable") is True


def _after(image, new, acked, where):
    unmount()
    mount(Flash(image=image))
    rig = Rig(fresh=False)
    key = load_key("/flash/")
    assert key in (KEY, new), (where, key)
    if acked:
        assert key == new, (where, "an acknowledged key change was lost")
    rig.ok("new", key or None, tc="120", first="right")
    recs, _ = rig.pull(0)
    keys = [k for k in (key, KEY if key != KEY else b"") if k] or [KEY]
    _, rd = _events(recs, keys)
    assert rd.problems == [], (where, key, rd.problems)
    unmount()
    return key == new


def _sweep(new, tear):
    clean = Flash()
    _change(clean, new)
    ops = clean.ops
    clean = None
    unmount()
    changed = 0
    for n in range(1, ops + 2):
        gc.collect()
        flash = Flash(cut_at=n, tear=tear)
        acked = _change(flash, new)
        image = flash.data
        flash = None
        changed += _after(image, new, acked, (n, tear))
        image = None
    assert ops >= 3 and 0 < changed <= ops + 1, (ops, changed)  # some cuts came before it, some after
    return ops


def test_a_power_cut_at_every_flash_operation_of_a_key_change():
    ops = _sweep(K2, False)
    print("key change: power cut at every one of", ops, "flash operations: the key and the log agree")


def test_a_torn_operation_at_every_flash_operation_of_a_key_change():
    _sweep(K2, True)


def test_a_power_cut_at_every_flash_operation_of_a_key_clearing():
    ops = _sweep(b"", False)
    print("key clearing: power cut at every one of", ops, "flash operations: the key and the log agree")


def test_a_torn_operation_at_every_flash_operation_of_a_key_clearing():
    _sweep(b"", True)


def test_a_power_cut_at_every_flash_operation_of_the_same_key_set_again():
    # (the arbiter sets the key the clock has: its key_set record, then records under the same key)
    ops = _sweep(KEY, False)
    print("the same key set again: power cut at every one of", ops, "flash operations: the key and the log agree")


def test_a_change_that_waited_in_ram_then_another_cut_short_keeps_the_key_and_the_log_in_step():
    # K1 -> K2 while the flash refuses writes (its record waits in RAM, the key file stays K1),
    # the flash takes it later; then K2 -> K1 is cut before its record: the key in force after the
    # reboot is K2, as the log says
    flash = Flash()
    rig = _boot_keyed(flash)
    j = rig.app.journal

    def failing():
        raise OSError(5)

    j._write_backlog = failing
    assert rig.ok("key.set", KEY, key=K2.hex())["durable"] is False
    del j._write_backlog
    rig.ok("new", K2, tc="60", first="left")  # the backlog goes to the flash, the K2 record first
    assert not j.backlog
    flash.cut_at = 2  # the next change: its pending file reaches the chip, its record does not
    flash.arm()
    rig.call("key.set", K2, key=KEY.hex())
    image = flash.data
    unmount()
    mount(Flash(image=image))
    rig = Rig(fresh=False)
    assert load_key("/flash/") == K2
    rig.ok("new", K2, tc="120", first="right")
    recs, _ = rig.pull(0)
    _, rd = _events(recs, [K2, KEY])
    assert rd.problems == [], rd.problems
    unmount()
