# sagat: a match's names record (T_NAMES): its code, layout, and the names' checks and cut.
#
# Pure module (the host imports it too), loaded only to write a names record (app/setup.py, at a
# match's setup), to check `new`'s names (ui/actions.py) or to read one (link/matchproto.py's `state`,
# the host): log/records.py stays in RAM for the whole run, so this is apart from it.
#
# A T_NAMES record follows a match's setup record (log/matchrecords.py T_MATCH) when `new` gave names
# (docs/match.md, "Names"; docs/log-format.md): bytes 0..7 as a text record's (magic, type, game,
# seq), 8..11 t (0, the setup's), 12..51 the left side's name in UTF-8, a NUL, the right side's,
# NUL-padded: NAMES_SIZE bytes for both, each cut on a character boundary (fit_names).

import struct

from sagatfw.log import records as R

T_NAMES = 0x44  # after the T_* records of log/records.py (0x40..0x43)
NAMES_AT = 12
NAMES_SIZE = 40


def _cut(raw, n):
    """UTF-8 bytes `raw` cut to at most n bytes on a character boundary."""
    if len(raw) <= n:
        return raw
    while n > 0 and raw[n] & 0xC0 == 0x80:  # a continuation byte: the character began before
        n -= 1
    return raw[:n]


def fit_names(left, right):
    """Two names (str, text without control characters: ValueError otherwise) as a T_NAMES
    record's text: left, NUL, right in NAMES_SIZE bytes; when both do not fit each keeps at least
    half the room, the shorter gives the longer what it does not use. None if both are empty."""
    for v in (left, right):
        if not isinstance(v, str):
            raise ValueError("names must be text")
        for c in v:
            if ord(c) < 32 or ord(c) == 127:
                raise ValueError("names must be text (no control characters)")
    a = left.encode()
    b = right.encode()
    if not a and not b:
        return None
    room = NAMES_SIZE - 1
    a = _cut(a, room - len(b) if room - len(b) > room // 2 else room // 2)
    b = _cut(b, room - len(a))
    return a + b"\x00" + b


def pack_names(buf, game, seq, text):
    """A T_NAMES record of `text` (fit_names') in buf."""
    for i in range(R.RECORD_SIZE):
        buf[i] = 0
    struct.pack_into("<BBHI", buf, 0, R.MAGIC, T_NAMES, game & 0xFFFF, seq)
    buf[NAMES_AT : NAMES_AT + len(text)] = text


def names_text(rec):
    """A T_NAMES record's text (fit_names' bytes, its padding gone)."""
    raw = bytes(rec[NAMES_AT : NAMES_AT + NAMES_SIZE])
    n = len(raw)
    while n and raw[n - 1] == 0:
        n -= 1
    return raw[:n]


def names_of(text):
    """(left, right) of fit_names' bytes, or None for none or not UTF-8 text (a forged record)."""
    if not text:
        return None
    i = text.find(b"\x00")
    if i < 0:
        i = len(text)
    try:
        return text[:i].decode(), text[i + 1 :].decode()
    except UnicodeError:
        return None


# ------------------------------------------------------------------ the names of the match set up
# (link/matchproto.py's `state` loads this module for them, while the match has any, and forgets it after)

_T_MATCH = 0x30  # log/matchrecords.py's T_MATCH (not imported: its names would be RAM beside a match)


def _names_in_log(j):
    """The current game's T_NAMES record's text (log/names.py fit_names' bytes), b"" if its setup
    has none: read once a match when its MatchApp holds none (app/setup.py's new keeps names given;
    a match without, or one restored at boot, has none). The game's setup and its names are its
    first records: the log is read from the newest segment that begins before the game (as
    app/setup.py's _records), only up to the game's first record but its setup."""
    buf = bytearray(R.RECORD_SIZE)
    segs = j.segments()
    start = 0
    for i in range(len(segs) - 1, -1, -1):
        with j.open_for_reading(segs[i]) as f:  # its first record (the anchor): the game it begins in
            n = f.readinto(buf)
        if n == R.RECORD_SIZE and not R.check(buf) and R.game_of(buf) < j.game:
            start = i
            break
    for name in segs[start:]:
        with j.open_for_reading(name) as f:
            while f.readinto(buf) == R.RECORD_SIZE:
                if R.check(buf) or R.game_of(buf) != j.game or buf[1] == R.T_ANCHOR or buf[1] == _T_MATCH:
                    continue
                return names_text(buf) if buf[1] == T_NAMES else b""
    return b""


def match_names(srv):
    """The match's names as {"left": ..., "right": ...} (what `new` gave: docs/protocol.md), or
    None. A match set up with names keeps their record's bytes on its MatchApp (app/setup.py: at
    most 40); else (none given, or a match restored at boot) they are read from the log once per
    match, at its first `state`: found, they go on the MatchApp as if given; none, the server keeps
    the game's number (`match_names`, an int: a match without names costs no attribute on its
    MatchApp and no object, the frozen match heap). A log that cannot be read now: None, read
    again next time."""
    app = srv.app
    raw = getattr(app.match, "names", None)
    if raw is None:
        if getattr(srv, "match_names", None) == app.journal.game:
            return None
        try:
            raw = _names_in_log(app.journal)
        except (OSError, MemoryError):
            return None
        if not raw:
            srv.match_names = app.journal.game
            return None
        app.match.names = raw
    pair = names_of(raw)
    return None if pair is None else {"left": pair[0], "right": pair[1]}
