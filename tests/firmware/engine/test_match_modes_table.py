# The match modes' registry (sagatfw.MODES) against each mode's engine: what the app, the log, the
# link and the host read from the one and the other must agree (CPython and MicroPython).
import sagatfw
from sagatfw.engine import matchwords as M
from sagatfw.engine.kilithattu import METHOD_NAMES
from sagatfw.log import matchrecords as matchlog
from sagatfw.ui import actions as ACT


def test_each_mode_s_line_names_its_engine_and_its_options_in_its_engine_s_order():
    assert [matchlog.mode_name(i) for i in range(len(sagatfw.MODES))] == ["kokboru", "kilithattu"]
    new_args = [s[0] for s in ACT.ACTIONS["new"][3]]
    for i, (path, cls, options) in enumerate(sagatfw.MODES):
        engine = matchlog.engine_class(i)
        assert engine.__name__ == cls and engine.MODE == matchlog.mode_name(i) == path[path.rfind(".") + 1 :]
        assert matchlog.mode_index(engine.MODE) == i
        assert tuple([o[0] for o in engine.OPTIONS]) == options  # the setup record's order is the engine's
        places = [o[1] for o in engine.OPTIONS]
        assert len(set(places)) == len(places) and all(0 <= p <= 3 for p in places), places
        for name in options:
            assert name in new_args, name  # each option is an argument of the protocol's `new`
        assert engine.POINTS and all(isinstance(p, int) and p > 0 for p in engine.POINTS)
    assert matchlog.mode_name(len(sagatfw.MODES)) is None and matchlog.mode_index("chess") == -1


def test_kilithattu_s_option_names_are_the_engine_s_own():
    engine = matchlog.engine_class(matchlog.mode_index("kilithattu"))
    names = {o[0]: o[2] for o in engine.OPTIONS}
    assert names["first"] == M.SIDE_NAMES and names["method"] == METHOD_NAMES and names["changeover_ms"] is None


# What each place of a setup record holds (log/matchrecords.py): the side byte (i8) and two bytes (u8),
# a u32: an option's range in the protocol's table must fit its place, or the board would log a
# value it cannot keep (struct packs 300 into a byte as 44) and a reboot replay another match.
_PLACE_RANGE = {0: (-1, 127), 1: (0, 255), 2: (0, 255), 3: (0, 0xFFFFFFFF)}


def test_each_option_s_range_in_the_protocol_s_table_fits_its_place_in_the_setup_record():
    spec = {s[0]: s for s in ACT.ACTIONS["new"][3]}
    for i in range(len(sagatfw.MODES)):
        for name, place, names in matchlog.engine_class(i).OPTIONS:
            lo, hi = _PLACE_RANGE[place]
            _n, kind, _req, a, b = spec[name]
            if kind == "int":
                assert lo <= ACT.const_of(a) and ACT.const_of(b) <= hi, (name, place, a, b)
            else:  # a name: its index is what the record keeps
                assert names is not None and len(names) - 1 <= hi, (name, place)
                assert tuple(ACT.const_of(a)) == tuple(names), (name, a, names)  # the same names, the same order
