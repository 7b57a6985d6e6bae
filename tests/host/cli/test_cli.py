"""The `sagat` command's `presets` and `tc` subcommands (contract 5: errors are one line, no traceback)."""

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from sagat.cli import main
from sagatfw.core import presets


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_presets_lists_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "presets")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == len(presets.PRESETS)
    for line, (name, text, desc) in zip(lines, presets.PRESETS, strict=True):
        cols = line.split()
        assert cols[0] == name and cols[1] == text, line
        assert line.endswith(desc), line
    assert lines[0].split()[:2] == ["tk-blitz", "420"]
    assert lines[1].split()[:2] == ["tk-rapid", "1200"]


def test_presets_json_one_object_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "presets", "--json")
    assert code == 0 and err == ""
    objs = [json.loads(line) for line in out.splitlines()]
    assert objs == [{"name": n, "tc": t, "description": d} for n, t, d in presets.PRESETS]


def test_tc_two_stages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tc", "40/5400+30:1800+30")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "40/5400+30:1800+30",
        "both sides:",
        "  stage 1: 40 moves in 1:30:00, Fischer 30 s",
        "  stage 2: 30:00 for the rest of the game, Fischer 30 s",
    ]


def test_tc_preset_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tc", "tk-blitz")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "420"
    assert "7:00" in out and "both sides" in out


def test_tc_every_preset_name(capsys: pytest.CaptureFixture[str]) -> None:
    for name, text, _desc in presets.PRESETS:
        code, out, err = run(capsys, "tc", name, "--json")
        assert code == 0 and err == "", name
        assert json.loads(out) == {"tc": text, "left": text, "right": text}


def test_tc_handicap(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tc", "300+2|180+2")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "300+2|180+2",
        "left:",
        "  stage 1: 5:00 for the rest of the game, Fischer 2 s",
        "right:",
        "  stage 1: 3:00 for the rest of the game, Fischer 2 s",
    ]
    code, out, err = run(capsys, "tc", "--json", "300+2|180+2")
    assert code == 0 and err == ""
    assert json.loads(out) == {"tc": "300+2|180+2", "left": "300+2", "right": "180+2"}


@pytest.mark.parametrize(
    "control,canonical,needle",
    [
        ("-", "-", "no limit"),
        ("*60", "*60", "hourglass 1:00"),
        ("300d5", "300d5", "delay 5 s"),
        ("300b5", "300b5", "Bronstein 5 s"),
        ("40/7200:20/3600", "40/7200:20/3600", "stage 2: 20 moves in 1:00:00 (repeats)"),
        ("600j30x5", "600j30x5", "Japanese byo-yomi: 5 periods of 30 s"),
        ("1200c25/300", "1200c25/300", "Canadian byo-yomi: 25 moves per 5:00"),
        (" 420 ", "420", "7:00 for the rest of the game"),
        ("300|300", "300", "both sides"),
    ],
)
def test_tc_describes(capsys: pytest.CaptureFixture[str], control: str, canonical: str, needle: str) -> None:
    code, out, err = run(capsys, "tc", control)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == canonical
    assert needle in out


@pytest.mark.parametrize(
    "control,needle",
    [
        ("300+", "increment"),
        ("?", "unexpected character '?'"),
        ("300|", "right side: empty"),
        ("a|b|c", "at most one '|'"),
        ("300:40/300", "stage 1"),
        ("no-such-preset", "unknown preset 'no-such-preset': sagat presets lists them"),
        ("tk-rapd", "unknown preset 'tk-rapd': did you mean tk-rapid?"),
        ("Blitz-5", "did you mean blitz-5"),
    ],
)
def test_tc_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], control: str, needle: str) -> None:
    code, out, err = run(capsys, "tc", control)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("sagat:"), err
    assert needle in lines[0], err
    assert "Traceback" not in err


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys)
    assert code == 2
    assert "presets" in out and "tc" in out


def sagat_script() -> str:
    name = "sagat.exe" if os.name == "nt" else "sagat"
    path = os.path.join(os.path.dirname(sys.executable), name)
    assert os.path.exists(path), "no `sagat` console script next to %s: pip install -e ." % sys.executable
    return path


def test_console_script_entry_point() -> None:
    ok = subprocess.run(
        [sagat_script(), "tc", "40/5400+30:1800+30"], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[0] == "40/5400+30:1800+30"
    bad = subprocess.run([sagat_script(), "tc", "300+"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.splitlines() == [bad.stderr.strip()] and bad.stderr.startswith("sagat: ")
    assert "increment" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("argv", [["tc"], ["bogus"], ["presets", "--nope"]])
def test_usage_errors_are_one_line(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("sagat")


def _subcommands(parser, path=()):
    """(path, parser) for the command and every subcommand, depth first."""
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _subcommands(sub, path + (name,))


def test_every_subcommand_has_a_description_and_every_argument_a_help_text(capsys):
    import argparse

    from sagat.cli import build_parser

    seen = set()
    for path, parser in _subcommands(build_parser()):
        seen.add(" ".join(path))
        assert parser.description, f"sagat {' '.join(path)}: no description"
        for action in parser._actions:
            skip = isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
            if skip or action.help == argparse.SUPPRESS:
                continue
            name = "/".join(action.option_strings) or action.dest
            assert action.help and len(action.help) > 8, f"sagat {' '.join(path)} {name}: no help text"
            if action.dest in ("timeout", "interval"):
                assert "seconds" in action.help, f"sagat {' '.join(path)} {name}: no unit"
            if action.dest == "block_size":
                assert "bytes" in action.help
        with pytest.raises(SystemExit) as done:  # and --help itself works
            main([*path, "--help"])
        assert done.value.code == 0
        assert capsys.readouterr().out.startswith("usage: sagat")
    assert {"info", "state", "watch", "logs pull", "logs verify", "sim", "deploy"} <= seen


def test_no_help_text_names_an_issue_number(capsys):
    """Help says what a command does and why; which issue brought it means nothing to a user."""
    import re

    from sagat.cli import build_parser

    for path, _parser in _subcommands(build_parser()):
        with pytest.raises(SystemExit):
            main([*path, "--help"])
        out = capsys.readouterr().out
        assert not re.search(r"\bissues? \d", out, re.I), f"sagat {' '.join(path)} --help: {out}"


def test_no_host_module_names_an_issue_number():
    import re
    from pathlib import Path

    root = Path(ROOT)
    for path in sorted((root / "host" / "sagat").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not re.search(r"\bissues? \d", line, re.I), f"{path.relative_to(root)}:{n}: {line.strip()}"


def test_read_only_commands_offer_no_key_and_signing_ones_do():
    from sagat.cli import build_parser

    parsers = dict(_subcommands(build_parser()))

    def options(*path):
        return {o for a in parsers[path]._actions for o in a.option_strings}

    for path in (("info",), ("state",), ("watch",), ("ports",), ("tc",)):
        assert "--key" not in options(*path) and "--key-file" not in options(*path), path
    # these sign (logs pull: log.head needs the key), or check the chain with it (show, verify, export)
    for path in (("new",), ("settings",), ("sync-time",), ("key",), ("call",), ("deploy",), ("presets",),
                 ("logs", "pull"), ("logs", "erase"), ("logs", "verify"), ("logs", "show"), ("logs", "export")):
        assert {"--key", "--key-file"} <= options(*path), path


def test_report_says_what_its_logs_prove(tmp_path, capsys):
    # without a key a log's intact chain proves no authorship: never counted as verified, and the
    # summary line says so; under a key a log that does not verify is counted NOT verified
    from played import played_game

    played_game(str(tmp_path))
    logs = str(tmp_path / "logs")
    capsys.readouterr()
    assert main(["report", logs, "--out", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 game: 0 verified, 1 chain intact without a key (authorship unproven): "), out
    assert main(["report", logs, "--out", str(tmp_path / "b"), "--key", "not the clock's"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("1 game: 0 verified, 1 NOT verified: "), out
    assert main(["report", logs, "--out", str(tmp_path / "c"), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["games"], figures["verified"], figures["unkeyed"], figures["failed"]) == (1, 0, 1, 0)


def test_report_without_a_key_says_why_a_log_is_not_checked(tmp_path, capsys, monkeypatch):
    # a keyed clock's log read without its key is not checked: the line says to give the key
    from sagat.round import report

    index = str(tmp_path / "index.html")
    monkeypatch.setattr(report, "build", lambda sources, out, keys, pairs, *more: {
        "games": 2, "verified": 0, "unkeyed": 0, "sealed": 2, "failed": 0, "index": index, "trf": None,
        "pgn": ["a.pgn", "b.pgn"]})
    assert main(["report", str(tmp_path), "--out", str(tmp_path / "a")]) == 0
    assert capsys.readouterr().out == (f"2 games: 0 verified, 2 sealed with an arbiter key, not checked (give "
                                       f"--key-file or --key): {index}, round.csv (no round.trf: give --pairings), "
                                       f"2 PGN\n")

def _text(path) -> str:
    """A page's text, its style and tags dropped."""
    import html
    import re

    with open(path, encoding="utf-8") as fh:
        return html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", fh.read(), flags=re.S)))


def test_report_on_a_keyed_clocks_log_without_the_key_says_to_give_it(tmp_path, capsys):
    # a keyed clock's log read without its key cannot be checked: the pages and the line say
    # exactly that, never BROKEN (nothing was found wrong) nor unkeyed (the clock has a key)
    from played import keyed_log

    logs = keyed_log(str(tmp_path))
    capsys.readouterr()
    main(["report", logs, "--out", str(tmp_path / "a")])
    out = capsys.readouterr().out
    assert out.startswith("2 games: 0 verified, 2 sealed with an arbiter key, not checked (give --key-file or "
                          "--key): "), out
    sealed = "this clock's log is sealed with an arbiter key: give --key/--key-file to verify it"
    for page in ("board-05-e6614103e7-game-1.html", "index.html"):
        text = _text(tmp_path / "a" / page)
        assert "BROKEN" not in text and "unkeyed" not in text and "NOT verified" not in text, (page, text)
        assert "no tampering by accident" not in text, (page, text)
    game = _text(tmp_path / "a" / "board-05-e6614103e7-game-1.html")
    assert game.count(sealed) == 1 and "give --key to check it" not in game, game
    assert "result code 123143 (sealed with an arbiter key: give --key/--key-file to check it)" in " ".join(
        game.split()), game
    # with the key: verified, the code from the keyed chain
    assert main(["report", logs, "--out", str(tmp_path / "b"), "--key", "secret"]) == 0
    assert capsys.readouterr().out.startswith("2 games: 2 verified: ")
    game = " ".join(_text(tmp_path / "b" / "board-05-e6614103e7-game-1.html").split())
    assert "result code 123143 (from the keyed chain: compare the scoresheet)" in game
    assert "verified : OK: " in game and sealed not in game, game


def test_report_exits_1_when_a_log_does_not_verify_and_still_writes_the_pages(tmp_path, capsys):
    # as `sagat logs verify`: a script (or the arbiter's eye on the shell) sees a log that failed
    from played import keyed_log

    logs = keyed_log(str(tmp_path))
    assert main(["report", logs, "--out", str(tmp_path / "wrong"), "--key", "not the clock's"]) == 1
    assert capsys.readouterr().out.startswith("2 games: 0 verified, 2 NOT verified: ")
    assert os.path.exists(tmp_path / "wrong" / "index.html")
    assert os.path.exists(tmp_path / "wrong" / "board-05-e6614103e7-game-1.html")
    assert main(["report", logs, "--out", str(tmp_path / "wrong-json"), "--key", "not the clock's", "--json"]) == 1
    assert main(["report", logs, "--out", str(tmp_path / "right"), "--key", "secret"]) == 0
    assert main(["report", logs, "--out", str(tmp_path / "none")]) == 0  # not checked, nothing found wrong


def test_the_reports_index_shows_the_board_number(tmp_path, capsys):
    # the arbiter reads "5", not the folder's name; the clock's uid smaller beside it
    import re

    from played import keyed_log

    main(["report", keyed_log(str(tmp_path)), "--out", str(tmp_path / "r"), "--key", "secret"])
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    cells = re.findall(r"<tr><td>(.*?)</td>", page)
    assert cells == ['5 <small>e6614103e7</small>'] * 2, cells
