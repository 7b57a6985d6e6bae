"""Output paths the `sagat` command writes are checked first: one `sagat: ...` line, never an internal error."""

import pytest

from sagat.cli import main


def _err(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def test_a_pull_into_an_unmakeable_folder_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _err(capsys, "logs", "pull", "--port", "/dev/null-no-such", "--out", "/proc/nope")
    assert code != 0 and err.startswith("sagat: --out /proc/nope") and "internal" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_pull_into_an_existing_file_is_one_line(capsys, tmp_path) -> None:
    f = tmp_path / "afile"
    f.write_text("x")
    code, err = _err(capsys, "logs", "pull", "--port", "/dev/null-no-such", "--out", str(f))
    assert code != 0 and "not a folder" in err and "internal" not in err
    assert len(err.strip().splitlines()) == 1


def test_sim_log_json_in_a_missing_folder_fails_before_the_script(capsys, tmp_path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("")
    code, err = _err(capsys, "sim", "--script", str(script), "--log-json", "/missing/dir/x.jsonl")
    assert code != 0 and err.startswith("sagat: --log-json") and "no such folder" in err
    assert "script done" not in err and len(err.strip().splitlines()) == 1
