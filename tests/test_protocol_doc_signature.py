"""docs/protocol.md's worked signature example is what sagatfw.link.auth computes: its MAC input and
its request's auth, for the key, the clock id and the nonce it gives."""

import json
import re
from pathlib import Path

from sagatfw.link import auth as A

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def test_the_documented_signature_example_is_what_the_clock_checks():
    text = DOC.read_text(encoding="utf-8")
    key = bytes.fromhex(re.search(r"with the key `[^`]*` \(hex `([0-9a-f]+)`\)", text).group(1))
    uid = re.search(r"^uid +(\S+)$", text, re.M).group(1)
    mac_input = re.search(r"^MAC input +(\S+)$", text, re.M).group(1)
    req = json.loads(re.search(r"^request +(\{.*\})$", text, re.M).group(1))
    nonce = mac_input.split(":")[2]
    assert A.auth_message(nonce, req, uid).decode() == mac_input
    assert A.sign(key, nonce, req, uid) == req["auth"]
