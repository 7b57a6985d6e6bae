"""A new match mode on the host: the count-up timer of tests/kits/countup.py, registered in
sagatfw.MODES, is played by the real App under CPython (a power cut in the middle), and `sagat logs
verify` and `show` take it from the registry as they take kok-boru and kilithattu: its setup's options,
its period's name, a replay through its own engine that a forged score fails. The script checker
and the referee's lever follow the mode's table (its options, its points, no lots)."""

import struct

import countup
import pytest
from apprig import Rig, records

import sagatfw
from sagat.cli import main
from sagat.log import export
from sagat.sim.script import SimError, parse_script
from sagatfw.log import records as R
from sagatfw.ui import buttons as B

SCORE = 0x20 + 4  # log/matchrecords.py EV_BASE + engine/matchwords.py EV_SCORE
ARG = 26  # a record's arg: a score's points


@pytest.fixture
def mode():
    number = countup.register()
    yield number
    countup.unregister()


def _play(root):
    rig = Rig(root)
    rig.ok("new", mode="countup", lead=5)
    rig.ok("start")
    rig.at(30000)
    rig.ok("score", side="left", points=1)
    rig.at(40000)
    rig.app.match._button(B.LEVER_RIGHT, B.PRESS, 40000)  # a one-value mode: the lever scores at once
    rig.at(40500)
    st = rig.ok("state")
    assert st["right"]["score"] == 1 and st["left"]["score"] == 1, st
    rig2 = Rig(root)  # the power goes and comes back: the match is replayed through its engine
    assert rig2.app.match is not None and rig2.app.match.m.MODE == "countup"
    rig2.at(2000)
    rig2.ok("resume")
    rig2.at(9000)
    rig2.ok("result", winner="right")  # the referee ends it
    return rig2.ok("state")


def test_a_new_mode_s_log_verifies_and_shows_through_the_registry(mode, tmp_path, capsys):
    st = _play(tmp_path)
    assert st["state"] == "finished" and st["winner"] == "right" and st["why"] == "referee", st
    path = str(tmp_path / "records.bin")
    records(tmp_path, path)
    assert main(["logs", "verify", "--records", path, "--no-head"]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("OK: ") and "the engine reproduces every game and match" in out, out
    assert main(["logs", "show", "--records", path]) == 0
    out, _ = capsys.readouterr()
    assert "countup match set up" in out and "lead 5" in out and "time" in out, out


def test_a_forged_score_in_a_new_mode_s_log_fails_its_engine_s_replay(mode, tmp_path, capsys):
    _play(tmp_path)
    path = str(tmp_path / "records.bin")
    records(tmp_path, path)
    data = bytearray(open(path, "rb").read())
    recs = [data[i : i + R.RECORD_SIZE] for i in range(0, len(data), R.RECORD_SIZE)]
    i = next(i for i, r in enumerate(recs) if r[1] == SCORE)
    struct.pack_into("<h", recs[i], ARG, 4)  # 1 point made 4: no count-up score is
    struct.pack_into("<I", recs[i], R.CRC, R.crc32(bytes(recs[i][: R.CRC])))
    chain = R.Chain(b"")  # sealed again without a key, as a forger can
    prev = R.ZERO_CHAIN
    for r in recs:
        if r[1] != R.T_ANCHOR:
            prev = R.seal(r, prev, chain)
    forged = tmp_path / "forged.bin"
    forged.write_bytes(b"".join(bytes(r) for r in recs))
    code = main(["logs", "verify", "--records", str(forged), "--no-head"])
    out, _ = capsys.readouterr()
    assert code == 1 and "countup match" in out and "a point is 1" in out, out


def test_the_script_checker_takes_a_new_mode_s_options_from_its_line(mode):
    acts, _ = parse_script('{"at": 0, "do": "new", "mode": "countup", "lead": 2}\n{"at": 10, "do": "start"}\n')
    assert len(acts) == 2
    for line, why in (('{"at": 0, "do": "new", "mode": "countup", "method": "lot"}', 'a countup match has no "method"'),
                      ('{"at": 0, "do": "new", "mode": "countup", "seed": 7}', "kilithattu"),
                      ('{"at": 0, "do": "new", "mode": "countup", "lead": 100}', "lead")):
        with pytest.raises(SimError) as e:
            parse_script(line + "\n")
        assert why in str(e.value), (line, str(e.value))


def test_without_its_line_the_mode_is_unknown_to_the_host(tmp_path, capsys):
    countup.register()
    try:
        _play(tmp_path)
    finally:
        countup.unregister()
    path = str(tmp_path / "records.bin")
    records(tmp_path, path)
    code = main(["logs", "verify", "--records", path, "--no-head"])
    out, _ = capsys.readouterr()
    assert code == 1 and "names mode 2, which this sagat does not know (kokboru or kilithattu)" in out, out
    assert main(["logs", "show", "--records", path]) == 0
    out, _ = capsys.readouterr()
    assert "mode-2 match set up" in out and "mode 2, which this sagat does not know" in out, out


def test_the_csv_has_a_column_for_every_registered_mode_s_options(monkeypatch):
    monkeypatch.setattr(sagatfw, "MODES", sagatfw.MODES + (("countup", "CountUp", ("lead", "target")),))
    fields = export.match_csv_fields()
    assert fields[-4:] == ["changeover_ms", "method", "target", "seed"] and fields.count("lead") == 1, fields


def test_the_script_checker_takes_a_null_option_of_another_mode_as_absent(mode):
    acts, _ = parse_script('{"at": 0, "do": "new", "mode": "countup", "method": null, "lead": 1}\n')
    assert len(acts) == 1
