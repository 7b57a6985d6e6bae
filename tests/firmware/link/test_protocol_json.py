# The protocol's strict JSON check (W.strict_json): a request line is acted on only if it
# is JSON by RFC 8259, whatever MicroPython's lenient json.loads would make of it. Runs under CPython
# and MicroPython (there the lenient parser is the one behind the check).
from sagatfw.link import wire as W

# what MicroPython's json.loads takes (each gives a value there) and JSON does not
NOT_JSON = [
    b'{"a" "b"}', b'{"a": ,5}', b"[1 2]", b"[1,]", b'{"a":1,}', b"01", b"1.", b'"\\x"', b'{"a":1 "b":2}',
    b"{,}", b"[,1]", b'{"a"}', b'{"a":}', b"{1:2}", b"-01", b'"a\tb"', b"[1,,2]", b'{"a":1,,"b":2}',
    b'{"a"::1}', b"[}", b"{]", b"[true false]", b'{"id":1,"cmd":"state"}}', b"[1]]", b"{} x",
    # and what neither takes
    b".5", b"+1", b"-", b"tru", b"nul", b"NaN", b"Infinity", b"1e", b"1e+", b"0x10", b'"\\u12"', b'"\\u12g4"',
    b"true false", b"'a'", b"", b"[", b'{"a":[1,{"b":null}]', b'"abc', b'"abc\\', b'{"a":1', b"[" * 31 + b"]" * 31,
]

JSON = [
    b'{"id":1,"cmd":"state"}', b' { "id" : 1 , "cmd" : "state" } ', b'{"a":[1,{"b":null}],"c":true,"d":false}',
    b"[]", b"{}", b"[[]]", b'{"a":{}}', b"0", b"-0", b"1.5e3", b"-12.25E-7", b"1e+9",
    b'"\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t"',
    b'"\\uABcd"', b'"\xd0\xa1\xd0\xb0"', b'{"id":"a-1","cmd":"new","tc":"300+2","first":"left"}', b"\t[1,\t2]\t",
    b"[" * 30 + b"]" * 30, b'{"x":' * 29 + b"1" + b"}" * 29,
]


def test_what_json_does_not_allow_is_refused_with_a_reason():
    for line in NOT_JSON:
        why = W.strict_json(line)
        assert isinstance(why, str) and why, (line, why)


def test_json_passes_the_check():
    for line in JSON:
        assert W.strict_json(line) is None, (line, W.strict_json(line))


def test_each_prefix_of_a_request_is_not_json():
    line = b'{"id":1,"cmd":"settings.set","values":{"sound":false,"tc":"40/5400+30:1800+30","n":-1.5e2}}'
    assert W.strict_json(line) is None
    for k in range(len(line)):
        if line[:k] in (b"-", b"-1", b"-1.5e2"):  # (no prefix of the object is a value)
            continue
        assert W.strict_json(line[:k]) is not None, line[:k]
