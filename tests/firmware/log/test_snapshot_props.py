"""The checkpoint snapshot on CPython with hypothesis: a game cut anywhere restores from the checkpoint
file's snapshot (and the records after it) to the very clock a whole replay of the log gives, and
logs the same power_restore record. The journal writes on a temporary folder; the same property runs
on MicroPython's littlefs in tests/firmware/log/test_snapshot_mp.py (the kit is tests/kits/snapkit.py)."""

import os
import shutil

from hypothesis import given, settings
from hypothesis import strategies as st
from snapkit import CONTROLS, Play, journal, state

from sagatfw.engine import clock as C
from sagatfw.log import records as R


def _restore(root, key, segment_records, whole):
    from sagatfw.log import boot as journalboot  # the one the journal loads now (an app's boot forgets it)

    j = journal(root, key, segment_records)
    if whole:
        j.snap[2] = False  # what open() found: no snapshot tried
    ran = []
    real = journalboot._first_type

    def counted(jj):
        ran.append(1)
        return real(jj)

    journalboot._first_type = counted
    try:
        c = C.Clock()
        got = journalboot.restore(j, c, 424242)
    finally:
        journalboot._first_type = real
    names = j.segments()
    last = None
    if names:
        with open(os.path.join(root, names[-1]), "rb") as f:
            data = f.read()
        last = data[-R.RECORD_SIZE :]
    return got, state(c) if got else None, last, bool(ran)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=2**31 - 1),
    st.integers(min_value=1, max_value=80),
    st.sampled_from(CONTROLS),
    st.sampled_from([6, 8, 16, 32, 128]),
    st.sampled_from([b"", b"arbiter"]),
)
def test_a_cut_anywhere_restores_from_the_snapshot_as_the_whole_replay(tmp_path_factory, seed, steps, tc,
                                                                       segment_records, key):
    base = tmp_path_factory.mktemp("snap")
    root = str(base / "log")
    p = Play(journal(root, key, segment_records), seed, tc)
    p.play(steps)
    a_root, b_root = str(base / "a"), str(base / "b")
    shutil.copytree(root, a_root)
    shutil.copytree(root, b_root)
    a = _restore(a_root, key, segment_records, False)
    b = _restore(b_root, key, segment_records, True)
    assert a[:3] == b[:3]
    assert b[3]  # (the whole replay ran for b)


def test_the_property_above_goes_through_the_snapshot(tmp_path):
    # the same games by seed: most restores take the snapshot (the rest: no snapshot yet, or finished)
    used = 0
    for seed in range(1, 61):
        root = str(tmp_path / ("log%d" % seed))
        Play(journal(root, b"k", 8), seed).play(1 + seed % 50)
        a = _restore(root, b"k", 8, False)
        used += not a[3]
    assert used > 40, used
