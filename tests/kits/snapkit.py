# Test kit for the checkpoint snapshot (docs/log-format.md, "Snapshots"): random games played on a Clock and a
# Journal as the app plays them (each call's events logged, a checkpoint tried after every call),
# and the clock's whole state for comparing a restore from the snapshot with a whole replay.
# Runs under CPython (the journal on a temporary directory) and MicroPython (on littlefs) alike:
# a deterministic generator, no pytest, no file copies here (the tests copy the flash).
from sagatfw.core.ticks import TICKS_MAX, ticks_add
from sagatfw.engine import clock as C
from sagatfw.log import boot as journalboot
from sagatfw.log.journal import Journal

BASE = TICKS_MAX - 5000  # the ticks wrap 5 s into every game
CONTROLS = ("60", "60+2", "30d3", "30b3", "2/20:10", "2/20+1:2/10", "*30", "-", "20j5x2", "20c2/10", "60|30+5",
            "40/300+2:60+2", "3/30d2:20b1", "10+1|-")


def state(c):
    """Everything a Clock holds that a restore sets (a tuple: equal clocks give equal tuples)."""
    s = c.settings
    return (
        c.state, c.running, c.to_move, c.first, c.t, c.last, c.seg_start, c.flags_down, bool(c.default_done),
        c.freeze, c.by_flag, list(c.rem), list(c.moves), list(c.stage), list(c.stage_moves), list(c.delay_left),
        list(c.turn_used), list(c.flag), list(c.above_low), list(c.has_run), list(c.default_mark),
        list(c.stage_mark), c.tc_field(), (s.freeze, s.stage_advance, s.extension_ms, s.default_ms, s.low_time_ms),
        c.n_events,
    )


class Rand:
    """A linear congruential generator: the same games on both runtimes."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def journal(root, key=b"", segment_records=8, checkpoint_ms=3000):
    j = Journal(root, key=key, segment_records=segment_records, checkpoint_ms=checkpoint_ms, max_bytes=1 << 30)
    journalboot.open_log(j)
    return j


class Play:
    """A random game on `j` (opened) and a fresh clock: `step()` does one action at a later time,
    logs its events and tries a checkpoint, as App.step does. `wrote` says whether the last step
    wrote the checkpoint file (a cut right after the snapshot)."""

    def __init__(self, j, seed, tc=None):
        self.j = j
        self.r = r = Rand(seed)
        self.c = c = C.Clock()
        self.ms = 0
        self.wrote = False
        tc = tc if tc is not None else CONTROLS[r.below(len(CONTROLS))]
        left, _, right = tc.partition("|")
        settings = C.Settings(
            (None, True, False)[r.below(3)], ("moves", "flag")[r.below(2)], 1000 * (1 + r.below(30)),
            (0, 4000, 30000)[r.below(3)], (0, 5000, 20000)[r.below(3)],
        )
        c.new_game(left, right or None, r.below(2), settings)
        c.sink = self  # many instants in one call: the journal takes them as the queue fills (`_log`)
        j.begin_game(c, self.now())
        self.tc = tc

    def _log(self, now):  # the clock's sink, as the app's
        self.j.log_events(self.c, now)

    def now(self):
        return ticks_add(BASE, self.ms)

    def step(self):
        r = self.r
        c = self.c
        j = self.j
        k = r.below(100)
        self.ms += (50, 700, 2500, 9000, 40000)[r.below(5)] if k < 90 else r.below(200000)
        now = self.now()
        st = c.state
        if st == C.SETUP:
            if k < 10:
                try:
                    c.late_install(r.below(3000000), now)
                except ValueError:  # a count-up (Refused)
                    pass
            else:
                c.start(now)
        elif k < 55:
            c.press(c.running if c.running != C.NONE else r.below(2), now)
        elif k < 60:
            c.press(r.below(2), now)
        elif k < 66:
            c.pause(r.below(4), now)
        elif k < 74:
            c.resume(now)
            c.resume_adjourned(now)
        elif k < 78:
            c.extend(now)
        elif k < 82 and st != C.RUNNING and st != C.FINISHED:
            side = r.below(2)
            stage = 1 + r.below(c.max_stage(side)) if r.below(2) else None
            c.adjust(side, now, r.below(200000) if r.below(2) else None, r.below(30) if r.below(2) else None, stage)
        elif k < 84:
            c.adjourn(now)
        elif k < 86:
            j.time_sync(c, 1700000000000 + self.ms, now)  # a record the replay passes over
        elif k < 87 and st != C.FINISHED:
            c.result(r.below(5), now)
        else:
            c.advance(now)
        j.log_events(c, now)
        self.wrote = j.checkpoint(c, now)
        return c.state

    def play(self, steps):
        for _ in range(steps):
            if self.step() == C.FINISHED:
                return
