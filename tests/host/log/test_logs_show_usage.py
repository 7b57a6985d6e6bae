"""`sagat logs show`/`export` given what they cannot show: a game the log does not hold, a file
that is no log, two logs at once. One clear line (exit 2) each, never nothing, a page of damage,
or one of the two files read in silence."""

import pytest
from imagekit import make_image

from sagat.cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return make_image(tmp_path_factory.mktemp("img") / "plain.img")


@pytest.mark.parametrize("what", ["show", "export"])
def test_a_game_the_log_does_not_hold_is_one_line(what, image, capsys):
    rc, out, err = _run(capsys, "logs", what, "--image", image, "--game", "9")
    assert rc == 2 and out == "", out
    assert err == f"sagat: no game 9 in {image} (its games: 1, 2)\n", err
    rc, out, _ = _run(capsys, "logs", what, "--image", image, "--game", "2")
    assert rc == 0 and out, out  # a game it holds is shown as before


@pytest.mark.parametrize("content", [b"hello world, not a log\n" * 20, bytes(range(256)) * 12],
                         ids=["text", "bytes"])
def test_a_file_that_is_no_log_is_one_line(content, tmp_path, capsys):
    path = tmp_path / "notes.bin"
    path.write_bytes(content)
    n = -(-len(content) // 64)
    for what in ("show", "export"):
        rc, out, err = _run(capsys, "logs", what, "--records", str(path))
        assert rc == 2 and out == "", out
        assert err == f"sagat: {path} is not a sagat log: none of its {n} records is a sagat record\n", err


@pytest.mark.parametrize("what", ["show", "verify", "export"])
def test_an_image_and_records_at_once_is_a_usage_error(what, image, tmp_path, capsys):
    records = tmp_path / "records.bin"
    records.write_bytes(open(image, "rb").read()[:4096])
    with pytest.raises(SystemExit) as exc:
        main(["logs", what, "--image", image, "--records", str(records)])
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == "", out
    assert "argument --records: not allowed with argument --image" in err and err.count("\n") == 1, err
