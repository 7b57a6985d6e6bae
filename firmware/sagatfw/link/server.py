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
# The reading half stays in RAM: the framing and the dispatch here (with state and the challenge),
# the protocol's words in link/wire.py, the answer stream and the log pull in link/pull.py (Server is a
# Pull). What changes the clock is in link/commands.py and the proof of authority in link/auth.py (which the
# host imports to sign): both are loaded for a request that needs them and forgotten after that feed.

import binascii
import gc
import json
import os

from sagatfw import forget, load_key
from sagatfw.core.ticks import ticks_diff
from sagatfw.engine import clock as C
from sagatfw.faces import game as F
from sagatfw.link import wire as W  # by attribute: its names are not copied into this module's globals
from sagatfw.link.pull import SLOTS, Pull
from sagatfw.log import records as R

IN_SIZE = 1024  # received bytes held (at most two lines' worth)
LINES_PER_FEED = 8
HEAVY_PER_FEED = 2  # log.info / log.read / log.erase per feed call
OUT_LIMIT = 4096  # no new line is answered while more than this waits to be taken
IN_PROGRESS = (C.RUNNING, C.PAUSED, C.FLAGGED, C.ADJOURNED)


def _random(n):
    try:
        return os.urandom(n)
    except (AttributeError, NotImplementedError):  # a port without a hardware RNG
        import random

        return bytes(random.getrandbits(8) for _ in range(n))


# ------------------------------------------------------------------ the server


class Server(Pull):
    """The protocol on one serial stream. `app` is the booted sagatfw.app.main.App; `board_info` a
    dict: "uid" (unique id text, e.g. machine.unique_id() in hex), optional "name" (default:
    app.board.name) and "number" (the board's number in the hall); `now` the boot's ticks (uptime
    counts from there, else from the first feed)."""

    def __init__(self, app, board_info=None, now=None):
        self.app = app
        self.info = board_info or {}
        R.Chain.tag = R.clock_tag(self.info.get("uid"))  # the id it gives the host names its result records
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
        self.cmds = None  # sagatfw.link.commands while a request of a feed needs it
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
            self._check_read(now)
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
                forget("sagatfw.link.commands", "sagatfw.link.log", "sagatfw.core.tcparse", "sagatfw.link.auth",
                       "sagatfw.link.matchproto", "sagatfw.ui.actions")
            except Exception:  # noqa: BLE001 - only RAM is at stake: feed never raises
                pass
        return taken

    def has_work(self):
        """True while a complete line waits for a later feed() (the transport need not sleep)."""
        return self.inbuf.find(b"\n", 0, self.n) >= 0

    def pending(self):
        """Bytes of responses waiting to be taken."""
        return self.out_len

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
                if self.n >= W.MAX_LINE:  # no newline in MAX_LINE bytes: too long, drop what is held
                    self.skipping = True
                    self.n = 0
                    self.scan = 0
                return
            if (lines >= LINES_PER_FEED or heavy >= HEAVY_PER_FEED or self.out_len > OUT_LIMIT
                    or self.rd is not None):
                return  # the rest later (a log.read's records wait on the flash to be sent)
            if self.skipping or j >= W.MAX_LINE:
                self.skipping = False
                line = None
            else:
                line = bytes(buf[0:j])
            rest = self.n - j - 1
            buf[0:rest] = buf[j + 1 : self.n]
            self.n = rest
            self.scan = 0
            if line is None:
                self._error(None, W.LINE_TOO_LONG, "a request line is at most %d bytes" % W.MAX_LINE, ())
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
                        raise W.Error(W.BAD_JSON, "control byte 0x%02x in the line" % b)
            try:
                text = str(line, "utf-8")
            except UnicodeError:
                raise W.Error(W.BAD_UTF8, "the line is not valid UTF-8") from None
            why = W.strict_json(line)
            if why is not None:
                raise W.Error(W.BAD_JSON, "the line is not JSON: " + why)
            try:
                req = json.loads(text)
            except ValueError:
                raise W.Error(W.BAD_JSON, "the line is not JSON") from None
            if not isinstance(req, dict):
                raise W.Error(W.NOT_OBJECT, "a request is a JSON object")
            for k in req:
                if not isinstance(k, str):
                    raise W.Error(W.BAD_JSON, "object keys must be strings")
            rid = req.get("id")
            if rid is None or not W.valid_id(rid):
                rid = None
                raise W.Error(W.BAD_ARG, "id must be an integer or a string of at most %d characters" % W.MAX_ID)
            cmd = req.get("cmd")
            if not isinstance(cmd, str):
                raise W.Error(W.BAD_ARG, "cmd must be a command name")
            entry = W.COMMANDS.get(cmd)
            if entry is None:
                handler = "act"  # an action (ui/actions.py): its table checks its arguments
                try:
                    level = self.commands().action_level(cmd)
                except W.Error:  # unknown: an `auth` it carries is still checked and used up first
                    self._authorize(req, W.READ)
                    raise
                self._authorize(req, level)
            else:
                handler, level, allowed = entry
                self._authorize(req, level)  # the MAC before the arguments (docs/protocol.md)
                for k in req:
                    if k not in allowed and k not in ("id", "cmd", "auth"):
                        raise W.Error(W.BAD_ARG, "%s takes no argument %s" % (cmd, W.short(k)))
            self.last_heavy = cmd.startswith("log.")
            if handler[:2] == "c_":
                body = getattr(self, handler)(req, now)
            else:
                if handler[:2] == "l_":
                    gc.collect()  # a pull begins (log.info) and ends (log.head) on a collected heap
                    from sagatfw.link import log as mod  # forgotten after the feed

                    self.loaded = True
                else:
                    mod = self.commands()
                fn = getattr(mod, handler)
                if self.app.match is not None and cmd in ("key.set", "maintenance", "log.erase", "log.info"):
                    gc.collect()
                    from sagatfw.link import (
                        matchproto as matchcmds,  # a match's guards of the clock's commands, forgotten after the feed
                    )

                    body = matchcmds.serve(self, req, now, fn)
                else:
                    body = fn(self, req, now)
            self._reply(rid, body)
        except W.Error as e:
            self._error(rid, e.code, e.message, e.args[1:])
        except Exception as e:  # noqa: BLE001 - a bug must not stop the clock: say so, go on
            self.internal_errors += 1
            self._note("protocol: %r" % (e,))
            self._error(rid, W.INTERNAL, "internal error: %r" % (e,), ())
        return True

    def commands(self):
        """sagatfw.link.commands, loaded for this feed."""
        if self.cmds is None:
            gc.collect()  # a module's dict grows as it loads: give it whole free blocks
            from sagatfw.link import commands

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
                raise W.Error(W.AUTH_FAILED, "no challenge: ask auth.challenge first")
            if not isinstance(auth, str) or len(auth) != 64:
                raise W.Error(W.AUTH_FAILED, "auth must be 64 hex digits")
            gc.collect()
            from sagatfw.link import auth as A  # forgotten after this feed

            self.loaded = True
            try:
                mac = binascii.unhexlify(auth)
                want = A.hmac_sha256(key, A.auth_message(nonce, req, self.info.get("uid")))
            except ValueError:
                raise W.Error(W.AUTH_FAILED, "auth does not match") from None
            if not A.same(mac, want):
                raise W.Error(W.AUTH_FAILED, "auth does not match")
            proved = True
        if proved or not key or level == W.READ:
            return
        # every change, in every state (a finished game's result, the next game's
        # control, a correction before the start, the wall time are as much the arbiter's as a move)
        raise W.Error(W.AUTH_REQUIRED, "the clock has an arbiter key: this needs it (sign with the key)")

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
        if app.match is not None:  # a match's scoreboard (link/matchproto.py, loaded for the request)
            from sagatfw.link import matchproto as matchcmds

            self.loaded = True
            return matchcmds.state(self, now)
        c = app.clock
        j = app.journal
        level, low = self.battery()
        code = app.result_code()  # the finished game's, while it is on the faces
        a = j.result_arg  # the result, and its kazans packed with it (records.result_arg; -1: none)
        lk = rk = -1
        if a >= 0 and a & 0x100000:
            a, lk, rk = a & 15, (a >> 4) & 255, (a >> 12) & 255
        # TK-P1, TK-P9: the 30-min protest window's ms left, from the end of the game (the app's view of it)
        pw = None if code is None else app.protest_left(now)
        body = {
            "state": self.state_name(),
            "t": c.t,
            "game": j.game,
            "seq": j.seq - 1 if j.seq else None,
            "running": W.side_name(c.running),
            "to_move": W.side_name(c.side_to_move()),
            "first": W.side_name(c.first),
            "first_flag": W.side_name(c.first_flag()),
            "tc": c.tc_field(),
            "left": _face(c, C.LEFT),
            "right": _face(c, C.RIGHT),
            "message": F.status_text(app),
            "log_error": j.error,
            "log_full": j.full,
            "time_synced": j.sync_wall_ms is not None,
            "result": None if code is None else C.RESULT_NAMES[a] if 0 <= a < len(C.RESULT_NAMES) else None,
            "result_code": code,  # (the result: the last one entered, the hall shows it on the board)
            "kazans": None if code is None or lk < 0 else [lk, rk],  # its final kazans (TK-R7), left's and right's
            "protest_ms": pw,
            "battery": level,
            "battery_mv": getattr(app.board, "mv", None),  # the cell (bring-up: the threshold sweep)
            "low_battery": low,
            "ticks": now,  # the board's ticks at this answer: the hall's sync of the link
            "armed": app.armed,  # the ticks an armed start waits for, or None
            "locating": F.locating(app, now) > 0,  # a `locate` blinks the faces
        }
        return body

    def c_auth_challenge(self, req, now):
        self.nonce = binascii.hexlify(_random(16)).decode()
        return {"nonce": self.nonce, "key_set": bool(self.key)}


def _face(c, s):
    countup = c.tc[s] is not None and c.counts_up(s)
    used = None
    if c.state == C.ADJOURNED:  # TK-A3: the envelope's time used (engine/envelope.py, loaded for it: RAM)
        from sagatfw.engine.envelope import used_ms

        used = used_ms(c, s)
    return {
        "ms": c.ms(s),
        "moves": c.moves[s],
        "stage": c.stage[s],
        "flag": c.flag[s],
        "delay_ms": c.delay_remaining(s),
        "low": F.is_low(c, s),  # TK-C17 (the faces' LOW)
        "default": bool(c.default_mark[s]),
        "stage_mark": bool(c.stage_mark[s]),
        "countup": countup,
        "used_ms": used if used is None or used >= 0 else None,  # TK-A3, while adjourned (an hourglass: None)
    }
