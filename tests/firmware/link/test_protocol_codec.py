# The protocol's pure helpers (sagatfw.link.auth): the canonical request form, HMAC-SHA256, the auth
# value. Runs under CPython and MicroPython: the expected texts are what CPython's
# json.dumps(obj, sort_keys=True, separators=(",", ":")) writes; under CPython that is checked too.
import json
import random

from sagatfw.link import auth as A

CASES = [
    ({"id": 1, "cmd": "pause", "by": "arbiter"}, '{"by":"arbiter","cmd":"pause","id":1}'),
    (
        {"cmd": "adjust", "id": "a-7", "side": "left", "ms": 60000, "moves": 12, "stage": None},
        '{"cmd":"adjust","id":"a-7","moves":12,"ms":60000,"side":"left","stage":null}',
    ),
    (
        {"id": -3, "cmd": "new", "tc": {"right": "180+2", "left": "300+2"}, "first": "right"},
        '{"cmd":"new","first":"right","id":-3,"tc":{"left":"300+2","right":"180+2"}}',
    ),
    (
        {"id": 2, "cmd": "settings.set", "values": {"sound": False, "freeze": True, "tc": "40/5400+30:1800+30"}},
        '{"cmd":"settings.set","id":2,"values":{"freeze":true,"sound":false,"tc":"40/5400+30:1800+30"}}',
    ),
    ({"id": 3, "x": [1, [2, []], {}], "q": 'a"b\\c/d'}, '{"id":3,"q":"a\\"b\\\\c/d","x":[1,[2,[]],{}]}'),
    ({"n": "\n\r\t\b\f\x00\x1f\x7f"}, '{"n":"\\n\\r\\t\\b\\f\\u0000\\u001f\\u007f"}'),
    ({"name": "Сағат é €"}, '{"name":"\\u0421\\u0430\\u0493\\u0430\\u0442 \\u00e9 \\u20ac"}'),
    ({"big": 12345678901234567890, "neg": -0, "t": True}, '{"big":12345678901234567890,"neg":0,"t":true}'),
    ({"b": 1, "a": 2, "B": 3, "_": 4, "aa": 5}, '{"B":3,"_":4,"a":2,"aa":5,"b":1}'),
    ([], "[]"),
    ("", '""'),
]


def test_canonical_matches_cpython_sorted_compact_json():
    for obj, text in CASES:
        assert A.canonical(obj) == text, (obj, A.canonical(obj))
        try:
            want = json.dumps(obj, sort_keys=True, separators=(",", ":"))
        except TypeError:  # MicroPython's json.dumps has no sort_keys: the fixed texts above stand
            continue
        assert want == text


def test_canonical_astral_character_is_a_surrogate_pair():
    assert A.canonical("\U0001f600") == '"\\ud83d\\ude00"'


def test_canonical_random_objects_round_trip():
    rnd = random.Random(5) if hasattr(random, "Random") else None
    if rnd is None:
        random.seed(5)
        rnd = random
    alphabet = 'ab"\\\n\x01 é€Сz09{}[]:,'

    def text():
        return "".join(alphabet[rnd.getrandbits(5) % len(alphabet)] for _ in range(rnd.getrandbits(3)))

    def value(depth):
        k = rnd.getrandbits(3)
        if depth > 3 or k < 2:
            return rnd.getrandbits(20) - (1 << 19)
        if k == 2:
            return text()
        if k == 3:
            return (None, True, False)[rnd.getrandbits(2) % 3]
        if k == 4:
            return [value(depth + 1) for _ in range(rnd.getrandbits(2))]
        return dict((text(), value(depth + 1)) for _ in range(rnd.getrandbits(2)))

    for _ in range(300):
        obj = {"id": rnd.getrandbits(16), "cmd": text(), "v": value(0)}
        c = A.canonical(obj)
        assert json.loads(c) == obj  # it is JSON, and says the same
        assert A.canonical(json.loads(c)) == c  # parsing it back gives the same bytes
        try:
            want = json.dumps(obj, sort_keys=True, separators=(",", ":"))
        except TypeError:
            continue
        assert c == want


def test_canonical_refuses_what_has_no_canonical_form():
    for bad in ({"x": 1.5}, {1: 2}, {"x": b"raw"}, {"x": {"y": [[[[[[[[[[1]]]]]]]]]]}}):
        try:
            A.canonical(bad)
        except ValueError:
            continue
        raise AssertionError("no ValueError for %r" % (bad,))


def test_hmac_sha256_rfc4231_vectors():
    assert A.hex_text(A.hmac_sha256(b"Jefe", b"what do ya want for nothing?")) == (
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    )
    assert A.hex_text(A.hmac_sha256(b"\x0b" * 20, b"Hi There")) == (
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    )
    big = A.hmac_sha256(b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First")
    assert A.hex_text(big) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"


def test_sign_covers_the_clock_and_the_request_without_auth():
    key = b"arbiter secret"
    nonce = "00112233445566778899aabbccddeeff"
    uid = "e6614103e7"
    req = {"id": 7, "cmd": "pause", "by": "arbiter"}
    mac = A.sign(key, nonce, req, uid)
    assert len(mac) == 64
    assert A.auth_message(nonce, req, uid) == (
        "sagat-auth:e6614103e7:" + nonce + ':{"by":"arbiter","cmd":"pause","id":7}').encode()
    assert A.hex_text(A.hmac_sha256(key, A.auth_message(nonce, req, uid))) == mac
    signed = dict(req)
    signed["auth"] = mac
    assert A.sign(key, nonce, signed, uid) == mac  # "auth" itself is not covered
    assert A.sign(key, "ffeeddccbbaa99887766554433221100", req, uid) != mac
    assert A.sign(b"other key", nonce, req, uid) != mac
    assert A.sign(key, nonce, req, "e6614103e8") != mac  # the same request for another clock
    other = dict(req)
    other["by"] = "host"
    assert A.sign(key, nonce, other, uid) != mac

