"""python-chess's PGN reader as the tests use it on the PGN `sagat report` writes: a visitor that keeps
the tags, the comments, the moves it made and the result (what it makes of a movetext with no chess
moves: a toguz kumalak game's), and each comment's clock read by python-chess's own GameNode.clock()
and emt()."""

from __future__ import annotations

import io
import logging

import chess.pgn


class Collect(chess.pgn.BaseVisitor):
    """python-chess's PGN reader with a visitor that keeps the tags, the comments, the moves it made
    and the result (what it makes of a movetext with no chess moves: a toguz kumalak game's)."""

    def begin_game(self):
        self.tags, self.comments, self.moves, self.results, self.errors = {}, [], [], [], []

    def visit_header(self, name, value):
        self.tags[name] = value

    def visit_comment(self, comment):
        self.comments.append(comment)

    def visit_move(self, board, move):
        self.moves.append(move)

    def visit_result(self, result):
        self.results.append(result)

    def handle_error(self, error):
        self.errors.append(str(error))

    def result(self):
        return self


def read(text):
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # an unknown Variant: an error we check
    got = chess.pgn.read_game(io.StringIO(text), Visitor=Collect)
    assert got is not None
    assert chess.pgn.read_game(io.StringIO(text)) is not None  # python-chess's own game model reads it too
    return got


def clocks(comment):
    """(%clk, %emt) of a comment in ms, parsed by python-chess's own GameNode.clock() and emt()."""
    node = chess.pgn.Game()
    node.comment = comment
    return round(node.clock() * 1000), round(node.emt() * 1000)


def sim_games(folder, script):
    """The games the simulator plays from `script` (its lines) in virtual time, as the report reads their
    log: [events of each game that started or has a result], and the log's records (records.bin's bytes)."""
    import json
    import os

    from sagat.cli import main
    from sagat.log import decode
    from sagat.log.flash import read_image

    path = os.path.join(str(folder), "game.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(x) + "\n" for x in script))
    flash = os.path.join(str(folder), "flash.img")
    assert main(["sim", "--script", path, "--virtual", "--flash", flash]) == 0
    data = b"".join(d for _n, d in read_image(flash))
    log = decode.read_segments([("records.bin", data)], [], replay=True)
    assert not log.replay_problems, log.replay_problems
    games = [log.shown(game=g) for g in log.games()]
    return [g for g in games if any(e["type"] in ("game_start", "result") for e in g)], data
