# sagat: the protocol's words (contract 6 of docs/design.md; docs/protocol.md): its version and
# limits, the error codes, the table of commands with who may call each, the one error a handler
# raises, and the checks of a request's line and arguments. The server (link/server.py), its answer
# stream and log pull (link/pull.py) and the commands' handlers (link/commands.py, link/log.py, link/matchproto.py)
# all speak these words; this module imports none of them.

import json

try:
    from micropython import const
except ImportError:  # CPython (the host, the tests)

    def const(x):  # type: ignore[misc]
        return x


from sagatfw.engine import clock as C

PROTOCOL = 2  # 2: the clock's id is in what a request's MAC covers
MAX_LINE = 512  # bytes of a request line, its newline included
MAX_RECORDS = 256  # records per log.read chunk (a 22 KB answer line), segment anchors not counted
MAX_ERASE = 4  # segments removed per log.erase request
MAX_ID = 64  # characters of a string id
WALL_MIN_MS = 946684800000  # 2000-01-01
WALL_MAX_MS = 4294967295999  # the log's u32 seconds

# Error codes.
BAD_JSON = "bad_json"
BAD_UTF8 = "bad_utf8"
NOT_OBJECT = "not_object"
LINE_TOO_LONG = "line_too_long"
UNKNOWN_CMD = "unknown_cmd"
BAD_ARG = "bad_arg"
REFUSED = "refused"
AUTH_REQUIRED = "auth_required"
AUTH_FAILED = "auth_failed"
BUSY = "busy"
INTERNAL = "internal"

# Authority levels of commands. const(): COMMANDS' entries are then constant tuples, frozen with the
# code on a board (a tuple built at boot is 48 heap bytes an entry on the 64-bit unix port).
READ = const(0)  # never needs authority
GAME = const(1)  # changes the game, the settings, the wall time: authority whenever a key is set
GUARD = const(2)  # key.set, log.erase, log.head, maintenance: the same (the key, the log, a signature, the REPL)

_REQUIRED = object()

# name: (handler, authority, arguments). A handler "c_..." is a Server method (the reading half,
# kept in RAM); "l_..." a function of sagatfw.link.log (a pull's log.info and log.head: a small
# module, quick to load); any other a function of sagatfw.link.commands. Both are loaded for the request
# and dropped after the feed (commands that change the clock, its settings, key or log are rare). The actions
# (new, start, pause, adjust, result, score, settings.set, ...) are not here: ui/actions.py's table
# has them, with their arguments and authority, and commands.act does them.
COMMANDS = {
    "identify": ("identify", READ, ()),
    "locate": ("locate", READ, ()),  # the faces blink, it beeps: the game untouched, nothing logged
    "state": ("c_state", READ, ()),
    "settings.get": ("settings_get", READ, ()),
    "presets.list": ("presets_list", READ, ()),
    "presets.set": ("presets_set", GAME, ("slot", "name", "tc")),
    "time.sync": ("time_sync", GAME, ("wall_ms",)),
    "log.info": ("l_info", READ, ()),
    "log.read": ("c_log_read", READ, ("from_seq", "max_records", "bin")),
    "log.head": ("l_head", GUARD, ("nonce",)),  # signs with the key: only for the key's holder
    "log.erase": ("log_erase", GUARD, ("upto_seq", "game")),
    "key.set": ("key_set", GUARD, ("key",)),
    "auth.challenge": ("c_auth_challenge", READ, ()),
    "maintenance": ("maintenance", GUARD, ()),
}

try:  # compact JSON (MicroPython's json.dumps has separators since 1.21; older ones write spaces)
    json.dumps(0, separators=(",", ":"))

    def dumps(obj):
        return json.dumps(obj, separators=(",", ":"))

except TypeError:
    dumps = json.dumps


class Error(Exception):
    """A request answered with an error: code (one of the codes above) and message; a refusal's reason code and
    its parts by name after them (docs/protocol.md, "Reason codes"), kept in args[1:] (no default values: a
    function's defaults are a tuple in RAM for as long as its module is loaded)."""

    def __init__(self, code, message, *why):
        super().__init__(message, *why)
        self.code = code
        self.message = message


def seg_first(name):
    """The seq of a segment's first record, from its file name (0 for a name that is not one)."""
    try:
        return int(name[:-4])
    except ValueError:
        return 0


_JSON_DEPTH = const(30)  # arrays and objects inside each other, at most (an int's bits are the stack)


def strict_json(b):
    """None if the line `b` (bytes) is one JSON value and nothing else, by RFC 8259's grammar, else
    what is wrong. MicroPython's json.loads takes what JSON does not ({"a" "b"}, {"a": ,5}, [1,,2],
    [}, a tab or an unknown escape in a string, 01), so this comes first: a request is acted on only
    if it is JSON. One pass, nothing allocated: the open containers are the bits of an int (1 an
    object), strings are skipped with find()."""
    n = len(b)
    i = 0
    stack = 0  # the open containers, innermost in bit 0
    depth = 0
    want = 0  # 0 a value, 1 a value or ']' (after '['), 2 a key or '}' (after '{'), 3 a key, 4 ':'
    while True:
        while i < n and b[i] in b" \t":  # (CR and LF are gone: the line's end)
            i += 1
        if want < 0:  # a value is complete
            if i == n:
                return None if depth == 0 else "the line ends inside an array or object"
            c = b[i]
            i += 1
            if depth == 0:
                return "more after the JSON value"
            if c == 0x2C:  # ,
                want = 3 if stack & 1 else 0
            elif c == (0x7D if stack & 1 else 0x5D):  # } or ]
                stack >>= 1
                depth -= 1
            else:
                return "a ',' or the end of the object or array expected"
            continue
        if i == n:
            return "the line ends where a value is expected"
        c = b[i]
        if want == 4:
            if c != 0x3A:  # :
                return "a ':' expected after an object key"
            i += 1
            want = 0
            continue
        if want >= 2:
            if want == 2 and c == 0x7D:  # {}
                i += 1
                stack >>= 1
                depth -= 1
                want = -1
                continue
            if c != 0x22:
                return "object keys must be strings"
        elif want == 1 and c == 0x5D:  # []
            i += 1
            stack >>= 1
            depth -= 1
            want = -1
            continue
        if c == 0x22:  # a string
            i += 1
            while True:
                q = b.find(b'"', i)
                if q < 0:
                    return "a string without its end"
                e = b.find(b"\\", i, q)
                if b.find(b"\t", i, q if e < 0 else e) >= 0:
                    return "a tab in a string (JSON writes it \\t)"
                if e < 0:
                    i = q + 1
                    break
                e += 1
                if e >= n:
                    return "a string without its end"
                c = b[e]
                if c == 0x75:  # \uXXXX
                    if e + 5 > n:
                        return "a bad \\u escape in a string"
                    for k in range(e + 1, e + 5):
                        h = b[k] | 0x20
                        if not (0x30 <= h <= 0x39 or 0x61 <= h <= 0x66):
                            return "a bad \\u escape in a string"
                    i = e + 5
                elif c in b'"\\/bfnrt':
                    i = e + 1
                else:
                    return "an unknown escape in a string"
            want = 4 if want >= 2 else -1
            continue
        if c == 0x7B or c == 0x5B:  # { [
            depth += 1
            if depth > _JSON_DEPTH:
                return "nested too deep"
            stack = (stack << 1) | (c == 0x7B)
            i += 1
            want = 2 if c == 0x7B else 1
            continue
        if c == 0x74 or c == 0x66 or c == 0x6E:  # true false null
            w = b"true" if c == 0x74 else b"false" if c == 0x66 else b"null"
            if b.find(w, i, i + len(w)) != i:
                return "not a JSON value"
            i += len(w)
        else:  # a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
            if c == 0x2D:
                i += 1
            k = i
            while i < n and 0x30 <= b[i] <= 0x39:
                i += 1
            if i == k or (b[k] == 0x30 and i - k > 1):
                return "not a JSON value" if i == k else "a number with a leading zero"
            if i < n and b[i] == 0x2E:
                i += 1
                k = i
                while i < n and 0x30 <= b[i] <= 0x39:
                    i += 1
                if i == k:
                    return "a number without digits after its '.'"
            if i < n and b[i] | 0x20 == 0x65:
                i += 1
                if i < n and (b[i] == 0x2B or b[i] == 0x2D):
                    i += 1
                k = i
                while i < n and 0x30 <= b[i] <= 0x39:
                    i += 1
                if i == k:
                    return "a number without digits in its exponent"
        want = -1


def valid_id(v):
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return -(1 << 53) < v < (1 << 53)
    return isinstance(v, str) and len(v) <= MAX_ID


def short(v):
    s = v if isinstance(v, str) else repr(v)
    return repr(s[:32] + "..." if len(s) > 32 else s)


def int_arg(req, name, lo, hi, default=_REQUIRED):
    v = req.get(name)
    if v is None:
        if default is _REQUIRED:
            raise Error(BAD_ARG, "%s is required (a whole number %d..%d)" % (name, lo, hi))
        return default
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
        raise Error(BAD_ARG, "%s must be a whole number %d..%d" % (name, lo, hi))
    return v


def side_name(s):
    return C.SIDE_NAMES[s] if s == C.LEFT or s == C.RIGHT else None
