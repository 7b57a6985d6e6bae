# No setting can make the clock unbootable, on littlefs through the protocol: `settings.set` (what
# `sagat settings` sends), `presets.set` and `new` refuse a control the clock cannot play with
# bad_arg and save nothing, so the next boot comes up normally; and a boot on any settings file
# plays on the defaults, says SETTINGS DEFAULT and logs a settings record with origin
# defaults_corrupt.
import json

from flash import unmount
from protocolrig import Rig

from sagatfw.engine import clock as C
from sagatfw.faces.game import status_text  # noqa: E402
from sagatfw.log import boot as journalboot

UNPLAYABLE = ("*60|300", "300|", "|300", "300|*60")


def _file():
    try:
        with open("/flash/settings.json") as f:
            return f.read()
    except OSError:
        return None


def _reboot():
    return Rig(fresh=False)


def _game_runs(rig):
    rig.ok("start")
    rig.press(rig.app.clock.first, 1000)
    assert rig.app.clock.state == C.RUNNING and rig.app.clock.moves[rig.app.clock.first] == 1


def test_settings_set_presets_set_and_new_refuse_unplayable_controls_and_save_nothing():
    for text in UNPLAYABLE:
        rig = Rig()
        rig.ok("settings.set", values={"sound": False, "first": "right"})
        before = _file()
        r = rig.err("settings.set", "bad_arg", values={"tc": text})
        assert "TimeControl" in r["error"]["message"], r
        rig.err("settings.set", "bad_arg", values={"tc": text, "brightness": 2})
        rig.err("presets.set", "bad_arg", slot=0, name="bad", tc=text)
        rig.err("new", "bad_arg", tc=text, first="left")
        assert _file() == before, text  # nothing saved
        assert rig.ok("settings.get")["values"]["tc"] == "420"
        rig2 = _reboot()  # the next boot: normal, on the saved settings
        assert status_text(rig2.app) is None and rig2.app.store.values["first"] == "right"
        assert rig2.ok("presets.list")["user"] == []
        _game_runs(rig2)
        unmount()


def test_boot_on_littlefs_survives_bad_settings_files():
    files = (
        b"\x00\xff" * 300,
        json.dumps({"tc": "*60|300", "first": "right"}).encode(),
        json.dumps({"tc": "300|", "lockout_ms": "60", "extension_ms": -1}).encode(),
        json.dumps({"tc": {"left": "300"}, "first": None, "presets": [{"name": "", "tc": "60"}]}).encode(),
    )
    for data in files:
        rig = Rig()
        with open("/flash/settings.json", "wb") as f:
            f.write(data)
        rig = _reboot()
        app = rig.app
        assert status_text(app) == "SETTINGS DEFAULT", data[:30]
        assert rig.ok("settings.get")["problem"]
        recs = [e for e in journalboot.game_events(app.journal, 0) if e["type"] == "settings"]
        assert recs and recs[-1]["origin"] == "defaults_corrupt", recs
        assert app.clock.tc[C.LEFT].first_ms() == 420000  # TK-B3 blitz, the default
        _game_runs(rig)
        unmount()
