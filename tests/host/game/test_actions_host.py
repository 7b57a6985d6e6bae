"""The host's script checker (`sagat sim --script`) and the clock check an
action's arguments with the same code, the firmware's table (sagatfw/ui/actions.py): whatever the
table refuses, the checker refuses before anything runs, with the table's own words."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sagat.sim.script import SimError, parse_script
from sagatfw.ui import actions as ACT

NAMES = sorted(n for n in ACT.ACTIONS if n != "settings.set")  # a script's settings are its own fields
VALUES = st.one_of(
    st.sampled_from(["left", "right", "none", "arbiter", "red", "warning", "", "300", "1-0", "kokboru", "x"]),
    st.integers(min_value=-2, max_value=10**10), st.booleans(), st.none(),
    st.just({"left": "300", "right": "60"}), st.just({"left": "300"}), st.just([1]),
)


@st.composite
def lines(draw):
    name = draw(st.sampled_from(NAMES))
    keys = [s[0] for s in ACT.ACTIONS[name][3]] + ["colour"]
    req = draw(st.dictionaries(st.sampled_from(keys), VALUES, max_size=4))
    return name, req


@settings(max_examples=400, deadline=None)
@given(lines())
def test_what_the_table_refuses_the_script_checker_refuses_in_its_words(line):
    name, req = line
    try:
        ACT.args(name, req)
    except ValueError as e:
        first = ({"at": 0, "do": "new", "mode": "kokboru"} if ACT.ACTIONS[name][1] == "match"
                 else {"at": 0, "do": "new", "tc": "300"})
        text = json.dumps(first) + "\n" + json.dumps(dict(req, at=1, do=name))
        if name == "new":
            text = json.dumps(dict(req, at=0, do=name))
        try:
            parse_script(text, "s.jsonl")
        except SimError as err:
            assert f"{name}: {e}" in str(err), (str(err), str(e))
        else:
            raise AssertionError(f"the checker let through what the clock refuses: {name} {req}: {e}")
