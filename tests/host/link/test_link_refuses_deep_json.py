"""JSON nested 100,000 levels deep, from a device (fakedev's ScriptedClock on a real pty) or in the
files a pull writes (head.json, clock.json): every command that reads it says one line, `sagat: ...`,
with the exit code it documents, and no traceback or `internal error (RecursionError)`. Python's
decoder gives up with RecursionError at about 1,000 levels; client.loads refuses more than 64."""

import json
import os
import shutil

import pytest
from fakedev import ScriptedClock

from sagat import client
from sagat.cli import main

DEEP = b"[" * 100_000
DEEP_LINE = DEEP + b"\n"


def _one_line(capsys, rc, want_rc=2):
    cap = capsys.readouterr()
    err = cap.err.strip().splitlines()
    assert rc == want_rc, (rc, cap.err[-500:])
    assert "Traceback" not in cap.err + cap.out
    assert "internal error" not in cap.err and "RecursionError" not in cap.err, cap.err[-500:]
    return err, cap.out


def test_loads_refuses_deep_nesting_as_bad_json():
    for text in (DEEP, DEEP.decode(), b'{"a":' * 100_000, b"[" * 65 + b"]" * 65):
        with pytest.raises(ValueError, match="nested deeper than 64"):
            client.loads(text)
    assert client.loads(b"[" * 64 + b"]" * 64)  # 64 levels are JSON like any other
    assert client.loads('{"s": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')["s"]


@pytest.fixture
def deep_device():
    dev = ScriptedClock(lambda req: DEEP_LINE)
    yield dev
    dev.close()


@pytest.mark.parametrize("argv", [["info"], ["state"], ["settings"], ["logs", "pull", "--out", "{out}"]])
def test_a_device_answering_deep_json_is_one_line(deep_device, tmp_path, capsys, argv):
    argv = [a.replace("{out}", str(tmp_path / "pulled")) for a in argv]
    rc = main(argv + ["--port", deep_device.port, "--timeout", "1"])
    err, _ = _one_line(capsys, rc)
    assert len(err) == 1 and err[0].startswith("sagat: ") and "not a sagat clock" in err[0], err


def test_deploy_to_a_device_answering_deep_json_is_one_line(deep_device, capsys):
    rc = main(["deploy", "--port", deep_device.port, "--timeout", "1", "--boot-timeout", "2"])
    err, _ = _one_line(capsys, rc)
    assert len(err) == 1 and err[0].startswith("sagat: ") and "not a MicroPython board" in err[0], err


def test_a_deep_answer_inside_a_clocks_answer_is_one_line(tmp_path, capsys):
    """A clock that answers well, but whose log.info carries a value nested 100,000 levels."""
    inner = b'{"id":%d,"ok":true,"first":0,"last":3,"x":' + DEEP + b"}\n"

    def answer(req):
        if req.get("cmd") == "log.info":
            return inner % req["id"]
        return {"uid": "deep-1", "firmware": "0.1.0", "protocol": 1, "board": "sim"}

    dev = ScriptedClock(answer)
    try:
        rc = main(["logs", "pull", "--port", dev.port, "--timeout", "1", "--out", str(tmp_path / "p")])
    finally:
        dev.close()
    err, _ = _one_line(capsys, rc)
    assert len(err) == 1 and err[0].startswith("sagat: "), err


@pytest.fixture(scope="module")
def pulled(tmp_path_factory):
    """A pulled folder of a played game (records.bin), to which each test adds its deep files."""
    from played import played_game

    root = tmp_path_factory.mktemp("played")
    played_game(str(root))
    return os.path.join(str(root), "logs", "board-03-sim")


def _folder(pulled, tmp_path, **files):
    folder = tmp_path / "board-03-sim"
    shutil.copytree(pulled, folder)
    for name, data in files.items():
        (folder / name.replace("_", ".")).write_bytes(data)
    return folder


def test_verify_with_a_deep_head_json_is_one_line(pulled, tmp_path, capsys):
    folder = _folder(pulled, tmp_path, head_json=DEEP)
    rc = main(["logs", "verify", "--records", str(folder / "records.bin")])
    err, out = _one_line(capsys, rc)
    assert len(err) == 1 and err[0].startswith("sagat: cannot read the head") and "nested deeper" in err[0], err


def test_verify_with_a_deep_clock_json_reads_the_records(pulled, tmp_path, capsys):
    """clock.json only names the clock a pull came from: a deep one is no clock id, the records verify."""
    folder = _folder(pulled, tmp_path, clock_json=DEEP)
    rc = main(["logs", "verify", "--records", str(folder / "records.bin")])
    err, out = _one_line(capsys, rc, 0)
    assert out.startswith("OK"), out


def test_report_with_a_deep_head_json_says_so_and_fails_the_game(pulled, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    folder = _folder(pulled, tmp_path, head_json=DEEP, clock_json=DEEP)
    rc = main(["report", str(folder), "--out", str(tmp_path / "report")])
    err, out = _one_line(capsys, rc, 1)  # 1: a log that does not verify (sagat report --help)
    assert "NOT verified" in out, out
    pages = "".join(p.read_text() for p in (tmp_path / "report").glob("*.html"))
    assert "nested deeper than 64 levels" in pages


def test_a_pull_into_a_folder_with_a_deep_clock_json_starts_afresh(pulled, tmp_path, capsys):
    """clock.json says where a pull resumes: a deep one is unreadable, so the pull begins at the
    log's first record (never a traceback); a deep head.json is replaced by the clock's."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "clock.json").write_bytes(DEEP)
    (folder / "head.json").write_bytes(DEEP)
    data = open(os.path.join(pulled, "records.bin"), "rb").read()
    import base64

    from sagatfw.log import records as R

    first = R.seq_of(data[: R.RECORD_SIZE])

    def answer(req):
        cmd = req.get("cmd")
        if cmd == "log.info":
            return {"uid": "sim-1", "first": first, "last": first - 1 + len(data) // R.RECORD_SIZE,
                    "bytes": len(data), "backlog": 0, "max_records": 32}
        if cmd == "log.read":
            start = req["from_seq"] - first
            part = data[start * R.RECORD_SIZE:(start + req["max_records"]) * R.RECORD_SIZE]
            n = len(part) // R.RECORD_SIZE
            return {"from": req["from_seq"], "next": req["from_seq"] + n, "count": n,
                    "data": base64.b64encode(part).decode()}
        if cmd == "log.head":
            return {"id": req["id"], "ok": False, "error": {"code": "unknown_cmd", "message": "log.head"}}
        return {"uid": "sim-1", "firmware": "0.1.0", "protocol": 1, "board": "sim"}

    dev = ScriptedClock(answer)
    try:
        rc = main(["logs", "pull", "--port", dev.port, "--timeout", "2", "--out", str(folder)])
    finally:
        dev.close()
    err, out = _one_line(capsys, rc, 0)
    anchors = sum(1 for i in range(1, len(data), R.RECORD_SIZE) if data[i] == R.T_ANCHOR)
    assert out.startswith(f"{len(data) // R.RECORD_SIZE - anchors} new records"), out
    assert json.loads((folder / "clock.json").read_text())["uid"] == "sim-1"
    assert not (folder / "head.json").exists()  # it spoke for another pull; this clock gave none


def test_a_deep_board_from_another_hall_is_dropped_as_bad_json():
    """The hall's MQTT subscriber reads other halls' boards: a deep one (16 KB of '[') is refused as
    bad JSON, like any other, before Python's decoder recurses into it."""
    from sagat.hall import mqtt

    sub = mqtt.Subscriber.__new__(mqtt.Subscriber)
    import threading

    sub.name, sub.lock, sub.boards, sub.held, sub.offline = "here", threading.Lock(), {}, {}, {}
    with pytest.raises(ValueError, match="nested deeper"):
        sub._take(f"{mqtt.PREFIX}/other/board/1", b"[" * (mqtt.MAX_PAYLOAD - 1))
    assert sub.boards == {}
