"""The line `sagat logs verify --game N --code C` says in a dispute: every result the firmware records
(a win, a draw, a flag, a default, with and without the final kazans, a match's result), keyed and
unkeyed, entered on the simulator in virtual time and checked with the code its faces showed. The
line names the result as the arbiter reads it ("1-0 by flag, kazans 85-60"), from the firmware's own
decoding of the record (TK-R1, TK-R4, TK-R5, TK-R7, TK-C12), in the user's language."""

import pytest
from codekit import KEY, KINDS, played, result_seq
from simkit import cli

from sagatfw.log import records as R


@pytest.mark.parametrize("keyed", [False, True], ids=["unkeyed", "keyed"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_result_kind_is_named_in_the_code_line_as_the_arbiter_reads_it(kind, keyed, tmp_path, capsys):
    lines, words = KINDS[kind]
    flash, code = played(capsys, tmp_path, lines, keyed)
    seq = result_seq(flash)
    rc, out, _ = cli(capsys, "logs", "verify", "--image", flash, "--game", "1", "--code", code,
                     *(["--key", KEY] if keyed else []))
    assert rc == 0 and out.startswith("OK: "), out
    line = out.splitlines()[-1]
    if keyed:
        assert line == (f"code {code}: game 1's result {words} at seq {seq} is the one the faces showed: the log "
                        f"holds game 1 as it was when its result was entered"), out
    else:
        assert line == (f"code {code}: matches game 1's result {words} at seq {seq}, which is not under an arbiter "
                        f"key: anyone can recompute an unkeyed code for any history, so this shows nothing about "
                        f"tampering (only a code under the key does)"), out


def test_a_wrong_code_names_the_result_the_log_holds(tmp_path, capsys):
    flash, code = played(capsys, tmp_path, KINDS["flag_kazans"][0], keyed=True)
    wrong = "%06d" % ((int(code) + 1) % 1000000)
    rc, out, _ = cli(capsys, "logs", "verify", "--image", flash, "--key", KEY, "--game", "1", "--code", wrong)
    assert rc == 1 and out.startswith("BROKEN"), out
    assert (f"code: {wrong} is not the code of game 1's result in this log (seq {result_seq(flash)}, 1-0 by flag, "
            f"kazans 85-60, gives {code})") in out, out


def test_the_code_line_is_in_the_users_language(tmp_path, capsys, lang):
    flash, code = played(capsys, tmp_path, KINDS["flag_kazans"][0], keyed=True)
    lang("ru_RU.UTF-8")
    rc, out, _ = cli(capsys, "logs", "verify", "--image", flash, "--key", KEY, "--game", "1", "--code", code)
    assert rc == 0, out
    line = out.splitlines()[-1]
    assert line.startswith(f"код {code}: ") and "1-0 по флажку, казаны 85-60" in line, line
    assert "the faces showed" not in line, line


def test_export_csv_has_the_results_kazans(tmp_path, capsys):
    import csv
    import io

    flash, _ = played(capsys, tmp_path, KINDS["flag_kazans"][0])
    rc, out, _ = cli(capsys, "logs", "export", "--image", flash, "--format", "csv")
    assert rc == 0, out
    rows = list(csv.DictReader(io.StringIO(out)))
    result = [r for r in rows if r["type"] == "result"]
    assert [(r["result"], r["kazans"]) for r in result] == [("1-0", "85-60")], rows
    assert {r["kazans"] for r in rows if r["type"] != "result"} == {""}, rows


def test_the_host_reads_a_result_through_the_firmwares_decoder_only():
    # no copy of the result argument's packing (records.arg_of's bits) in the host
    from pathlib import Path

    import sagat

    root = Path(sagat.__file__).parent
    for path in [*sorted((root / "log").glob("*.py")), *sorted((root / "hall").glob("*.py")),
                 *sorted((root / "commands").glob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        assert "arg_of(" not in text and "0x100000" not in text, path
        assert R.arg_of.__name__  # (the firmware's, for the board's own state)
