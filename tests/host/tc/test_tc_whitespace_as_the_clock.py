"""`sagat tc` against the clock's own parser on Unicode whitespace, as an attacker would try it:
the host must refuse what the MicroPython clock refuses. It failed when written (a finding) and
passes with its fix. (Written with the attacks on a log's copy:
tests/host/log/test_verify_crafted_head_and_forged_gap.py.)"""

import subprocess

from conftest import FIRMWARE, tool
from sagat.cli import main


def test_sagat_tc_rejects_what_the_micropython_clock_rejects(capsys):
    """`sagat tc` (CPython) strips Unicode whitespace before parsing; the clock (MicroPython's
    str.strip: ASCII only) refuses the same string ("unexpected character"). So `sagat tc` says a
    control is fine that `sagat settings tc=...`, `sagat new` and `presets` answer bad_arg for."""
    text = "\xa0420"
    exe = tool("micropython")
    assert exe, "no micropython: install the dev extra"
    probe = ("import sys\nsys.path.insert(0, %r)\nfrom sagatfw.core import tcparse as t\n"
             "try:\n    t.parse_sides(%r)\n    print('ACCEPTS')\nexcept ValueError:\n    print('REFUSES')\n"
             % (FIRMWARE, text))
    run = subprocess.run([exe, "-c", probe], capture_output=True, text=True, timeout=60)
    clock = run.stdout.strip()
    code = main(["tc", "--", text])
    capsys.readouterr()
    host = "ACCEPTS" if code == 0 else "REFUSES"
    assert host == clock, f"sagat tc {host.lower()} {text!r}, the clock {clock.lower()} it"
