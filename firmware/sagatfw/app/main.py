# sagat: the app: one step function wiring board, buttons, clock, journal and faces.
#
# `App.step(now)` is everything the clock does at one instant: take the pending button events (each
# stamped in its IRQ) in timestamp order and apply them, advance the clock to `now`, make its events
# durable in the journal, beep at a flag or a stage, checkpoint a running clock, and refresh the
# faces when due. On a board an asyncio loop calls it (`run`); the simulator calls it at every
# instant where something happens, in virtual time, so a 5-hour game takes seconds and runs this
# same code. The actions (`new_game`, `start`, `pause`, `adjust`, ...) are what the buttons, the
# on-clock menu, the simulator's scripts and the host protocol all call.

import gc

import sagatfw as S
from sagatfw import forget, load_key
from sagatfw.core.ticks import ticks_add, ticks_diff
from sagatfw.engine import clock as C
from sagatfw.log import records as R
from sagatfw.log.journal import Journal
from sagatfw.log.settings import Store
from sagatfw.ui import buttons as B

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


REFRESH_MS = const(100)  # faces at least 10 times a second
_ERROR_CLEAR_SHOWS = const(30)  # clean refreshes (3 s) after a failed step before ERROR goes
RETRY_MS = const(1000)  # records waiting in RAM (a write error): the flash is tried again this often
BEEP_FLAG_MS = const(400)
BEEP_STAGE_MS = const(120)
_ARM_MAX_MS = const(600000)  # an armed start (the hall's round) is at most 10 min ahead
# The status line's codes (faces.STATUS_TEXT: the faces turn them into text)
_ST_NONE = const(0)
_ST_CODE = const(1)  # the result code, for the scoresheet: its text in code_text
_ST_LOG_ERROR = const(2)  # records wait in RAM: the flash refused them
_ST_LOG_FULL = const(3)
_ST_LOG_DAMAGED = const(4)  # the boot found damaged records (skipped, logged)
_ST_RESTORE_FAILED = const(5)  # the log's game or match could not be replayed: a clean start
_ST_SETTINGS_DEFAULT = const(6)  # the settings file was missing or bad: defaults (logged)
_ST_SETTINGS_UNSAVED = const(7)  # settings changed but the flash did not take them
_ST_ERROR = const(8)  # a step failed (a display glitch): cleared after 3 s of clean refreshes


class App:
    def __init__(self, board):
        self.board = board
        self.clock = C.Clock()
        root = board.root
        self.store = Store(root + "settings.json")
        self.journal = None
        self.buttons = None
        self.menu = None  # the on-clock menu (ui/menu.py) attaches itself here
        self.match = None  # a match mode's app (app/matchmode.py), while a match is set up: it runs then
        self.link = None  # the serial link (link/stream.py), when the board has one
        self.status = _ST_NONE  # the status line, a code (faces.STATUS_TEXT): defaults, log errors, the result code
        self.code_text = None  # "CODE 042917" while status is _ST_CODE
        self.setup_logged = False  # the current game's setup record is in the journal
        self.last_press_switched = False
        # ticks of the next frame; None: at the first step (never ticks 0: ticks_diff(now, 0) is
        # negative for a boot at ticks >= 2^29, and no faces showed for 6.2 days)
        self.next_face = None
        self.next_retry = None  # when to try the flash again while records wait in RAM
        self.armed = None  # ticks at which the game set up starts by itself (arm: the hall's round, TK-C5)
        self.locate_until = None  # ticks at which the arbiter's locate ends (faces.locating)

    # ------------------------------------------------------------------ boot

    def boot(self, now):
        """Settings, journal, and the interrupted game if there was one (paused, TK-C18)."""
        board = self.board
        origin = self.store.load()
        v = self.store.values
        S.use(v["lang"])  # the faces' language
        gc.collect()  # what lives as long as the clock goes first, low in a heap free of the load's garbage
        try:
            self.buttons = B.Buttons(v["lockout_ms"])
        except ValueError:  # a value Buttons refuses must never stop the clock from booting
            self.buttons = B.Buttons()
            self.status = _ST_SETTINGS_DEFAULT
        board.attach(self.buttons)
        self.journal = Journal(board.root + "log", key=load_key(board.root), max_bytes=v["log_max_bytes"],
                               checkpoint_ms=v["checkpoint_ms"])
        try:  # the boot's reading of the log, loaded for it (forgotten below); a key change cut short is settled
            from sagatfw.log import boot as journalboot
            problems = journalboot.open_log(self.journal, board.root + S.KEY_FILE)
        except Exception as e:  # noqa: BLE001 - a MemoryError, a flash that cannot be read: play on, say so
            problems = None  # the journal writes nothing (it does not know where the log ends)
            board.note("log open failed: %s" % e)
        if self.link is not None:  # (made before the boot: the key may have been settled since)
            self.link.server.key = load_key(board.root)
        restored = False
        try:
            restored = self.journal.opened and journalboot.restore(self.journal, self.clock, now)
            if restored is None:  # the log's current game is a match: it comes back in app.match
                _forget("sagatfw.log.replay", "sagatfw.log.read", "sagatfw.log.wall")  # room for the match's replay
                from sagatfw.app import setup as matchsetup

                try:
                    restored = matchsetup.restore(self, now)  # False; ValueError if it cannot replay
                finally:
                    matchsetup = None
                    _forget("sagatfw.app.setup", "sagatfw.log.matchrecords", "sagatfw.log.wall")
        except Exception as e:  # noqa: BLE001 - a log the engine cannot replay: start clean, say so
            self.match = None
            self.status = _ST_RESTORE_FAILED
            board.note("log restore failed: %s" % e)
            self.clock = journalboot = None  # a MemoryError too: free the half-replayed clock and the replay first
            _forget("sagatfw.log.replay", "sagatfw.log.read", "sagatfw.log.wall", "sagatfw.core.tcparse",
                    "sagatfw.log.boot")
            self.clock = C.Clock()
        if restored:
            self.setup_logged = True
        else:
            try:
                self._set_up(v["tc"], v["first"])
            except Exception as e:  # noqa: BLE001 - no settings file may stop the clock from booting
                # Store.load checks the control with the same parser (parse_sides), so this is a
                # file its check let through (an older firmware's, a MemoryError): the defaults,
                # said and logged like any bad file.
                board.note("settings refused: %s" % (e,))
                origin = self.store.reset_game_defaults("bad settings, defaults for: tc (%s)" % (e,))
                self._set_up(v["tc"], v["first"])
        # the journal takes the clock's events as its queue fills inside one call (none is lost)
        self.clock.sink = self  # its `_log`: no bound method kept in RAM
        if origin != R.ORIGIN_CHANGED:
            self.status = _ST_SETTINGS_DEFAULT
            self.journal.log_settings(self.clock, self.store.clock_settings(), origin, now)
        if not restored and self._code_status() == _ST_CODE:
            # the last game's result code, if it was finished: after the settings' notice, which
            # the log keeps, so the code comes back on every boot of a clock never configured
            self.status = _ST_CODE
        if problems:
            self.status = _ST_LOG_DAMAGED
        if not self.journal.opened:  # said last: it outweighs the other boot messages
            self.status = _ST_LOG_ERROR
        _forget("sagatfw.log.replay", "sagatfw.log.read", "sagatfw.log.wall", "sagatfw.core.tcparse",
                "sagatfw.log.boot")  # boot-only code
        if self.match is None:  # a match's log read (or refused) at boot: its code goes too
            _forget("sagatfw.app.matchmode", "sagatfw.log.matchrecords", "sagatfw.log.wall", "sagatfw.engine.matchbase",
                    "sagatfw.engine.matchwords", *[e[0] for e in S.MODES])  # (each mode's engine)
            return restored
        return True

    def _set_up(self, tc, first, settings=None):
        """Set up the next game from a control string; ValueError (and the clock unchanged) if the
        control, the side or the settings are bad. `settings`: a clock.Settings, else the store's."""
        side = C.LEFT if first == "left" else C.RIGHT
        try:
            # the one parser of a control string (also that of settings, presets, the menu and
            # `sagat tc`): what it accepts, new_game plays; "300|" is refused, not read as "300"
            from sagatfw.core import tcparse

            left, right = tcparse.parse_sides(tc)
            if settings is None:
                settings = self.store.clock_settings()
            self.clock.new_game(left, right, side, settings)
        finally:
            _forget("sagatfw.core.tcparse")  # the parser is needed only while a control is set
        self.setup_logged = False
        self.armed = None  # a game set up again is not the one armed

    # ------------------------------------------------------------------ step

    def step(self, now):
        """Everything for one instant (ticks `now`)."""
        if self.match is not None:
            return self.match.step(now)  # a match mode runs instead of the game clock
        menu = self.menu
        if menu is not None and menu.active and self.clock.state == C.RUNNING:
            menu.close()  # the host started the clock: the menu gives way (the faces show the times)
            if self.menu is None:
                _forget("sagatfw.ui.menu", "sagatfw.ui.editors", "sagatfw.core.presets", "sagatfw.core.tcparse")
            self.next_face = now
        b = self.buttons
        while b.take(now) >= 0:  # in timestamp order (long holds at their instant), before the clock moves on
            # an armed start before a press stamped at or after its instant: the clock starts at the
            # armed instant itself (charged from there, whenever the loop noticed), across the ticks'
            # wrap (start clears armed). Written out here and below: an App method more costs RAM in
            # the class's dict, which the frozen 64 KB budget holds.
            a = self.armed
            if a is not None and ticks_diff(b.ticks, a) >= 0:
                self.start(a)
            self._button(b.button, b.kind, b.ticks)
            if self.match is not None:  # the menu set up a match: it takes the rest
                return self.match.step(now)
            self._log(now)  # each press durable before the next is applied (log/journal.py), however long the step
        a = self.armed
        if a is not None and ticks_diff(now, a) >= 0:  # the armed start's instant (as above)
            self.start(a)
        self.clock.advance(now)
        self._log(now)
        j = self.journal
        if j.backlog and (self.next_retry is None or ticks_diff(now, self.next_retry) >= 0):
            # records wait in RAM after a write error and nothing new comes (a finished game's
            # result): try again now and then, not only at the next event
            self.next_retry = ticks_add(now, RETRY_MS)
            if j.commit() and self.status == _ST_LOG_ERROR:
                self.status = self._code_status()
        j.checkpoint(self.clock, now)
        nxt = self.next_face
        due = nxt is None or ticks_diff(now, nxt) >= 0
        link = self.link
        if link is not None:  # serve the host: bounded work, never a wait
            st = self.clock.state
            if due and nxt is not None:
                # the faces' pass (every REFRESH_MS): the link waits for the next one, so that no
                # pass does two slow things (the Pico: a refresh 7 ms, reading a line 5, writing
                # 4 KB 5); only Ctrl-C's guard is set at once (a button may have started a game)
                link.guard(st != C.SETUP and st != C.FINISHED)
            else:
                link.service(now, st != C.SETUP and st != C.FINISHED)
        if due:
            self.next_face = ticks_add(now, REFRESH_MS)
            self.board.show(self, now)
            if nxt is None:
                gc.collect()  # the boot's first frame: its garbage goes before the game's records come

    def next_instant(self, now):
        """Ticks of the clock's next pending instant (flag, stage, low time, default), or None."""
        if self.match is not None:
            return self.match.next_instant(now)
        if self.armed is not None:  # in setup nothing else is pending: the start is the next instant
            return self.armed
        c = self.clock
        at = c.next_instant()
        if at < 0:
            return None
        return ticks_add(now, at - c.t)

    def _log(self, now):
        c = self.clock
        if not c.n_events:
            return
        ev = c.events
        for i in range(c.n_events):
            kind = ev[i * C.EV_SIZE + C.F_TYPE]
            if kind == C.EV_FLAG:
                self.board.beep(BEEP_FLAG_MS, now, self.store.values["sound"])
            elif kind == C.EV_STAGE:
                self.board.beep(BEEP_STAGE_MS, now, self.store.values["sound"])
        if not self.setup_logged:
            self._forget_code()
            self.journal.begin_game(c, now)
            self.setup_logged = True
        ok = self.journal.log_events(c, now)
        self.log_status(ok)

    def log_status(self, ok):
        """The status after the journal took records (`ok`: durable): LOG FULL, LOG ERROR, or back
        from those to the result code (or nothing) once the flash takes them again."""
        s = self.status
        if self.journal.full:  # the game in progress fills the flash: pull and erase between games
            self.status = _ST_LOG_FULL
        elif not ok:
            self.status = _ST_LOG_ERROR
        elif s == _ST_LOG_ERROR or s == _ST_LOG_FULL:
            self.status = self._code_status()

    def result_code(self):
        """The result code for the scoresheet while the finished game is on the faces (after a
        reboot too, until the next game is logged), once its record is durable; else None."""
        if self.match is not None:  # a match's, once finished (matchapp)
            return self.journal.durable_code() if self.match.in_game(True) else None
        st = self.clock.state
        if st == C.FINISHED or (st == C.SETUP and not self.setup_logged):
            return self.journal.durable_code()
        return None

    def protest_left(self, at):
        """The ms left at ticks `at` of TK-P1's protest window (30 min from the end of the game: its first
        result's wall time): 0 once closed, at most 30 min (a wall time set back since); None with no window to
        count (no result, or no wall time: the result's record has none, or no time sync since the boot). The one
        view of it: the faces' PROTEST 29:59 (faces.status_text) and `state`'s protest_ms; neither reads the
        journal's fields."""
        j = self.journal
        if j is None or j.result_wall is None or j.sync_wall_ms is None:
            return None
        left = j.result_wall + C.PROTEST_MS - j.sync_wall_ms - ticks_diff(at, j.sync_ticks)
        return 0 if left < 0 else (left if left < C.PROTEST_MS else C.PROTEST_MS)

    def _code_status(self):
        """_ST_CODE (its text in code_text) once the result code is durable, else _ST_NONE."""
        code = self.result_code()
        if code is None:
            return _ST_NONE
        self.code_text = "CODE " + code
        return _ST_CODE

    def _forget_code(self):
        """A new game: the last game's code leaves the faces."""
        self.journal.result_code = None
        if self.status == _ST_CODE:
            self.status = _ST_NONE

    def _button(self, button, kind, ticks):
        if button == B.LEVER_LEFT or button == B.LEVER_RIGHT:
            # Two levers together: the earlier press wins - but only if it switched the clock. A
            # touch of the waiting side's lever (TK-C9: nothing happens) must not swallow the
            # running side's real press a few ms later.
            if kind == B.PRESS or (kind == B.PRESS_TOGETHER and not self.last_press_switched):
                self.last_press_switched = self.clock.press(button, ticks)  # at its IRQ stamp (TK-C7)
            return
        if self.menu is None and button == B.MENU and kind == B.SHORT and self.clock.state != C.RUNNING:
            from sagatfw.ui.menu import Menu  # loaded while the arbiter uses it, then dropped

            Menu(self, transient=True)
        if self.menu is not None:
            used = self.menu.button(button, kind, ticks)
            if self.menu is None:  # the menu closed itself: its code leaves RAM
                _forget("sagatfw.ui.menu", "sagatfw.ui.editors", "sagatfw.core.presets", "sagatfw.core.tcparse")
            if used:
                self.next_face = ticks  # show the change at once
                return
        if button == B.START and (kind == B.SHORT or (kind == B.LONG and self.clock.state == C.RUNNING)):
            self.start_pause(ticks, kind == B.LONG)  # TK-C15: held, the arbiter's pause; short, a player's

    # --------------------------------------------------------------- actions

    def start_pause(self, now, *held):  # (no default: a function's defaults are a tuple in RAM)
        """The start/pause button: start a set-up game, pause a running one, resume a paused one. A pause is a
        player's (TK-C15: a player stops the clock to call the arbiter), or the arbiter's if START was `held`."""
        c = self.clock
        if c.state == C.SETUP:
            return self.start(now)
        if c.state == C.RUNNING:
            return self.pause(C.BY_ARBITER if held and held[0] else C.BY_PLAYER, now)
        if c.state == C.PAUSED:
            return self.resume(now)
        if c.state == C.ADJOURNED:
            return self.resume_adjourned(now)
        return False

    def new_match(self, mode, opts, now, seed=0):
        """Set up a match of `mode` ("kokboru": lead; "kilithattu": first "left"/"right",
        changeover_ms, method "sudden"/"lot"/"draw"/"referee") and log its setup; it waits for the
        referee's start. ValueError (Refused) on a bad option, and nothing changes then (but for the
        settings file, written again with the same values). A game running refuses it. `seed`: the
        lot's, for scripts (0: the board's true random source). app/setup.py, loaded for it and
        forgotten after: a match's loop never holds the setup's code."""
        from sagatfw.app import setup as matchsetup

        try:
            return matchsetup.new(self, mode, opts, now, seed)
        finally:
            matchsetup = None
            _forget("sagatfw.app.setup", "sagatfw.log.matchrecords", "sagatfw.log.wall")

    def new_game(self, tc, first, now):
        """Set up the next game (TimeControl string, "LEFT|RIGHT" for a handicap). Refused while a
        side is running. ValueError on a bad control."""
        if self.clock.state == C.RUNNING:
            raise S.Refused("pause the game in progress first", "game_in_progress")
        if not isinstance(tc, str):
            raise ValueError("tc must be a TimeControl string")
        if first not in ("left", "right"):
            raise ValueError("first must be left or right")
        self._set_up(tc, first)  # raises ValueError on a bad control: nothing changed then
        if self.match is not None:
            self.match = self.match.close()  # a game ends the match mode: its code leaves RAM
        self._forget_code()
        self.store.values["tc"] = tc
        self.store.values["first"] = first
        self._save()
        # logged at once: after a power cut the clock comes back to this game, not an abandoned one
        self.journal.begin_game(self.clock, now)
        self.setup_logged = True
        return True

    def start(self, now):
        self.armed = None
        if self.status == _ST_SETTINGS_DEFAULT:
            self.status = _ST_NONE  # said at boot and in the log; the game's faces need the room
        return self._do(self.clock.start(now), now)

    def arm(self, at, now):
        """Start the game set up at ticks `at`, 1 ms to 10 min from `now`: the hall arms every board
        of a round for one instant (after a time sync of each link) instead of sending "start" to
        one board after another (TK-C5). step() starts it at exactly `at`. Only in setup; `start`,
        `new` or a change of the game's settings drops it. ValueError for an instant out of range."""
        if self.clock.state != C.SETUP:
            return False
        d = ticks_diff(at, now)
        if d <= 0 or d > _ARM_MAX_MS:
            raise ValueError("ticks must be 1 ms to 10 min ahead of the clock's (%d ms)" % d)
        self.armed = at
        self.next_face = now
        return True

    def disarm(self, now):
        """Drop the armed start (the hall's Pause all, in the arming window): done whether or not one
        was armed while the game is set up; False once it started, so the hall knows (TK-C5)."""
        self.armed = None
        return self.clock.state == C.SETUP

    def pause(self, by, now):
        return self._do(self.clock.pause(by, now), now)

    def resume(self, now):
        return self._do(self.clock.resume(now), now)

    def extend(self, now):
        return self._do(self.clock.extend(now), now)

    def adjourn(self, now):
        return self._do(self.clock.adjourn(now), now)

    def resume_adjourned(self, now, *times):  # TK-A4: left_ms, right_ms, left_used_ms, right_used_ms (TK-A3)
        return self._do(self.clock.resume_adjourned(now, *times), now)

    def adjust(self, side, ms, moves, stage, now):
        return self._do(self.clock.adjust(side, now, ms, moves, stage), now)

    def late_install(self, elapsed_ms, moves, now):
        return self._do(self.clock.late_install(elapsed_ms, now, moves), now)

    def result(self, text, now, *k):  # k: the final kazans, left's, right's (actions.do checks them: engine/kazans.py)
        if text not in C.RESULT_NAMES:
            raise ValueError("result must be one of " + ", ".join(C.RESULT_NAMES))
        ok = self._do(self.clock.result(C.RESULT_NAMES.index(text), now, *k), now)
        if ok and self._code_status() == _ST_CODE:
            # the result code, from the keyed chain at the result record: the arbiter copies it
            # onto the scoresheet (`sagat logs verify --game N --code ...`); shown until the next
            # game, and only once the record is durable (until then the faces say LOG ERROR)
            self.status = _ST_CODE
        return ok

    def set_settings(self, values, now):
        """Change settings (a dict); they apply from the next game, or now to a game not started.
        ValueError (and nothing changed) on an unknown key or a bad value."""
        if self.clock.state not in (C.SETUP, C.FINISHED):
            raise S.Refused("settings change between games (pause is not enough)", "settings_between_games")
        # every value, then the whole as the boot will use it (the same parser, the clock's own
        # rules): ValueError before anything is saved or changed (a value saved and then refused
        # stopped the next boot)
        from sagatfw.log.settings import GAME_KEYS, check_all

        logged = self.setup_logged
        again = False  # the game not started is set up again: only for a setting of the game itself
        try:
            new = check_all(self.store.values, values)
            if self.clock.state == C.SETUP:
                for key in values:
                    again = again or key in GAME_KEYS
                if again:  # (a late installation, a correction in setup go with it)
                    self._set_up(new["tc"], new["first"], self.store.clock_settings(new))
        finally:
            _forget("sagatfw.core.tcparse")
        for key in values:
            self.store.values[key] = new[key]  # the same dict: whoever holds it sees the change
        S.use(new["lang"])  # the faces' language (the same table again, unless it changed)
        self._save()
        self.journal.log_settings(self.clock, self.store.clock_settings(), R.ORIGIN_CHANGED, now)
        if again and logged:
            # the game's setup was in the log: the new one goes there too, or a power cut would
            # bring back the old control (the restore replays the last setup record)
            self._forget_code()
            self.journal.begin_game(self.clock, now)
            self.setup_logged = True
        return True

    def _save(self):
        try:
            self.store.save()
        except OSError:
            self.status = _ST_SETTINGS_UNSAVED
            return
        if self.status == _ST_SETTINGS_DEFAULT or self.status == _ST_SETTINGS_UNSAVED:
            self.status = _ST_NONE  # good settings are on the flash now

    def _do(self, ok, now):
        self.clock.advance(now)
        self._log(now)
        self.next_face = now  # show the change at once
        return ok


def _forget(*names):
    forget(*names)
    gc.collect()


def board_for_platform():
    """The board module of this port: rp2 -> pico, esp32 -> esp32, anything else -> sim."""
    import sys

    if sys.platform == "rp2":
        from sagatfw.boards import pico as board
    elif sys.platform == "esp32":
        from sagatfw.boards import esp32 as board
    else:
        from sagatfw.boards import sim as board
    return board


async def _loop(app):
    import asyncio

    board = app.board
    said = None  # after a failed step: [what the faces said before, clean refreshes since]
    measured = hasattr(board, "loop_max_ms")  # every board's (hw.py, sim.py); a test's may have none
    last = board.ticks()
    while True:
        try:
            now = board.ticks()
            gap = ticks_diff(now, last)  # since the last pass began: the step, the sleep, IRQs, GC
            last = now
            if measured:  # identify reports it and starts again: how long the loop was held up
                if board.loop_max_ms < 0:
                    board.loop_max_ms = 0  # the pass that served identify itself is not counted
                elif gap > board.loop_max_ms:
                    board.loop_max_ms = gap
            shown = app.next_face
            app.step(now)
            if said is not None and app.next_face != shown:  # a refresh that went through
                said[1] += 1
                if said[1] >= _ERROR_CLEAR_SHOWS:  # ERROR stood 3 s: the faces say what they said
                    if app.status == _ST_ERROR:
                        app.status = said[0]
                    said = None
        except Exception as e:  # noqa: BLE001 - a display glitch (I2C) must never stop the clock
            if said is None:
                said = [app.status, 0]
            said[1] = 0
            app.status = _ST_ERROR
            board.note("step failed: %s" % (e,))
        # presses are stamped in their IRQ: the sleep never delays a press. While the link has an
        # answer on its way (a log pull) the loop only yields, so the answer goes at the link's
        # speed.
        link = app.link
        await asyncio.sleep_ms(0 if link is not None and link.busy else 5)


def run():
    """Boot the board's app and run it forever (main.py calls this). It returns only when Ctrl-C
    stopped the loop after the arbiter's `maintenance` opened the REPL (main.py then ends into the
    REPL, for mpremote). Anything else that ends the loop is raised: main.py then resets a board that
    has an arbiter key rather than let MicroPython start the REPL, where the key file can be read."""
    import asyncio

    board = board_for_platform().Board()
    app = App(board)
    now = board.ticks()
    # The serial link: the protocol on the board's USB serial / UART stdio (contract 6). Made before
    # the boot: its buffers (3 KB) go in one piece low in the heap, before the log's replay leaves
    # it in small pieces; the loop serves it only after the boot.
    import binascii

    import machine

    from sagatfw.link.server import Server
    from sagatfw.link.stream import Link

    uid = binascii.hexlify(machine.unique_id()).decode()  # type: ignore[attr-defined]  # boards only
    app.link = Link(Server(app, {"uid": uid}, now), max_out=board.LINK_WRITE, step_out=board.LINK_STEP)
    app.boot(now)
    try:
        asyncio.run(_loop(app))
    except KeyboardInterrupt:
        if not app.link.server.repl_open:
            raise  # without a key: into the REPL as ever; with one, link/stream.py never lets Ctrl-C through
