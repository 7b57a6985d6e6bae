# sagat: the app running a match mode: kok-boru or kilithattu on the clock.
#
# Loaded only while a match is set up (new) or restored after a power cut (restore), and dropped
# with it: the frozen firmware's 64 KB heap has no room for it otherwise. Setting a match up (a
# new one, or the log's at boot) is app/setup.py's, loaded for that only: this module is what a
# match keeps in RAM while it runs (docs/match.md, "Memory"). The app holds a MatchApp in
# `app.match`; while it is there, App.step and App.next_instant hand over to it (the hooks in
# app/main.py), so the game clock stands still. A MatchApp advances the mode's engine (engine/), has
# the journal log each of its events as a record (log/matchwrite.py; the codes and layout:
# log/matchrecords.py, docs/log-format.md), draws a lot when one is due, serves the link and refreshes
# the faces.
#
#   from sagatfw.app import matchmode as matchapp
#   app.new_match("kokboru", {"lead": 8}, now)              # ValueError (Refused) on a bad option
#   app.match.do("score", now, LEFT, 4)                        # any engine operation; Refused
#   matchsetup.restore(app, now)                               # at boot (App.boot): the log's match
#
# The faces of a match are faces/matchfaces.py's (the boards' show); the referee's buttons are below
# (MatchApp._button); the protocol's match commands are link/matchproto.py's.

from sagatfw import forget
from sagatfw.core.ticks import ticks_add, ticks_diff
from sagatfw.engine import matchwords as M

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


_REFRESH_MS = const(100)  # as app/main.py's
_PENDING_MS = const(3000)  # a score entry opened by a lever waits this long for its second press
_REFUSED_MS = const(2000)  # a refusal's reason stays on the faces this long
_RETRY_MS = const(1000)  # records waiting in RAM: the flash is tried again this often
_HORN_MS = const(1500)  # the horn at the end of a period or a break, and the referee's own
_WARN_MS = const(10000)  # a short horn this long before a break ends
_WARN_BEEP_MS = const(200)

_ST_NONE = const(0)  # the status line says nothing (faces.STATUS_TEXT)
_ASK_START = const(2)  # START? : a second START cuts the changeover short (pending: above the sides)
_ASK_TOSS = const(3)  # TOSS? : a lever enters the toss's winner

# What a match loads, forgotten when it closes (with the engine modules of sagatfw.MODES); a
# private const: no place in the module's table of names, which lives in RAM while a match runs
_MODULES = const(("sagatfw.app.matchmode", "sagatfw.app.setup", "sagatfw.log.matchwrite", "sagatfw.log.matchrecords",
            "sagatfw.log.wall", "sagatfw.faces.matchfaces", "sagatfw.engine.matchbase", "sagatfw.engine.matchwords"))


def forget_engines():
    """Every mode's engine module leaves RAM (sagatfw.MODES)."""
    from sagatfw import MODES

    for e in MODES:
        forget(e[0])


def lot_bit(seed, which):
    """The lot's side (0 or 1): from a script's seed, the same for the same seed and lot after a
    power cut too, and each lot drawn on its own (murmur3's finaliser: its multiplications mix
    the seed and the lot's number non-linearly, where a xorshift alone made lot 2 lot 1's
    opposite); without one (0), from the board's true random source."""
    if not seed:
        import os

        return os.urandom(1)[0] & 1
    x = (seed + which * 0x9E3779B9) & 0xFFFFFFFF
    x = ((x ^ (x >> 16)) * 0x85EBCA6B) & 0xFFFFFFFF
    x = ((x ^ (x >> 13)) * 0xC2B2AE35) & 0xFFFFFFFF
    return (x ^ (x >> 16)) >> 31


class MatchApp:
    def __init__(self, app, engine, mode, seed=0):
        from array import array

        self.app = app
        self.m = engine
        # The game clock stands still while a match runs: its 960-byte event queue goes until the
        # match closes (the 64 KB heap budget, with the match's code and the faces loaded)
        app.clock.events = array("i")
        self.mode = mode  # its number in the log (sagatfw.MODES)
        self.seed = seed
        # the side whose lever opened a score entry (the buttons, below), or a question the next
        # press answers (_ASK_START, _ASK_TOSS), until pending_until: one attribute for both (RAM)
        self.pending = M.NONE
        self.pending_until = 0
        self.refused = None  # why the last button's operation was refused (the faces say it)
        self.refused_until = 0
        app.buttons.start_down = True  # START acts on its press (at its IRQ timestamp)

    # ------------------------------------------------------------------ the buttons
    #
    # The referee runs a match from the clock's buttons (docs/match.md, "The buttons"):
    #   START            on its PRESS (at its timestamp; its release and a hold do nothing more):
    #                    starts a waiting period; stops the match time (a stoppage, KB-16,
    #                    KT-4.5) while it runs, restarts it after one; in a changeover it asks
    #                    START? and a second press within 3 s ends the changeover early (KT-4.4)
    #   a side's lever   kilithattu: +1 for that team at once (KT-5.5). kok-boru: opens a score
    #                    entry for that rider for 3 s, completed by a second press: PLUS +4,
    #                    MINUS +2, the same lever again +1 (KB-7..KB-10); MENU a warning (KB-11),
    #                    MENU held a red card (KB-12); the other lever switches the entry's side
    #   MINUS held       undo the last entry (logged as an undo, never erased); a late one too
    #   PLUS held        the horn, at any time (the referee's own; sounds whatever the settings)
    #   PLUS, MINUS      in a stoppage, with no entry open: the period's clock +1 s / -1 s (adjust)
    #   MENU held        in a stoppage, with no entry open: KB-3's restart (the period to 0:00, its
    #                    start waits), only before the period's first score
    #   PLUS, then a     kilithattu, while a lot stands (before extra 1 starts, or lot 2's result):
    #   lever            the toss's winner entered, in place of the clock's draw (KT-4.6)
    #   time over        (kilithattu's "referee" method, KT-4.6) a side's lever: that side wins;
    #                    MENU held: a draw
    # A refused operation (a score in a break...) changes nothing; its reason is on the faces.

    def _button(self, button, kind, ticks):
        from sagatfw.ui import buttons as B

        m = self.m
        app = self.app
        side = self.pending
        ask = 0
        if side > M.RIGHT:  # a question, not an entry
            ask = side if ticks_diff(ticks, self.pending_until) < 0 else 0
            side = M.NONE
        app.next_face = ticks
        st = m.state
        if app.menu is None and button == B.MENU and kind == B.SHORT and side == M.NONE and (
                st == M.SETUP or st == M.READY or st == M.STOPPED or st == M.FINISHED):
            from sagatfw.ui.menu import Menu  # the on-clock menu, while the match time stands still

            Menu(app, transient=True)
        if app.menu is not None:
            used = app.menu.button(button, kind, ticks)
            if app.menu is None:  # closed: its code leaves RAM (a game or match it set up runs now)
                forget("sagatfw.ui.menu", "sagatfw.ui.editors", "sagatfw.core.presets", "sagatfw.core.tcparse")
            elif app.menu.active:
                return  # the levers too: nothing scores behind the menu
            if used:
                return
        if button == B.START and kind != B.DOWN:
            return  # START acted on its press: its release or its hold adds nothing
        if ask:
            self.pending = M.NONE  # the question is answered by this press, or dropped
        if kind == B.LONG and button == B.PLUS and side == M.NONE:
            return app.board.beep(_HORN_MS, ticks, True)  # the referee's horn
        if ask == _ASK_TOSS and (button == B.LEVER_LEFT or button == B.LEVER_RIGHT) and kind == B.PRESS:
            return self._op("draw_lot", ticks, button)  # KT-4.6: the toss's winner, entered
        if m.state == M.OVER:  # time is over, the referee decides (kilithattu's method "referee")
            if (button == B.LEVER_LEFT or button == B.LEVER_RIGHT) and kind == B.PRESS:
                return self._op("result", ticks, button)  # that side's lever: that side wins
            if button == B.MENU and kind == B.LONG:
                return self._op("result", ticks, M.NONE)  # MENU held: a draw
            return
        if button == B.LEVER_LEFT or button == B.LEVER_RIGHT:
            if kind != B.PRESS:
                return  # both levers together: the first one counts
            pts = m.POINTS
            if len(pts) == 1:
                return self._op("score", ticks, button, pts[0])  # one value (KT-5.5's pazham): at once
            if side == button:
                self.pending = M.NONE
                return self._op("score", ticks, side, pts[-1])  # KB-10
            self.pending = button
            self.pending_until = ticks_add(ticks, _PENDING_MS)
            return
        if side != M.NONE and kind == B.SHORT and button in (B.PLUS, B.MINUS, B.MENU):
            self.pending = M.NONE
            if button == B.MENU:
                return self._op("card", ticks, side, M.CARD_WARNING)  # KB-11
            return self._op("score", ticks, side, m.POINTS[0 if button == B.PLUS else 1])  # KB-7, KB-8
        if side != M.NONE and kind == B.LONG and button == B.MENU:
            self.pending = M.NONE
            return self._op("card", ticks, side, M.CARD_RED)  # KB-12
        if kind == B.LONG and button == B.MINUS:
            self.pending = M.NONE
            return self._op("undo", ticks)
        st = m.state
        if side == M.NONE and st == M.STOPPED:
            if kind == B.SHORT and (button == B.PLUS or button == B.MINUS):  # the period's clock, 1 s
                ms = m.match_ms() + (1000 if button == B.PLUS else -1000)  # the face: left, or elapsed
                n = m.length
                return self._op("adjust", ticks, (n if ms > n else ms if ms > 0 else 1) if n else max(ms, 0))
            if kind == B.LONG and button == B.MENU:
                return self._op("restart", ticks)  # KB-3
        if kind == B.SHORT and button == B.PLUS and m.lot_side != M.NONE and (
                (st == M.READY and m.period == 2) or (st == M.FINISHED and m.why == M.WHY_LOT)):
            self.pending = _ASK_TOSS  # KT-4.6: a lever now enters the toss's winner
            self.pending_until = ticks_add(ticks, _PENDING_MS)
            return
        if kind == B.DOWN and button == B.START:
            self.pending = M.NONE  # an open score entry ends with the start or the stoppage
            if st == M.RUNNING:
                return self._op("stoppage", ticks)
            if st == M.STOPPED:
                return self._op("resume", ticks)
            if st == M.BREAK and m.AUTO_START and ask != _ASK_START:
                self.pending = _ASK_START  # KT-4.4: a changeover is cut short by a second press only
                self.pending_until = ticks_add(ticks, _PENDING_MS)
                return
            return self._op("start", ticks)

    def _op(self, name, ticks, *args):
        try:
            self.do(name, ticks, *args)
            self.refused = None
        except ValueError as e:  # Refused (a ValueError, whichever import of engine/matchwords.py made it)
            self.refused = e.args[0]  # (its reason code after it)
            self.refused_until = ticks_add(ticks, _REFUSED_MS)

    def in_game(self, over=False):
        """Whether Ctrl-C is a byte (link.Link.guard): the match time runs, stopped or in a break;
        with `over`, whether the match is finished (its result code stands). One method for both:
        on the 64 KB frozen heap one more method object was one too many."""
        st = self.m.state
        if over:
            return st == M.FINISHED
        return st == M.RUNNING or st == M.STOPPED or st == M.BREAK

    def note(self, side, now):
        """What face `side`'s bottom line says for the buttons (an OLED): the entry waiting for
        its second press, or why the last operation was refused (for 2 s); else None."""
        if self.refused is not None and ticks_diff(now, self.refused_until) < 0:
            from sagatfw import T  # why, in the clock's language (each at most 21 characters: a line)
            return T(self.refused)
        p = self.pending
        if p > M.RIGHT:
            from sagatfw import T  # (no global of this module's: it costs heap while a match runs)
            return T("START? again:cut" if p == _ASK_START else "TOSS? lever=won")
        if self.pending == side:  # PLUS, MINUS, the lever again (kok-boru 4, 2, 1), MENU a warning
            p = self.m.POINTS
            return "+:%d -:%d L:%d M:W" % (p[0], p[1], p[-1])
        return None

    def note4(self, now):
        """The same on the TM1637 score face (4 cells): "L ?" / "r ?" for an open entry, "no"."""
        if self.refused is not None and ticks_diff(now, self.refused_until) < 0:
            return "no"
        p = self.pending
        if p > M.RIGHT:
            return "St ?" if p == _ASK_START else "toSS"
        if p != M.NONE:
            return "L ?" if self.pending == M.LEFT else "r ?"
        return None

    def close(self):
        """The match leaves the clock (a new game or match): its code leaves RAM. Returns None."""
        self.m = None
        self.app.buttons.start_down = False  # a game's START acts on its release, as before
        forget(*_MODULES)
        forget_engines()
        _game_queue(self.app)
        return None

    # ------------------------------------------------------------------ the loop

    def step(self, now):
        """App.step while a match is set up: the engine to `now`, its events durable, a due lot
        drawn, the link served, the faces refreshed."""
        app = self.app
        menu = app.menu
        if menu is not None and menu.active:
            st = self.m.state
            if st == M.RUNNING or st == M.BREAK or st == M.LOT or st == M.OVER:
                # the match time runs (the host started or resumed it): the menu gives way, so the
                # faces show the match and the levers score (ui/menu.py: never open while it runs)
                menu.close()
                if app.menu is None:
                    forget("sagatfw.ui.menu", "sagatfw.ui.editors", "sagatfw.core.presets", "sagatfw.core.tcparse")
                app.next_face = now
        b = app.buttons
        while b.take(now) >= 0:  # in timestamp order, before the engine moves on (as App.step)
            self._button(b.button, b.kind, b.ticks)
            if app.match is not self:  # the menu set up a game or another match: it takes over
                return app.step(now)
        if self.pending != M.NONE and ticks_diff(now, self.pending_until) >= 0:
            self.pending = M.NONE  # an entry not completed in time: nothing was scored
            app.next_face = now
        m = self.m
        t0 = m.t
        while not m.advance(now):  # the queue was full: log and go on
            self._log(now, False)
        self._log(now, False)
        if m.state == M.LOT:
            self.do("draw_lot", now, lot_bit(self.seed, m.lot_due))
        if m.state == M.BREAK and m.brk_len > _WARN_MS and t0 < m.brk_t + m.brk_len - _WARN_MS <= m.t:
            app.board.beep(_WARN_BEEP_MS, now, app.store.values["horn"])  # 10 s before the break ends
        j = app.journal
        st = m.state
        if (st == M.RUNNING or st == M.BREAK or st == M.STOPPED) and m.t - j.last_t >= j.checkpoint_ms:
            _write().checkpoint(j, m, self.mode, now)  # (its own test again: log/matchwrite.py)
            forget("sagatfw.log.matchwrite")
        if j.backlog and (app.next_retry is None or ticks_diff(now, app.next_retry) >= 0):
            app.next_retry = ticks_add(now, _RETRY_MS)
            app.log_status(_write().commit(j, False))  # (LOG ERROR goes once they are durable)
            forget("sagatfw.log.matchwrite")
        nxt = app.next_face
        due = nxt is None or ticks_diff(now, nxt) >= 0
        if app.link is not None:
            if due and nxt is not None:  # the faces' pass: the link the next one (app.App.step)
                app.link.guard(self.in_game())
            else:
                app.link.service(now, self.in_game())
        if due:
            app.next_face = ticks_add(now, _REFRESH_MS)
            app.board.show(app, now)

    def next_instant(self, now):
        """Ticks of the engine's next instant (a period's or a break's end), or None."""
        m = self.m
        at = m.next_instant()
        if at < 0:
            return None
        if m.state == M.BREAK and m.brk_len > _WARN_MS and at - _WARN_MS > m.t:
            at -= _WARN_MS  # the 10-s horn first
        return ticks_add(now, at - m.t)

    def do(self, name, now, *args):
        """The engine's operation `name` (start, stoppage, resume, score, card, undo, draw_lot,
        result) at ticks `now`; its events are logged, refused or not. Raises Refused."""
        try:
            getattr(self.m, name)(*(args + (now,)))
        finally:
            self._log(now, False)
            self.app.next_face = now
        return True

    # ------------------------------------------------------------------ the log

    def _log(self, now, close=False):
        """The engine's events: the horn at a period's or a break's end, their records durable
        (log/matchwrite.py), the status line as they say."""
        m = self.m
        n = m.n_events
        if not n:
            return
        app = self.app
        j = app.journal
        ev = m.events
        for i in range(n):
            kind = ev[i * M.EV_SIZE + M.F_TYPE]
            if kind == M.EV_PERIOD_END or kind == M.EV_BREAK_END:
                app.board.beep(_HORN_MS, now, app.store.values["horn"])  # the horn
        mw = _write()
        mw.events(j, m, self.mode, now)
        if m.state != M.FINISHED and j.result_code is not None:
            j.result_code = None  # an undo withdrew the result: its code is no longer the match's
            app._forget_code()
        ok = mw.commit(j, close)
        mw = None
        forget("sagatfw.log.matchwrite")
        app.log_status(ok)
        if ok and app.status == _ST_NONE and m.state == M.FINISHED:
            app.status = app._code_status()  # shown once the result record is durable


def _write():
    """log/matchwrite.py, loaded at the moment a match's records or its checkpoint are written
    and forgotten right after (sagatfw.forget): its module, its table and its functions are not
    RAM a match keeps while it runs, where the segment's file looks for its 1.2 KB in one piece
    (the frozen firmware's match heap, tests/test_benchmarks.py)."""
    from sagatfw.log import matchwrite

    return matchwrite


def _game_queue(app):
    """The game clock's event queue again (a MatchApp took it: see __init__)."""
    from array import array

    from sagatfw.engine import clock as C

    app.clock.events = array("i", bytes(4 * C.EV_SIZE * C.EV_CAPACITY))
