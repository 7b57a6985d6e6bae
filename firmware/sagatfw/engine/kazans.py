# sagat: the sense of a game's result with its final kazan counts (TK-R1, TK-R5, TK-R7, TK-C12), checked before
# the result is entered. Pure module, beside rules.py (which keeps the counts in the result's event): loaded by
# ui/actions.py for a new result and forgotten after it, so it costs no RAM while the clock runs; a replay of the
# log never loads it (it takes the result the log holds).
#
# What a result may say with its counts (docs/rules.md, "What the clock does with the kazans"):
#   - each count 0..162, both together at most 162 (TK-R1: 162 kumalaks in all): 162 once the board is played
#     out, less while kumalaks are still in the pits (a resignation, a flag);
#   - only with a game played (1-0, 0-1, 1/2-1/2), never with a forfeit (TK-R4);
#   - a side with more than 81 has won (TK-R1; TK-R7 whatever its flag); 81-81 is a draw (TK-R5);
#   - with a flag down (the first, TK-C12): the opponent's win needs no counts; a draw or the flagged side's win
#     does (TK-R7: the log says why), and the flagged side must have 82 or more (its win) or exactly 81 (neither
#     TK-R7 nor TK-C12 decides: the arbiter's call, any result); under 81 it lost (TK-C12).

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


_LEFT = const(0)  # clock.py's words, as private consts
_RIGHT = const(1)
_NONE = const(-1)
_RES_DRAW = const(2)  # 1-0, 0-1, 1/2-1/2 are the results 0..2: the games played (the others forfeits, TK-R4)
_KUMALAKS = const(162)  # TK-R1
_HALF = const(81)  # more than this wins (TK-R1), 81-81 draws (TK-R5)



def check(c, code, lk, rk):
    """The result `code` (an index of clock.RESULT_NAMES) with the final kazan counts `lk`-`rk` (left's,
    right's; both -1: not given) on clock `c` (its first flag), checked as the header says. ValueError(the
    reason (the rule), its reason code[, its parts by name]) (docs/protocol.md, "Reason codes": the code a
    short string, frozen in flash, read by the link layer only when it answers); None if it makes sense."""
    given = lk != -1 or rk != -1
    if given:
        if not (isinstance(lk, int) and isinstance(rk, int) and 0 <= lk <= _KUMALAKS and 0 <= rk <= _KUMALAKS):
            raise ValueError("kazans must be two counts 0..162 (left's, right's)", "kazans_range")
        if lk + rk > _KUMALAKS:
            raise ValueError("kazans %d-%d: more than the board's 162 kumalaks (TK-R1)" % (lk, rk), "kazans_over_162",
                             {"left": lk, "right": rk})
        if code > _RES_DRAW:
            raise ValueError("kazans go with a game played (1-0, 0-1, 1/2-1/2), not a forfeit (TK-R4)",
                             "kazans_forfeit")
        for s in (_LEFT, _RIGHT):
            if (rk if s else lk) > _HALF and code != s:
                name = "right" if s else "left"
                raise ValueError("kazans %d-%d: %s has more than 81, %s wins (TK-R1, TK-R7)" % (lk, rk, name, name),
                                 "kazans_over_half", {"left": lk, "right": rk, "side": name})
        if lk == _HALF and rk == _HALF and code != _RES_DRAW:
            raise ValueError("kazans 81-81: a draw (TK-R5)", "kazans_draw")
    f = c.first_flag()
    if f != _NONE and code <= _RES_DRAW and code != 1 - f:  # a result that departs from the flag
        name = "right" if f else "left"
        if not given:
            raise ValueError("%s's flag is down: a draw or %s's win needs the kazans (TK-R7, TK-C12)" % (name, name),
                             "flag_needs_kazans", {"side": name})
        k = rk if f else lk
        if k < _HALF:
            raise ValueError("%s's flag is down with %d kumalaks: %s lost (TK-C12)" % (name, k, name), "flag_lost",
                             {"side": name, "kazan": k})
