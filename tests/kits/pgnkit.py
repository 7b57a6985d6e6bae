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
