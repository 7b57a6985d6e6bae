# A match set up writes the settings file only when the file does not hold the values already, on
# the real App over littlefs in RAM (MicroPython only): with the file missing it is written, so no
# boot logs defaults into the match; with it whole it is left as it is.
from flash import unmount
from protocolrig import Rig

from sagatfw.log import boot as journalboot


def _settings_records(rig):
    return [e for e in journalboot.game_events(rig.app.journal) if e["type"] == "settings"]


def test_a_match_set_up_with_no_settings_file_writes_it_and_the_reboot_logs_no_defaults():
    rig = Rig()  # a fresh flash: no settings file (the boot logged defaults_missing in game 0)
    assert rig.app.store.saved is False
    rig.ok("new", mode="kokboru", lead=8)
    assert rig.app.store.saved is True
    with open("/flash/settings.json") as f:
        assert '"tc"' in f.read()
    rig.ok("start")
    rig.at(5000)
    rig2 = Rig(fresh=False)  # the power goes: the boot reads a good file, the match comes back
    assert rig2.app.match is not None and rig2.app.store.saved is True
    assert not _settings_records(rig2), _settings_records(rig2)  # nothing of the clock's in the match's game
    unmount()


def test_a_match_set_up_leaves_a_whole_settings_file_as_it_is():
    rig = Rig()
    rig.ok("new", tc="300", first="left")  # a game's setup saves the file
    rig2 = Rig(fresh=False)
    assert rig2.app.store.saved is True
    with open("/flash/settings.json", "w") as f:  # the same values, in a form a save would not write
        import json

        f.write(json.dumps(rig2.app.store.values).replace(",", ", "))
    rig3 = Rig(fresh=False)
    assert rig3.app.store.saved is True
    with open("/flash/settings.json") as f:
        before = f.read()
    rig3.ok("new", mode="kilithattu", first="right", changeover_ms=30000, method="lot")
    with open("/flash/settings.json") as f:
        assert f.read() == before  # not written again
    unmount()
