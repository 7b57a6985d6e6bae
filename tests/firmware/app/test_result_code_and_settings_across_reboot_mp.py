# Attacks on the firmware (MicroPython unix port, littlefs in RAM): the
# result code on the faces, a reboot after a result, and settings changed before the start. Each
# test performs one attack and asserts what a sound clock must do; each failed when written (a
# finding) and passes with its fix.
# Run: python -m pytest -q tests/test_micropython.py -k result_code_and_settings_across_reboot
import gc

from flash import Flash, mount, unmount
from protocolrig import Rig

from sagatfw.engine import clock as C
from sagatfw.faces.game import status_text  # noqa: E402
from sagatfw.log import boot as journalboot


def _fresh(blocks=64):
    unmount()
    gc.collect()
    f = Flash(blocks=blocks)
    mount(f, fresh=True)
    return f


def _reboot(f):
    """A power cut and a boot on the same flash (what littlefs holds; RAM is gone)."""
    unmount()
    gc.collect()
    mount(f)
    return Rig(fresh=False)


def _results(rig):
    return [e for e in journalboot.game_events(rig.app.journal) if e["type"] == "result"]


def _started():
    """A fresh flash, an unkeyed clock, a 300 s game started and 4 s in."""
    f = _fresh()
    rig = Rig(fresh=False)
    rig.at(0)
    rig.ok("new", tc="300")
    rig.ok("start")
    rig.at(4000)
    return f, rig


def test_code_on_the_faces_is_only_that_of_a_durable_result():
    """The arbiter copies the code on the faces onto the scoresheet as proof of the result. Here
    the flash fails (I/O error) as the result is entered: the result record stays in RAM, yet
    the faces say `CODE nnnnnn` (hiding LOG ERROR) and `state` reports the code. A power cut
    then loses the result: the log never holds the code the arbiter wrote down, and verify
    --code will call the (honest) log forged."""
    f, rig = _started()
    rig.ok("pause")
    f.read_only = True  # the flash stops taking writes
    rig.at(5000)
    rig.ok("result", result="1-0")
    j = rig.app.journal
    st = rig.ok("state")
    assert j.backlog and st["result_code"] is None and status_text(rig.app) == "LOG ERROR", (status_text(rig.app), st)
    f.read_only = False  # the flash works again: the clock retries within a second, then shows it
    rig.at(6100)
    st = rig.ok("state")
    assert not j.backlog and st["result_code"] == j.result_code and status_text(rig.app) == "CODE " + j.result_code
    unmount()


def test_reboot_after_a_result_still_gives_its_code():
    """A power cut (or a battery swap) after the result: the finished game's result record is on
    the flash, but the faces and `state` no longer give its code, so an arbiter who had not yet
    copied it has no way to get it from the clock."""
    f, rig = _started()
    rig.ok("result", result="0-1")
    code = rig.app.journal.result_code
    assert code is not None and status_text(rig.app) == "CODE " + code
    assert rig.ok("state")["result_code"] == code
    rig = _reboot(f)
    rig.at(100)
    res = _results(rig)
    assert res and res[-1]["result"] == "0-1"  # the result is durable
    st = rig.ok("state")
    assert st["result_code"] == code, (st["result_code"], code)
    assert status_text(rig.app) == "CODE " + code, status_text(rig.app)
    unmount()


def test_power_cut_after_a_settings_change_before_the_start_keeps_the_new_control():
    """`new` logs game N's setup (tc 420). Before the start the arbiter changes the control with
    settings.set (tc 5400+30): the faces show 1:30:00 at once and the settings file says 5400+30,
    but the log only gets a plain settings record. A power cut now: the boot restores game N
    from its setup record and the faces come back with 7:00 - the old control."""
    f = _fresh()
    rig = Rig(fresh=False)
    rig.at(0)
    rig.ok("new", tc="420")
    rig.ok("settings.set", values={"tc": "5400+30"})
    assert rig.app.clock.ms(C.LEFT) == 5400000
    rig = _reboot(f)
    rig.at(100)
    assert rig.app.store.values["tc"] == "5400+30"
    st = rig.ok("state")
    assert rig.app.clock.ms(C.LEFT) == 5400000 and rig.app.clock.ms(C.RIGHT) == 5400000, (
        "after the power cut the faces say %d / %d ms (tc %r), the arbiter set 5400+30"
        % (rig.app.clock.ms(C.LEFT), rig.app.clock.ms(C.RIGHT), st["tc"]))
    unmount()


def test_a_settings_change_before_the_start_keeps_the_late_installation():
    """TK-C11: the arbiter sets a late installation (both faces cut, logged as adjust records),
    then, before the start, turns the sound off. settings.set sets the game up again from the
    stored control: the late installation is silently gone from the faces."""
    f = _fresh()
    rig = Rig(fresh=False)
    rig.at(0)
    rig.ok("new", tc="1800")
    rig.ok("late_install", elapsed_ms=600000)
    assert rig.app.clock.ms(C.LEFT) == 1500000
    rig.ok("settings.set", values={"sound": False})
    assert rig.app.clock.ms(C.LEFT) == 1500000 and rig.app.clock.ms(C.RIGHT) == 1500000, (
        "a sound setting undid the late installation: faces %d / %d ms"
        % (rig.app.clock.ms(C.LEFT), rig.app.clock.ms(C.RIGHT)))
    f.read_only = False
    unmount()
