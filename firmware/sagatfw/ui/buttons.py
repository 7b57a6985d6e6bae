# sagat: IRQ-timestamped, debounced buttons.
#
# Pure module: it never reads the time and never touches `machine`. The board module calls
# `edge()` from each button pin's IRQ handler with that IRQ's ticks_ms() and the level it read;
# the app's loop calls `take(now)` to get the resulting events, one at a time, in timestamp order.
#
# Debounce (Peter Hinch's switch, micropython-async `v3/primitives/switch.py`): act on the FIRST
# edge, then ignore every edge for `lockout_ms` (bounce). No latency is added: a lever press is
# charged at the ticks of its first edge, read in the IRQ ("a press is timestamped in its IRQ; the
# time charged never depends on how busy the loop was", docs/design.md). A lockout follows every
# accepted change, press or release, so release bounce is not a new press.
#
# Events for the app (`kind`):
#   PRESS           a lever (LEVER_LEFT, LEVER_RIGHT) was pressed, at `ticks` = its IRQ timestamp. A
#                   chess clock switches on the press, not the release; levers make no other event.
#   PRESS_TOGETHER  a lever press within `together_ms` after the OTHER lever's counted PRESS (both
#                   levers hit together). The earlier timestamp wins: the app ignores this one
#                   (nobody completes a move in 60 ms); it is reported, not dropped, so it can be
#                   counted or logged.
#   SHORT           a control button (START, MENU, PLUS, MINUS) was released before `long_ms`;
#                   `ticks` = the release, `pressed_at` = its press.
#   DOWN            START was pressed, at `ticks` = its IRQ timestamp, when `start_down` is set
#                   (a match sets it: its START acts on the press, app/matchmode.py); SHORT or LONG follow.
#   LONG            a control button has been held `long_ms`: `ticks` = pressed_at + long_ms
#                   exactly, reported as soon as take(now) reaches that instant, while the button
#                   is still held; its release then makes no SHORT.
#
# Where the level changed inside a lockout and no edge came after it (a tap shorter than the
# lockout, or a press that starts while a release still bounces), the change is recognised at the
# end of the lockout, its start + lockout_ms (Hinch's switch reads the pin after debounce_ms); the
# next lockout then runs from that last edge, since the line has been quiet since. The level used
# is the one the board read in the IRQ of the last edge: the pin is stable after its last edge, so
# that reading is the settled level. `take(now)` finds such a change as soon as `now` reaches the
# end of the lockout; if the loop was not there, the next edge settles it with the same ticks, so
# the result never depends on how busy the loop was. (Its ticks are the lockout's end, not the
# edge inside it, because the loop may already have advanced the clock past that edge.)
#
# Concurrency. `edge()` runs in an IRQ and may interrupt the loop between any two bytecodes; the
# loop never interrupts it. So edge() is the ONLY writer of the ring (button, ticks, level, change
# number) and of the per-button debounce state; `take()` is the only writer of the read index and
# of its own per-button view, and it only moves entries between the read and write indexes, where
# edge() never writes. A change the loop recognises at a lockout's end is not written back: each
# accepted change of a button has a number, edge() records the same change with the same number
# and ticks at its next edge, and the loop skips a number it has already applied. The loop trusts
# a button's debounce state only if that button's edge counter did not move since it scanned the
# ring, and it looks again if an IRQ recorded, during its step, a change earlier than the one it
# chose (an edge may settle a lockout that ended before `now`); each such change causes at most
# one retry. No allocation in edge() (no exception, list, float or bound method); take(), due()
# and pending() allocate nothing either (tests/firmware/ui/test_buttons_heap_mp.py).
#
# When the ring is full a new change is dropped and `dropped` counts it; edge() never raises and
# nothing grows. Edges make at most about two accepted changes per lockout_ms per button, whatever
# the storm; the ring (capacity 32) holds those of all six buttons for far longer than a loop step.
# After an overflow a control button whose release was lost reports a LONG; its next press puts it
# right.
#
# What the app does, once per step, BEFORE it advances the clock to `now`:
#
#     now = ticks_ms()
#     while buttons.take(now) >= 0:
#         if buttons.kind == PRESS:
#             clock.press(buttons.button, buttons.ticks)   # LEVER_LEFT/RIGHT == clock.LEFT/RIGHT
#         elif ...  # SHORT / LONG of START, MENU, PLUS, MINUS; PRESS_TOGETHER: ignore
#     clock.advance(now)
#
# take(now) returns events with ticks at or before `now` in timestamp order across all buttons
# (IRQs may nest, so the ring itself may be out of order), so presses are applied in the order
# they happened and before the clock is advanced past them. Within one ms the lower button number
# comes first (IRQ order says little at that resolution), so LEVER_LEFT wins a tie, unless the
# loop already took the right press before the left one's IRQ ran. An edge that comes after the
# loop read `now` has ticks at or after it (an IRQ reads the time when it runs), and a change
# recognised at a lockout's end is never dated before a `now` at which the loop could not yet
# know it, so the order holds across steps too.
#
# Board side, e.g. (pressed = pin reads low with a pull-up):
#
#     pin.irq(lambda p: buttons.edge(LEVER_LEFT, time.ticks_ms(), not p.value()),
#             Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
#
# and `signal=flag.set` (an asyncio.ThreadSafeFlag's bound method, made once) to wake the loop
# after each recorded change (a lever's release too, which makes no event); `due(now)` tells the
# loop when time alone will make an event (a LONG hold, a lockout's end).

from array import array

from sagatfw.core.ticks import TICKS_MAX, ticks_add, ticks_diff

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


# Buttons. The levers are the clock's sides (clock.LEFT, clock.RIGHT).
LEVER_LEFT = const(0)
LEVER_RIGHT = const(1)
START = const(2)  # start / pause
MENU = const(3)  # menu / arbiter
PLUS = const(4)
MINUS = const(5)
N_BUTTONS = const(6)
BUTTON_NAMES = ("lever_left", "lever_right", "start", "menu", "plus", "minus")

# Event kinds (the `kind` attribute after take()).
PRESS = const(1)
PRESS_TOGETHER = const(2)
SHORT = const(3)
LONG = const(4)
DOWN = const(5)  # START pressed, at its IRQ timestamp (its release then makes SHORT or LONG, as any control)
KIND_NAMES = (None, "press", "press_together", "short", "long", "down")

NONE = const(-1)  # take(): no event

_SKIP = const(-2)  # an internal step that made no event for the app
_FROM_RING = const(1)
_FROM_LONG = const(2)
_FROM_SETTLE = const(3)


class Buttons:
    """Debounced, IRQ-timestamped buttons; see the module comment for the contract."""

    def __init__(self, lockout_ms=60, long_ms=1000, capacity=32, together_ms=None, signal=None):
        if lockout_ms < 1:
            raise ValueError("lockout_ms must be at least 1")
        if long_ms <= lockout_ms:
            raise ValueError("long_ms must be longer than lockout_ms")
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        if together_ms is None:
            together_ms = lockout_ms
        if together_ms < 0:
            raise ValueError("together_ms must not be negative")
        self.lockout_ms = lockout_ms
        self.long_ms = long_ms
        self.together_ms = together_ms
        self.capacity = capacity
        self.signal = signal  # called (no arguments) from edge() after each recorded change
        self.dropped = 0  # changes lost because the ring was full (written by edge() only)

        # Ring of accepted changes, written by edge() only. One slot stays free: full when
        # the next write index would meet the read index.
        size = capacity + 1
        self._size = size
        self._r_button = array("i", [0] * size)
        self._r_ticks = array("i", [0] * size)
        self._r_level = array("i", [0] * size)  # 1 pressed, 0 released
        self._r_num = array("i", [0] * size)  # the button's change number
        self._wr = 0  # edge() only
        self._rd = 0  # take() only

        # Debounce state per button, written by edge() only.
        n = N_BUTTONS
        self._down = array("i", [0] * n)  # accepted level
        self._t_acc = array("i", [0] * n)  # start of the last accepted change's lockout
        self._lock = array("i", [0] * n)  # 1 while that lockout may still run
        self._lvl = array("i", [0] * n)  # level read at the last edge
        self._t_lvl = array("i", [0] * n)  # ticks of the last edge
        self._num = array("i", [0] * n)  # number of the last accepted change
        self._seq = array("i", [0] * n)  # edges seen (the loop's consistency check)

        # The loop's view, written by take() only.
        self._v_num = array("i", [0] * n)  # last change number applied
        self._v_down = array("i", [0] * n)  # control buttons: held
        self._v_t = array("i", [0] * n)  # control buttons: ticks of that press
        self._v_long = array("i", [0] * n)  # control buttons: LONG already reported
        self._v_last = array("i", [0] * 2)  # levers: ticks of the last counted PRESS
        self._v_has = array("i", [0] * 2)  # levers: a PRESS was counted
        self._snap = array("i", [0] * n)

        # The event returned by the last take() (valid until the next take()).
        self.button = NONE
        self.ticks = 0
        self.kind = 0
        self.pressed_at = 0  # the press that started the event (== ticks for PRESS)
        self.start_down = False  # START's press makes a DOWN event (a match's START acts on it)

    # ------------------------------------------------------------------ IRQ side

    def edge(self, button, ticks, pressed):
        """An edge of `button`'s pin at `ticks` (the IRQ's ticks_ms()), `pressed` its level then.
        Called from the IRQ handler: never allocates, never raises for any button number."""
        if button < 0 or button >= N_BUTTONS:
            return
        b = button
        p = 1 if pressed else 0
        self._seq[b] = (self._seq[b] + 1) & TICKS_MAX
        lockout = self.lockout_ms
        if self._lock[b]:
            d = ticks_diff(ticks, self._t_acc[b])
            if 0 <= d < lockout:  # bounce: only remember the level
                self._lvl[b] = p
                self._t_lvl[b] = ticks
                return
            self._lock[b] = 0
            if self._lvl[b] != self._down[b]:
                # The lockout ended on the other level: that change is recognised at its end.
                # The line has been quiet since its last edge, so the next lockout runs from there.
                quiet = self._t_lvl[b]
                self._accept(b, self._lvl[b], ticks_add(self._t_acc[b], lockout), quiet)
                d = ticks_diff(ticks, quiet)
                if 0 <= d < lockout:
                    self._lvl[b] = p
                    self._t_lvl[b] = ticks
                    return
                self._lock[b] = 0
        self._lvl[b] = p
        self._t_lvl[b] = ticks
        if p != self._down[b]:
            self._accept(b, p, ticks, ticks)  # the first edge acts

    def _accept(self, b, level, ticks, lock_from):
        num = (self._num[b] + 1) & TICKS_MAX
        self._down[b] = level
        self._t_acc[b] = lock_from
        self._lock[b] = 1
        self._num[b] = num
        wr = self._wr
        nxt = wr + 1
        if nxt == self._size:
            nxt = 0
        if nxt == self._rd:
            self.dropped += 1
            return
        self._r_button[wr] = b
        self._r_ticks[wr] = ticks
        self._r_level[wr] = level
        self._r_num[wr] = num
        self._wr = nxt  # publish after the slot is written
        if self.signal is not None:
            self.signal()

    # ----------------------------------------------------------------- loop side

    def take(self, now):
        """The next event at or before ticks `now`, in timestamp order: returns its button and
        sets `button`, `ticks`, `kind`, `pressed_at`; or returns NONE (-1). Finds LONG holds and
        changes at a lockout's end itself. Call until it returns NONE before advancing the clock
        to `now`. Never allocates."""
        while True:
            r = self._step(now)
            if r != _SKIP:
                return r

    def pending(self):
        """Changes recorded by edge() and not yet taken (at any ticks)."""
        n = self._wr - self._rd
        return n + self._size if n < 0 else n

    def due(self, now):
        """ms from `now` until time alone makes an event (a LONG hold, a change at a lockout's
        end, a recorded change): 0 if one is due now, NONE (-1) if nothing is pending. For the
        loop's sleep and the simulator's virtual time. Never allocates."""
        best = NONE
        i = self._rd
        wr = self._wr
        while i != wr:  # recorded changes (the simulator records a release ahead of its time)
            ms = ticks_diff(self._r_ticks[i], now)
            ms = ms if ms > 0 else 0
            if best < 0 or ms < best:
                best = ms
            i += 1
            if i == self._size:
                i = 0
        for b in range(N_BUTTONS):
            if b >= START and self._v_down[b] and not self._v_long[b]:
                ms = ticks_diff(ticks_add(self._v_t[b], self.long_ms), now)
                ms = ms if ms > 0 else 0
                if best < 0 or ms < best:
                    best = ms
            s = self._seq[b]
            waits = self._lock[b] and self._lvl[b] != self._down[b]
            waits = waits and ticks_diff(self._v_num[b], self._num[b]) <= 0
            end = ticks_add(self._t_acc[b], self.lockout_ms)
            if waits and self._seq[b] == s:
                ms = ticks_diff(end, now)
                ms = ms if ms > 0 else 0
                if best < 0 or ms < best:
                    best = ms
        return best

    def _step(self, now):
        snap = self._snap
        seq = self._seq
        for b in range(N_BUTTONS):
            snap[b] = seq[b]
        best_age = -1  # ticks_diff(now, ticks) of the earliest candidate; < 0 is the future
        src = 0
        at = 0
        cb = 0
        c_t = c_lvl = c_num = 0  # the chosen change at a lockout's end (read under the check)
        # Ties (the same ms): the lower button number first; one button's changes in their order.
        # 1. recorded changes, scanned in the order they were recorded
        waiting = 0  # bit b: a change of button b is in the ring
        size = self._size
        rd = self._rd
        wr = self._wr
        i = rd
        while i != wr:
            b = self._r_button[i]
            waiting |= 1 << b
            age = ticks_diff(now, self._r_ticks[i])
            if age > best_age or (age == best_age and b < cb):
                best_age = age
                src = _FROM_RING
                at = i
                cb = b
            i += 1
            if i == size:
                i = 0
        # 2. what time alone makes: LONG holds, and a change at the end of a lockout
        lockout = self.lockout_ms
        for b in range(N_BUTTONS):
            if b >= START and self._v_down[b] and not self._v_long[b]:
                t = ticks_add(self._v_t[b], self.long_ms)
                age = ticks_diff(now, t)
                if age > best_age or (age == best_age and b < cb):
                    best_age = age
                    src = _FROM_LONG
                    cb = b
            if (waiting >> b) & 1:
                continue  # its recorded changes come first
            lock = self._lock[b]
            lvl = self._lvl[b]
            down = self._down[b]
            t_acc = self._t_acc[b]
            num = self._num[b]
            if seq[b] != snap[b]:
                # An edge came in since the scan: it settled this lockout itself if it could
                # (then its change is in the ring, see below), or the lockout ends after `now`.
                continue
            if not lock or lvl == down or ticks_diff(self._v_num[b], num) > 0:
                continue
            t = ticks_add(t_acc, lockout)
            age = ticks_diff(now, t)
            if age > best_age or (age == best_age and b < cb):
                best_age = age
                src = _FROM_SETTLE
                cb = b
                c_t = t
                c_lvl = lvl
                c_num = (num + 1) & TICKS_MAX
        # 3. changes an IRQ recorded during this step. An edge has ticks at or after the loop's
        # `now`, but it may settle a lockout that ended before: if that change is earlier than
        # the one chosen, look again (each change causes one retry at most: no livelock).
        i = wr
        wr = self._wr
        while i != wr:
            if ticks_diff(now, self._r_ticks[i]) > best_age:
                return _SKIP
            i += 1
            if i == size:
                i = 0
        if src == 0:
            return NONE
        if src == _FROM_RING:
            b = self._r_button[at]
            t = self._r_ticks[at]
            lvl = self._r_level[at]
            num = self._r_num[at]
            self._remove(at)
            return self._apply(b, t, lvl, num)
        if src == _FROM_LONG:
            self._v_long[cb] = 1
            return self._event(cb, ticks_add(self._v_t[cb], self.long_ms), LONG, self._v_t[cb])
        # _FROM_SETTLE: the change edge() will record at its next edge, same number and ticks
        return self._apply(cb, c_t, c_lvl, c_num)

    def _remove(self, i):
        """Take slot i out of the ring, keeping the others in recorded order. Touches only
        slots between the read index and i: edge() writes beyond the write index."""
        rd = self._rd
        size = self._size
        rb = self._r_button
        rt = self._r_ticks
        rl = self._r_level
        rn = self._r_num
        while i != rd:
            j = i - 1 if i > 0 else size - 1
            rb[i] = rb[j]
            rt[i] = rt[j]
            rl[i] = rl[j]
            rn[i] = rn[j]
            i = j
        rd += 1
        self._rd = 0 if rd == size else rd

    def _apply(self, b, t, level, num):
        if ticks_diff(num, self._v_num[b]) <= 0:
            return _SKIP  # already applied at the end of its lockout
        self._v_num[b] = num
        if b < START:  # a lever
            if not level:
                return _SKIP
            o = 1 - b
            if self._v_has[o]:
                d = ticks_diff(t, self._v_last[o])
                if 0 <= d < self.together_ms:
                    return self._event(b, t, PRESS_TOGETHER, t)
            self._v_last[b] = t
            self._v_has[b] = 1
            return self._event(b, t, PRESS, t)
        if level:
            self._v_down[b] = 1
            self._v_t[b] = t
            self._v_long[b] = 0
            return self._event(b, t, DOWN, t) if b == START and self.start_down else _SKIP
        if not self._v_down[b]:
            return _SKIP  # its press was dropped
        self._v_down[b] = 0
        if self._v_long[b]:
            return _SKIP
        if ticks_diff(t, self._v_t[b]) >= self.long_ms:  # released at the LONG instant itself
            self._v_long[b] = 1
            return self._event(b, ticks_add(self._v_t[b], self.long_ms), LONG, self._v_t[b])
        return self._event(b, t, SHORT, self._v_t[b])

    def _event(self, b, t, kind, pressed_at):
        self.button = b
        self.ticks = t
        self.kind = kind
        self.pressed_at = pressed_at
        return b
