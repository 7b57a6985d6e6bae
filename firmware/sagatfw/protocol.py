# sagat: the serial protocol server: newline-delimited JSON requests and responses (contract 6 of
# docs/design.md; docs/protocol.md is the reference a host is written against).
#
# The transport (the app's loop) reads whatever bytes the serial stream has, without blocking, and
# hands them to `Server.feed(data, now)` right after `app.step(now)`, with the same `now`, every
# pass of the loop (b"" when nothing arrived: feed also finishes lines left over from earlier calls).
# It writes what `peek()` / `take_out()` give back when the stream can take it. The server:
#
#   - keeps received bytes in one preallocated buffer (IN_SIZE); `room()` says how many more it
#     takes now and feed() returns how many it took (the transport keeps the rest for later);
#   - answers each complete line with exactly one response line (blank lines: none), in order, and
#     never writes anything unasked;
#   - does bounded work per call: at most LINES_PER_FEED lines, at most HEAVY_PER_FEED log commands
#     (each reads at most MAX_RECORDS records), and no new line while more than OUT_LIMIT bytes of
#     answers wait to be taken (a host that stops reading stops being answered, the clock goes on);
#   - never raises: garbage, 0x03 bytes, invalid UTF-8, over-long lines, unknown commands, wrong
#     types and refused actions all become error responses (`internal` for anything unexpected).
#
# Arbiter authority: with an arbiter key set, every command that changes anything (the game, a
# finished game's result, the next game, settings, presets, the wall time, the key, the log) needs
# "auth": HMAC-SHA256(key, nonce + canonical(request without "auth")) in hex, in every state; reads
# never do. The nonce comes from the last `auth.challenge` and is used up by the next request that
# carries "auth". Without a key nothing needs it (a club clock). The
# key lives in ROOT + KEY_FILE and is also the journal's chain key (load_key: the app passes it to
# Journal(key=...) at boot; key.set changes both).
#
# The reading half lives here and stays in RAM (the framing, state, the challenge, the log pull);
# what changes the clock is in commands.py and the proof of authority in auth.py (which the host
# imports to sign): both are loaded for a request that needs them and forgotten after that feed.

import binascii
import gc
import json
import os

try:
    from micropython import const
except ImportError:  # CPython (the host, the tests)

    def const(x):  # type: ignore[misc]
        return x


from sagatfw import clock as C
from sagatfw import faces as F
from sagatfw import forget, load_key
from sagatfw import records as R
from sagatfw.ticks import ticks_diff

PROTOCOL = 2  # 2: the clock's id is in what a request's MAC covers
MAX_LINE = 512  # bytes of a request line, its newline included
IN_SIZE = 1024  # received bytes held (at most two lines' worth)
LINES_PER_FEED = 8
HEAVY_PER_FEED = 2  # log.info / log.read / log.erase per feed call
OUT_LIMIT = 4096  # no new line is answered while more than this waits to be taken
MAX_RECORDS = 256  # records per log.read chunk (a 22 KB answer line), segment anchors not counted
SLOTS = 34  # 64-byte slots of the buffer a log.read's records are read into, a part at a time
PIECE = 384  # raw bytes base64-encoded at a time, as the stream takes them (512 characters)
_FILL = const(30)  # base64: slots read from the flash at a time (1920 bytes: five whole PIECEs)
_STALL_MS = const(5000)  # a log.read's answer not taken for this long is dropped (the host is gone)
_LOW_HEAP = const(16384)  # below this much free heap a log.read collects first
_PLAN = const(0)  # self.rd's fields: [name, first index, entries, not the newest] per segment, flat
_AT = const(1)  # where in the plan the next fill reads
_BIN = const(2)  # raw bytes after the line, not base64 in it
_SINCE = const(3)  # ticks when the host last took a byte of it
_LEFT = const(4)  # raw bytes still to read
_FILE = const(5)  # the segment being read, kept open if it is not the newest (else None)
MAX_ERASE = 4  # segments removed per log.erase request
MAX_ID = 64  # characters of a string id
MAX_MESSAGE = 160
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

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# Authority levels of commands. const(): COMMANDS' entries are then constant tuples, frozen with the
# code on a board (a tuple built at boot is 48 heap bytes an entry on the 64-bit unix port).
READ = const(0)  # never needs authority
GAME = const(1)  # changes the game, the settings, the wall time: authority whenever a key is set
GUARD = const(2)  # key.set, log.erase, log.head, maintenance: the same (the key, the log, a signature, the REPL)

IN_PROGRESS = (C.RUNNING, C.PAUSED, C.FLAGGED, C.ADJOURNED)
_REQUIRED = object()

# name: (handler, authority, arguments). A handler "c_..." is a Server method (the reading half,
# kept in RAM); "l_..." a function of sagatfw.logcmds (a pull's log.info and log.head: a small
# module, quick to load); any other a function of sagatfw.commands. Both are loaded for the request
# and dropped after the feed (commands that change the clock, its settings, key or log are rare). The actions
# (new, start, pause, adjust, result, score, settings.set, ...) are not here: actions.py's table
# has them, with their arguments and authority, and commands.act does them.
COMMANDS = {
    "identify": ("identify", READ, ()),
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

    def _dumps(obj):
        return json.dumps(obj, separators=(",", ":"))

except TypeError:
    _dumps = json.dumps


class Error(Exception):
    """A request answered with an error: code (one of the codes above) and message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


# ------------------------------------------------------------------ key file


def _random(n):
    try:
        return os.urandom(n)
    except (AttributeError, NotImplementedError):  # a port without a hardware RNG
        import random

        return bytes(random.getrandbits(8) for _ in range(n))


# ------------------------------------------------------------------ log segments


def _seg_first(name):
    try:
        return int(name[:-4])
    except ValueError:
        return 0


# ------------------------------------------------------------------ the server


class Server:
    """The protocol on one serial stream. `app` is the booted sagatfw.app.App; `board_info` a
    dict: "uid" (unique id text, e.g. machine.unique_id() in hex), optional "name" (default:
    app.board.name) and "number" (the board's number in the hall); `now` the boot's ticks (uptime
    counts from there, else from the first feed)."""

    def __init__(self, app, board_info=None, now=None):
        self.app = app
        self.info = board_info or {}
        self.root = app.board.root
        self.inbuf = bytearray(IN_SIZE)
        self.n = 0  # bytes held in inbuf
        self.scan = 0  # inbuf[0:scan] holds no newline
        self.skipping = False  # inside an over-long line: drop it up to its newline
        self.raw = bytearray(SLOTS * R.RECORD_SIZE)
        self.rec = bytearray(R.RECORD_SIZE)
        self.out = []  # response pieces (bytes, memoryview) not yet taken
        self.out_off = 0  # bytes of out[0] already taken
        self.out_len = 0
        # a log.read being sent: its records are read from the flash, a fill of self.raw at a
        # time, and sent as they are (bin) or base64-encoded a PIECE at a time, as the stream takes
        # them (_encode). self.rd is then [plan, _AT, _BIN, _SINCE, _LEFT, _FILE] (the consts say),
        # else None.
        self.rd = None
        self.segs = None  # [journal seq, backlog, ticks, names, their first seqs]: the segments a pull's chunks read
        self.enc_at = 0  # self.raw[enc_at:enc_end]: read, not yet encoded
        self.enc_end = 0
        self.nonce = None
        self.key = load_key(self.root)
        self.repl_open = False  # the arbiter's `maintenance` let Ctrl-C reach the REPL until the next reboot
        self.uptime = 0  # ms since `now` (the boot), counted at each feed()
        self.last_now = now
        self.last_heavy = False
        self.lines = 0  # lines answered (errors included)
        self.errors = 0
        self.internal_errors = 0
        self.cmds = None  # sagatfw.commands while a request of a feed needs it
        self.loaded = False  # a module to forget at the end of this feed was loaded

    # ------------------------------------------------------------ transport

    def room(self):
        """How many bytes feed() takes now."""
        return IN_SIZE - self.n

    def feed(self, data, now):
        """Take received bytes (any split, any content; b"" or None when nothing arrived) and
        answer complete lines, within this call's budget. Returns the number of bytes taken (at
        most room(); the transport keeps the rest for a later call). Never raises."""
        taken = 0
        try:
            if self.last_now is not None:
                d = ticks_diff(now, self.last_now)
                if d > 0:
                    self.uptime += d
            self.last_now = now
            if self.rd is not None and ticks_diff(now, self.rd[_SINCE]) > _STALL_MS:
                self._drop_read()  # nobody takes it: let the journal trim its log again
            if self.segs is not None and ticks_diff(now, self.segs[2]) > 1000:
                self.segs = None  # the pull is over: its list of names leaves RAM
            if data:
                taken = self._accept(data)
            self._work(now)
        except Exception as e:  # noqa: BLE001 - nothing a host sends may stop the loop
            self.internal_errors += 1
            self.n = 0  # a bug outside a request: drop what is held rather than fail again on it
            self.scan = 0
            self._note("protocol: %r" % (e,))
        if self.loaded:  # the rarer half and the proof of authority leave RAM again
            self.loaded = False
            self.cmds = None
            try:
                forget("sagatfw.commands", "sagatfw.logcmds", "sagatfw.tcparse", "sagatfw.auth", "sagatfw.matchcmds",
                       "sagatfw.actions")
            except Exception:  # noqa: BLE001 - only RAM is at stake: feed never raises
                pass
        return taken

    def has_work(self):
        """True while a complete line waits for a later feed() (the transport need not sleep)."""
        return self.inbuf.find(b"\n", 0, self.n) >= 0

    def pending(self):
        """Bytes of responses waiting to be taken."""
        return self.out_len

    def peek(self, max_bytes=512):
        """The next bytes to send (a memoryview, at most max_bytes; empty if none), not taken
        yet: after writing, call sent(n) with the number of bytes the stream took."""
        if not self.out:
            return memoryview(b"")
        first = self.out[0]
        if first is None:
            first = self._encode()
        end = self.out_off + max_bytes
        if end > len(first):
            end = len(first)
        return memoryview(first)[self.out_off : end]

    def sent(self, n):
        """Drop the first n pending bytes (written to the stream)."""
        if n > 0 and self.rd is not None:
            self.rd[_SINCE] = self.last_now
        while n > 0 and self.out:
            first = self.out[0]
            if first is None:
                first = self._encode()
            left = len(first) - self.out_off
            if n < left:
                self.out_off += n
                self.out_len -= n
                return
            n -= left
            self.out_len -= left
            self.out.pop(0)
            self.out_off = 0

    def _encode(self):
        """Put the next piece of a log.read's records in front of the queue's marker (None), or in
        its place for the last one: read from the flash a fill at a time (_fill), sent as they are
        (bin: a view of self.raw, nothing allocated) or base64-encoded a PIECE (512 characters) at a
        time. One piece exists at a time, never the whole chunk."""
        rd = self.rd
        at = self.enc_at
        if at >= self.enc_end:
            self.enc_end = self._fill(rd)
            self.enc_at = at = 0
        end = self.enc_end
        if not rd[_BIN] and end > at + PIECE:
            end = at + PIECE
        if rd[_BIN]:
            piece = memoryview(self.raw)[at:end]
        else:
            piece = memoryview(binascii.b2a_base64(memoryview(self.raw)[at:end]))[:-1]  # no newline
        # the queue changes only once the piece exists: a MemoryError above leaves it as it was,
        # and the next peek tries again (the records read stay in self.raw)
        rd[_LEFT] -= end - at
        self.enc_at = end
        if rd[_LEFT] <= 0:
            self.out[0] = piece  # the last piece takes the marker's place
            self._read_done()
        else:
            self.out.insert(0, piece)
        return piece

    def _fill(self, rd):
        """Read the plan's next records into self.raw: a whole number of PIECEs (base64) or the
        whole buffer (bin). Returns the bytes read."""
        plan = rd[_PLAN]
        mv = memoryview(self.raw)
        slots = SLOTS if rd[_BIN] else _FILL
        n = 0
        while n < slots and rd[_AT] < len(plan):
            i = rd[_AT]
            k = plan[i + 2]
            if k > slots - n:
                k = slots - n
            at = n * R.RECORD_SIZE
            end = at + k * R.RECORD_SIZE
            f = rd[_FILE]
            got = 0
            try:
                if f is None:
                    f = open(self.app.journal._path(plan[i]), "rb")
                    f.seek(plan[i + 1] * R.RECORD_SIZE)
                    if plan[i + 3]:  # a finished segment (the journal writes the newest): kept open
                        rd[_FILE] = f
                got = f.readinto(mv[at:end])
            except OSError:
                pass
            finally:
                if f is not None and rd[_FILE] is None:
                    f.close()  # the newest: opened for each fill, as the journal appends to it
            while at + got < end:  # gone although the journal held it (it cannot be): not records
                mv[at + got] = 0xFF
                got += 1
            plan[i + 1] += k
            plan[i + 2] -= k
            if not plan[i + 2]:
                rd[_AT] = i + 4
                f = rd[_FILE]
                rd[_FILE] = None
                if f is not None:
                    f.close()
            n += k
        return n * R.RECORD_SIZE

    def _read_done(self):
        rd = self.rd
        if rd is not None and rd[_FILE] is not None:
            try:
                rd[_FILE].close()
            except OSError:
                pass
        self.rd = None
        self.enc_at = self.enc_end = 0
        self.app.journal.hold = False

    def _drop_read(self):
        """Drop a log.read's answer that nobody takes, with whatever waits before it."""
        self.out = []
        self.out_len = 0
        self.out_off = 0
        self._read_done()

    def take_out(self, max_bytes=512):
        """Take up to max_bytes pending bytes (bytes; b"" if none)."""
        b = bytes(self.peek(max_bytes))
        self.sent(len(b))
        if len(b) == max_bytes or not self.out:
            return b
        parts = [b]
        n = len(b)
        while self.out and n < max_bytes:
            more = bytes(self.peek(max_bytes - n))
            self.sent(len(more))
            parts.append(more)
            n += len(more)
        return b"".join(parts)

    def _accept(self, data):
        n = len(data)
        room = IN_SIZE - self.n
        if n > room:
            n = room
        if n:
            self.inbuf[self.n : self.n + n] = memoryview(data)[:n]
            self.n += n
        return n

    def _work(self, now):
        lines = 0
        heavy = 0
        buf = self.inbuf
        while True:
            j = buf.find(b"\n", self.scan, self.n)
            if j < 0:
                self.scan = self.n
                if self.n >= MAX_LINE:  # no newline in MAX_LINE bytes: too long, drop what is held
                    self.skipping = True
                    self.n = 0
                    self.scan = 0
                return
            if (lines >= LINES_PER_FEED or heavy >= HEAVY_PER_FEED or self.out_len > OUT_LIMIT
                    or self.rd is not None):
                return  # the rest later (a log.read's records wait on the flash to be sent)
            if self.skipping or j >= MAX_LINE:
                self.skipping = False
                line = None
            else:
                line = bytes(buf[0:j])
            rest = self.n - j - 1
            buf[0:rest] = buf[j + 1 : self.n]
            self.n = rest
            self.scan = 0
            if line is None:
                self._error(None, LINE_TOO_LONG, "a request line is at most %d bytes" % MAX_LINE)
                lines += 1
                continue
            self._line(line, now)
            lines += 1  # blank lines too: the work per call stays bounded
            if self.last_heavy:
                heavy += 1

    # ------------------------------------------------------------ requests

    def _line(self, line, now):
        """Answer one line; False for a blank line (no answer)."""
        self.last_heavy = False
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip(b" \t"):
            return False  # blank: no answer
        rid = None
        try:
            if line and min(line) < 0x20:  # min() in C: the loop below only to name the byte
                for b in line:
                    if b < 0x20 and b != 0x09:
                        raise Error(BAD_JSON, "control byte 0x%02x in the line" % b)
            try:
                text = str(line, "utf-8")
            except UnicodeError:
                raise Error(BAD_UTF8, "the line is not valid UTF-8") from None
            why = _strict_json(line)
            if why is not None:
                raise Error(BAD_JSON, "the line is not JSON: " + why)
            try:
                req = json.loads(text)
            except ValueError:
                raise Error(BAD_JSON, "the line is not JSON") from None
            if not isinstance(req, dict):
                raise Error(NOT_OBJECT, "a request is a JSON object")
            for k in req:
                if not isinstance(k, str):
                    raise Error(BAD_JSON, "object keys must be strings")
            rid = req.get("id")
            if rid is None or not _valid_id(rid):
                rid = None
                raise Error(BAD_ARG, "id must be an integer or a string of at most %d characters" % MAX_ID)
            cmd = req.get("cmd")
            if not isinstance(cmd, str):
                raise Error(BAD_ARG, "cmd must be a command name")
            entry = COMMANDS.get(cmd)
            if entry is None:
                handler = "act"  # an action (actions.py): its table checks its arguments
                try:
                    level = self.commands().action_level(cmd)
                except Error:  # unknown: an `auth` it carries is still checked and used up first
                    self._authorize(req, READ)
                    raise
                self._authorize(req, level)
            else:
                handler, level, allowed = entry
                self._authorize(req, level)  # the MAC before the arguments (docs/protocol.md)
                for k in req:
                    if k not in allowed and k not in ("id", "cmd", "auth"):
                        raise Error(BAD_ARG, "%s takes no argument %s" % (cmd, short(k)))
            self.last_heavy = cmd.startswith("log.")
            if handler[:2] == "c_":
                body = getattr(self, handler)(req, now)
            else:
                if handler[:2] == "l_":
                    gc.collect()  # a pull begins (log.info) and ends (log.head) on a collected heap
                    from sagatfw import logcmds as mod  # forgotten after the feed

                    self.loaded = True
                else:
                    mod = self.commands()
                fn = getattr(mod, handler)
                if self.app.match is not None and cmd in ("key.set", "maintenance", "log.erase", "log.info"):
                    gc.collect()
                    from sagatfw import matchcmds  # a match's guards of the clock's commands, forgotten after the feed

                    body = matchcmds.serve(self, req, now, fn)
                else:
                    body = fn(self, req, now)
            self._reply(rid, body)
        except Error as e:
            self._error(rid, e.code, e.message)
        except Exception as e:  # noqa: BLE001 - a bug must not stop the clock: say so, go on
            self.internal_errors += 1
            self._note("protocol: %r" % (e,))
            self._error(rid, INTERNAL, "internal error: %r" % (e,))
        return True

    def commands(self):
        """sagatfw.commands, loaded for this feed."""
        if self.cmds is None:
            gc.collect()  # a module's dict grows as it loads: give it whole free blocks
            from sagatfw import commands

            self.cmds = commands
            self.loaded = True
        return self.cmds

    def _authorize(self, req, level):
        key = self.key
        auth = req.get("auth")
        proved = False
        if key and "auth" in req:
            nonce = self.nonce
            self.nonce = None  # single use, right or wrong
            if nonce is None:
                raise Error(AUTH_FAILED, "no challenge: ask auth.challenge first")
            if not isinstance(auth, str) or len(auth) != 64:
                raise Error(AUTH_FAILED, "auth must be 64 hex digits")
            gc.collect()
            from sagatfw import auth as A  # forgotten after this feed

            self.loaded = True
            try:
                mac = binascii.unhexlify(auth)
                want = A.hmac_sha256(key, A.auth_message(nonce, req, self.info.get("uid")))
            except ValueError:
                raise Error(AUTH_FAILED, "auth does not match") from None
            if not A.same(mac, want):
                raise Error(AUTH_FAILED, "auth does not match")
            proved = True
        if proved or not key or level == READ:
            return
        # every change, in every state (a finished game's result, the next game's
        # control, a correction before the start, the wall time are as much the arbiter's as a move)
        raise Error(AUTH_REQUIRED, "the clock has an arbiter key: this needs it (sign with the key)")

    def _reply(self, rid, body):
        self.lines += 1
        head = '{"id":' + _dumps(rid) + ',"ok":true'
        # Each answer joins the queue in one step (a MemoryError before it leaves the queue as it
        # was, and the request is answered with an error instead of half a line)
        if isinstance(body, _Read):  # log.read: the records are read and sent as the stream takes them
            size = body.size
            s = _dumps(body.head)
            if body.binary:  # the line, then the records' raw bytes
                first = (head + "," + s[1:-1] + ',"bin":%d}\n' % size).encode()
                more = size
            else:
                first = (head + "," + s[1:-1] + ',"data":"').encode()
                more = (size + 2) // 3 * 4
            if size:
                self.out.extend((first, None) if body.binary else (first, None, b'"}\n'))  # None: _encode's marker
                self.out_len += len(first) + more + (0 if body.binary else 3)
            else:
                self._push(first if body.binary else first + b'"}\n')
        elif body:  # the body's text after the head: made once, its "{" skipped in place
            first = (head + ",").encode()
            rest = memoryview(_dumps(body).encode())[1:]
            self.out.extend((first, rest, b"\n"))
            self.out_len += len(first) + len(rest) + 1
        else:
            self._push((head + "}\n").encode())

    def _error(self, rid, code, message):
        self.lines += 1
        self.errors += 1
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 3] + "..."
        err = _dumps({"code": code, "message": message})
        self._push(('{"id":' + _dumps(rid) + ',"ok":false,"error":' + err + "}\n").encode())

    def _push(self, b):
        if b:
            self.out.append(b)
            self.out_len += len(b)

    def _note(self, text):
        try:
            self.app.board.note(text)
        except Exception:  # noqa: BLE001 - a note is best effort
            pass

    # ------------------------------------------------------------ helpers

    def in_progress(self):
        return self.app.clock.state in IN_PROGRESS

    def state_name(self):
        return C.STATE_NAMES[self.app.clock.state]

    def battery(self):
        board = self.app.board
        try:
            if hasattr(board, "battery"):
                level, low = board.battery()
                return level, bool(low)
        except Exception:  # noqa: BLE001 - a gauge that fails is "unknown"
            pass
        return None, False

    # ------------------------------------------------------------ commands

    def c_state(self, req, now):
        app = self.app
        if app.match is not None:  # a match's scoreboard (matchcmds.py, loaded for the request)
            from sagatfw import matchcmds

            self.loaded = True
            return matchcmds.state(self, now)
        c = app.clock
        j = app.journal
        level, low = self.battery()
        body = {
            "state": self.state_name(),
            "t": c.t,
            "game": j.game,
            "seq": j.seq - 1 if j.seq else None,
            "running": side_name(c.running),
            "to_move": side_name(c.side_to_move()),
            "first": side_name(c.first),
            "first_flag": side_name(c.first_flag()),
            "tc": c.tc_field(),
            "left": _face(c, C.LEFT),
            "right": _face(c, C.RIGHT),
            "message": F.status_text(app),
            "log_error": j.error,
            "log_full": j.full,
            "time_synced": j.sync_wall_ms is not None,
            "result_code": app.result_code(),
            "battery": level,
            "battery_mv": getattr(app.board, "mv", None),  # the cell (bring-up: the threshold sweep)
            "low_battery": low,
            "ticks": now,  # the board's ticks at this answer: the hall's sync of the link
            "armed": app.armed,  # the ticks an armed start waits for, or None
        }
        return body

    def c_auth_challenge(self, req, now):
        self.nonce = binascii.hexlify(_random(16)).decode()
        return {"nonce": self.nonce, "key_set": bool(self.key)}

    # ------------------------------------------------------------ the log
    #
    # Segments are read with one open file each (an open costs a littlefs file buffer): the size
    # from a seek to the end, records with readinto into preallocated buffers.

    def names(self):
        return self.app.journal.segments()

    def open_segment(self, name):
        """(file, whole records, 1 if a torn partial record ends it) of a segment, or (None, 0, 0);
        the caller closes the file."""
        try:
            f = open(self.app.journal._path(name), "rb")
        except OSError:
            return None, 0, 0
        try:
            size = f.seek(0, 2)
        except OSError:
            f.close()
            return None, 0, 0
        return f, size // R.RECORD_SIZE, 1 if size % R.RECORD_SIZE else 0

    def last_seq(self):
        """The seq of the last durable record the clock made (None before the first): records
        still in the journal's RAM backlog are not on the flash yet."""
        j = self.app.journal
        last = j.seq - 1 - len(j.backlog)
        return last if last >= 0 else None

    def c_log_read(self, req, now):
        start = int_arg(req, "from_seq", 0, 0xFFFFFFFF)
        want = int_arg(req, "max_records", 1, MAX_RECORDS, MAX_RECORDS)
        binary = req.get("bin", False)
        if binary is not True and binary is not False:
            raise Error(BAD_ARG, "bin is true (the records' raw bytes after the line) or false (base64)")
        # the segments' names: listed again only once the journal wrote (a new segment comes with
        # new records) or after a pause in the pull (a listing takes 8 ms on the Pico, a chunk 10)
        j = self.app.journal
        segs = self.segs
        if segs is None or segs[0] != j.seq or segs[1] != len(j.backlog) or ticks_diff(now, segs[2]) > 1000:
            # low on heap, collect first: the names then take the small holes low in the heap and
            # leave whole the room an open file needs (its littlefs buffer: 1.2 KB in one piece).
            # Asked only here, once a pull: gc.mem_free() walks the whole heap (8 ms on the Pico)
            try:
                low = gc.mem_free() < _LOW_HEAP
            except AttributeError:  # CPython
                low = False
            if low:
                gc.collect()
            names = self.names()
            segs = self.segs = [j.seq, len(j.backlog), now, names, [_seg_first(n) for n in names]]
        segs[2] = now
        names = segs[3]
        firsts = segs[4]  # each name's seq, parsed once a pull (17 names: 4 ms on the Pico)
        i = 0
        for k in range(len(firsts)):
            if firsts[k] <= start:
                i = k
        plan = []
        count = 0  # entries (records and anchors)
        real = 0  # records among them
        first = -1  # position seq of the first entry
        top = start - 1  # the highest position seq taken
        torn = 0
        for name in names[i:]:
            if real >= want:
                break
            got = self._plan(name, start, want - real, first >= 0)
            if got is None:
                continue
            lo, m, r, fp, hi, t = got
            torn += t
            if m:
                plan.extend((name, lo, m, name != names[-1]))
                count += m
                real += r
                if first < 0:
                    first = fp
                if hi > top:
                    top = hi
        head = {
            "from": first if first >= 0 else start,
            "next": top + 1 if count else start,
            "last": self.last_seq(),
            "count": count,
        }
        if torn:
            head["torn"] = torn
        if count:
            # the plan's records stay on the flash until sent: the journal trims no segment meanwhile
            self.app.journal.hold = True
            self.rd = [plan, 0, binary, now, count * R.RECORD_SIZE, None]
            self.enc_at = self.enc_end = 0
        return _Read(head, count * R.RECORD_SIZE, binary)

    def _plan(self, name, start, left, started):
        """Which entries of one segment a log.read sends: (index of the first, entries, records
        among them, position seq of the first, the highest position seq, 1 if the segment ends in
        a torn record and was read to its end), or None if it cannot be opened. From the first
        entry whose position seq is >= from_seq (every one once the pull has started) until `left`
        records. A record's position seq is its seq, or for a damaged one the previous record's
        position seq + 1 (the first record of a segment follows its name's seq - 1). A segment's
        anchor goes with the record after it: it does not count as a record, and it is sent only
        when a record follows it on the flash (a chunk never ends with one), so `next` always
        follows the chunk's last record and a host that asks ahead by max_records stays in step.
        A damaged entry in the anchor's place (a segment's first) goes with its record too. The
        entries taken are consecutive in the file."""
        f, whole, torn = self.open_segment(name)
        if f is None:
            return None
        rec = self.rec
        base = _seg_first(name)
        prev = base - 1
        index = 0
        lo = -1
        m = 0
        r = 0
        first = -1
        top = -1
        try:
            if not started and start > base and whole > 1:
                # where `start` is when the segment has no gap (after its anchor): check that record;
                # past its end, check its last record: then nothing in it is asked for
                k = start - base + 1
                if k > whole - 1:
                    k = whole - 1
                f.seek(k * R.RECORD_SIZE)
                if (f.readinto(rec) == R.RECORD_SIZE and not R.check(rec)
                        and R.seq_of(rec) == base + k - 1 and rec[1] != R.T_ANCHOR):
                    index = k
                    prev = base + k - 2
                    if base + k - 1 < start:
                        index = whole  # the segment ends before `start`
                        prev = base + k - 1
            one = False  # one record at a time for the rest of the segment (after a surprise)
            while index < whole and r < left:
                if started and index and not one:
                    # a run of records after the anchor: if its first and its last carry the seqs
                    # that follow on, each one's position is the one before + 1 whatever its bytes
                    # (a damaged record's is, by the rule above), so none needs reading or its CRC
                    # checked here (the host checks every one)
                    k = whole - index
                    if k > left - r:
                        k = left - r
                    f.seek(index * R.RECORD_SIZE)
                    ok = f.readinto(rec) == R.RECORD_SIZE and _seq(rec, 0) == prev + 1
                    if ok and k > 1:
                        f.seek((index + k - 1) * R.RECORD_SIZE)
                        ok = f.readinto(rec) == R.RECORD_SIZE and _seq(rec, 0) == prev + k
                    if ok:
                        if lo < 0:
                            lo = index
                            first = prev + 1
                        prev += k
                        top = prev
                        index += k
                        m += k
                        r += k
                        continue
                    one = True  # not such a run: one record at a time, from where it began
                f.seek(index * R.RECORD_SIZE)
                if f.readinto(rec) != R.RECORD_SIZE:
                    whole = index  # shorter than it was (it cannot be: the journal only appends)
                    break
                index += 1
                bad = R.check(rec)
                pos = prev + 1 if bad else R.seq_of(rec)
                # the anchor, or what is left of it in its place (a segment's first entry): a
                # damaged one still goes with the record after it, which keeps its own position
                anchor = rec[1] == R.T_ANCHOR if not bad else index == 1
                prev = pos - 1 if anchor else pos  # an anchor: the record after it has pos
                if not started and pos < start:
                    continue
                if anchor and index >= whole:
                    continue  # nothing after it on the flash (yet): it goes with its record, later
                started = True
                if lo < 0:
                    lo = index - 1
                    first = pos
                if prev > top:
                    top = prev
                m += 1
                if not anchor:
                    r += 1
        except OSError:  # unreadable from here: the rest of it is not sent
            torn = 0
            whole = index + 1
        finally:
            f.close()
        return lo, m, r, first, top, torn if index >= whole else 0


class _Read:
    """A log.read's answer: its fields, the bytes of records it sends, and how (bin)."""

    def __init__(self, head, size, binary):
        self.head = head
        self.size = size
        self.binary = binary


def _seq(raw, at):
    """The seq field of the record at raw[at:] (records.seq_of without a tuple or a slice)."""
    return raw[at + 4] | raw[at + 5] << 8 | raw[at + 6] << 16 | raw[at + 7] << 24


_JSON_DEPTH = const(30)  # arrays and objects inside each other, at most (an int's bits are the stack)


def _strict_json(b):
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


def _valid_id(v):
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


def _face(c, s):
    ms = c.ms(s)
    low = c.settings.low_time_ms
    countup = c.tc[s] is not None and c._countup(s)
    return {
        "ms": ms,
        "moves": c.moves[s],
        "stage": c.stage[s],
        "flag": c.flag[s],
        "delay_ms": c.delay_remaining(s),
        "low": bool(low and not countup and 0 < ms <= low),
        "default": bool(c.default_mark[s]),
        "stage_mark": bool(c.stage_mark[s]),
        "countup": countup,
    }

