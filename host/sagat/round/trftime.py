"""The time control in FIDE's TRF-2026 (docs/trf.md): tag 222's encoded time control (tc_field) and
tag 122's words (tc_words) of sagat's TimeControl strings."""

from __future__ import annotations

from sagatfw.core import presets, tcparse
from sagatfw.core import timecontrol as TC


def _secs(ms: int) -> int:
    return ms // 1000


def _side_code(tc: TC.TimeControl) -> tuple[str | None, str]:
    """One side's control in tag 222's period descriptors: M/S, M/S+I, S, S+I joined by ':'."""
    if tc.kind == TC.COUNTUP:
        return None, "no time limit (count-up) has no TRF-2026 form"
    if tc.kind == TC.HOURGLASS:
        return None, "hourglass (the time one side uses goes to the other) has no TRF-2026 form"
    if tc.byo != TC.BYO_NONE:
        kind = "Japanese" if tc.byo == TC.BYO_JAPANESE else "Canadian"
        return None, f"{kind} byo-yomi has no TRF-2026 form (tag 222 knows moves, seconds and increments)"
    parts = []
    for s in tc.stages:
        if s.mode in (TC.DELAY, TC.BRONSTEIN):
            kind = "a simple (US) delay" if s.mode == TC.DELAY else "a Bronstein delay"
            return None, (f"{kind} of {_secs(s.bonus_ms)} s has no TRF-2026 form "
                          f"(tag 222 knows only increments, +I)")
        d = (f"{s.moves}/" if s.moves else "") + str(_secs(s.time_ms))
        parts.append(d + (f"+{_secs(s.bonus_ms)}" if s.mode == TC.FISCHER else ""))
    note = ""
    if tc.repeats():
        last = tc.stages[-1]
        note = (f"sagat repeats the last period ({last.moves} moves in {_secs(last.time_ms)} s) to the end "
                f"of the game; TRF-2026 does not say a period repeats")
    return ":".join(parts), note


def tc_field(tc: str, white: str | None = None) -> tuple[str | None, str]:
    """sagat's TimeControl string (or a preset's name) -> (TRF-2026 tag 222's encoded time control, note).

    The note is '' when the code says exactly what the clock plays, else what it loses or why there is
    no code (None). A handicap ("LEFT|RIGHT", per face) becomes 222's per-colour form W..-B.. only when
    `white` says which face White (the first player) sits at ("left" or "right")."""
    if not isinstance(tc, str):
        return None, f"bad TimeControl {tc!r}: not a string"
    text = presets.preset(tc.strip()) or tc
    try:
        left, right = tcparse.parse_sides(text)
    except ValueError as e:
        return None, str(e)
    if str(left) == str(right):
        return _side_code(left)
    if white not in ("left", "right"):
        return None, ("a handicap (LEFT|RIGHT) is per face; TRF-2026 writes one per colour (W..-B..), "
                      "which needs White at the same face on every board")
    w, b = (left, right) if white == "left" else (right, left)
    (wc, wn), (bc, bn) = _side_code(w), _side_code(b)
    if wc is None or bc is None:
        return None, ("White: " + wn) if wc is None else ("Black: " + bn)
    note = "; ".join(n for n in (wn and "White: " + wn, bn and "Black: " + bn) if n)
    return f"W{wc}-B{bc}", note


def _dur(secs: int) -> str:
    h, m, s = secs // 3600, secs % 3600 // 60, secs % 60
    if h and not m and not s:
        return f"{h} h"
    if secs >= 60 and not s:
        return f"{secs // 60} min"
    return f"{secs // 60} min {s} s" if secs >= 60 else f"{s} s"


def _words(tc: TC.TimeControl) -> str:
    """One side's control in words, for tag 122 (its allotted times, free text)."""
    if tc.kind == TC.COUNTUP:
        return "no time limit"
    if tc.kind == TC.HOURGLASS:
        return f"hourglass, {_dur(_secs(tc.stages[0].time_ms))}"
    out = []
    for i, s in enumerate(tc.stages):
        t = (f"{s.moves} moves in " if s.moves else "") + _dur(_secs(s.time_ms))
        b = _secs(s.bonus_ms)
        t += {TC.FISCHER: f" + {b} s a move", TC.DELAY: f", {b} s delay", TC.BRONSTEIN: f", {b} s Bronstein delay"
              }.get(s.mode, "")
        if i == len(tc.stages) - 1 and s.moves and len(tc.stages) > 1:
            t += ", repeated"
        out.append(t)
    if tc.byo == TC.BYO_JAPANESE:
        out.append(f"{tc.byo_count} x {_secs(tc.byo_ms)} s byo-yomi")
    elif tc.byo == TC.BYO_CANADIAN:
        out.append(f"{tc.byo_count} moves in {_dur(_secs(tc.byo_ms))} (byo-yomi), repeated")
    return ", then ".join(out)


def tc_words(tc: str, white: str | None = None) -> str | None:
    """Tag 122's text: the control in words (a handicap per colour when `white` is known, else per face)."""
    if not isinstance(tc, str):
        return None
    text = presets.preset(tc.strip()) or tc
    try:
        left, right = tcparse.parse_sides(text)
    except ValueError:
        return None
    if str(left) == str(right):
        return _words(left)
    if white in ("left", "right"):
        w, b = (left, right) if white == "left" else (right, left)
        return f"White: {_words(w)}; Black: {_words(b)}"
    return f"left: {_words(left)}; right: {_words(right)}"
