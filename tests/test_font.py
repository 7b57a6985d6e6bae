"""The faces' font module (firmware/sagatfw/faces/glyphs.py) is what tools/font.py makes from the
Terminus Font's bitmaps in Debian's xfonts-terminus (.ci/run installs the package)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import font  # noqa: E402


def test_the_committed_glyphs_are_what_the_font_makes():
    if not font.PCF.exists():
        pytest.fail(f"{font.PCF} is missing: apt-get install xfonts-terminus (.ci/run does)")
    run = subprocess.run([sys.executable, str(ROOT / "tools/font.py"), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_glyph_read_from_the_pcf_is_its_bitmap():
    glyphs = font.read_pcf(__import__("gzip").decompress(font.PCF.read_bytes()))
    rows, width = glyphs[ord("H")]
    assert width == 6 and len(rows) == 12
    # H: two uprights on the cell's columns 0 and 4, the bar across, nothing above the capitals' height
    assert rows[0] == rows[1] == 0 and rows[10] == rows[11] == 0
    assert rows[2:10] == [0b100010] * 3 + [0b111110] + [0b100010] * 4
    qa, _ = glyphs[ord("Қ")]
    ka, _ = glyphs[ord("К")]
    assert qa[:9] == ka[:9] and ka[10:] == [0, 0] and qa[10:] == [1, 1]  # Қ is К with a descender on the right


def test_not_a_pcf_is_a_clear_error():
    with pytest.raises(font.PCF_Error, match="not a PCF font"):
        font.read_pcf(b"<html>not a font</html>")


def test_the_glyphs_chosen_include_every_character_of_the_faces_words():
    chars = font.table_chars()  # read from faces/words.py and each language's table
    assert {"Қ", "Ә", "Ң", "Ү", "Ж", "Ы", "?"} <= chars, chars
    wanted, extra = font.wanted()
    assert chars <= set(wanted) | {"\n"}  # each one has its glyph in the module
