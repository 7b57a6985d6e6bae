# sagat: a match's records: the journal writes them as it writes a game's (log/journal.py), with
# the steps a game's take (pack into j.buf, admit, push, commit), from the match engine's events.
#
#   from sagatfw.log import matchwrite as MW
#   MW.begin(j, engine, mode, seed, now, names)   # the setup record (a new game of the log), names
#   MW.events(j, engine, mode, now)               # the engine's queued events as records (RAM)
#   MW.commit(j, close)                           # durable: journal.commit, a match's way
#   MW.checkpoint(j, engine, mode, now)           # where the match is, every checkpoint_ms
#
# The records' codes and layout are log/matchrecords.py's (docs/log-format.md), which reads them; this
# module does not import it: its names would be RAM beside a match (the frozen firmware's match
# heap, docs/design.md "Budgets"), so the codes it packs are private consts below, checked against
# log/matchrecords.py's by tests/host/game/test_match_result_undo_and_reboot_host.py. Loaded only at
# the moment a match writes (app/matchmode.py's _write, app/setup.py's new) and forgotten right after:
# kept loaded for the match's life, it split the heap where the segment's file looks for 1.2 KB.

import struct

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


from sagatfw.engine import matchwords as M  # (loaded with the match: the engine's codes)
from sagatfw.log import records as R

_EV_BASE = const(0x20)  # log/matchrecords.py EV_BASE: a match event's record type is _EV_BASE + its code
_T_MATCH = const(0x30)  # log/matchrecords.py T_MATCH: the setup record
_SETUP = const("<BBII")  # log/matchrecords.py SETUP: the options at places 1..3 and the seed, in the payload
_FINAL = const("<BBBBb")  # log/matchrecords.py FINAL at FINAL_AT (the payload's + 4): a result's final view


def begin(j, m, mode, seed, now, names):
    """The match's setup record (engine m set up, of `mode`: its place in sagatfw.MODES): a new
    game of the log; then its names' record (log/names.py T_NAMES), if it has `names`, admitted
    with it (never one without the other). The segment is closed after (commit's `close`), and
    the match gets its ballast, as a game does. Returns True if durable."""
    j.game += 1
    ws, wms, ok = j.wall(m, 0, now)
    v = [-1, 0, 0, 0]  # its options at the places the engine's OPTIONS say (log/matchrecords.py's setup layout)
    for o in m.OPTIONS:
        v[o[1]] = getattr(m, o[0])
    R.pack_header(j.buf, _T_MATCH, j.game, j.seq, 0, 0, 0, 0, 0, -1, v[0], mode, mode, 0, ws, wms, ok)
    struct.pack_into(_SETUP, j.buf, R.PAYLOAD, v[1], v[2], v[3], seed)
    if j.admit(2 if names else 1, True):
        j.push()
        if names:
            from sagatfw import forget
            from sagatfw.log import names as N  # loaded for this only

            N.pack_names(j.buf, j.game, j.seq, names)
            N = None
            forget("sagatfw.log.names")
            j.push()
    j.last_t = 0
    ok = commit(j, True)
    if j.opened and not j.backlog:
        j.make_room()
    return ok


def events(j, m, mode, now):
    """The engine's queued events as records (into the journal's backlog: commit makes them
    durable), and its queue cleared. A result's record carries the final view (warnings, red
    cards, who was entering), so that a reboot shows it from this record, and its code is the
    journal's result code, as a game's (Journal.log_events)."""
    ev = m.events
    for i in range(m.n_events):
        e = i * M.EV_SIZE
        kind = ev[e + M.F_TYPE]
        t = ev[e + M.F_T]
        ws, wms, ok = j.wall(m, t, now)
        R.pack_header(j.buf, _EV_BASE + kind, j.game, j.seq, t, ev[e + M.F_PMS], ev[e + M.F_VAL],
                      ev[e + M.F_LEFT], ev[e + M.F_RIGHT], ev[e + M.F_PERIOD], ev[e + M.F_SIDE],
                      ev[e + M.F_ARG], mode, 0, ws, wms, ok)
        struct.pack_into("<I", j.buf, R.PAYLOAD, ev[e + M.F_STOPPED])
        if kind == M.EV_RESULT:
            struct.pack_into(_FINAL, j.buf, R.PAYLOAD + 4, m.warnings[0], m.warnings[1], m.reds[0],
                             m.reds[1], m.entering)
            j.buf[48:52] = R.Chain.tag  # the clock's tag (read.TAG_AT), as a game's (records.pack_event)
        else:
            struct.pack_into(_FINAL, j.buf, R.PAYLOAD + 4, 0, 0, 0, 0, 0)
        if j.admit(1, kind == M.EV_RESULT):
            j.push()
            if kind == M.EV_RESULT:  # the code for the scoresheet, as a game's
                j.result_code = R.result_code(j.prev)
                j.result_seq = j.seq - 1
        j.last_t = t
    m.clear_events()


def commit(j, close):
    """journal.commit for a match. The segment file then stays open, as a game's (its littlefs
    buffer, 1.2 KB in one piece, is not looked for at every write: a write that cannot find it
    waits), unless `close`: closed after the write (park), as after a boot, when the match is set
    up (before its settings and its ballast are written) and after the restore's power_restore
    (the protocol's first requests after a reboot, log.info, open their own file: the heap after
    a restore had no room for a second buffer). No room for the buffer (a MemoryError opening the
    file) is a write that waits: the records stay in the RAM backlog (LOG ERROR) and are tried
    again, as after a write error. A checkpoint closes the segment for its own file and opens it
    again after (checkpoint): the two take turns with one buffer."""
    import gc  # (built in: a name here costs the module's table nothing)

    if j.file is None and j.backlog:
        gc.collect()  # the buffer in one piece: the step's garbage goes first
    resume = j.resume
    try:
        ok = j.commit()
    except MemoryError:
        if j.file is not None:  # not the open: records may be on the flash already, as before
            raise
        if j.resume is None:
            j.resume = resume  # (taken by the failed open: the next try appends to it again)
        j.error = "log write failed: no RAM"
        return False
    if close:
        j.park()
    return ok


def checkpoint(j, m, mode, now):
    """While a period, a stoppage or a break runs, where the match is every checkpoint_ms, in the
    journal's checkpoint file (as Journal.checkpoint does for a game: the next seq, linked to the
    last record, not in the chain), so that a reboot loses at most that much: the match's restore
    (app/setup.py) takes it. A stoppage too: its length goes on from the checkpoint after a power
    cut. Best effort: if it cannot be written, a restore goes back to the last record."""
    st = m.state
    if (st != M.RUNNING and st != M.BREAK and st != M.STOPPED) or m.t - j.last_t < j.checkpoint_ms:
        return
    j.last_t = m.t
    if j.backlog or j.gap or not j.opened:
        return  # the records are not durable: a checkpoint could not follow them
    import gc  # (built in: a name here costs the module's table nothing)

    ws, wms, ok = j.wall(m, m.t, now)
    R.pack_header(j.buf, R.T_CHECKPOINT, j.game, j.seq, m.t, m.elapsed_ms(), m.break_ms(), m.scores[0],
                  m.scores[1], m.period, M.NONE, st, mode, 0, ws, wms, ok)
    struct.pack_into("<I", j.buf, R.PAYLOAD, m.stopped_ms())
    R.seal(j.buf, j.prev, j.chain)  # the link it would have: j.prev stays
    # One file at a time (commit): the segment is closed for it, so that the checkpoint's buffer
    # (1.2 KB in one piece) is the segment's, and the segment then takes the checkpoint's.
    reopen = j.file is not None
    j.park()
    gc.collect()  # the step's garbage goes first
    try:
        f = open(j.path(R.CKPT), "wb")
        try:
            f.write(j.buf)
        finally:
            f.close()  # littlefs replaces the old content here, atomically
            f = None  # (its buffer is garbage now: the segment takes it below)
    except (OSError, MemoryError):  # best effort: a restore then goes back to the last record
        pass
    if reopen and j.resume is not None:
        gc.collect()
        r = j.resume
        try:
            j.unpark()
        except (OSError, MemoryError):  # the next write opens it
            j.resume = r
