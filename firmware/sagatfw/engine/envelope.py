# sagat: TK-A3's envelope: the time each side has used, as the arbiter writes it at an adjournment,
# and TK-A4's resumption from it. Loaded only for that (the faces and `state` while a game is
# adjourned, resume_adjourned with the envelope's times): its functions would cost RAM in rules.py,
# which every game keeps loaded. docs/clock.md, "Adjournment".

from sagatfw.core import timecontrol as tcm

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


_MAX_MS = const(360000000)  # rules.MAX_MS (not imported: rules imports this module, for resume_adjourned)


def control_ms(c, s):
    """TK-A3: the time side s's control has given it so far: the times of its stages up to the one it is in (in
    byo-yomi: its main stages and one period) and a Fischer increment for each move made in a stage that has one,
    the stages bounded by their move counts. -1 for a count-up or an hourglass (no control to count from)."""
    tc = c.tc[s]
    if tc is None or tc.kind != tcm.STAGES:
        return -1
    byo = tc.byo != tcm.BYO_NONE and c.stage[s] > len(tc.stages)  # (rules.in_byo)
    top = len(tc.stages) if byo else c.stage[s]
    given = tc.byo_ms if byo else 0
    made = c.moves[s]
    for n in range(1, top + 1):
        st = tc.stage(n)
        given += st.time_ms
        if st.mode == tcm.FISCHER:
            last = made if n == top else tc.moves_before(n + 1)
            last = (made if made < last else last) - tc.moves_before(n)
            if last > 0:
                given += st.bonus_ms * last
    return given


def used_ms(c, s):
    """TK-A3: the time side s has used, as the envelope records it: its control's time for its stage and moves
    (control_ms) less its face, so that used + face is what the control gives; 0 where the face holds more (an
    extension, TK-C14, or a correction gave it more). A count-up's face itself; -1 for an hourglass."""
    ms = c.ms(s)
    g = control_ms(c, s)
    if g < 0:
        return ms if c.counts_up(s) else -1
    return g - ms if g > ms else 0


def faces(c, lms=None, rms=None, lu=None, ru=None):
    """The faces resume_adjourned puts back: each side's time remaining (`lms`, `rms`) or used (`lu`, `ru`:
    the face is control_ms less it; a count-up's face is its time used), None where none is given.
    ValueError for a side given both, a time out of range, a time used for an hourglass, or more used than
    its control gives."""
    out = [lms, rms]
    for s in (0, 1):
        u = ru if s else lu
        name = "right" if s else "left"
        if u is not None:
            if out[s] is not None:
                raise ValueError("%s: its time remaining or its time used, not both" % name)
            if not isinstance(u, int) or u < 0 or u > _MAX_MS:
                raise ValueError("%s_used_ms must be 0..%d" % (name, _MAX_MS))
            g = u if c.counts_up(s) else control_ms(c, s)
            if g < 0:
                raise ValueError("an hourglass keeps no time used: give %s_ms" % name)
            if u > g:
                raise ValueError("%s_used_ms %d: more than %s's control gives for its moves (%d)" % (name, u, name, g))
            out[s] = g if c.counts_up(s) else g - u
        if out[s] is not None and (not isinstance(out[s], int) or out[s] < 0 or out[s] > _MAX_MS):
            raise ValueError("%s_ms must be 0..%d" % (name, _MAX_MS))
    return out
