"""Attacks on a match's host side (adversarial review): `sagat logs verify` and `sagat score`."""

from matchlogkit import play, run_image
from matchscripts import KOKBORU


def test_a_genuine_match_restored_from_a_running_checkpoint_verifies(tmp_path, capsys):
    # before: matchreplay required a power_restore at the t of the record before it, but the board
    # restores a running period (or break) at its last checkpoint, up to 15 s later: every genuine
    # log of a match restored that way was BROKEN
    lines = KOKBORU[:3] + [{"at": 55000, "do": "power_cut", "off_ms": 2000},
                         {"at": 58000, "do": "resume"}] + KOKBORU[3:]
    _, flash = play(tmp_path, capsys, lines, "ckpt")
    code, out, _ = run_image(capsys, flash)
    assert code == 0, out
