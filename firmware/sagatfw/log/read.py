# sagat: reading log records back: decoding to contract 3's fields, and a Reader that checks
# each record, the seq and the chain, reporting every problem.
#
# Pure module, the reading half of log/records.py: the host imports it, the board only at boot (to
# restore an interrupted game), after which it leaves RAM.

import struct

from sagatfw.engine import clock as C
from sagatfw.log.records import (
    CHAIN,
    FLAG_WALL,
    HEADER,
    ORIGIN_KEY_CLEARED,
    ORIGIN_KEY_SET,
    P_CHAIN,
    P_GAP,
    P_KEY,
    P_ORDER,
    PAYLOAD,
    PAYLOAD_SIZE,
    T_ANCHOR,
    T_CHECKPOINT,
    T_GAP,
    T_TEXT,
    TEXT_AT,
    TEXT_SIZE,
    ZERO_CHAIN,
    Chain,
    arg_of,
    chain_of,
    check,
    seq_of,
    stage_byte,
    type_of,
)
from sagatfw.log.wall import iso_utc


def kazans_of(rec):
    """A result record's kazan counts (left's, right's: TK-R1, TK-R7), or None if none were entered."""
    if rec[1] != C.EV_RESULT or rec[PAYLOAD] != 1:
        return None
    return rec[PAYLOAD + 1], rec[PAYLOAD + 2]


CODE_DIGITS = 6  # a result code's (records.result_code)
TAG_AT = 48  # a result record's (a game's or a match's) clock tag (records.clock_tag): its last payload bytes
TAG_SIZE = 4


def tag_of(rec):
    """A result record's (a game's or a match's) clock tag (records.clock_tag of the id of the clock that
    entered it), or None where it has none: zeros (a clock that knew no id, or an older firmware's record)."""
    tag = bytes(rec[TAG_AT : TAG_AT + TAG_SIZE])
    return None if tag == bytes(TAG_SIZE) else tag


ORIGIN_NAMES = ("changed", "defaults_missing", "defaults_corrupt", "key_set", "key_cleared", "maintenance")


def _text(rec, at, size):
    raw = bytes(rec[at : at + size])
    n = raw.find(b"\x00")
    return raw if n < 0 else raw[:n]


def _name(names, i):
    return names[i] if 0 <= i < len(names) else None  # a forged record's out-of-range value: None


def _fields(d, kind, side, arg):
    """The fields of a clock event's type that the log's record and the clock's queued event both
    carry (side, by, order, stage, result, first, reason): the one switch of decode and event_dict."""
    if side in (0, 1) and kind != C.EV_SETTINGS:
        d["side"] = C.SIDE_NAMES[side]
    if kind == C.EV_PAUSE:
        d["by"] = _name(C.BY_NAMES, arg)
    elif kind == C.EV_FLAG:
        d["order"] = arg
    elif kind == C.EV_STAGE:
        d["stage"] = arg
    elif kind == C.EV_RESULT:
        d["result"] = _name(C.RESULT_NAMES, arg)
    elif kind == C.EV_GAME_START:
        d["first"] = C.SIDE_NAMES[arg] if arg in (0, 1) else None
    elif kind == C.EV_ADJUST:
        d["reason"] = _name(C.REASON_NAMES, arg)


def decode(rec):
    """The contract 3 fields of one record (not T_TEXT). Includes `game`, `seq`, `wall`."""
    (_, kind, game, seq, t, lms, rms, lmv, rmv, running, side, arg, lst, rst, flags, _, ws, wms) = (
        struct.unpack_from(HEADER, rec, 0)
    )
    if 0x20 <= kind <= 0x30:  # a match's record (log/matchrecords.py: EV_BASE .. T_MATCH)
        from sagatfw.log import matchrecords as matchlog

        return matchlog.decode(rec)
    if kind == T_CHECKPOINT:
        name = "checkpoint"
    elif kind == T_GAP:
        name = "gap"
    elif kind < len(C.EVENT_NAMES):
        name = C.EVENT_NAMES[kind]
    else:
        name = "unknown_%d" % kind
    d = {
        "game": game,
        "seq": seq,
        "type": name,
        "t": t,
        "left_ms": lms,
        "right_ms": rms,
        "left_moves": lmv,
        "right_moves": rmv,
        "running": C.SIDE_NAMES[running] if running in (0, 1) else None,
        "wall": iso_utc(ws, wms) if flags & FLAG_WALL else None,
        "left_stage": lst,
        "right_stage": rst,
    }
    if side in (0, 1) and kind == C.EV_SETTINGS:
        d["first"] = C.SIDE_NAMES[side]  # a game's setup record: its tc follows as text
        d["tc"] = ""
    _fields(d, kind, side, arg)
    if kind == C.EV_GAME_START:
        try:
            d["tc"] = _text(rec, PAYLOAD, PAYLOAD_SIZE).decode()
        except UnicodeError:  # not text: a damaged or forged record (its CRC can be made to fit)
            d["tc"] = None
    elif kind == C.EV_ADJUST:
        bms, bmv, bst, ams, amv, ast = struct.unpack_from("<IHBIHB", rec, PAYLOAD)
        d["before"] = {"ms": bms, "moves": bmv, "stage": bst}
        d["after"] = {"ms": ams, "moves": amv, "stage": ast}
    elif kind == C.EV_RESULT:  # the final kazans, when the arbiter gave them (TK-R7): [left's, right's] or None
        k = kazans_of(rec)
        d["kazans"] = None if k is None else [k[0], k[1]]
    elif kind == T_GAP:  # the clock dropped records here: its log was full
        d["dropped"], d["until_t"] = struct.unpack_from("<II", rec, PAYLOAD)
    elif kind == C.EV_SETTINGS:
        freeze, by_flag, ext, default, low = struct.unpack_from("<BBIII", rec, PAYLOAD)
        d["origin"] = ORIGIN_NAMES[arg] if 0 <= arg < len(ORIGIN_NAMES) else None
        d["settings"] = {  # as recorded: the replay's clock.Settings checks the values
            "freeze": None if freeze == 2 else bool(freeze),
            "stage_advance": "flag" if by_flag else "moves",
            "extension_ms": ext,
            "default_ms": default,
            "low_time_ms": low,
        }
    return d


def tc_value(text):
    """The game_start `tc` field: "A" or {"left": A, "right": B} for "A|B"."""
    if "|" in text:
        left, right = text.split("|", 1)
        return {"left": left, "right": right}
    return text


class Reader:
    """Reads records in order, checks each one, the seq and the chain, and yields decoded events.

    feed(rec) returns the decoded event (a dict), or None for a record that is not an event
    (text continuation, segment anchor, damaged). Problems found go to `problems` as (kind, seq,
    detail); nothing is skipped in silence and nothing is "repaired". Call finish() after the last
    record: it also adds the problems that only the whole log shows.

    The chain: a log that begins with seq 0 starts from zeros; one whose older segments were
    removed begins with its first segment's anchor, which states the link of the record before
    it, so the first record's MAC is checked like every other (a log that starts anywhere else is
    a problem: its first record could be anything).

    Keys (`key`: one key or a list, the current one first, then older ones): each key is valid only
    for its own range of the chain. The log starts under whichever chain its first record links
    under (unkeyed, or a key given); every record must link under the same chain as the one before
    it, except right after a settings record with origin key_set (then under any key given: the
    same key set again is one) or key_cleared (then unkeyed). Both records are sealed under the key
    they retire, so only its holder can make them. With a key given, a log of which no record links
    under it fails (a log made on any unkeyed clock is no proof); a log that ends under an older
    key, or unkeyed without a key_cleared record under the first (current) one, fails too (it may
    have been cut at a key change, or continued by the holder of a retired key: then the problem
    names where a key_set record last kept its key)."""

    def __init__(self, key=b"", checkpoints=False, verify=True):
        keys = key if isinstance(key, (list, tuple)) else [key]
        self.chains = [Chain(k) for k in keys if k]
        self.unkeyed = Chain(b"")
        self.cur = None  # the chain of the current range: None unknown, -1 unkeyed, i: key i
        self.lost = False  # the range is under a key not given: links cannot be checked
        self.switch = None  # (origin, seq, chain) after a key_set / key_cleared record
        self.cleared_by = None  # the key whose holder cleared it (the last key_cleared record accepted)
        self.again = None  # (seq, key_set seq): the range's key kept at a key_set record (the same key set again)
        self.anchor = None  # the seq the last segment anchor gave the record after it
        self.linked = None  # the chain the last record linked under: a key's index, -1 unkeyed; None unchecked
        self.used = 0  # records that link under a key given
        self.checkpoints = checkpoints
        # verify=False: decode only, the clock's own restore at boot. The records' CRCs are still
        # checked; the chain (under whichever key) and the list of problems are the arbiter's
        # business (`sagat logs verify`), and a problem kept per record would use up the heap.
        self.verify = verify
        self.prev = None  # chain value of the last good record (or the one an anchor states)
        self.last_seq = None
        self.start_seq = None
        self.last_link = None  # chain value of the last record read (None if it was damaged)
        self.problems = []
        self.records = 0
        self.good = 0  # well-formed records (anchors included)
        self._pending = None  # game_start waiting for its text continuations
        self._text = b""

    def _problem(self, kind, seq, detail):
        if self.verify:
            self.problems.append((kind, seq, detail))

    def _which(self, prev, body, link, unkeyed=True):
        """The chain the record links under: a key's index, -1 unkeyed (if it may be), None for none."""
        for i in range(len(self.chains)):
            if self.chains[i].link(prev, body) == link:
                return i
        if unkeyed and self.unkeyed.link(prev, body) == link:
            return -1
        return None

    def _name(self, i):
        if i == -1:
            return "unkeyed"
        if len(self.chains) == 1:
            return "under the key"
        return "under key %d (--key #%d)" % (i + 1, i + 1)

    def _check_link(self, rec, seq, where):
        body = memoryview(rec)[:CHAIN]
        link = chain_of(rec)
        sw = self.switch
        self.switch = None
        if sw is not None:
            origin, at, old = sw
            got = self._which(self.prev, body, link, origin != ORIGIN_KEY_SET)  # (a key_set sets a key)
            if origin == ORIGIN_KEY_SET and got is not None:
                # under the key it retired: the same key set again (`sagat key K --key K`), or that key's
                # holder going on after a change (then the log cannot end under the first --key: finish)
                self.again = (seq, at) if got == old else None
                self.cur = got
                return
            if origin == ORIGIN_KEY_CLEARED and got == -1:
                self.cur = -1
                if old != -1:  # (a clock with no key logs a clear too, unkeyed: it retires no key)
                    self.cleared_by = old
                return
            if origin == ORIGIN_KEY_SET and not self.chains and got is None:
                self.lost = True
                self._problem(P_KEY, seq, "seq %d onward is under the arbiter key set at seq %d: give --key "
                              "(nothing after it is checked without it)" % (seq, at))
                return
            if origin == ORIGIN_KEY_SET and self._which(self.prev, body, link) == -1:
                why = "seq %d is unkeyed, but a key was set at seq %d" % (seq, at)
            elif origin == ORIGIN_KEY_SET:
                why = "seq %d links under none of the keys given: the key set at seq %d is needed" % (seq, at)
            else:
                why = "seq %d is not unkeyed, but the key was cleared at seq %d" % (seq, at)
            self._problem(P_KEY, seq, why + " " + where)
            self.cur = self._which(self.prev, body, link)
            return
        if self.cur is None or self.lost:
            got = self._which(self.prev, body, link)
            if got is not None:
                self.cur = got
                self.lost = False
                return
            if self.lost:
                return  # said once: under a key not given, nothing can be checked
            self.lost = True
            if self.chains:
                why = "seq %d links under none of the keys given (a wrong key, or a changed record)" % seq
            else:
                why = "seq %d does not link unkeyed: the log is under an arbiter key (give --key), or the " \
                      "record was changed" % seq
            self._problem(P_KEY if not self.chains else P_CHAIN, seq, why + " " + where)
            return
        cur = self.cur
        chain = self.unkeyed if cur == -1 else self.chains[cur]
        if chain.link(self.prev, body) == link:
            return
        got = self._which(self.prev, body, link)
        if got is None:
            why = "seq %d does not link to seq %d" % (seq, self.last_seq if self.last_seq is not None else seq - 1)
            self._problem(P_CHAIN, seq, why + " " + where)
            return
        if got == -1:
            why = "seq %d is unkeyed after records %s, and no key_cleared record says the key was cleared" % (
                seq, self._name(cur))
        else:
            why = "seq %d is %s after records %s, and no key_set record comes before it" % (
                seq, self._name(got), self._name(cur))
        self._problem(P_KEY, seq, why + " " + where)
        self.cur = got

    def feed(self, rec, where=""):
        self.records += 1
        bad = check(rec)
        if bad:
            seq = seq_of(rec) if len(rec) >= 8 else None
            self._problem(bad, seq, "record %s%s" % (where, " (seq %s)" % seq if seq is not None else ""))
            self.prev = None  # the next record cannot be linked to an unreadable one
            self.last_link = None
            return self._flush_pending()
        self.good += 1
        seq = seq_of(rec)
        kind = type_of(rec)
        if self.last_seq is not None:
            if seq <= self.last_seq:
                self._problem(P_ORDER, seq, "seq %d after %d %s" % (seq, self.last_seq, where))
            elif seq != self.last_seq + 1:
                self._problem(P_GAP, seq, "seq %d..%d missing %s" % (self.last_seq + 1, seq - 1, where))
        if kind == T_ANCHOR:  # a segment's start: the link of the record before it
            stated = chain_of(rec)
            if seq == 0 and stated != ZERO_CHAIN:
                self._problem(P_CHAIN, seq, "the segment anchor of seq 0 states a link: nothing comes before "
                              "seq 0 %s" % where)
            if self.prev is None:
                self.prev = stated  # the log's start, or after a damaged record
            elif stated != self.prev:
                self._problem(P_CHAIN, seq, "the segment anchor before seq %d states a link that is not "
                              "the record before it %s" % (seq, where))
            self.anchor = seq  # the record after it must have this seq
            self.last_seq = seq - 1
            return None
        if self.anchor is not None and seq != self.anchor:
            # an anchor's seq is not covered by any MAC: it must be the seq of the record after it
            self._problem(P_CHAIN, seq, "the segment anchor before seq %d says seq %d %s" % (seq, self.anchor, where))
        if self.start_seq is None:
            self.start_seq = seq
            if self.anchor is None:
                if seq == 0:
                    self.prev = ZERO_CHAIN  # the clock's very first record links to zeros
                else:
                    self._problem(P_CHAIN, seq, "seq %d begins the log without a segment anchor: its MAC "
                                  "cannot be checked (records before it were cut off) %s" % (seq, where))
        self.anchor = None
        self.linked = None
        if self.prev is not None and self.verify:
            before = len(self.problems)
            self._check_link(rec, seq, where)
            if len(self.problems) == before and not self.lost:
                self.linked = self.cur  # the chain this record links under (-1 unkeyed)
            if self.cur is not None and self.cur >= 0 and not self.lost:
                self.used += 1
            if kind == C.EV_SETTINGS and arg_of(rec) in (ORIGIN_KEY_SET, ORIGIN_KEY_CLEARED) and not self.lost:
                self.switch = (arg_of(rec), seq, self.cur)
        self.prev = chain_of(rec)
        self.last_link = self.prev
        self.last_seq = seq
        if kind == T_TEXT:
            if self._pending is not None:
                self._text += _text(rec, TEXT_AT, TEXT_SIZE)
            return None
        out = self._flush_pending()
        d = decode(rec)
        if "tc" in d:  # game_start, or a game's setup record: text continuations may follow
            self._pending = d
            self._text = d["tc"].encode() if d["tc"] is not None else b"\xff"  # (None stays None)
            return out
        if kind == T_CHECKPOINT and not self.checkpoints:
            return out
        if out is not None:
            return (out, d)
        return d

    def _flush_pending(self):
        d = self._pending
        if d is None:
            return None
        self._pending = None
        try:
            d["tc"] = tc_value(self._text.decode())
        except UnicodeError:
            d["tc"] = None
        return d

    def finish(self):
        """Call after the last record: returns a game_start still waiting for its text, or None;
        adds the problems of the whole log (a key given that signs nothing, a log that does not
        end under the current key)."""
        if self.verify and self.chains and self.good and not self.lost:
            if not self.used:
                self._problem(P_KEY, None, "no record links under the key given: this log was not written "
                              "under it (a log from another clock, or made without the key, proves nothing)")
            elif self.cur is not None and self.cur > 0:
                self._end("the log ends %s, not under the first --key (the current one): records after a key "
                          "change may be missing" % self._name(self.cur))
            elif self.cur == -1 and self.cleared_by != 0:
                # a retired key (perhaps leaked) cannot clear the key and go on unkeyed: the clear
                # that ends a log must be the current key's
                self._end("the log ends unkeyed, and no key_cleared record under the first --key (the current "
                          "one) says so: records after a key change may be missing or made with a retired key")
        return self._flush_pending()

    def _end(self, why):
        """A log that ends under a key not the current one: named where a key_set record last kept that
        key (from there on, the records may be its holder's, going on after the key change)."""
        if self.again is None:
            self._problem(P_KEY, self.last_seq, why)
        else:
            seq, at = self.again
            self._problem(P_KEY, seq, "seq %d links under the key that the key change at seq %d retired (or set "
                          "again), and %s" % (seq, at, why))

    def events(self, records):
        """All events of an iterable of records, in order (a list of dicts)."""
        out = []
        for rec in records:
            _collect(out, self.feed(rec))
        _collect(out, self.finish())
        return out


def _collect(out, got):
    if got is None:
        return
    if isinstance(got, tuple):
        out.extend(got)
    else:
        out.append(got)


# ------------------------------------------------------------ clock events


def _side(s):
    return C.SIDE_NAMES[s] if s >= 0 else None


def take_events(clock):
    """The clock's queued events as contract 3 dicts, and its queue cleared (allocates: for the
    replay, the tests and the host, never the board's loop). `game`, `seq` and `wall` are the
    journal's to add."""
    out = [event_dict(clock.events, i * C.EV_SIZE, clock.tc_field) for i in range(clock.n_events)]
    clock.n_events = 0
    return out


def event_dict(ev, e, tc_field=None):
    """Decode the event at offset e of an int array into contract 3's fields."""
    kind = ev[e + C.F_TYPE]
    d = {
        "type": C.EVENT_NAMES[kind],
        "t": ev[e + C.F_T],
        "left_ms": ev[e + C.F_LEFT_MS],
        "right_ms": ev[e + C.F_RIGHT_MS],
        "left_moves": ev[e + C.F_LEFT_MOVES],
        "right_moves": ev[e + C.F_RIGHT_MOVES],
        "running": _side(ev[e + C.F_RUNNING]),
    }
    _fields(d, kind, ev[e + C.F_SIDE], ev[e + C.F_ARG])
    if kind == C.EV_GAME_START:
        if tc_field is not None:
            d["tc"] = tc_field()
    elif kind == C.EV_ADJUST:
        d["before"] = {
            "ms": ev[e + C.F_BEFORE_MS],
            "moves": ev[e + C.F_BEFORE_MOVES],
            "stage": stage_byte(ev[e + C.F_BEFORE_STAGE]),
        }
        d["after"] = {
            "ms": ev[e + C.F_AFTER_MS],
            "moves": ev[e + C.F_AFTER_MOVES],
            "stage": stage_byte(ev[e + C.F_AFTER_STAGE]),
        }
    elif kind == C.EV_RESULT:
        d["kazans"] = [ev[e + C.F_BEFORE_MOVES], ev[e + C.F_AFTER_MOVES]] if ev[e + C.F_BEFORE_STAGE] else None
    return d
