# sagat: the app running a match mode (issue 14): kok-boru or kilithattu on the clock.
#
# Loaded only while a match is set up (new) or restored after a power cut (restore), and dropped
# with it: the frozen firmware's 64 KB heap has no room for it otherwise. The app holds a MatchApp
# in `app.match`; while it is there, App.step and App.next_instant hand over to it (the hooks in
# app.py), so the game clock stands still. A MatchApp advances the mode's engine (modes/), logs
# each of its events as a record in the journal (the codes and layout: matchlog.py,
# docs/log-format.md), draws a lot when one is due, serves the link and refreshes the faces.
#
#   from sagatfw import matchapp
#   matchapp.new(app, "kokboru", {"lead": 8}, now)          # ValueError (Refused) on a bad option
#   app.match.do("score", now, LEFT, 4)                        # any engine operation; Refused
#   matchapp.restore(app, now)                                 # at boot (App.boot): the log's match
#
# The faces of a match are matchfaces.py's (the boards' show); the referee's buttons are below
# (MatchApp._button); the protocol's match commands are matchcmds.py's.

import gc
import struct

from sagatfw import ST_NONE, forget
from sagatfw import records as R
from sagatfw.matchlog import EV_BASE, EV_RESULT, FINAL, FINAL_AT, MODES, T_MATCH, pack_final
from sagatfw.modes import base as M
from sagatfw.ticks import ticks_add, ticks_diff

REFRESH_MS = 100  # as app.py's
PENDING_MS = 3000  # a score entry opened by a lever waits this long for its second press
REFUSED_MS = 2000  # a refusal's reason stays on the faces this long
RETRY_MS = 1000
BEEP_MS = 400

_MODULES = ("sagatfw.matchapp", "sagatfw.matchlog", "sagatfw.matchfaces", "sagatfw.modes.kokboru",
            "sagatfw.modes.kilithattu", "sagatfw.modes.base", "sagatfw.modes", "sagatfw.boards.simmatch")


def _engine(mode):
    if mode == "kokboru":
        from sagatfw.modes.kokboru import KokBoru

        return KokBoru()
    if mode == "kilithattu":
        from sagatfw.modes.kilithattu import Kilithattu

        return Kilithattu()
    raise ValueError("mode must be kokboru or kilithattu")


def lot_bit(seed, which):
    """The lot's side (0 or 1): from a script's seed, the same for the same seed and lot after a
    power cut too; without one (0), from the board's true random source."""
    if not seed:
        import os

        return os.urandom(1)[0] & 1
    x = (seed ^ (which * 0x9E3779B9)) & 0xFFFFFFFF or 1
    for _ in range(4):  # xorshift32
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
    return (x >> 11) & 1


class MatchApp:
    def __init__(self, app, engine, seed=0):
        from array import array

        self.app = app
        self.m = engine
        # The game clock stands still while a match runs: its 1.9 KB event queue goes until the
        # match closes (the 64 KB heap budget, with the match's code and the faces loaded)
        app.clock.events = array("i")
        self.mode = MODES.index(engine.MODE)
        self.seed = seed
        self.pending = M.NONE  # the side whose lever opened a score entry (the buttons, below)
        self.pending_until = 0
        self.refused = None  # why the last button's operation was refused (the faces say it)
        self.refused_until = 0

    # ------------------------------------------------------------------ the buttons
    #
    # The referee runs a match from the clock's buttons (docs/match.md, "The buttons"):
    #   START            starts a waiting period; stops the match time (a stoppage, KB-16,
    #                    KT-4.5) while it runs, restarts it after one; ends a changeover early
    #   a side's lever   kilithattu: +1 for that team at once (KT-5.5). kok-boru: opens a score
    #                    entry for that rider for 3 s, completed by a second press: PLUS +4,
    #                    MINUS +2, the same lever again +1 (KB-7..KB-10); MENU a warning (KB-11),
    #                    MENU held a red card (KB-12); the other lever switches the entry's side
    #   MINUS held       undo the last entry (logged as an undo, never erased)
    #   time over        (kilithattu's "referee" method, KT-4.6) a side's lever: that side wins;
    #                    MENU held: a draw
    # A refused operation (a score in a break...) changes nothing; its reason is on the faces.

    def _button(self, button, kind, ticks):
        from sagatfw import buttons as B

        m = self.m
        app = self.app
        side = self.pending
        app.next_face = ticks
        if m.state == M.OVER:  # time is over, the referee decides (kilithattu's method "referee")
            if (button == B.LEVER_LEFT or button == B.LEVER_RIGHT) and kind == B.PRESS:
                return self._op("result", ticks, button)  # that side's lever: that side wins
            if button == B.MENU and kind == B.LONG:
                return self._op("result", ticks, M.NONE)  # MENU held: a draw
            return
        if button == B.LEVER_LEFT or button == B.LEVER_RIGHT:
            if kind != B.PRESS:
                return  # both levers together: the first one counts
            if m.MODE == "kilithattu":
                return self._op("score", ticks, button, 1)  # KT-5.5: one point a pazham
            if side == button:
                self.pending = M.NONE
                return self._op("score", ticks, side, 1)  # KB-10
            self.pending = button
            self.pending_until = ticks_add(ticks, PENDING_MS)
            return
        if side != M.NONE and kind == B.SHORT and button in (B.PLUS, B.MINUS, B.MENU):
            self.pending = M.NONE
            if button == B.MENU:
                return self._op("card", ticks, side, M.CARD_WARNING)  # KB-11
            return self._op("score", ticks, side, 4 if button == B.PLUS else 2)  # KB-7, KB-8
        if side != M.NONE and kind == B.LONG and button == B.MENU:
            self.pending = M.NONE
            return self._op("card", ticks, side, M.CARD_RED)  # KB-12
        if kind == B.LONG and button == B.MINUS:
            self.pending = M.NONE
            return self._op("undo", ticks)
        if kind == B.SHORT and button == B.START:
            self.pending = M.NONE  # an open score entry ends with the start or the stoppage
            st = m.state
            if st == M.RUNNING:
                return self._op("stoppage", ticks)
            if st == M.STOPPED:
                return self._op("resume", ticks)
            return self._op("start", ticks)

    def _op(self, name, ticks, *args):
        try:
            self.do(name, ticks, *args)
            self.refused = None
        except ValueError as e:  # Refused (a ValueError, whichever import of modes.base made it)
            self.refused = str(e)
            self.refused_until = ticks_add(ticks, REFUSED_MS)

    def _checkpoint(self, j, now):
        """While a period, a stoppage or a break runs, where the match is every checkpoint_ms, in the journal's
        checkpoint file (as journal.checkpoint does for a game: the next seq, linked to the last
        record, not in the chain), so a reboot loses at most that much: restore() takes it."""
        m = self.m
        st = m.state
        if (st != M.RUNNING and st != M.BREAK and st != M.STOPPED) or m.t - j.last_t < j.checkpoint_ms:
            return  # (a stoppage too: its length goes on from the checkpoint after a power cut)
        j.last_t = m.t
        if j.backlog or j.gap or not j.opened:
            return  # the records are not durable: a checkpoint could not follow them
        ws, wms, ok = _wall(j, m, m.t, now)
        R.pack_header(j.buf, R.T_CHECKPOINT, j.game, j.seq, m.t, m.elapsed_ms(), m.break_ms(), m.scores[0],
                      m.scores[1], m.period, M.NONE, st, self.mode, 0, ws, wms, ok)
        struct.pack_into("<I", j.buf, R.PAYLOAD, m.stopped_ms())
        R.seal(j.buf, j.prev, j.chain)
        gc.collect()  # the file's 1.2 KB buffer in one piece: the step's garbage goes first
        try:
            f = open(j._path("ckpt"), "wb")
            try:
                f.write(j.buf)
            finally:
                f.close()  # littlefs replaces the old content here, atomically
        except (OSError, MemoryError):  # best effort: a restore then goes back to the last record
            pass

    def finished(self):
        return self.m.state == M.FINISHED

    def note(self, side, now):
        """What face `side`'s bottom line says for the buttons (an OLED): the entry waiting for
        its second press, or why the last operation was refused (for 2 s); else None."""
        if self.refused is not None and ticks_diff(now, self.refused_until) < 0:
            return self.refused  # why (the engine's reasons are short; a line holds 16 characters)
        if self.pending == side:
            return "+:4 -:2 L:1 M:W"  # PLUS 4, MINUS 2, the lever again 1, MENU a warning
        return None

    def note4(self, now):
        """The same on the TM1637 score face (4 cells): "L ?" / "r ?" for an open entry, "no"."""
        if self.refused is not None and ticks_diff(now, self.refused_until) < 0:
            return "no"
        if self.pending != M.NONE:
            return "L ?" if self.pending == M.LEFT else "r ?"
        return None

    def close(self):
        """The match leaves the clock (a new game or match): its code leaves RAM. Returns None."""
        self.m = None
        forget(*_MODULES)
        _game_queue(self.app)
        return None

    # ------------------------------------------------------------------ the loop

    def step(self, now):
        """App.step while a match is set up: the engine to `now`, its events durable, a due lot
        drawn, the link served, the faces refreshed."""
        app = self.app
        b = app.buttons
        while b.take(now) >= 0:  # in timestamp order, before the engine moves on (as App.step)
            self._button(b.button, b.kind, b.ticks)
        if self.pending != M.NONE and ticks_diff(now, self.pending_until) >= 0:
            self.pending = M.NONE  # an entry not completed in time: nothing was scored
            app.next_face = now
        m = self.m
        while not m.advance(now):  # the queue was full: log and go on
            self._log(now)
        self._log(now)
        if m.state == M.LOT:
            self.do("draw_lot", now, lot_bit(self.seed, m.lot_due))
        j = app.journal
        self._checkpoint(j, now)
        if j.backlog and (app.next_retry is None or ticks_diff(now, app.next_retry) >= 0):
            app.next_retry = ticks_add(now, RETRY_MS)
            j.commit()
        if app.link is not None:
            st = m.state
            app.link.service(now, st == M.RUNNING or st == M.STOPPED or st == M.BREAK)
        nxt = app.next_face
        if nxt is None or ticks_diff(now, nxt) >= 0:
            app.next_face = ticks_add(now, REFRESH_MS)
            app.board.show(app, now)

    def next_instant(self, now):
        """Ticks of the engine's next instant (a period's or a break's end), or None."""
        m = self.m
        at = m.next_instant()
        if at < 0:
            return None
        return ticks_add(now, at - m.t)

    def do(self, name, now, *args):
        """The engine's operation `name` (start, stoppage, resume, score, card, undo, draw_lot,
        result) at ticks `now`; its events are logged, refused or not. Raises Refused."""
        try:
            getattr(self.m, name)(*(args + (now,)))
        finally:
            self._log(now)
            self.app.next_face = now
        return True

    # ------------------------------------------------------------------ the log

    def _log(self, now):
        m = self.m
        n = m.n_events
        if not n:
            return
        app = self.app
        j = app.journal
        ev = m.events
        for i in range(n):
            e = i * M.EV_SIZE
            kind = ev[e + M.F_TYPE]
            if kind == M.EV_PERIOD_END or kind == M.EV_BREAK_END:
                app.board.beep(BEEP_MS, now, app.store.values["sound"])
            t = ev[e + M.F_T]
            ws, wms, ok = _wall(j, m, t, now)
            R.pack_header(j.buf, EV_BASE + kind, j.game, j.seq, t, ev[e + M.F_PMS], ev[e + M.F_VAL],
                          ev[e + M.F_LEFT], ev[e + M.F_RIGHT], ev[e + M.F_PERIOD], ev[e + M.F_SIDE],
                          ev[e + M.F_ARG], self.mode, 0, ws, wms, ok)
            struct.pack_into("<I", j.buf, R.PAYLOAD, ev[e + M.F_STOPPED])
            if kind == M.EV_RESULT:  # the match's final view: a reboot shows it from this record
                pack_final(j.buf, m)
            else:
                struct.pack_into(FINAL, j.buf, FINAL_AT, 0, 0, 0, 0, 0)
            if j._admit(1, kind == M.EV_RESULT):
                j._push()
                if kind == M.EV_RESULT:  # the code for the scoresheet, as a game's (journal.log_events)
                    j.result_code = R.result_code(j.prev)
                    j.result_seq = j.seq - 1
            j.last_t = t
        m.clear_events()
        if m.state != M.FINISHED and j.result_code is not None:
            j.result_code = None  # an undo withdrew the result: its code is no longer the match's
            app._forget_code()
        ok = j.commit()
        app.log_status(ok)
        if ok and app.status == ST_NONE and m.state == M.FINISHED:
            app.status = app._code_status()  # shown once the result record is durable


def _game_queue(app):
    """The game clock's event queue again (a MatchApp took it: see __init__)."""
    from array import array

    from sagatfw import clock as C

    app.clock.events = array("i", bytes(4 * C.EV_SIZE * C.EV_CAPACITY))


def _wall(j, m, t, now):
    if j.sync_wall_ms is None:
        return 0, 0, False
    ticks = now if m.state == M.SETUP else ticks_add(m.last, t - m.t)
    ms = j.sync_wall_ms + ticks_diff(ticks, j.sync_ticks)
    return ms // 1000, ms % 1000, True


def _begin(j, engine, mode, seed, now):
    """The match's setup record: a new game of the log."""
    j.game += 1
    ws, wms, ok = _wall(j, engine, 0, now)
    first = engine.first if mode == 1 else -1
    R.pack_header(j.buf, T_MATCH, j.game, j.seq, 0, 0, 0, 0, 0, -1, first, mode, mode, 0, ws, wms, ok)
    if mode == 1:
        struct.pack_into("<BBII", j.buf, R.PAYLOAD, 0, engine.method, engine.changeover_ms, seed)
    else:
        struct.pack_into("<BBII", j.buf, R.PAYLOAD, engine.lead, 0, 0, seed)
    if j._admit(1, True):
        j._push()
    j.last_t = 0
    ok = j.commit()
    if j.opened and not j.backlog:
        j._make_room()  # the match gets its ballast, as a game does
    return ok


# Each mode's options by name (as scripts, the protocol and the log give them): the one list the
# protocol (matchcmds.py), the sim's script actions (boards/simmatch.py) and the host's script
# checker (host/sagat/sim.py) read.
OPTIONS = (("lead",), ("first", "changeover_ms", "method"))
OPTION_NAMES = ("lead", "first", "changeover_ms", "method")


def _kw(mode, opts):
    """A match's options by name (as scripts and the log give them) as new_match's arguments."""
    kw = {}
    for k in opts:
        if k not in OPTIONS[mode]:
            raise ValueError("%s has no option %s" % (MODES[mode], k))
        v = opts[k]
        if k == "first":
            v = M.SIDE_NAMES.index(v) if v in M.SIDE_NAMES else -2
        elif k == "method":
            from sagatfw.modes.kilithattu import METHOD_NAMES

            v = METHOD_NAMES.index(v) if v in METHOD_NAMES else -1
        kw[k] = v
    return kw


def new(app, mode, opts, now, seed=0):
    """Set up a match of `mode` ("kokboru": lead; "kilithattu": first "left"/"right",
    changeover_ms, method "sudden"/"lot"/"draw"/"referee") and log its setup; it waits for the
    referee's start. ValueError (Refused) on a bad option, and nothing changes then. A game
    running refuses it. `seed`: the lot's, for scripts (0: the board's true random source)."""
    from sagatfw import clock as C

    if app.clock.state == C.RUNNING:
        raise ValueError("pause the game in progress first")
    if mode not in MODES:
        raise ValueError("mode must be kokboru or kilithattu")
    if not isinstance(seed, int) or seed < 0 or seed > 0xFFFFFFFF:
        raise ValueError("seed must be 0..2^32-1")
    old = app.match
    dropped = old is not None and old.m.MODE != mode
    if dropped:
        app.match = old = None  # the other mode's code (and engine) leave RAM first
        forget("sagatfw.modes.kokboru", "sagatfw.modes.kilithattu")
        gc.collect()
    try:
        engine = old.m if old is not None else _engine(mode)
        engine.new_match(**_kw(MODES.index(mode), opts))  # Refused (a ValueError) on a bad option
    except ValueError:
        if dropped:  # the other mode's match is gone: the game clock's queue comes back
            _game_queue(app)
        raise
    app._forget_code()
    gc.collect()  # the settings file's and the segment's 1.2 KB buffers in one piece each
    app._save()  # the settings file (as a game's setup saves it): no boot logs defaults in the match
    app.setup_logged = False  # the clock's next game is logged when it is set up
    _begin(app.journal, engine, MODES.index(mode), seed, now)
    app.match = MatchApp(app, engine, seed)
    app.next_face = now
    return True


def _records(j):
    """The current game's match records and gap records, oldest first (one buffer, reused)."""
    buf = bytearray(R.RECORD_SIZE)
    names = j.segments()
    start = 0
    for i in range(len(names) - 1, -1, -1):  # the newest segment that begins before the game
        first = None
        for rec in j._read_segment(names[i], buf):
            if not R.check(rec):
                first = R.game_of(rec)
            break
        if first is not None and first < j.game:
            start = i
            break
    for name in names[start:]:
        for rec in j._read_segment(name, buf):
            if not R.check(rec) and R.game_of(rec) == j.game and (EV_BASE <= rec[1] <= T_MATCH or rec[1] == R.T_GAP):
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
        for rec in j._read_segment(names[i], buf):
            if R.check(rec):
                continue
            game = R.game_of(rec)
            if game < j.game:
                older = True
            elif game == j.game and EV_BASE <= rec[1] < T_MATCH:
                last[:] = rec
                found = True
        if found:
            return last
        if older:
            return None
    return None


def restore(app, now):
    """At boot, the log's current game is a match (journal.restore said None). Finished (its last
    match event is a result): the match comes back as that result record says it ended
    (Match.restore_result), nothing replayed, nothing logged: the faces show the final score,
    who won and why, and the result code, until the next game or match is set up. Else: replay
    its records through the engine (the referee's operations at their t, the rest derived: what
    tests/pure/matchkit.py's replay does), then power_restore, logged. The records are read raw
    (no logread, no dicts: the boot's heap is tight), and what the match keeps (the engine, the
    MatchApp) is made before the replay, in a heap without its garbage and with no file open (a
    littlefs file holds a 1.2 KB buffer: what is made while one is open stays above its hole).
    app.match is set; returns False (the game clock is set up from the settings meanwhile).
    Raises ValueError (Refused) if the log cannot be replayed."""
    j = app.journal
    setup = _setup(j)
    if setup is None or setup[1] != T_MATCH:
        return False
    last = _last_event(j)
    (_, _, _, _, _, _, _, _, _, _, side, arg, _, _, _, _, _, _) = struct.unpack_from(R.HEADER, setup, 0)
    lead, method, changeover, seed = struct.unpack_from("<BBII", setup, R.PAYLOAD)
    setup = None
    gc.collect()
    engine = _engine(MODES[arg])
    if arg == 1:
        engine.new_match(first=side, changeover_ms=changeover, method=method)
    else:
        engine.new_match(lead=lead)
    app.match = mapp = MatchApp(app, engine, seed)
    if last is not None and last[1] == EV_RESULT:  # finished: its result record says how
        (_, _, _, _, t, pms, _, left, right, period, side, arg, _, _, _, _, _, _) = struct.unpack_from(
            R.HEADER, last, 0)
        (stopped,) = struct.unpack_from("<I", last, R.PAYLOAD)
        wl, wr, rl, rr, entering = struct.unpack_from(FINAL, last, FINAL_AT)
        engine.restore_result(t, period, pms, stopped, (left, right), (wl, wr, rl, rr), entering, side, arg, now)
        return False
    last = None
    gc.collect()
    made = 0  # events the engine emitted so far
    seen = 0  # match events read
    first = True
    for rec in _records(j):
        (_, kind, _, seq, t, _, _, _, _, _, side, arg, _, _, _, _, _, _) = struct.unpack_from(R.HEADER, rec, 0)
        if first:  # the setup, read above
            first = False
            continue
        if kind == T_MATCH:
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
        ev = kind - EV_BASE
        if ev == M.EV_PERIOD_START:
            engine.start(t)
        elif ev == M.EV_SCORE:
            engine.score(side, arg, t)
        elif ev == M.EV_CARD:
            engine.card(side, arg, t)
        elif ev == M.EV_UNDO:
            engine.undo(t)
        elif ev == M.EV_STOPPAGE_START:
            engine.stoppage(t)
        elif ev == M.EV_STOPPAGE_END:
            engine.resume(t)
        elif ev == M.EV_LOT:
            engine.draw_lot(side, t)
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
    gc.collect()  # the replay's garbage goes before the journal opens its segment (1.2 KB, kept open)
    mapp._log(now)
    return False


def _resume_checkpoint(j, m):
    """Bring the replayed match on to the checkpoint file's t, if that checkpoint continues this
    log exactly (journalboot.ckpt_record), at or after the engine's t with no instant of the
    engine's own between, and says what the engine computes there (state, period, scores, the
    period's match time or the break's)."""
    st = m.state
    if st != M.RUNNING and st != M.BREAK and st != M.STOPPED:
        return
    from sagatfw.journalboot import ckpt_record  # the boot's: loaded while the clock boots

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
