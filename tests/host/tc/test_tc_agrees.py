"""`sagat tc` rejects exactly what the clock rejects. The host and the firmware
share one parser (tcparse.parse_sides); here each string is also tried the long way - every side
parsed alone and handed to the clock engine's new_game - and the two must agree."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sagat.cli import main
from sagatfw.core import tcparse
from sagatfw.engine import clock as C


def clock_plays(text: str) -> bool:
    """Whether the clock engine can set up a game from `text`, without parse_sides."""
    parts = text.split("|")
    if len(parts) > 2:
        return False
    try:
        sides = [tcparse.parse(p) for p in parts]
        C.Clock().new_game(sides[0], sides[-1])
    except ValueError:
        return False
    return True


def cli_accepts(text: str, capsys: pytest.CaptureFixture[str]) -> bool:
    code = main(["tc", "--", text])
    out, err = capsys.readouterr()
    assert code in (0, 2) and "Traceback" not in err
    return code == 0


@pytest.mark.parametrize(
    "text,plays",
    [
        ("300+2|180+2", True),
        ("*60|*120", True),
        ("-|600j30x5", True),
        ("*60|300", False),  # the clock refuses hourglass on one side only
        ("300|*60", False),
        ("300|", False),  # no right side (the app once read it as "300" on both)
        ("|300", False),
        ("300||300", False),
    ],
)
def test_sagat_tc_and_the_clock_agree(text: str, plays: bool, capsys: pytest.CaptureFixture[str]) -> None:
    assert clock_plays(text) is plays
    assert cli_accepts(text, capsys) is plays, text


@given(st.text(alphabet="0123456789+db/:*-jcx| ", max_size=24))
@example("*60|300")
@example("300|")
@example("-|*60")
def test_sagat_tc_and_the_clock_agree_on_any_string(text: str) -> None:
    try:
        tcparse.parse_sides(text)
        host = True
    except ValueError:
        host = False
    assert host == clock_plays(text), text
