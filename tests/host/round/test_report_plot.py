"""`sagat report`'s time-use plot (timeuse.plot), read through matplotlib's own objects, not pixels: both
flags' labels never overlap and stay inside the axes; the flagged side's 0 is above the axis' lower
bound and marked; a game with no move says so in words (still a PNG, which the page links). Games the
simulator played in virtual time (tests/kits/played.py's way)."""

from __future__ import annotations

import json
import os

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from sagat.cli import main
from sagat.log import decode
from sagat.log.flash import read_image
from sagat.round import timeuse

PNG = b"\x89PNG\r\n\x1a\n"

# "10": ten seconds, sudden death without increment: the clock keeps running after the first flag
GAMES = {
    # left flags thinking about its 2nd move, plays it at 0, then right flags thinking about its 2nd
    "both": [{"at": 0, "do": "new", "tc": "10", "first": "left"}, {"at": 0, "do": "start"},
             {"at": 2500, "do": "press", "side": "left"}, {"at": 5000, "do": "press", "side": "right"},
             {"at": 30000, "do": "press", "side": "left"}, {"at": 60000, "do": "result", "result": "0-1"}],
    # right flags with 7 s on its last point: its line does not reach 0 by itself
    "right": [{"at": 0, "do": "new", "tc": "10", "first": "left"}, {"at": 0, "do": "start"},
              {"at": 2500, "do": "press", "side": "left"}, {"at": 5500, "do": "press", "side": "right"},
              {"at": 9500, "do": "press", "side": "left"}, {"at": 30000, "do": "result", "result": "1-0"}],
    # a forfeit: the result before the start (TK-R4)
    "forfeit": [{"at": 0, "do": "new", "tc": "10", "first": "left"}, {"at": 0, "do": "result", "result": "+/-"}],
    # left flags before its first move
    "nomove": [{"at": 0, "do": "new", "tc": "10", "first": "left"}, {"at": 0, "do": "start"},
               {"at": 20000, "do": "result", "result": "0-1"}],
}


def _play(folder, lines) -> bytes:
    script = os.path.join(folder, "game.jsonl")
    with open(script, "w", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(x) + "\n" for x in lines))
    flash = os.path.join(folder, "flash.img")
    assert main(["sim", "--script", script, "--virtual", "--flash", flash]) == 0
    return b"".join(data for _name, data in read_image(flash))


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Each game's records.bin as a pull saves it, in the hall's folders (board-0N-sim), and its events."""
    root = tmp_path_factory.mktemp("plots")
    out = {}
    for n, (name, lines) in enumerate(GAMES.items(), 1):
        work = root / f"sim-{name}"
        work.mkdir()
        data = _play(str(work), lines)
        board = root / "logs" / f"board-{n:02d}-sim"
        board.mkdir(parents=True)
        (board / "records.bin").write_bytes(data)
        log = decode.read_segments([("records.bin", data)], [], replay=True)
        (game,) = [g for g in log.games() if any(e["type"] in ("game_start", "result") for e in log.shown(game=g))]
        out[name] = (board.name, game, log.shown(game=game))
    return root, out


@pytest.fixture
def figure_of(monkeypatch, tmp_path):
    """timeuse.plot's figure as it was saved (the PNG is still written)."""
    saved = []
    real = Figure.savefig

    def keep(self, *args, **kwargs):
        saved.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)

    def draw(events, title="Board 1 (clock sim), game 1"):
        saved.clear()
        path = tmp_path / "plot.png"
        timeuse.plot(events, str(path), title)
        assert path.read_bytes().startswith(PNG)
        assert len(saved) == 1
        fig = saved[0]
        if not hasattr(fig.canvas, "get_renderer"):  # (pyplot's figure, closed after saving)
            FigureCanvasAgg(fig)
        fig.canvas.draw()
        return fig

    return draw


def _flag_labels(fig):
    return [t for ax in fig.axes for t in ax.texts if t.get_text().strip().startswith("flag")]


def _top(fig):
    return fig.axes[0]


def test_both_flags_labels_do_not_overlap_and_stay_inside(played, figure_of):
    _, games = played
    events = games["both"][2]
    assert [(e["side"], e["order"]) for e in events if e["type"] == "flag"] == [("left", 1), ("right", 2)]
    fig = figure_of(events)
    renderer = fig.canvas.get_renderer()
    labels = _flag_labels(fig)
    assert sorted(t.get_text().split("(")[0].strip() for t in labels) == ["flag left", "flag right"], labels
    boxes = [t.get_window_extent(renderer) for t in labels]
    assert not boxes[0].overlaps(boxes[1]), boxes
    top = _top(fig)
    frame = top.get_window_extent(renderer)
    for t, b in zip(labels, boxes, strict=True):
        assert t.axes is top
        assert frame.x0 <= b.x0 and b.x1 <= frame.x1 and frame.y0 <= b.y0 and b.y1 <= frame.y1, (t, b, frame)
    legend = top.get_legend()
    if legend is not None:
        lb = legend.get_window_extent(renderer)
        assert not any(b.overlaps(lb) for b in boxes), (boxes, lb)
    # each flag's line where it fell: both sides flagged thinking about their 2nd move (after move 1)
    flag_x = sorted(line.get_xdata()[0] for line in top.get_lines() if line.get_linestyle() == "--")
    assert flag_x == [1.5, 1.5], flag_x


@pytest.mark.parametrize("name, side", [("both", "left"), ("both", "right"), ("right", "right")])
def test_the_flagged_sides_zero_is_visible_and_marked(played, figure_of, name, side):
    _, games = played
    events = games[name][2]
    fig = figure_of(events)
    top = _top(fig)
    lo, hi = top.get_ylim()
    assert lo < 0 and -lo >= 0.02 * (hi - lo), (lo, hi)  # a margin below 0, not 0 on the frame
    flag = next(e for e in events if e["type"] == "flag" and e["side"] == side)
    x = flag[f"{side}_moves"] + 0.5
    marks = [line for line in top.get_lines()
             if line.get_marker() not in (None, "None", "", " ")
             and any(abs(px - x) < 1e-9 and py == 0 for px, py in zip(line.get_xdata(), line.get_ydata(), strict=True))]
    assert marks, [(line.get_label(), list(line.get_xdata()), list(line.get_ydata())) for line in top.get_lines()]
    # the mark is drawn inside the axes, above its lower frame
    renderer = fig.canvas.get_renderer()
    frame = top.get_window_extent(renderer)
    _px, py = top.transData.transform((x, 0))
    assert frame.y0 < py < frame.y1


@pytest.mark.parametrize("name, words", [("forfeit", ["no move", "+/-", "0:00.000"]),
                                         ("nomove", ["no move", "flag left", "0:10.000", "0-1"])])
def test_a_game_without_moves_says_so_in_words(played, figure_of, name, words):
    _, games = played
    events = games[name][2]
    assert timeuse.turns(events) == {"left": [], "right": []}
    fig = figure_of(events, "Board $2$ (clock sim), game 1")
    assert not [line for ax in fig.axes for line in ax.get_lines()]  # no data lines
    assert not [c for ax in fig.axes for c in ax.containers]  # no bars
    assert all(not ax.axison for ax in fig.axes)  # no empty frames with ticks
    texts = " | ".join(t.get_text() for t in fig.findobj(Text) if t.get_visible() and t.get_text())
    for w in words:
        assert w in texts, texts
    assert "Board $2$ (clock sim), game 1" in texts  # the title, as plain text (no mathtext)
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    for t in fig.findobj(Text):
        if t.get_visible() and t.get_text():
            b = t.get_window_extent(renderer)
            assert page.x0 <= b.x0 and b.x1 <= page.x1 and page.y0 <= b.y0 and b.y1 <= page.y1, (t, b)


def test_sagat_report_writes_a_png_for_each_game(played, tmp_path):
    root, games = played
    out = tmp_path / "report"
    assert main(["report", str(root / "logs"), "--out", str(out)]) == 0
    for label, game, _events in games.values():
        png = out / f"{label}-game-{game}.png"
        assert png.read_bytes().startswith(PNG), png
        page = (out / f"{label}-game-{game}.html").read_text(encoding="utf-8")
        assert f'src="{png.name}"' in page
