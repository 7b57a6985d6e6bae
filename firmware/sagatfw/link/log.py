# sagat: the log's commands of a pull, log.info and log.head (contract 6; docs/protocol.md), and
# the log's reading helpers link/commands.py shares. protocol.Server loads this module for such a request
# and drops it after that feed, as link/commands.py, but it is small: a pull on a board with .mpy files
# loads it in a few ms where link/commands.py took 40 (and its gc.collect 16) for each of the two.

import binascii
import os

from sagatfw.engine import clock as C
from sagatfw.link import wire as W
from sagatfw.log import records as R


def str_arg(req, name, lo=1, hi=W.MAX_LINE):
    """A request's text argument of lo..hi characters, or wire.Error bad_arg."""
    v = req.get(name)
    if not isinstance(v, str) or not lo <= len(v) <= hi:
        raise W.Error(W.BAD_ARG, "%s must be a string of %d..%d characters" % (name, lo, hi))
    return v


def first_record(srv, names):
    """(seq, game) of the oldest well-formed record on the flash, or None."""
    rec = srv.rec
    for name in names:
        f, whole, _ = srv.open_segment(name)
        if f is None:
            continue
        try:
            f.seek(0)
            for _ in range(whole):
                if f.readinto(rec) != R.RECORD_SIZE:
                    break
                if not R.check(rec):
                    return R.seq_of(rec), R.game_of(rec)
        except OSError:
            pass
        finally:
            f.close()
    return None


def protected_game(srv):
    """The lowest game number that must stay on the flash: the game in progress (a game set
    up and logged counts too); past the last game when none is."""
    app = srv.app
    g = app.journal.game
    if srv.in_progress() or (app.clock.state == C.SETUP and app.setup_logged):
        return g
    return g + 1


def l_head(srv, req, now):
    """The oldest record's seq and the last durable record (seq, chain value), signed with the key
    over the host's fresh nonce: a pull that spans them has the whole log as the clock holds it
    now, and nobody without the key can make such an answer for a log that was cut short."""
    nonce = str_arg(req, "nonce", 16, 128)
    try:
        binascii.unhexlify(nonce)
    except ValueError:
        raise W.Error(W.BAD_ARG, "nonce must be hex digits") from None
    j = srv.app.journal
    seq = j.head_seq if j.head_seq >= 0 else None
    link = binascii.hexlify(j.head_link).decode()
    uid = srv.info.get("uid")
    first = first_record(srv, srv.app.journal.segments())
    first = first[0] if first else None
    body = {"first": first, "seq": seq, "link": link, "game": j.game, "uid": uid, "key_set": bool(srv.key),
            "mac": None}
    if srv.key:
        from sagatfw.link import auth as A

        srv.loaded = True
        body["mac"] = A.hex_text(A.hmac_sha256(srv.key, A.head_message(nonce, uid, first, seq, link)))
    return body


def _listing(j):
    """The segments' names, oldest first, and their bytes in all, from one reading of the log's
    folder: MicroPython's ilistdir gives each entry's size (a stat a name cost 47 ms for 16
    segments on the Pico's littlefs, 3 ms each); CPython and a size it does not know (-1) stat."""
    ild = getattr(os, "ilistdir", None)
    if ild is None:
        names, sizes = j.segments(), None
    else:
        names, sizes = [], {}
        try:
            for e in ild(j.root):
                if e[0].endswith(R.SUFFIX):
                    names.append(e[0])
                    sizes[e[0]] = e[3] if len(e) > 3 else -1
        except OSError:
            names = []
        names.sort()
    total = 0
    for name in names:  # (a stat needs no file buffer: 1.2 KB in one piece that a tight heap may lack)
        size = sizes[name] if sizes else -1
        if size < 0:
            try:
                size = os.stat(j.path(name))[6]
            except OSError:
                size = 0
        total += size
    return names, total


def l_info(srv, req, now):
    j = srv.app.journal
    names, total = _listing(j)
    first = first_record(srv, names)
    prot = protected_game(srv)
    # the pull that follows (sagat logs pull asks log.info first) reads with this listing: its
    # first log.read need not list the segments again in its own pass (pull.Pull.c_log_read)
    srv.segs = [j.seq, len(j.backlog), now, names, [W.seg_first(n) for n in names]]
    return {
        "first": first[0] if first else None,
        "last": srv.last_seq(),
        "first_game": first[1] if first else None,
        "game": j.game,
        "in_progress": prot if prot == j.game else None,
        "segments": len(names),
        "bytes": total,
        "backlog": len(j.backlog),
        "dropped": j.dropped,
        "log_full": j.full,
        "log_error": j.error,
        "max_records": W.MAX_RECORDS,
        "bin": True,  # log.read sends raw records after its line on request (a pull at the link's speed)
        "uid": srv.info.get("uid"),  # so that a pull needs no identify first
    }
