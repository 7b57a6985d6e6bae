"""`sagat key --new-key-file FILE` (or - for standard input): the new arbiter key never on the command
line, where the shell's history and the process list would keep it. Against `sagat sim --serial
--headless` (the firmware under MicroPython on a real pseudo-terminal): the key read so is the one
the clock then wants for a signed change."""

import io
import json

import pytest
from simkit import cli


def _signed_change_works_with(capsys, port, *key_args):
    code, _out, err = cli(capsys, "sync-time", "--port", port, *key_args)
    return code == 0, err


def test_the_new_key_is_read_from_a_file_and_then_signs_the_changes(sim, tmp_path, capsys):
    key_file = tmp_path / "arbiter.key"
    key_file.write_bytes(b"file-secret-0123\n")  # as `... > arbiter.key` writes it: the newline is no part of it
    code, out, err = cli(capsys, "key", "--new-key-file", str(key_file), "--port", sim.port)
    assert code == 0 and out.startswith("arbiter key set"), err
    code, out, _err = cli(capsys, "info", "--port", sim.port, "--json")
    assert json.loads(out)["key_set"] is True
    ok, err = _signed_change_works_with(capsys, sim.port)
    assert not ok and "auth_required" in err, err
    ok, err = _signed_change_works_with(capsys, sim.port, "--key", "file-secret-0123\n")
    assert not ok and "auth_failed" in err, err  # the newline was not taken into the key
    assert _signed_change_works_with(capsys, sim.port, "--key-file", str(key_file)) == (True, "")
    assert _signed_change_works_with(capsys, sim.port, "--key", "file-secret-0123") == (True, "")


def test_a_key_change_reads_the_new_key_from_standard_input(sim, tmp_path, capsys, monkeypatch):
    old = tmp_path / "old.key"
    old.write_bytes(b"old-secret\n")
    assert cli(capsys, "key", "--new-key-file", str(old), "--port", sim.port)[0] == 0
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"  stdin-secret-42\r\n")))  # `... | sagat key`
    code, out, err = cli(capsys, "key", "--new-key-file", "-", "--key-file", str(old), "--port", sim.port)
    assert code == 0 and out.startswith("arbiter key set"), err
    ok, err = _signed_change_works_with(capsys, sim.port, "--key-file", str(old))
    assert not ok and "auth_failed" in err, err
    assert _signed_change_works_with(capsys, sim.port, "--key", "stdin-secret-42") == (True, "")


def test_the_key_on_the_command_line_still_works(sim, capsys):
    assert cli(capsys, "key", "argv-secret", "--port", sim.port)[0] == 0
    assert _signed_change_works_with(capsys, sim.port, "--key", "argv-secret") == (True, "")


@pytest.mark.parametrize("content", [b"", b"\n", b" \t\r\n"])
def test_an_empty_new_key_file_is_refused_before_the_clock_is_asked(tmp_path, capsys, content):
    key_file = tmp_path / "new.key"
    key_file.write_bytes(content)
    code, out, err = cli(capsys, "key", "--new-key-file", str(key_file), "--port", "/nonexistent/port")
    assert code == 2 and out == "" and err == f"sagat: {key_file} holds no new key (to clear the key: sagat key '')\n"


@pytest.mark.parametrize("argv, says", [
    (["--new-key-file", "/nonexistent/new.key"], "sagat: cannot read key file /nonexistent/new.key: "),
    (["--new-key-file", "x.key", "also-this"], "sagat: give the new key as --new-key-file FILE"),
    ([], "sagat: give the new key as --new-key-file FILE"),
])
def test_a_new_key_that_cannot_be_read_or_is_given_twice_is_one_line(capsys, argv, says):
    code, out, err = cli(capsys, "key", *argv, "--port", "/nonexistent/port")
    assert code == 2 and out == "" and err.startswith(says) and len(err.splitlines()) == 1, err
