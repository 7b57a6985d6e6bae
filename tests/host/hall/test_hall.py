"""`sagat hall` without a browser: the pairings file and its errors, the command's errors
(one line, exit code 2, never a traceback), and the hall's links: a clock plugged in later appears
(USB discovery, again and again), a port that cannot be opened is a board whose link says why,
and a board with a game in progress is left alone by "set up all" and by "start round"."""

from __future__ import annotations

import socket

import pytest
from hallkit import until as _until

from sagat.cli import main
from sagat.client import Port
from sagat.hall.core import Hall
from sagat.hall.sims import Sims
from sagat.hall.tile import board_view
from sagat.round import pairings as pairings


def _write(tmp_path, text, name="pairs.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_pairings_with_and_without_a_header(tmp_path):
    assert pairings.read(_write(tmp_path, "board,left,right\n1,Aibek,Dana\n 2 , Erlan , Zhanna \n\n")) == {
        1: ("Aibek", "Dana"), 2: ("Erlan", "Zhanna")}
    assert pairings.read(_write(tmp_path, "3,\"Nurlan, jr\",Aru\n")) == {3: ("Nurlan, jr", "Aru")}


@pytest.mark.parametrize("text,why", [
    ("1,Aibek\n", "line 1: 2 fields; want 3: board, left player, right player"),
    ("board,left,right\nx,A,B\n", "line 2: board 'x' is not a board number 1..999"),
    ("1,A,B\n1,C,D\n", "line 2: board 1 is paired twice"),
    ("board,left,right\n", "has no pairings"),
    ("0,A,B\n", "board '0' is not a board number"),
    # a spreadsheet's CSV export where the decimal comma is taken: the separator is what is wrong
    ("board;left;right\n1;A;B\n", "line 2: 1 field; want 3: board, left player, right player (fields are "
                                    "separated by commas, not ';')"),
    ("1\tA\tB\n", "(fields are separated by commas, not '\\t')"),
])
def test_bad_pairings_say_which_line_and_why(tmp_path, text, why):
    with pytest.raises(pairings.PairingsError) as e:
        pairings.read(_write(tmp_path, text))
    assert why in str(e.value)


def test_the_command_says_what_is_wrong_in_one_line(tmp_path, capsys):
    assert main(["hall", "--no-usb", "--no-browser", "--pairings", str(tmp_path / "none.csv")]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [f"sagat: pairings file {tmp_path / 'none.csv'} not found (CSV lines: board, "
                                        "left player, right player)"]
    assert main(["hall", "--no-usb", "--no-browser", "--pairings", _write(tmp_path, "1;A;B\n")]) == 2
    assert "line 1: 1 field; want 3" in capsys.readouterr().err
    for n in ("0", "65", "-1"):  # --sim N: 1..64 simulated clocks (no --sim: none)
        assert main(["hall", "--no-usb", "--no-browser", "--sim", n]) == 2
        assert capsys.readouterr().err == "sagat: --sim takes 1..64 simulated clocks\n", n
    # --date and --round as sagat report takes them (one check for both commands)
    for flag, value in (("--date", "20261207"), ("--date", "2026-02-30"), ("--round", "1000"), ("--round", "0")):
        assert main(["hall", "--no-usb", "--no-browser", flag, value]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"sagat: {flag} ") and len(err.strip().splitlines()) == 1, err
    assert main(["hall", "--no-usb", "--no-browser", "--sim-play"]) == 2  # a player needs clocks to move
    assert capsys.readouterr().err == "sagat: --sim-play moves the simulated clocks: give --sim N too\n"
    for think in ("0-1", "3-1", "a-b", "1"):
        assert main(["hall", "--no-usb", "--no-browser", "--sim", "2", "--sim-play", think]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"sagat: --sim-play {think!r}: a range of seconds MIN-MAX") and \
            len(err.strip().splitlines()) == 1, err
    for argv in (["sim", "--play", "1"], ["sim", "--serial", "--headless", "--play", "1", "--think", "2-1"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert ("--play moves a clock that serves its link" in err or "--think '2-1'" in err) and \
            len(err.strip().splitlines()) == 1, err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        assert main(["hall", "--no-usb", "--no-browser", "--http-port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sagat: cannot serve the page on 127.0.0.1:{port}: Address already in use"), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_clock_plugged_in_later_appears_and_a_bad_port_says_why(tmp_path):
    sims = Sims(1, str(tmp_path / "sims"))
    plugged: list[Port] = []
    hall = Hall(discover=True, find_ports=lambda: list(plugged), timeout=2.0)
    try:
        (port,) = sims.start()
        hall.add(str(tmp_path / "ttyACM9"), "port")
        hall.start()
        bad = _until(lambda: [b for b in hall.view()["boards"] if b["link"] == "unreachable"], 30, "unreachable")
        assert bad[0]["number"] == 1 and bad[0]["error"].startswith(
            f"cannot open {tmp_path / 'ttyACM9'}: No such file or directory (is the board plugged in?")
        assert bad[0]["alerts"] == [{"kind": "link", "text": "clock unreachable",
                                     "msg": {"key": "alert_unreachable"}}]
        assert len(hall.boards) == 1
        plugged.append(Port(port, "Raspberry Pi (Pico, Pico W, Pico 2)", None))  # plugged in now
        b = _until(lambda: [b for b in hall.view()["boards"] if b["port"] == port and b["link"] == "up"
                            and b["state"]], 30, "the clock plugged in later is on the page")[0]
        assert b["number"] == 2 and b["source"] == "usb" and b["faces"]["left"]["text"] == "7:00"
        # a game in progress is left alone by set up all and start round
        assert hall.set_up("5")["boards"] == {1: {"ok": None, "text": "not connected",
                                                  "msg": {"key": "skip_not_connected"}},
                                              2: {"ok": True, "text": "set up 5"}}
        hall.board(2).submit(lambda c: c.request("start")).result(60)
        _until(lambda: hall.view()["boards"][1]["state"] == "running", 30, "running")
        rep = hall.start_round()
        assert rep["boards"][2] == {"ok": None, "text": "not set up (the clock is running)",
                                    "msg": {"key": "skip_not_set_up", "state": {"key": "state_running"}}}
        assert rep["done"] == 0 and hall.round["armed"] == 0
        rep = hall.set_up("5")
        assert rep["boards"][2] == {"ok": None, "text": "a game is running: left alone",
                                    "msg": {"key": "skip_game_on", "state": {"key": "state_running"}}}
        assert hall.pause_all()["boards"][2]["ok"] is True
        assert hall.view()["boards"][1]["state"] == "paused"
    finally:
        hall.close()
        sims.close()


def _link(state: dict):
    from sagat.hall.boards import BoardLink

    b = BoardLink(4, "/dev/null")
    b.link = "up"
    b.state = state
    b.updated = 1e18  # just now
    return b


GAME = {"state": "running", "game": 2, "running": "right", "first_flag": "left", "battery": 12, "low_battery": True,
        "log_full": True, "log_error": None, "message": "LOG FULL", "result_code": None, "armed": None,
        "left": {"ms": 0, "moves": 31, "stage": 2, "flag": 1, "low": False, "default": False, "stage_mark": True,
                 "countup": False},
        "right": {"ms": 19900, "moves": 30, "stage": 1, "flag": 0, "low": True, "default": False,
                  "stage_mark": False, "countup": False}}


def test_what_a_board_shows():
    v = board_view(_link(dict(GAME)), ("Aibek", "Dana"), 1e18)
    assert v["players"] == ["Aibek", "Dana"] and v["mode"] == "game"
    left, right = v["faces"]["left"], v["faces"]["right"]
    assert left["text"] == "0:00" and right["text"] == "19.9"  # the faces' text (19.95 s: 0:20)
    assert left["flag"] == 1 and not left["first"]  # "1ST" only once both flags are down (contract 2)
    assert left["stage_mark"] and right["low"] and left["moves"] == 31 and left["stage"] == 2
    assert [a["kind"] for a in v["alerts"]] == ["flag", "battery", "log"]
    both = dict(GAME, right=dict(GAME["right"], ms=0, flag=2))
    v = board_view(_link(both), None, 1e18)
    assert v["faces"]["left"]["first"] and not v["faces"]["right"]["first"]
    assert v["alerts"][0]["text"] == "FLAG left (1st) right"
    match = {"mode": "kokboru", "state": "running", "game": 3, "period_name": "2nd half", "match_ms": 61500,
             "counts_up": False, "left": {"score": 6, "warnings": 1, "reds": 0},
             "right": {"score": 2, "warnings": 0, "reds": 0}, "winner": None, "why": None}
    v = board_view(_link(match), None, 1e18)
    assert v["mode"] == "kokboru" and "faces" not in v
    assert v["match"]["time"] == "1:02" and v["match"]["left"]["score"] == 6 and v["match"]["period"] == "2nd half"
    stale = _link(dict(GAME))
    stale.updated = 0.0
    assert board_view(stale, None, 10000.0)["link"] == "lost"  # no state for 10 s: said, with an alert


def test_a_busy_port_is_a_board_that_says_so(monkeypatch):
    # (a real busy port cannot be made here: root opens a tty another holds with TIOCEXCL)
    import errno

    from sagat import client
    from sagat.hall import boards as HB

    def busy(port, timeout, key):
        raise client.port_error(port, OSError(errno.EBUSY, "Device or resource busy"))

    monkeypatch.setattr(HB.client, "Clock", busy)
    hall = Hall(discover=False)
    try:
        hall.add("/dev/ttyACM0", "port")
        b = _until(lambda: [b for b in hall.view()["boards"] if b["link"] == "unreachable"], 30, "unreachable")[0]
        assert b["error"] == ("cannot open /dev/ttyACM0: Device or resource busy (is another program using it? "
                              "mpremote, a serial monitor, Thonny)")
        assert hall.pause_all()["boards"] == {1: {"ok": None, "text": "not connected",
                                                   "msg": {"key": "skip_not_connected"}}}
    finally:
        hall.close()


def test_a_finished_games_flag_is_history_not_an_alert():
    # once the result is in, the flag is part of the game's story: said quietly on the board's line,
    # not a pulsing alert, and not counted as a board flagged
    hall = Hall(discover=False)
    try:
        flagged = _link(dict(GAME, log_full=False, low_battery=False, message=None))
        flagged.number = 1
        done = _link(dict(GAME, state="finished", running=None, result_code="123456", log_full=False,
                          low_battery=False, message=None))
        done.number = 2
        hall.boards += [flagged, done]
        v1, v2 = hall.view()["boards"]
        assert v1["alerts"] == [{"kind": "flag", "text": "FLAG left"}] and v1["flag_note"] is None
        assert v2["alerts"] == [] and v2["flag_note"] == "FLAG left"
        assert v2["faces"]["left"]["flag"] == 1  # the face as the clock shows it
    finally:
        hall.close()


def test_the_printed_address_has_this_pcs_ip_addresses_too(monkeypatch):
    # a venue's PCs often cannot resolve the hall PC's name: its IP addresses are printed too
    from sagat.hall import serve as H

    monkeypatch.setattr(H.socket, "gethostname", lambda: "vm")
    monkeypatch.setattr(H, "local_ips", lambda v6=False: ["192.168.1.20", "10.0.0.5"] + (["fd00::2"] if v6 else []))
    assert H.addresses("0.0.0.0", 18792, "T") == ["http://vm:18792/?t=T", "http://192.168.1.20:18792/?t=T",
                                                  "http://10.0.0.5:18792/?t=T"]
    assert H.addresses("::", 18792, "T")[-1] == "http://[fd00::2]:18792/?t=T"
    assert H.addresses("127.0.0.1", 18792, None) == ["http://localhost:18792/"]
    assert H.addresses("192.168.1.20", 18792, "T") == ["http://192.168.1.20:18792/?t=T"]
    monkeypatch.undo()
    ips = H.local_ips()  # this PC's own: never loopback, link-local or 0.0.0.0, each once
    import ipaddress

    assert len(ips) == len(set(ips))
    for ip in ips:
        a = ipaddress.ip_address(ip)
        assert a.version == 4 and not (a.is_loopback or a.is_link_local or a.is_unspecified), ips
