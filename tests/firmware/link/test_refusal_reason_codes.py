# The protocol's reason codes (docs/protocol.md, "Reason codes"): a refusal answers with its English message as
# before and, beside it, `why` (a short code the host says in its user's language) and `with` (the message's
# parts by name). The key changed mid-game, a state's refusal, the kazans a flag needs (a bad_arg with a code),
# and a match's refusal. Both runtimes (bothrig).
from bothrig import done, rig


def _why(e):
    return e["error"].get("why"), e["error"].get("with")


def test_a_refusal_carries_its_reason_code_and_parts_beside_the_message():
    r = rig()
    r.ok("new", tc="60+1", first="left")
    e = r.err("pause", "refused")
    assert _why(e) == ("state_pause", {"state": "setup"}) and "the clock is setup" in e["error"]["message"], e
    r.ok("start")
    e = r.err("key.set", "refused", key="00")
    assert _why(e) == ("key_between_games", {"state": "running"}), e
    assert e["error"]["message"] == "the key changes between games only: the clock is running", e
    assert _why(r.err("start", "refused")) == ("state_start", {"state": "running"})
    assert _why(r.err("adjust", "refused", side="left", ms=5000)) == ("correction_running", None)
    assert _why(r.err("new", "refused", tc="60", first="left")) == ("game_in_progress", None)
    r.at(61000)  # left's flag (frozen)
    e = r.err("result", "bad_arg", result="1-0")
    assert _why(e) == ("flag_needs_kazans", {"side": "left"}) and "TK-R7" in e["error"]["message"], e
    e = r.err("result", "bad_arg", result="1/2-1/2", left_kazan=80, right_kazan=80)
    assert _why(e) == ("flag_lost", {"side": "left", "kazan": 80}), e
    assert _why(r.err("result", "bad_arg", result="1-0", left_kazan=100, right_kazan=63)) == (
        "kazans_over_162", {"left": 100, "right": 63})
    e = r.err("result", "bad_arg", result="1-0", left_kazan=82)  # an argument's form: no reason code
    assert _why(e) == (None, None), e
    r.ok("result", result="1-0", left_kazan=82, right_kazan=79)
    done()


def test_a_matchs_refusal_names_the_matchs_state():
    r = rig()
    r.ok("new", mode="kokboru")
    e = r.err("stoppage", "refused")
    assert _why(e) == ("match_state", {"state": "setup"}) and e["error"]["message"] == "stoppage: not started", e
    assert _why(r.err("pause", "refused")) == ("match_set_up", {"mode": "kokboru"})
    done()
