"""W.strict_json against CPython's json module (strict: no NaN or Infinity): the same
lines are JSON for both, nesting within the clock's 30 levels, for JSON values written every way
and for those values' bytes changed, cut and joined; and any bytes at all give None or a reason,
never an exception."""

import json

from hypothesis import example, given
from hypothesis import strategies as st

from sagatfw.link import wire as W


def _cpython(line: bytes) -> bool:
    def no(_):
        raise ValueError("not JSON")

    try:
        json.loads(line.decode("utf-8"), parse_constant=no)
    except (ValueError, RecursionError):
        return False
    return True


def _depth(line: bytes) -> int:
    """The deepest nesting of a line CPython takes (strings skipped)."""
    d = top = 0
    s = esc = False
    for c in line:
        if s:
            if esc:
                esc = False
            elif c == 0x5C:
                esc = True
            elif c == 0x22:
                s = False
        elif c == 0x22:
            s = True
        elif c in b"[{":
            d += 1
            top = max(top, d)
        elif c in b"]}":
            d -= 1
    return top


def _agree(line: bytes) -> None:
    got = W.strict_json(line)
    assert got is None or isinstance(got, str)
    try:
        line.decode("utf-8")
    except UnicodeError:
        return  # the protocol refuses it as bad_utf8 before this check
    if any(c < 0x20 and c != 0x09 for c in line) or line.strip(b" \t") != line.strip():
        return  # control bytes: refused before (and CR/LF end a line)
    want = _cpython(line) and _depth(line) <= 30
    assert (got is None) == want, (line, got, want)


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=5), kids, max_size=4),
    max_leaves=20,
)


@given(values, st.sampled_from([(",", ":"), (", ", ": "), (" , ", " : ")]), st.booleans())
def test_every_json_value_passes(value, seps, ascii_only):
    line = json.dumps(value, separators=seps, ensure_ascii=ascii_only).encode()
    if "\t" in json.dumps(value):
        return
    _agree(line)


@given(values, st.data())
@example(value={"a": "b"}, data=None)
def test_a_changed_value_is_judged_as_cpython_judges_it(value, data):
    line = bytearray(json.dumps(value, separators=(",", ":")).encode())
    if data is None:  # the example: a ':' gone, {"a" "b"} is what the clock's json.loads took
        _agree(b'{"a" "b"}')
        return
    for _ in range(data.draw(st.integers(0, 3))):
        op = data.draw(st.integers(0, 2))
        at = data.draw(st.integers(0, len(line)))
        if op == 0 and line:
            del line[min(at, len(line) - 1)]
        elif op == 1:
            line[at:at] = data.draw(st.sampled_from([b",", b":", b" ", b"[", b"]", b"{", b"}", b'"', b"\\", b"0",
                                                     b"-", b".", b"e", b"t", b"null"]))
        else:
            line = line[:at]
    _agree(bytes(line))


@given(st.binary(max_size=64))
def test_any_bytes_give_a_reason_or_none(line):
    _agree(line)
