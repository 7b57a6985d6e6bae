"""A game's result record against what the clock itself enters: the firmware's own rules for a result
and its final kazan counts (`engine/kazans.py`: TK-R1, TK-R4, TK-R5, TK-R7, TK-C12), applied by the
replay of `sagat logs verify` to every result record, with the clock the engine has replayed up to it
(its first flag down). The clock refuses such a result before it is logged (`ui/actions.py` checks
it with `kazans.check`), so a result record that fails the check was not written by the clock: a
forgery (an unkeyed log can be resealed by anybody) or a damaged record whose CRC was made to fit.

The rules are the firmware's: this module only names what `kazans.check` refuses, by the reason code the
check raises with it (the one the clock sends when it refuses such a result), in the words of
sagat/reasons.py, in the user's language (`Line`: English as a str, for the hall and `--json`; `.text()`
for the `sagat` command)."""

from __future__ import annotations

from sagatfw.engine import clock as C
from sagatfw.engine import kazans

from .. import reasons
from ..client import Msg
from ..i18n import N_


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


def why(e: ValueError) -> Msg | str:
    """kazans.check's refusal `e` said by its reason code (its args: the English text, the code, its parts),
    the code the clock sends for it (docs/protocol.md, "Reason codes"), in the words sagat/reasons.py has
    for it; the clock's own English text when this sagat has no words for that code."""
    a = e.args
    said = reasons.sentence(a[1] if len(a) > 1 else None, a[2] if len(a) > 2 else None)
    if said is None:
        return str(a[0]) if a else str(e)
    msgid, fields = said
    return Msg(msgid, **{k: Msg(v) if k in reasons.WORD_PARTS else v for k, v in fields.items()})


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
        fields = dict(game=game, seq=ev.get("seq"), result=result, why=why(e))
        if k:
            return Line(Msg(N_("game {game}: seq {seq}: the result {result} with kazans {left}-{right} is not one "
                               "the clock enters: {why}"), left=lk, right=rk, **fields))
        return Line(Msg(N_("game {game}: seq {seq}: the result {result} without kazans is not one the clock "
                           "enters: {why}"), **fields))
    return None
