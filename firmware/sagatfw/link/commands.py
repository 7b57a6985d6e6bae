# sagat: the protocol's rarer commands (contract 6; docs/protocol.md): those that change the clock,
# its settings, its key or its log, and identify, asked once per connection (a pull's log.info and
# log.head are link/log.py's).
# protocol.Server loads this module for such a request and drops it again after that feed: a
# board's loop keeps only the frequent half of the protocol in RAM (state, the challenge and the
# log pull). Each command is a function (server, request, now) returning the response body, or
# raising wire.Error.

import binascii
import os

from sagatfw import KEY_FILE, MAX_KEY, VERSION, Refused, forget
from sagatfw.core.ticks import ticks_add
from sagatfw.engine import clock as C
from sagatfw.link import wire as W
from sagatfw.link.log import first_record, protected_game, str_arg
from sagatfw.log import records as R

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


_ST_SETTINGS_UNSAVED = const(7)  # the status line: settings not on the flash (faces.STATUS_TEXT)
LOCATE_MS = const(5000)  # a locate's length (docs/protocol.md)


PENDING = ".new"  # the key file's name + this: a key change whose log record may not be durable yet


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def save_key(root, key):
    """Store the key atomically (temporary file, rename); b"" removes it. Raises OSError."""
    path = root + KEY_FILE
    if not key:
        try:
            os.remove(path)
        except OSError:
            pass
        return
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(key)
        f.flush()
    os.rename(tmp, path)



def _brief(srv):
    c = srv.app.clock
    return {
        "state": srv.state_name(),
        "t": c.t,
        "left_ms": c.ms(C.LEFT),
        "right_ms": c.ms(C.RIGHT),
        "running": W.side_name(c.running),
    }

def action_level(cmd):
    """Who may call the action `cmd` (ui/actions.py's table); unknown_cmd if it is none."""
    from sagatfw.ui import actions

    entry = actions.ACTIONS.get(cmd)
    if entry is None:
        raise W.Error(W.UNKNOWN_CMD, "unknown command %s" % W.short(cmd))
    return entry[2]

def act(srv, req, now):
    """An action of ui/actions.py's table (new, start, pause, adjust, result, score, settings.set,
    ...): its arguments checked by the table, done through the app or the match. A bad argument
    is `bad_arg`, an action the state does not allow `refused` (sagatfw.Refused, with why)."""
    from sagatfw.ui import actions

    srv.loaded = True
    cmd = req["cmd"]
    try:
        actions.do(srv.app, cmd, actions.args(cmd, req), now)
    except ValueError as e:  # a Refused, or a bad value: (its text[, reason code[, parts]]) (the kazans' too)
        a = e.args
        raise W.Error(W.REFUSED if isinstance(e, Refused) else W.BAD_ARG, "%s: %s" % (cmd, a[0] if a else ""),
                      *a[1:]) from None
    finally:
        forget("sagatfw.ui.actions")
    app = srv.app
    if app.match is not None:
        from sagatfw.link import matchproto as matchcmds

        return matchcmds.state(srv, now)
    if cmd == "settings.set":
        return {"values": dict(app.store.values), "saved": app.status != _ST_SETTINGS_UNSAVED}
    body = _brief(srv)
    if cmd == "adjourn":  # TK-A3: the envelope's times used, as resume_adjourned takes them back (TK-A4)
        from sagatfw.engine.envelope import used_ms  # (loaded for it: RAM)

        for s in (C.LEFT, C.RIGHT):
            u = used_ms(app.clock, s)
            body[W.side_name(s) + "_used_ms"] = u if u >= 0 else None
    if cmd == "arm" or cmd == "disarm":
        body["armed"] = app.armed  # the ticks it waits for; null: nothing armed
    if cmd == "new":
        body["tc"] = app.clock.tc_field()
        body["first"] = W.side_name(app.clock.first)  # what was set up (a null first is left)
    return body

def settings_get(srv, req, now):
    s = srv.app.store
    return {"values": dict(s.values), "problem": s.problem}

def presets_list(srv, req, now):
    from sagatfw.core import presets  # not kept in RAM: forgotten again below
    from sagatfw.log.settings import MAX_PRESETS

    builtin = [{"name": p[0], "tc": p[1], "desc": p[2]} for p in presets.PRESETS]
    forget("sagatfw.core.presets")
    user = []
    for i, p in enumerate(srv.app.store.presets):
        user.append({"slot": i, "name": p["name"], "tc": p["tc"]})
    return {"builtin": builtin, "user": user, "slots": MAX_PRESETS}

def presets_set(srv, req, now):
    slot = W.int_arg(req, "slot", 0, 99)
    name = str_arg(req, "name")
    tc = str_arg(req, "tc")
    store = srv.app.store
    try:
        store.set_preset(slot, name, tc)
    except ValueError as e:
        raise W.Error(W.BAD_ARG, str(e)) from None
    try:
        store.save()
    except OSError as e:
        raise W.Error(W.INTERNAL, "presets not saved: %s" % (e,)) from None
    return {"slot": slot, "name": name, "tc": tc}

def time_sync(srv, req, now):
    wall = W.int_arg(req, "wall_ms", W.WALL_MIN_MS, W.WALL_MAX_MS)
    j = srv.app.journal
    durable = j.time_sync(srv.app.clock, wall, now)
    return {"seq": j.seq - 1, "durable": durable}

def key_set(srv, req, now):
    text = str_arg(req, "key", 0, 2 * MAX_KEY)
    try:
        key = binascii.unhexlify(text)
    except ValueError:
        raise W.Error(W.BAD_ARG, "key must be hex digits (at most %d bytes)" % MAX_KEY) from None
    if srv.in_progress():
        st = srv.state_name()
        raise W.Error(W.REFUSED, "the key changes between games only: the clock is %s" % st, "key_between_games",
                      {"state": st})
    j = srv.app.journal
    if j.backlog:
        raise W.Error(W.BUSY, "log records are waiting to be written: try again")
    # Two phases, so that a power cut anywhere leaves the key file and the log in step (a key
    # file changed without its record made every later log fail verification): the new key goes
    # into a pending file first (empty: no key), then the change's record into the log, and only
    # once that record is durable does the pending file become the key file (a rename: atomic).
    # A boot that finds the pending file finishes the change if the log holds its record, else
    # drops it (journalboot.open_log).
    path = srv.root + KEY_FILE
    try:  # an earlier change whose record waited in RAM: the flash has it now (the backlog is empty)
        os.rename(path + PENDING, path)
    except OSError:
        pass
    try:
        with open(path + PENDING, "wb") as f:
            f.write(key)
    except OSError as e:
        _remove(path + PENDING)
        raise W.Error(W.INTERNAL, "key not saved: %s" % (e,)) from None
    # the change goes into the log sealed with the old key (the evidence that its holder made it: a
    # verifier accepts unkeyed records after a key_cleared record only), every later record with
    # the new one. Should the flash fail now, the record waits in RAM and goes first, in order; the
    # pending file then waits for the next boot, which finds the record on the flash or not.
    app = srv.app
    origin = R.ORIGIN_KEY_SET if key else R.ORIGIN_KEY_CLEARED
    durable = j.log_settings(app.clock, app.store.clock_settings(), origin, now)
    srv.key = key
    j.chain = R.Chain(key)  # every later record is chained with it
    srv.nonce = None
    if durable:
        try:
            os.rename(path + PENDING, path)
        except OSError:
            durable = False  # (the next boot finishes it: the record is on the flash)
    return {"key_set": bool(key), "durable": durable}

def maintenance(srv, req, now):
    """Let Ctrl-C reach the REPL until the next reboot (sagat deploy, mpremote): with an arbiter key
    set, nothing else does (link/stream.py), because the key file can be read at the REPL. Between games
    only: Ctrl-C stops the clock, and during a game it stays an ordinary byte anyway."""
    if srv.in_progress():
        st = srv.state_name()
        raise W.Error(W.REFUSED, "maintenance: the clock is %s: finish the game (a result) first" % st,
                      "maintenance_in_game", {"state": st})
    app = srv.app
    if not srv.repl_open:  # in the log: from here to the next boot the flash was open to the REPL
        app.journal.log_settings(app.clock, app.store.clock_settings(), R.ORIGIN_MAINTENANCE, now)
    srv.repl_open = True
    return {"repl_open": True}

def log_erase(srv, req, now):
    upto = W.int_arg(req, "upto_seq", 0, 0xFFFFFFFF)
    game = W.int_arg(req, "game", 0, 0xFFFF)
    prot = protected_game(srv)
    if game >= prot:
        raise W.Error(W.REFUSED, "game %d is in progress: only finished games are erased" % prot, "erase_in_progress",
                      {"game": prot})
    j = srv.app.journal
    if j.backlog:
        raise W.Error(W.BUSY, "log records are waiting to be written: try again")
    names = srv.app.journal.segments()
    erased = 0
    stopped = None
    for name in names[:-1]:  # never the newest segment: the journal writes there
        if erased >= W.MAX_ERASE:
            stopped = "more"
            break
        stopped = _erasable(srv, name, upto, game)
        if stopped:
            break
        try:
            os.remove(j.path(name))
        except OSError as e:
            stopped = "remove failed: %s" % (e,)
            break
        erased += 1
    srv.segs = None  # a pull lists the segments again
    if stopped is None:
        stopped = "the newest segment stays (the journal writes there)" if names else "the log is empty"
    first = first_record(srv, srv.app.journal.segments())
    return {
        "erased": erased,
        "first": first[0] if first else None,
        "more": stopped == "more",
        "stopped": stopped,
    }

def _erasable(srv, name, upto, game):
    """None if every record of the segment is whole and well formed, at or before upto,
    and of a game at or before `game`; else why not."""
    f, whole, _ = srv.open_segment(name)
    if f is None:
        return "segment %s cannot be read" % name
    rec = srv.rec
    try:
        if f.seek(0, 2) % R.RECORD_SIZE:
            return "segment %s has a torn record (kept as evidence)" % name
        f.seek(0)
        for _ in range(whole):
            if f.readinto(rec) != R.RECORD_SIZE or R.check(rec):
                return "segment %s is damaged (kept as evidence)" % name
            if R.seq_of(rec) > upto:
                return "segment %s reaches past seq %d" % (name, upto)
            if R.game_of(rec) > game:
                return "segment %s holds game %d" % (name, R.game_of(rec))
    except OSError as e:
        return "segment %s: %s" % (name, e)
    finally:
        f.close()
    return None


def locate(srv, req, now):
    """The clock shows where it stands (the arbiter looks for it in the hall): for LOCATE_MS its
    faces blink and it beeps once a second (faces.locating; the boards do it). It changes nothing
    of the game and logs nothing, so it needs no authority; a second locate starts the time again."""
    app = srv.app
    app.locate_until = ticks_add(now, LOCATE_MS)
    app.next_face = now  # shown (and the first beep) at this pass
    return {"locate_ms": LOCATE_MS}


def identify(srv, req, now):
    level, low = srv.battery()
    used, free = _heap()
    return {
        "firmware": VERSION,
        "protocol": W.PROTOCOL,
        "board": srv.info.get("name", getattr(srv.app.board, "name", None)),
        "uid": srv.info.get("uid"),
        "number": srv.app.store.values.get("board") or srv.info.get("number"),  # its own setting first
        "battery": level,
        "battery_mv": getattr(srv.app.board, "mv", None),
        "low_battery": low,
        "uptime_ms": srv.uptime,
        "loop_max_ms": _loop_max(srv),
        "heap_used": used,
        "heap_free": free,
        "key_set": bool(srv.key),
        "repl_open": srv.repl_open,
        "max_line": W.MAX_LINE,
        "max_records": W.MAX_RECORDS,
        "bin": True,  # log.read sends raw records after its line on request (a pull at the link's speed)
        "commands": _command_names(),
    }


def _command_names():
    from sagatfw.ui import actions

    return sorted(list(W.COMMANDS.keys()) + list(actions.ACTIONS.keys()))


def _heap():
    """(bytes in use, bytes free) of the MicroPython heap after a collection: the margin the
    firmware leaves on this board (None, None where the runtime does not say)."""
    import gc

    gc.collect()
    try:
        return gc.mem_alloc(), gc.mem_free()
    except AttributeError:  # CPython (the simulator's fallback)
        return None, None


def _loop_max(srv):
    """The longest gap between two passes of the board's loop since the pass that served the last
    identify (the board measures it, if it does), then starts again after this one: how much the
    clock was held up by anything but identify itself."""
    board = srv.app.board
    gap = getattr(board, "loop_max_ms", None)
    if gap is not None:
        board.loop_max_ms = -1  # the loop starts again after this pass (identify's own work)
        if gap < 0:
            gap = 0
    return gap

