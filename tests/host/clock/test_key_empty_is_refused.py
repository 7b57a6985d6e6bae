"""An empty arbiter key is no key: a key file that holds nothing (a file made by mistake, a copy
that failed, whitespace alone) or an empty --key must never stand for "no key" without a word.
Every command that takes the key says so in one line and exits 2, before it opens a port or reads
a log: the hall would otherwise sign nothing and verify nothing, and the report call sealed logs
unchecked."""

import pytest

from sagat.cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("content", [b"", b"\n", b"  \r\n\t"])
@pytest.mark.parametrize("argv", [
    ["hall", "--port", "/nonexistent/port"],
    ["report", "nothing-here"],
    ["logs", "verify", "--records", "nothing.bin"],
    ["pause", "--port", "/nonexistent/port"],
])
def test_an_empty_key_file_is_refused_in_one_line(tmp_path, capsys, monkeypatch, content, argv):
    from sagat import hall

    def started(*a, **k):  # (the hall serves until it is stopped: it must not get that far)
        raise AssertionError("the hall started with an empty key")

    monkeypatch.setattr(hall, "run", started)
    key = tmp_path / "arbiter.key"
    key.write_bytes(content)
    code, out, err = _run(capsys, *argv, "--key-file", str(key))
    assert code == 2 and out == "", (code, out, err)
    assert f"key file {key} is empty" in err and len(err.strip().splitlines()) == 1, err


def test_an_empty_key_is_refused_in_one_line(capsys):
    code, out, err = _run(capsys, "report", "nothing-here", "--key", "")
    assert code == 2 and out == "" and "--key is empty" in err and len(err.strip().splitlines()) == 1, err
