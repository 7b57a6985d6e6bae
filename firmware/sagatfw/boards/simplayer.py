# sagat: a random player for the simulator (`sagat sim --serial --play SEED`, `sagat hall --sim N
# --sim-play`): while a game runs, the side to move presses its lever after a think time drawn
# between lo_ms and hi_ms, as a player would after a move; the hall's clocks then move, use time,
# flag and carry a log with moves. Pseudo-random from the seed alone (xorshift32): the same seed
# plays the same think times on CPython and MicroPython. A match, a paused or flagged game, and a
# game in setup are left alone (the arbiter's and the referee's actions come from the link).
from sagatfw.core.ticks import ticks_add, ticks_diff
from sagatfw.engine import clock as C


class Player:
    def __init__(self, seed, lo_ms, hi_ms):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1
        self.lo = lo_ms
        self.span = hi_ms - lo_ms + 1
        self.side = -1  # the turn being thought on: its side and that side's moves
        self.moves = -1
        self.due = 0  # ticks of its press

    def _next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def step(self, app, board, now):
        """Before the app's step: press the running side's lever once its think time is up."""
        c = app.clock
        if app.match is not None or c is None or c.state != C.RUNNING:
            self.side = -1
            return
        s = c.running
        if s != self.side or c.moves[s] != self.moves:  # a new turn: think
            self.side = s
            self.moves = c.moves[s]
            self.due = ticks_add(now, self.lo + self._next() % self.span)
        elif ticks_diff(now, self.due) >= 0:
            board.press(s, now)
            self.due = ticks_add(now, 250)  # a press the clock did not take (lockout): again soon
