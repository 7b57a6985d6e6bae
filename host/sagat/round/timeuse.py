"""A game's time use (`sagat report`'s plot, beside each game's page): each side's moves with the time
each took and the time left after it (turns(), which the PGN's clock comments also count), and the
figure of both sides drawn with matplotlib (plot()). matplotlib is imported only to draw: without it the
report writes everything but the plots."""

from __future__ import annotations

from ..log.show import stamp_text
from .words import decimal_comma, words


def can_plot() -> bool:
    """Whether matplotlib is there to draw the plots (the report writes everything else without it)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def turns(events: list[dict]) -> dict[str, list[tuple[int, int, int]]]:
    """Each side's moves: (move number, ms used on the clock for it, ms left after it). The time
    used is the turn's game time less its pauses (TK-C15, TK-C18: a paused clock uses none)."""
    out: dict[str, list] = {"left": [], "right": []}
    start = None
    paused = 0
    stop_at = None
    for e in events:
        kind = e["type"]
        if kind == "game_start":
            start, paused, stop_at = e["t"], 0, None
        elif kind in ("pause", "adjourn") and start is not None:
            stop_at = e["t"]
        elif kind in ("resume", "resume_adjourned") and stop_at is not None:
            paused += e["t"] - stop_at
            stop_at = None
        elif kind == "press" and start is not None and e.get("side") in out:
            s = e["side"]
            out[s].append((len(out[s]) + 1, e["t"] - start - paused, e.get(f"{s}_ms") or 0))
            start, paused = e["t"], 0
    return out


FLAG_COLOUR = "#b3131b"
SIDE_COLOURS = {"left": "#1f6fb2", "right": "#c2541b"}


def _flag_marks(events: list[dict]) -> list[tuple[dict, float]]:
    """Each flag and where it fell on the plot's move axis: n + 0.5 when the side had made n moves (its
    time ran out while it thought about move n + 1), its moves counted as turns() counts them (the
    presses after the start), not its final count (a sudden-death side may play on at 0)."""
    count = {"left": 0, "right": 0}
    started = False
    out = []
    for e in events:
        kind = e["type"]
        if kind == "game_start":
            started = True
        elif kind == "press" and started and e.get("side") in count:
            count[e["side"]] += 1
        elif kind == "flag" and e.get("side") in count:
            out.append((e, count[e["side"]] + 0.5))
    return out


def side_name(side, lang: str) -> str:
    """left, right in lang (anything else as it is)."""
    return words(lang)(f"side_{side}") if side in ("left", "right") else str(side)


def stamp_text_in(ms: int, lang: str) -> str:
    """log.show.stamp_text (H:MM:SS.mmm, M:SS.mmm under an hour) with lang's decimal sign."""
    return decimal_comma(stamp_text(ms), lang)


def _no_move_figure(events: list[dict], title: str, lang: str = "en"):
    """A game without a completed move (a forfeit before the start, TK-R4, or a flag before the first
    press): what happened, in words, instead of two empty axes."""
    from matplotlib.figure import Figure

    w = words(lang)
    lines = [w("plot_no_move")]
    for e in events:
        if e["type"] == "flag":
            lines.append(w("plot_flag_fell", side=side_name(e.get("side"), lang), order=e.get("order"),
                           t=stamp_text_in(e["t"], lang)))
    results = [e for e in events if e["type"] == "result"]
    if results:
        r = results[-1]
        lines.append(w("plot_result_at", result=r.get("result") or r.get("winner"), t=stamp_text_in(r["t"], lang)))
    else:
        lines.append(w("plot_no_result"))
    fig = Figure(figsize=(9, 2.6))
    ax = fig.add_subplot()
    ax.set_axis_off()
    ax.set_title(title, parse_math=False)  # a folder's name: plain text, never mathtext
    ax.text(0.5, 0.45, "\n".join(lines), ha="center", va="center", transform=ax.transAxes, fontsize=12,
            linespacing=1.6, parse_math=False)
    return fig


def _figure(events: list[dict], title: str, lang: str = "en"):
    """The time-use figure of a game (a matplotlib Figure, not shown nor saved): time left after each
    move above, time used per move below, each flag a dashed line where it fell, labelled at its own
    height, and its point at 0 marked above the axis' lower bound."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    moves = turns(events)
    w = words(lang)
    if not moves["left"] and not moves["right"]:
        return _no_move_figure(events, title, lang)
    fig = Figure(figsize=(9, 6))
    top, bottom = fig.subplots(2, 1, sharex=True)
    peak = 0.0
    for side in ("left", "right"):
        m = moves[side]
        xs = [n for n, _u, _r in m]
        left_min = [r / 60000 for _n, _u, r in m]
        peak = max([peak, *left_min])
        top.plot(xs, left_min, marker="o", ms=3, label=side_name(side, lang), color=SIDE_COLOURS[side])
        off = -0.2 if side == "left" else 0.2
        bottom.bar([x + off for x in xs], [u / 1000 for _n, u, _r in m], width=0.4, label=side_name(side, lang),
                   color=SIDE_COLOURS[side])
    flags = _flag_marks(events)
    for i, (e, x) in enumerate(flags):
        side = e["side"]
        top.axvline(x, color=FLAG_COLOUR, ls="--", lw=1)
        n = int(x)  # the side's moves before its flag
        if n:  # its line goes on to 0 where the flag fell
            top.plot([n, x], [moves[side][n - 1][2] / 60000, 0], ls=":", color=SIDE_COLOURS[side])
        top.plot([x], [0], ls="none", marker="X", ms=9, color=FLAG_COLOUR, markeredgecolor=SIDE_COLOURS[side],
                 zorder=5, label=w("plot_flag") if i == 0 else None)
    top.set_ylabel(w("plot_left"))
    bottom.set_ylabel(w("plot_used"))
    bottom.set_xlabel(w("plot_move"))
    if lang != "en":  # the axes' numbers with lang's decimal comma (2,5 min)
        from matplotlib.ticker import FuncFormatter

        for ax in (top, bottom):
            ax.yaxis.set_major_formatter(FuncFormatter(
                lambda v, _pos: decimal_comma(f"{v:.6g}", lang).replace("-", "\u2212")))
    bottom.xaxis.set_major_locator(MaxNLocator(integer=True))  # moves: whole numbers (shared with the top)
    top.set_title(title, parse_math=False)  # a folder's name: plain text, never mathtext (a `$` in it)
    top.grid(alpha=0.3)
    bottom.grid(alpha=0.3)
    if flags:
        # 0 above the lower bound (a flag's point is not on the frame), and a row at the top for each
        # flag's label, so that no label sits on another nor on the lines
        peak = peak or 1 / 60
        rows = 0.1 * len(flags)
        lo = -0.07 * peak
        top.set_ylim(lo, lo + (peak - lo) / (1 - rows - 0.05))
        x0, x1 = top.get_xlim()
        for i, (e, x) in enumerate(flags):
            right = x > (x0 + x1) / 2  # the label on the side of its line that has room
            label = w("plot_flag_text", side=side_name(e["side"], lang), order=e.get("order"),
                      t=stamp_text_in(e["t"], lang))
            top.text(x, 0.97 - 0.1 * i, f"{' ' if not right else ''}{label}{' ' if right else ''}",
                     transform=top.get_xaxis_transform(),
                     ha="right" if right else "left", va="top", color=FLAG_COLOUR, clip_on=True, parse_math=False)
    top.legend(loc="best")
    fig.tight_layout()
    return fig


def plot(events: list[dict], path: str, title: str, lang: str = "en") -> None:
    """The game's time-use figure (_figure) saved as PNG at path (the game's page links it)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = _figure(events, title, lang)
    FigureCanvasAgg(fig)
    fig.savefig(path, dpi=100)

