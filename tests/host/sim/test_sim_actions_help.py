"""`sagat sim --help`'s script actions (host/sagat/sim/script.py actions_help): each field described by what
it takes, from the firmware's one table of actions (its kind: sagatfw/ui/actions.py)."""

from __future__ import annotations

from sagat.sim.script import ACTIONS, actions_help
from sagatfw.log import names as N


def test_new_names_is_described_as_the_two_sides_names_the_clock_cuts():
    required, spec, meaning = ACTIONS["new"]["names"]
    assert not required and spec[1] == "names"
    assert meaning == ('a match\'s two sides\' names, ["left\'s", "right\'s"] (a list of two texts; the clock keeps '
                       f'{N.NAMES_SIZE - 1} bytes of UTF-8 for the two, a longer name cut)')
    assert "names?: " + meaning in actions_help()


def test_only_a_settings_field_is_described_as_an_object_of_settings():
    said = {(what, field): spec[1] for what, fields in ACTIONS.items()
            for field, (_r, spec, meaning) in fields.items() if spec is not None and "object of settings" in meaning}
    assert all(kind == "values" for kind in said.values()), said
