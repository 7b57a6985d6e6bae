"""The simulator's random player (boards/simplayer.py): while a game runs, the side to move presses its
lever after a think time within the range; the same seed plays the same times on either runtime; a
game in setup, paused or flagged, and a match, are left alone. On the engine's clock (the app stands in)."""

from sagatfw.boards.simplayer import Player
from sagatfw.engine import clock as C


class _Board:
    def __init__(self):
        self.presses = []

    def press(self, side, now):
        self.presses.append((side, now))


class _App:
    def __init__(self, clock):
        self.clock = clock
        self.match = None


def _run(player, app, board, start, until, step=5):
    """Step the player and the clock in 5 ms passes from `start`; a press goes to the clock at its instant."""
    t = start
    while t <= until:
        n = len(board.presses)
        player.step(app, board, t)
        if len(board.presses) > n:
            side, at = board.presses[-1]
            app.clock.press(side, at)
        app.clock.advance(t)
        app.clock.clear_events()  # (the app's journal takes them)
        t += step


def test_the_side_to_move_presses_after_a_think_time_in_the_range():
    c = C.Clock()
    c.new_game("300")
    app, board = _App(c), _Board()
    p = Player(7, 300, 900)
    _run(p, app, board, 0, 1000)
    assert board.presses == []  # in setup: nobody moves
    c.start(1000)
    _run(p, app, board, 1000, 20000)
    assert len(board.presses) >= 20
    last = 1000
    for i, (side, at) in enumerate(board.presses):
        assert side == (C.LEFT if i % 2 == 0 else C.RIGHT)  # the side to move, in turn
        assert 300 <= at - last <= 905, (i, at - last)  # its think time (a 5 ms pass at most late)
        last = at
    assert c.moves[C.LEFT] + c.moves[C.RIGHT] == len(board.presses)


def test_the_same_seed_thinks_the_same_and_another_seed_does_not():
    def times(seed):
        c = C.Clock()
        c.new_game("300")
        c.start(0)
        app, board = _App(c), _Board()
        _run(Player(seed, 100, 2000), app, board, 0, 30000)
        return [at for _s, at in board.presses]

    assert times(3) == times(3)
    assert times(3) != times(4)


def test_a_paused_game_and_a_match_are_left_alone():
    c = C.Clock()
    c.new_game("300")
    c.start(0)
    c.pause(C.BY_ARBITER, 10)
    app, board = _App(c), _Board()
    p = Player(1, 100, 200)
    _run(p, app, board, 10, 5000)
    assert board.presses == []
    c.resume(5000)
    app.match = object()  # a match is the referee's: no lever presses
    _run(p, app, board, 5000, 9000)
    assert board.presses == []
