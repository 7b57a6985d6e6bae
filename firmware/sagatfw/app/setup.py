# sagat: setting up a match: a new one (`new`), or the log's match at boot (`restore`).
#
# Loaded for that only, through App.new_match and App.boot, and forgotten after: a match's
# loop never holds this code, and the frozen firmware's 64 KB heap has no room for it beside a
# match and a protocol request (the heap after a restore). The records are read raw (no
# logread, no matchlog: the boot's heap is tight). What a match keeps (the engine, its MatchApp) is made here in a
# heap free of the setup's garbage, and with no file open: a littlefs file holds a 1.2 KB buffer,
# and what is made while one is open stays above its hole.

import gc
import struct

import sagatfw as S
from sagatfw.app.matchmode import MatchApp, _game_queue, forget_engines
from sagatfw.engine import matchwords as M
from sagatfw.log import records as R

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# log/matchrecords.py's codes and layout (its EV_BASE, EV_RESULT, T_MATCH, FINAL at FINAL_AT; SETUP below),
# not imported: its names would be RAM beside a match set up (the records are read raw here;
# log/matchwrite.py writes them). tests/host/game/test_match_result_undo_and_reboot_host.py checks
# that they agree.
_EV_BASE = const(0x20)
_EV_RESULT = const(0x2A)
_T_MATCH = const(0x30)
_FINAL = "<BBBBb"
_FINAL_AT = const(42)


def new(app, mode, opts, now, seed=0):
    """App.new_match."""
    from sagatfw import Refused
    from sagatfw.engine import clock as C

    if app.clock.state == C.RUNNING:  # the state, not a value: refused, as App.new_game says it
        raise Refused("pause the game in progress first", "game_in_progress")
    who = opts.pop("names", None)  # the names: log/names.py fit_names' bytes (ui/actions.py's new), not an option
    modes = S.MODES  # (a mode's name: its engine module's last name, as log/matchrecords.py's mode_name)
    names = [e[0][e[0].rfind(".") + 1 :] for e in modes]
    if mode not in names:
        raise ValueError("mode must be " + " or ".join(names))
    i = names.index(mode)
    if not isinstance(seed, int) or seed < 0 or seed > 0xFFFFFFFF:
        raise ValueError("seed must be 0..2^32-1")
    takes = S.MODES[i][2]
    for k in opts:  # before the other mode's match is dropped (option_args checks it again)
        if k not in takes:
            raise ValueError("%s has no option %s" % (mode, k))
    old = app.match
    dropped = old is not None and old.m.MODE != mode
    if dropped:
        app.match = old = None  # the other mode's code (and engine) leave RAM first
        forget_engines()
        gc.collect()  # its engine's 640-byte queue free again before the new mode's code comes in
    try:
        # the settings file, unless it holds the values already (as a game's setup saves it: no
        # boot logs defaults in the match), while the heap holds no engine of the other mode and
        # no new one yet; the values are not changed, so a refused option below leaves nothing
        # wrong. One file at a time (log/matchwrite.py's commit): the segment is closed first.
        app.journal.park()
        if not app.store.saved:
            gc.collect()  # the file's 1.2 KB buffer in one piece
            app._save()
        if old is not None:
            engine = old.m
        else:  # its module imported now (log/matchrecords.py's engine_class)
            engine = getattr(__import__(modes[i][0], None, None, (modes[i][1],), 0), modes[i][1])()
        engine.new_match(**option_args(engine, opts))  # Refused (a ValueError) on a bad option
    except BaseException:  # a bad option, a MemoryError at the file's buffer or the engine's import
        if dropped:  # the other mode's match is gone: the game clock's queue comes back, it runs
            _game_queue(app)
        raise
    mapp = MatchApp(app, engine, i, seed)  # (it frees the game clock's queue: room for the files)
    app._forget_code()
    gc.collect()  # the segment's and the ballast's buffers in one piece
    app.setup_logged = False  # the clock's next game is logged when it is set up
    from sagatfw.log import matchwrite  # loaded for this only (app/matchmode.py's _write)

    matchwrite.begin(app.journal, engine, i, seed, now, who)
    matchwrite = None
    S.forget("sagatfw.log.matchwrite")
    if who:  # the names `state` gives (link/matchproto.py), as their record's bytes; none: no attribute
        mapp.names = who  # type: ignore[attr-defined]  # (not one of MatchApp's own: app/matchmode.py)
    app.match = mapp
    app.next_face = now
    return True


def _records(j):
    """The current game's match records and gap records, oldest first (one buffer, reused)."""
    buf = bytearray(R.RECORD_SIZE)
    names = j.segments()
    start = 0
    for i in range(len(names) - 1, -1, -1):  # the newest segment that begins before the game
        first = None
        for rec in j.read_segment(names[i], buf):
            if not R.check(rec):
                first = R.game_of(rec)
            break
        if first is not None and first < j.game:
            start = i
            break
    for name in names[start:]:
        for rec in j.read_segment(name, buf):
            if not R.check(rec) and R.game_of(rec) == j.game and (_EV_BASE <= rec[1] <= _T_MATCH or rec[1] == R.T_GAP):
                yield rec


def _setup(j):
    """A copy of the current game's first match record (its setup, if it is a match), or None.
    The segment file is closed when this returns."""
    g = _records(j)
    try:
        for rec in g:
            return bytes(rec)
    finally:
        g.close()  # (a generator left open would keep its file, and the file its 1.2 KB buffer)
    return None


def _last_event(j):
    """A copy of the current game's last match event record, read from the newest segment back
    (only as far as the game's last match event: not the whole game), or None."""
    buf = bytearray(R.RECORD_SIZE)
    last = bytearray(R.RECORD_SIZE)
    names = j.segments()
    for i in range(len(names) - 1, -1, -1):
        found = older = False
        for rec in j.read_segment(names[i], buf):
            if R.check(rec):
                continue
            game = R.game_of(rec)
            if game < j.game:
                older = True
            elif game == j.game and _EV_BASE <= rec[1] < _T_MATCH:
                last[:] = rec
                found = True
        if found:
            return last
        if older:
            return None
    return None


def restore(app, now):
    """App.boot: at boot, the log's current game is a match (journal.restore said None). Finished (its last
    match event is a result): the match comes back as that result record says it ended
    (Match.restore_result), nothing replayed, nothing logged: the faces show the final score,
    who won and why, and the result code, until the next game or match is set up. Else: replay
    its records through the engine (the referee's operations at their t, the rest derived: what
    tests/kits/matchkit.py's replay does), then power_restore, logged. The records are read raw
    (no logread, no dicts: the boot's heap is tight), and what the match keeps (the engine, the
    MatchApp) is made before the replay, in a heap without its garbage and with no file open (a
    littlefs file holds a 1.2 KB buffer: what is made while one is open stays above its hole).
    app.match is set; returns False (the game clock is set up from the settings meanwhile).
    Raises ValueError (Refused) if the log cannot be replayed."""
    j = app.journal
    setup = _setup(j)
    if setup is None or setup[1] != _T_MATCH:
        return False
    last = _last_event(j)
    (_, _, _, _, _, _, _, _, _, _, side, arg, _, _, _, _, _, _) = struct.unpack_from(R.HEADER, setup, 0)
    small, small2, large, seed = struct.unpack_from("<BBII", setup, R.PAYLOAD)  # log/matchrecords.py's SETUP
    setup = None
    gc.collect()
    if not 0 <= arg < len(S.MODES):
        raise ValueError("the log's match is of mode %d, which this firmware does not have" % arg)
    e = S.MODES[arg]
    engine = getattr(__import__(e[0], None, None, (e[1],), 0), e[1])()  # (log/matchrecords.py's engine_class)
    e = None
    v = (side, small, small2, large)  # the options by their places (log/matchrecords.py's setup layout)
    kw = {}
    for o in engine.OPTIONS:
        kw[o[0]] = v[o[1]]
    engine.new_match(**kw)
    v = kw = None
    app.match = mapp = MatchApp(app, engine, arg, seed)
    if last is not None and last[1] == _EV_RESULT:  # finished: its result record says how
        (_, _, _, _, t, pms, _, left, right, period, side, arg, _, _, _, _, _, _) = struct.unpack_from(
            R.HEADER, last, 0)
        (stopped,) = struct.unpack_from("<I", last, R.PAYLOAD)
        wl, wr, rl, rr, entering = struct.unpack_from(_FINAL, last, _FINAL_AT)
        engine.restore_result(t, period, pms, stopped, (left, right), (wl, wr, rl, rr), entering, side, arg, now)
        return False
    last = None
    gc.collect()
    made = 0  # events the engine emitted so far
    seen = 0  # match events read
    first = True
    for rec in _records(j):
        (_, kind, _, seq, t, _, val, _, _, _, side, arg, _, _, _, _, _, _) = struct.unpack_from(R.HEADER, rec, 0)
        if first:  # the setup, read above
            first = False
            continue
        if kind == _T_MATCH:
            raise ValueError("seq %d: a second match setup in the game" % seq)
        if kind == R.T_GAP:  # as a game's restore (journalboot): what was dropped cannot be replayed
            raise ValueError("seq %d: the clock dropped records of this match (its log was full): it cannot be "
                             "replayed past them" % seq)
        while not engine.advance(t):
            made += engine.n_events
            engine.clear_events()
        made += engine.n_events
        engine.clear_events()
        seen += 1
        if made >= seen:
            continue  # derived: advancing to t made it
        ev = kind - _EV_BASE
        if ev == M.EV_PERIOD_START:
            engine.start(t)
        elif ev == M.EV_SCORE or ev == 12:  # late_score (engine/matchwords.py): late or not, the engine's state says
            engine.score(side, arg, t)
        elif ev == M.EV_CARD or ev == 13:  # late_card
            engine.card(side, arg, t)
        elif ev == 14:  # restart
            engine.restart(t)
        elif ev == 15:  # adjust
            engine.adjust(val, t)
        elif ev == M.EV_UNDO:
            engine.undo(t)
        elif ev == M.EV_STOPPAGE_START:
            engine.stoppage(t)
        elif ev == M.EV_STOPPAGE_END:
            engine.resume(t)
        elif ev == M.EV_LOT:
            engine.draw_lot(side, t)  # (the clock's draw or the toss entered: the state says)
        elif ev == M.EV_RESULT and arg == M.WHY_REFEREE:
            engine.result(side, t)
        elif ev == M.EV_POWER_RESTORE:
            engine.power_restore(t)
        else:
            raise ValueError("seq %d: the match engine did not derive event %d" % (seq, ev))
        made += engine.n_events
        engine.clear_events()
        if made < seen:
            raise ValueError("seq %d: event %d replayed to nothing" % (seq, ev))
    if made != seen:
        raise ValueError("the match's log and its replay differ (%d events, %d replayed)" % (seen, made))
    if engine.state == M.FINISHED:  # (a result the last records' reading missed: shown as replayed)
        engine.last = now  # (replayed engines count ticks as t)
        return False
    _resume_checkpoint(j, engine)
    engine.power_restore(now)
    gc.collect()  # the replay's garbage goes before the journal opens its segment (1.2 KB)
    mapp._log(now, True)  # and closes it after, as after a boot: room for the protocol's first requests
    return False


def _resume_checkpoint(j, m):
    """Bring the replayed match on to the checkpoint file's t, if that checkpoint continues this
    log exactly (journalboot.ckpt_record), at or after the engine's t with no instant of the
    engine's own between, and says what the engine computes there (state, period, scores, the
    period's match time or the break's)."""
    st = m.state
    if st != M.RUNNING and st != M.BREAK and st != M.STOPPED:
        return
    from sagatfw.log.boot import ckpt_record  # the boot's: loaded while the clock boots

    rec = ckpt_record(j)
    if rec is None:
        return
    (_, _, _, _, t, pms, brk, left, right, period, _, arg, _, _, _, _, _, _) = struct.unpack_from(R.HEADER, rec, 0)
    nxt = m.next_instant()
    if t < m.t or 0 <= nxt <= t or arg != st or period != m.period or left != m.scores[0] or right != m.scores[1]:
        return
    if (m.brk_t + m.brk_len - t if st == M.BREAK else m._elapsed_at(t)) != (brk if st == M.BREAK else pms):
        return
    m.advance(t)  # replayed engines count ticks as t


def option_args(engine, opts):
    """A match's options by name (as scripts, the protocol and the log give them) as engine's
    new_match arguments (its OPTIONS: a value name becomes its number)."""
    kw = {}
    for k in opts:
        spec = None
        for o in engine.OPTIONS:
            if o[0] == k:
                spec = o
                break
        if spec is None:
            raise ValueError("%s has no option %s" % (engine.MODE, k))
        names = spec[2]  # (None: a number)
        v = opts[k]
        if names is not None:
            v = names.index(v) if v in names else -2  # no side, no method: new_match refuses it
        kw[k] = v
    return kw
