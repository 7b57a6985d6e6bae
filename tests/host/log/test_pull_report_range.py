"""`sagat logs pull` says which records it added: a second pull into the same folder reports the seqs
it brought (after the first pull's last), never the clock's whole log again. Against `sagat sim
--serial --headless` (the firmware under MicroPython on a real pseudo-terminal)."""

import json

from simkit import cli


def _ok(capsys, *argv):
    code, out, err = cli(capsys, *argv)
    assert code == 0, (argv, err)
    return out


def _last_seq(capsys, port):
    return json.loads(_ok(capsys, "state", "--port", port, "--json"))["seq"]


def test_a_second_pull_reports_the_seq_range_it_added(sim, capsys, tmp_path):
    port, folder = sim.port, str(tmp_path / "clock-1")
    _ok(capsys, "new", "420", "--port", port)
    _ok(capsys, "start", "--port", port)
    _ok(capsys, "pause", "--port", port)
    a = _last_seq(capsys, port)
    first = _ok(capsys, "logs", "pull", "--port", port, "--out", folder).strip()
    assert first.startswith(f"{a + 1} new records (seq 0..{a}) + 1 segment anchor, "), first
    _ok(capsys, "resume", "--port", port)
    _ok(capsys, "pause", "--port", port)
    b = _last_seq(capsys, port)
    assert b > a + 1
    second = _ok(capsys, "logs", "pull", "--port", port, "--out", folder).strip()
    assert second.startswith(f"{b - a} new records (seq {a + 1}..{b}), "), second
    _ok(capsys, "resume", "--port", port)
    _ok(capsys, "pause", "--port", port)
    c = _last_seq(capsys, port)
    third = json.loads(_ok(capsys, "logs", "pull", "--port", port, "--out", folder, "--json"))
    assert (third["records"], third["new_first"], third["new_last"]) == (c - b, b + 1, c), third
    assert (third["first"], third["last"]) == (0, c), third  # the clock's log, as before
    again = _ok(capsys, "logs", "pull", "--port", port, "--out", folder).strip()
    assert again.startswith("no new records"), again


def test_a_pull_that_brought_only_a_segment_anchor_names_no_seq_range():
    """A pull that resumes at a new segment's anchor, before its first record: no seq range to name."""
    from sagat.commands.logs import _pulled_text

    figures = {"pulled": 1, "records": 0, "anchors": 1, "first": 0, "last": 40, "new_first": None, "new_last": None}
    assert _pulled_text(figures) == "1 segment anchor, no new record"
