# sagat: the arbiter's proof of authority on the serial protocol (contract 6; docs/protocol.md).
#
# A request that changes a game in progress carries "auth": HMAC-SHA256(key, nonce + canonical
# form of the request without "auth"), in hex. Pure module: the host imports it to sign (one
# canonical form, two runtimes); the clock loads it only for a request that carries "auth" and
# forgets it after that feed.

import binascii

from sagatfw.log.records import Chain

MAX_DEPTH = 8  # nesting of a request that carries auth

_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _quote(s):
    for ch in s:
        o = ord(ch)
        if o < 0x20 or o > 0x7E or ch == '"' or ch == "\\":
            break
    else:
        return '"' + s + '"'  # the usual case: nothing to escape
    out = ['"']
    for ch in s:
        o = ord(ch)
        if 0x20 <= o <= 0x7E and ch != '"' and ch != "\\":
            out.append(ch)
            continue
        esc = _SHORT.get(ch)
        if esc is None:
            if o < 0x10000:
                esc = "\\u%04x" % o
            else:  # a surrogate pair, as CPython's json.dumps writes it
                o -= 0x10000
                esc = "\\u%04x\\u%04x" % (0xD800 | (o >> 10), 0xDC00 | (o & 0x3FF))
        out.append(esc)
    out.append('"')
    return "".join(out)


def _canon(v, out, depth):
    if depth > MAX_DEPTH:
        raise ValueError("nested too deep")
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, str):
        out.append(_quote(v))
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for i in range(len(v)):
            if i:
                out.append(",")
            _canon(v[i], out, depth + 1)
        out.append("]")
    elif isinstance(v, dict):
        keys = list(v.keys())
        for k in keys:
            if not isinstance(k, str):
                raise ValueError("object keys must be strings")
        keys.sort()
        out.append("{")
        first = True
        for k in keys:
            if not first:
                out.append(",")
            first = False
            out.append(_quote(k))
            out.append(":")
            _canon(v[k], out, depth + 1)
        out.append("}")
    else:
        raise ValueError("no canonical form for a %s" % type(v).__name__)


def canonical(obj):
    """The canonical JSON text of obj: what CPython's json.dumps(obj, sort_keys=True,
    separators=(",", ":")) writes (ASCII only, non-ASCII as \\uXXXX), on every runtime. Objects,
    arrays, strings, integers, true, false and null only (ValueError for floats and the like)."""
    out = []
    _canon(obj, out, 0)
    return "".join(out)


def hmac_sha256(key, msg):
    """HMAC-SHA256 (RFC 2104) of msg under key (bytes); 32 bytes: the log chain's HMAC."""
    return Chain(key).mac(msg)


def hex_text(b):
    return binascii.hexlify(b).decode()


def auth_message(nonce, request, uid):
    """The bytes the MAC covers: "sagat-auth:", the clock's id (identify's uid), ":", the nonce
    (hex text, as the clock sent it), ":", then the canonical form of the request without its
    "auth" field. The id makes a request signed for one clock worthless to every other (clocks on
    one hub, a port that leads to another clock now)."""
    body = {}
    for k in request:
        if k != "auth":
            body[k] = request[k]
    return ("sagat-auth:%s:%s:" % (uid or "", nonce) + canonical(body)).encode()


def head_message(nonce, uid, first, seq, link):
    """The bytes a log.head answer's MAC covers: the host's nonce, the clock's id, the seq of its
    oldest record, the seq and chain value (hex) of its last durable record."""
    return ("sagat-head:%s:%s:%s:%s:%s" % (nonce, uid or "", _n(first), _n(seq), link)).encode()


def _n(v):
    return "-" if v is None else str(v)


def sign(key, nonce, request, uid):
    """The "auth" value (64 hex digits) for `request` (a dict) to the clock `uid`, under `key`
    and `nonce`."""
    return hex_text(hmac_sha256(key, auth_message(nonce, request, uid)))


def same(a, b):
    """Equal bytes, compared in a time that does not depend on where they differ."""
    if len(a) != len(b):
        return False
    d = 0
    for i in range(len(a)):
        d |= a[i] ^ b[i]
    return d == 0
