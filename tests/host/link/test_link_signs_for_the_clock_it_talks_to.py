"""A signed request names its clock (docs/protocol.md, Proving the key): the host signs with the
id of the clock it talks to, so a request signed for one clock is refused by another with the
same key (clocks on one hub, a port that now leads to another clock); and the host will not sign
for a clock whose protocol leaves the id out of the MAC. Devices on real pseudo-terminals."""

import hmac

from fakedev import ScriptedClock

from sagat import client
from sagat.cli import main
from sagatfw.link import auth as A

KEY = b"arbiter's secret"


def keyed_clock(uid, protocol=2):
    """A clock with KEY that checks each signed request as the firmware does, for its own uid."""
    nonce = ["00" * 16]
    done = []

    def answer(req):
        cmd = req.get("cmd")
        if cmd == "identify":
            return {"uid": uid, "firmware": "0.1.0", "protocol": protocol, "board": "sim", "key_set": True}
        if cmd == "auth.challenge":
            nonce[0] = "%032x" % (len(done) + 7)
            return {"nonce": nonce[0], "key_set": True}
        if "auth" in req:
            want = A.sign(KEY, nonce[0], req, uid)
            if not hmac.compare_digest(want, req["auth"]):
                return {"id": req.get("id"), "ok": False, "error": {"code": "auth_failed", "message": "no match"}}
            done.append(cmd)
            return {"state": "paused"}
        return {"id": req.get("id"), "ok": False, "error": {"code": "auth_required", "message": cmd}}

    dev = ScriptedClock(answer)
    dev.done = done
    return dev


def test_the_host_signs_for_the_clock_it_talks_to():
    dev = keyed_clock("clock-a")
    try:
        with client.Clock(dev.port, 2.0, KEY) as c:
            assert c.request("pause", auth=True)["state"] == "paused"
            assert c.uid == "clock-a"
    finally:
        dev.close()
    assert dev.done == ["pause"]


def test_a_request_signed_for_one_clock_is_refused_by_another():
    # the hall's link knows its board as clock-a; the port now leads to clock-b (same key)
    dev = keyed_clock("clock-b")
    try:
        with client.Clock(dev.port, 2.0, KEY, uid="clock-a") as c:
            try:
                c.request("pause", auth=True)
            except client.LinkError as e:
                assert "auth_failed" in str(e) or "does not match" in str(e) or "no match" in str(e), e
            else:
                raise AssertionError("clock-b took a request signed for clock-a")
    finally:
        dev.close()
    assert dev.done == []


def test_a_clock_of_protocol_1_is_not_signed_for(capsys):
    dev = keyed_clock("clock-old", protocol=1)
    try:
        key = "6172626974657227732073656372657421"
        rc = main(["resume", "--port", dev.port, "--key", key])
    finally:
        dev.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "speaks protocol 1" in err[0] and "sagat deploy" in err[0], err
    assert dev.done == []
