"""`sagat report --lang kk|ru|ky|en`: the round's page, each game's page, its flag-fall certificate and its
time-use plot's axes in the language chosen, with its dates (7 декабря 2026, 7 желтоқсан 2026, 7-декабрь
2026) and its decimal comma; round.csv stays the machine's (English). A game the simulator played in
virtual time, both flags fallen (tests/host/round/test_report_plot.py's way)."""

from __future__ import annotations

import json
import os
import re

import pytest
from matplotlib.figure import Figure

from sagat.cli import main
from sagat.log.flash import read_image
from sagat.round import pages
from sagat.round import words as round_words

# "10": ten seconds' sudden death; left flags thinking about its 2nd move, plays on at 0, then right flags
GAME = [{"at": 0, "do": "new", "tc": "10", "first": "left"}, {"at": 0, "do": "start"},
        {"at": 2500, "do": "press", "side": "left"}, {"at": 5000, "do": "press", "side": "right"},
        {"at": 30000, "do": "press", "side": "left"}, {"at": 60000, "do": "result", "result": "0-1"}]


@pytest.fixture(scope="module")
def logs_dir(tmp_path_factory):
    """The hall's folder of a round: board 1's clock pulled, with round.json's pairing."""
    root = tmp_path_factory.mktemp("langs")
    script = root / "game.jsonl"
    script.write_text("".join(json.dumps(x) + "\n" for x in GAME), encoding="utf-8")
    flash = root / "flash.img"
    assert main(["sim", "--script", str(script), "--virtual", "--flash", str(flash)]) == 0
    board = root / "logs" / "board-01-sim"
    board.mkdir(parents=True)
    (board / "records.bin").write_bytes(b"".join(data for _name, data in read_image(str(flash))))
    return root / "logs"


@pytest.fixture
def figures(monkeypatch):
    """Every figure timeuse.plot saves (to read its axes' labels)."""
    saved = []
    real = Figure.savefig

    def keep(self, *args, **kwargs):
        saved.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    return saved


def _report(logs_dir, out, lang):
    args = ["report", str(logs_dir), "--out", str(out), "--event", "Чемпионат", "--round", "3", "--date",
            "2026-12-07"]
    assert main(args + (["--lang", lang] if lang else [])) == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    (page_name,) = [n for n in os.listdir(out) if n.endswith(".html") and n != "index.html"]
    return index, (out / page_name).read_text(encoding="utf-8")


def _axes_text(fig) -> list[str]:
    out = []
    for ax in fig.axes:
        out += [ax.get_xlabel(), ax.get_ylabel(), ax.get_title()]
        legend = ax.get_legend()
        if legend is not None:
            out += [t.get_text() for t in legend.get_texts()]
        out += [t.get_text() for t in ax.texts]
    return out


def test_report_in_russian_has_russian_headings_dates_and_decimal_comma(logs_dir, tmp_path, figures):
    index, page = _report(logs_dir, tmp_path / "ru", "ru")
    assert '<html lang="ru">' in index and "<h1>Результаты</h1>" in index
    for heading in ("доска", "игроки (слева - справа)", "результат", "код результата", "журнал", "флажки", "партия"):
        assert f"<th>{heading}</th>" in index, heading
    assert "Чемпионат &middot; тур 3 &middot; 7 декабря 2026" in index
    assert "2026-12-07" not in index and "Results" not in index
    assert "правый (1-й), левый" in index or "левый (1-й), правый" in index  # who flagged, the first marked
    # the game's page: the flag-fall certificate in Russian, its clock times with a decimal comma
    assert '<html lang="ru">' in page and "Доска 1 (часы sim), партия 1" in page
    assert "<h2>Акт о падении флажка</h2>" in page and "<th>упал первым</th>" in page
    assert "<th>флажок 1</th>" in page and "<th>флажок 2</th>" in page
    assert "контроль времени 10" in page and "начинает: левый" in page
    assert "<h2>Расход времени</h2>" in page and "<h2>События</h2>" in page
    times = re.findall(r"t = ([0-9:.,]+)", page)
    assert times and all("," in t and "." not in t for t in times), times
    assert "7 декабря 2026" in page
    # the time-use plot: its axes, its legend and its flags' labels in Russian
    (fig,) = figures
    fig.canvas.draw()
    words = _axes_text(fig)
    assert "осталось после хода (мин)" in words and "затрачено на ход (с)" in words
    assert "ход (свой счёт каждой стороны)" in words and "флажок: время дошло до 0" in words
    assert {"левый", "правый"} <= set(words)
    assert any(w.strip().startswith("флажок: левый (1), t = 0:") and "," in w for w in words), words
    ticks = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels()]
    assert any("," in t for t in ticks) and not any("." in t for t in ticks), ticks
    # round.csv is for machines: English as before
    assert (tmp_path / "ru" / "round.csv").read_text(encoding="utf-8").startswith("board,left,right,result")


@pytest.mark.parametrize("lang, date, heading, certificate, flag", [
    ("kk", "7 желтоқсан 2026", "Нәтижелер", "Жалауша құлағаны туралы куәлік", "1-жалауша"),
    ("ky", "7-декабрь 2026", "Натыйжалар", "Желекче түшкөнү тууралуу күбөлүк", "1-желекче"),
    ("en", "2026-12-07", "Results", "Flag-fall certificate", "flag 1"),
])
def test_report_in_each_language(logs_dir, tmp_path, figures, lang, date, heading, certificate, flag):
    index, page = _report(logs_dir, tmp_path / lang, lang)
    assert f'<html lang="{lang}">' in index and f"<h1>{heading}</h1>" in index and date in index
    assert f"<h2>{certificate}</h2>" in page and f"<th>{flag}</th>" in page and date in page
    times = re.findall(r"t = ([0-9:.,]+)", page)
    assert times and all(("." in t) == (lang == "en") for t in times), times
    (fig,) = figures
    assert round_words.words(lang)("plot_used") in _axes_text(fig)


def test_report_language_from_the_environment(logs_dir, tmp_path, monkeypatch, figures):
    # no --lang: the environment's language (gettext's variables), as the rest of `sagat`
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    index, _page = _report(logs_dir, tmp_path / "env", None)
    assert "<h1>Результаты</h1>" in index and "7 декабря 2026" in index
    monkeypatch.setenv("LANG", "C.UTF-8")
    index, _page = _report(logs_dir, tmp_path / "c", None)
    assert "<h1>Results</h1>" in index and "2026-12-07" in index


def test_every_report_word_in_every_language():
    names = re.compile(r"\{([a-z_]+)\}")
    for key in round_words.REPORT:
        texts = [round_words.words(x)(key) for x in ("en", "kk", "ru", "ky")]
        assert all(t.strip() for t in texts), key
        assert texts[0] == round_words.REPORT[key], key  # (English: the msgid)
        assert key == "ev_t" or texts[0] not in texts[1:], (key, texts)  # (translated in each catalogue)
        assert len({frozenset(names.findall(t)) for t in texts}) == 1, (key, texts)  # the same {names}
    assert [round_words.date_text("2026-12-07", x) for x in ("kk", "ru", "ky", "en")] == [
        "7 желтоқсан 2026", "7 декабря 2026", "7-декабрь 2026", "2026-12-07"]
    assert round_words.number(2.5, "ru") == "2,5" and round_words.number(2.5, "en") == "2.5"
    assert pages.board_title("board-08-e6614103e7", "kk") == "8-тақта (e6614103e7 сағаты)"
