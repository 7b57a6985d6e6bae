"""A game's result record against what the clock itself enters: the firmware's own rules for a result
and its final kazan counts (`engine/kazans.py`: TK-R1, TK-R4, TK-R5, TK-R7, TK-C12), applied by the
replay of `sagat logs verify` to every result record, with the clock the engine has replayed up to it
(its first flag down). The clock refuses such a result before it is logged (`ui/actions.py` checks
it with `kazans.check`), so a result record that fails the check was not written by the clock: a
forgery (an unkeyed log can be resealed by anybody) or a damaged record whose CRC was made to fit.

The rules are the firmware's: this module only names what `kazans.check` refuses, in the user's
language (`Line`: English as a str, for the hall and `--json`; `.text()` for the `sagat` command)."""

from __future__ import annotations

import re

from sagatfw.engine import clock as C
from sagatfw.engine import kazans

from ..client import Msg
from ..i18n import N_, Nn_


class Line(str):
    """A problem line: the str is its English (the hall reads it, `--json` carries it); text() says it
    in the user's language."""

    msg: Msg

    def __new__(cls, msg: Msg) -> Line:
        line = super().__new__(cls, str(msg))
        line.msg = msg
        return line

    def text(self) -> str:
        return self.msg.text()


def said(line: str) -> str:
    """A problem line in the user's language (a Line), or as it is (the firmware's English)."""
    return line.text() if isinstance(line, Line) else line


class _NoFlag:
    """A clock of which nothing is known: no flag down (a result the replay did not reach: its game's
    setup is not in the log, or the replay stopped before it). Only what a result says by itself is
    checked then."""

    def first_flag(self) -> int:
        return C.NONE


_SIDE = {"left": N_("left"), "right": N_("right")}
# what kazans.check says (its ValueError), as a person reads it: (its pattern, the words; {side} and
# {n} from the pattern's groups). The rule is kazans.check's; these are only its words.
_WHY = (
    (r"kazans must be two counts 0\.\.162", N_("each count is 0 to 162 (TK-R1: 162 kumalaks in all)")),
    (r"kazans \d+-\d+: more than the board's 162", N_("together more than the board's 162 kumalaks (TK-R1)")),
    (r"kazans go with a game played", N_("kazans go with a game played (1-0, 0-1, 1/2-1/2), not a forfeit (TK-R4)")),
    (r"kazans \d+-\d+: (?P<side>left|right) has more than 81", N_("{side} has more than 81, so {side} won "
                                                                   "(TK-R1, TK-R7)")),
    (r"kazans 81-81: a draw", N_("81-81 is a draw (TK-R5)")),
    (r"(?P<side>left|right)'s flag is down: a draw or", N_("{side}'s flag was down: a draw or {side}'s win is "
                                                           "entered with the kazans (TK-R7, TK-C12)")),
    (r"(?P<side>left|right)'s flag is down with (?P<n>\d+) kumalaks",
     Nn_("{side}'s flag was down with {n} kumalak: {side} lost (TK-C12)",
         "{side}'s flag was down with {n} kumalaks: {side} lost (TK-C12)")),
)


def why(reason: str) -> Msg | str:
    """kazans.check's reason as a Msg in the user's words; the reason itself if it is none of those."""
    for pattern, words in _WHY:
        m = re.match(pattern, reason)
        if m:
            fields = m.groupdict()
            if "side" in fields:
                fields["side"] = Msg(_SIDE[fields["side"]])
            return Msg(words, **fields)  # (a counted one's n: the pattern's count)
    return reason


def problem(game: int, ev: dict, clock=None) -> Line | None:
    """The problem of a game's result record `ev` (decoded by the firmware: result, kazans) on `clock`
    (the engine's, replayed up to just before it; None: not known), or None if the clock could have
    entered it. A result this sagat does not know is the replay's to report."""
    result = ev.get("result")
    if result not in C.RESULT_NAMES:
        return None
    k = ev.get("kazans")
    lk, rk = (k[0], k[1]) if k else (-1, -1)
    try:
        kazans.check(clock if clock is not None else _NoFlag(), C.RESULT_NAMES.index(result), lk, rk)
    except ValueError as e:
        fields = dict(game=game, seq=ev.get("seq"), result=result, why=why(str(e)))
        if k:
            return Line(Msg(N_("game {game}: seq {seq}: the result {result} with kazans {left}-{right} is not one "
                               "the clock enters: {why}"), left=lk, right=rk, **fields))
        return Line(Msg(N_("game {game}: seq {seq}: the result {result} without kazans is not one the clock "
                           "enters: {why}"), **fields))
    return None
