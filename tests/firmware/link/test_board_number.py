# The clock's board number (the `board` setting, set by the hall): a whole number 0..999, 0 none,
# set like any setting (signed on a keyed clock), kept in the settings file; identify's `number`;
# state's message in setup ("BOARD 8") and with the result code ("B8 CODE ..."). Both runtimes.
from bothrig import KEY, done, rig


def test_the_board_setting_is_identify_number_and_kept_in_the_file():
    r = rig()
    assert r.ok("settings.get")["values"]["board"] == 0
    assert r.ok("identify")["number"] == r.srv.info.get("number")  # none set: the board_info's
    r.ok("settings.set", values={"board": 8})
    assert r.ok("identify")["number"] == 8
    store = r.app.store
    store.load()  # what the next boot reads
    assert store.values["board"] == 8 and store.problem is None
    done()


def test_a_board_number_out_of_range_is_refused_and_nothing_changes():
    r = rig()
    for bad in (-1, 1000, "8", True, 8.0):
        msg = r.err("settings.set", "bad_arg", values={"board": bad})["error"]["message"]
        assert "board" in msg, msg
    assert r.ok("settings.get")["values"]["board"] == 0
    done()


def test_a_keyed_clock_takes_the_board_number_only_signed():
    r = rig(KEY)
    r.err("settings.set", "auth_required", values={"board": 12})
    r.ok("settings.set", KEY, values={"board": 12})
    assert r.ok("identify")["number"] == 12
    done()


def test_state_message_names_the_board_in_setup_and_beside_the_result_code():
    r = rig()
    r.ok("new", tc="300", first="left")
    assert r.ok("state")["message"] is None
    r.ok("settings.set", values={"board": 8})
    assert r.ok("state")["message"] == "BOARD 8"
    r.ok("start")
    r.at(1000)
    assert r.ok("state")["message"] is None  # in play the bottom line is the marks'
    r.ok("result", result="1-0")
    st = r.ok("state")
    assert st["message"] == "B8 CODE " + st["result_code"], st
    r.ok("settings.set", values={"board": 999})
    st = r.ok("state")
    assert st["message"] == "B999 CODE " + st["result_code"] and len(st["message"]) == 16
    r.ok("settings.set", values={"board": 0})
    assert r.ok("state")["message"] == "CODE " + st["result_code"]
    done()
