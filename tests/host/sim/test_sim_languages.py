"""The clock's language (the `lang` setting) from the PC, end to end: `sagat settings lang=kk` on the simulator
over a real pseudo-terminal, `sagat state --json` giving the faces' text (`message`) in that language, the choice
kept in the settings file across a reboot, and an unknown language refused with a clear error."""

import json

import pytest
from simkit import Sim, cli

from sagatfw.faces import words_kk, words_ru


def _word(table, english):
    return table.WORDS[table.WORDS.index(english) + 1]


def _state(capsys, port):
    code, out, err = cli(capsys, "state", "--json", "--port", port)
    assert code == 0, err
    return json.loads(out)


def test_state_gives_the_faces_text_in_the_clocks_language_and_a_reboot_keeps_it(tmp_path, capsys):
    sim = Sim(tmp_path, [])
    try:
        assert cli(capsys, "settings", "board=8", "--port", sim.port)[0] == 0
        assert _state(capsys, sim.port)["message"] == "BOARD 8"  # English by default
        code, out, err = cli(capsys, "settings", "lang=kk", "--port", sim.port)
        assert code == 0, err
        assert 'lang = "kk"' in out
        assert _state(capsys, sim.port)["message"] == _word(words_kk, "BOARD") + " 8"  # ҮСТЕЛ 8
    finally:
        sim.stop()
    sim = Sim(tmp_path, [])  # the same flash: the settings file chose Kazakh
    try:
        assert _state(capsys, sim.port)["message"] == _word(words_kk, "BOARD") + " 8"
        assert cli(capsys, "settings", "lang=ru", "--port", sim.port)[0] == 0
        assert _state(capsys, sim.port)["message"] == _word(words_ru, "BOARD") + " 8"
        assert cli(capsys, "settings", "lang=en", "--port", sim.port)[0] == 0
        assert _state(capsys, sim.port)["message"] == "BOARD 8"
    finally:
        sim.stop()


def test_an_unknown_language_is_refused_with_the_languages_there_are(tmp_path, capsys):
    sim = Sim(tmp_path, [])
    try:
        code, out, err = cli(capsys, "settings", "lang=de", "--port", sim.port)
        assert code != 0 and "lang is one of en, kk, ru, ky" in err, (code, out, err)
        # the clock refuses it too, whoever asks (a host of another version, a hand-written request)
        from sagat.client import Clock, LinkError

        with Clock(sim.port) as clock:
            with pytest.raises(LinkError, match="clock refused settings.set: bad_arg: .*lang") as refused:
                clock.request("settings.set", values={"lang": "de"})
            assert refused.value.code == "bad_arg"
            assert clock.request("settings.get")["values"]["lang"] == "en"  # nothing changed
        assert _state(capsys, sim.port)["message"] == "SETTINGS DEFAULT"  # (a new flash: no settings file yet)
    finally:
        sim.stop()


def test_a_script_sets_the_language_and_the_terminal_faces_speak_it(tmp_path):
    import subprocess
    import sys

    from simkit import script

    lines = [{"at": 0, "do": "settings", "lang": "kk"}, {"at": 100, "do": "start"},
             {"at": 3000, "do": "press", "side": "left"}, {"at": 5000, "do": "pause"}]
    run = subprocess.run([sys.executable, "-m", "sagat", "sim", "--script", script(tmp_path / "kk.jsonl", lines),
                          "--virtual"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    last = run.stdout[run.stdout.rindex("sagat sim"):]
    pause = _word(words_kk, "PAUSE")
    assert pause != "PAUSE" and "[  > %s <   ]" % pause in last, last  # the side to move, framed
    assert "       %s       |" % pause in last, last  # the other face, its row kept beside it
