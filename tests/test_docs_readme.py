"""The README's instructions for a real clock match what the repository holds."""
import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UF2 = "rp2/micropython-v1.26.1-RPI_PICO-sagat.uf2"


def _readme():
    return (ROOT / "README.md").read_text(encoding="utf-8")


def _build_section():
    text = _readme()
    start = text.index("## Build a real clock")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_the_readme_offers_the_frozen_uf2_before_deploy():
    sec = _build_section()
    assert UF2 in sec
    assert "BOOTSEL" in sec and "RPI-RP2" in sec
    assert sec.index(UF2) < sec.index("sagat deploy")


def test_the_readme_sha256_of_the_frozen_uf2_is_the_committed_files():
    sec = _build_section()
    hashes = re.findall(r"\b[0-9a-f]{64}\b", sec)
    assert len(hashes) == 1, hashes
    actual = hashlib.sha256((ROOT / UF2).read_bytes()).hexdigest()
    assert hashes[0] == actual


def test_rules_md_does_not_call_the_match_modes_open_work():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "open work" not in text


def test_rules_md_holds_the_corrected_wording_of_every_rule_the_code_cites():
    """docs/rules.md's table row of each ID the firmware cites says what the corrected rules say."""
    import os
    rules_md = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    ours = dict(re.findall(r"^\| ((?:TK|KB|KT)-[A-Z]?[0-9.]*[0-9]) \| (.*) \|$", rules_md, re.M))
    cited = set()
    for dirpath, _, files in os.walk(ROOT / "firmware"):
        for f in files:
            if f.endswith(".py"):
                text = Path(dirpath, f).read_text(encoding="utf-8")
                cited |= set(re.findall(r"\b(?:TK|KB|KT)-[A-Z]?[0-9]+(?:\.[0-9]+)?", text))
    assert cited and cited <= set(ours), sorted(cited - set(ours))
    for needle in ("only time ends an innings", "that very innings", "otherwise the draw stands",
                   "the referee gives an immediate red card", "restarted at once"):
        assert needle in rules_md, needle


def _fenced_after(text, marker, lang=""):
    start = text.index("```" + lang + "\n", text.index(marker)) + len("```" + lang + "\n")
    return text[start:text.index("```", start)]


def test_the_user_guides_kokboru_score_sheet_is_what_its_script_gives(tmp_path):
    """The sample score sheet is the simulator's output for the guide's own kokboru.jsonl."""
    import subprocess
    import sys
    guide = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    script = _fenced_after(guide, "A whole bout as a\nscript, `kokboru.jsonl`:")
    assert script.startswith('{"at": 0, "do": "new", "mode": "kokboru"')
    sheet = _fenced_after(guide, "### Reading a match's score sheet", "text")
    (tmp_path / "kokboru.jsonl").write_text(script, encoding="utf-8")
    run = [sys.executable, "-m", "sagat"]
    subprocess.run(run + ["sim", "--script", "kokboru.jsonl", "--virtual", "--flash", "bout.img",
                          "--log-json", "bout-log.jsonl"], cwd=tmp_path, check=True,
                   capture_output=True, timeout=300)
    out = subprocess.run(run + ["logs", "show", "--image", "bout.img", "--game", "1"], cwd=tmp_path,
                         check=True, capture_output=True, text=True, timeout=120).stdout
    assert sheet.rstrip("\n") == out.rstrip("\n")


def _sagat_env():
    """`python -m sagat` of this tree (not of whatever checkout the venv's editable install names)."""
    import os
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "host"), str(ROOT / "firmware")]))


def test_the_readmes_script_example_does_what_the_readme_says(tmp_path):
    """Each action of the README's example script does what the sentence after it says, in the
    simulator: the game, left's move, a power cut the clock comes back from paused with the times
    of its last checkpoint, the resume, and right's move, the last line, that ends the run."""
    import json
    import subprocess
    import sys
    text = _readme()
    para = text[text.index("A script is one JSON action per line"):text.lower().index("a malformed line")]
    actions = [json.loads(x) for x in re.findall(r"`(\{.*?\})`", para.replace("\n", " "))]
    (tmp_path / "example.jsonl").write_text("".join(json.dumps(a) + "\n" for a in actions), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "sagat", "sim", "--script", "example.jsonl", "--virtual",
                          "--log-json", "log.jsonl"], cwd=tmp_path, env=_sagat_env(), capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0 and "warning" not in run.stderr, run.stderr  # no action refused
    events = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    # every line leaves its event in the log (a power cut: the restore at the next boot)
    logged = {"new": "settings", "start": "game_start", "press": "press", "power_cut": "power_restore",
              "resume": "resume"}
    assert [e["type"] for e in events] == [logged[a["do"]] for a in actions], (actions, events)
    boots = 1 + sum(a['do'] == 'power_cut' for a in actions)
    assert f"{boots} {'boot' if boots == 1 else 'boots'} on " in run.stderr, run.stderr
    # what the sentence says of them
    assert [a["do"] for a in actions] == ["new", "start", "press", "power_cut", "resume", "press"], actions
    assert "7-minute game" in para and actions[0]["tc"] == "420"
    _settings, start, left, restore, resume, right = events
    assert start["first"] == "left" and (left["side"], left["t"]) == ("left", actions[2]["at"])
    # right thought from left's move to the cut; the restore gives its time at the last checkpoint
    thought = actions[3]["at"] - actions[2]["at"]
    assert restore["running"] is None and 0 <= restore["right_ms"] - (420000 - thought) <= 15000, restore
    assert resume["running"] == "right" and right["side"] == "right" and right["right_moves"] == 1


def _quoted_port_lines():
    """The README's `sagat sim --serial...` commands of "Talk to a clock", each with the line it quotes
    (on its own line or the comment lines under it)."""
    block = _fenced_after(_readme(), "## Talk to a clock", "sh")
    found, command = {}, None
    for line in block.splitlines():
        if line.startswith("sagat sim"):
            command = line.split("#")[0].strip()
        elif not line.lstrip().startswith("#"):
            command = None
        if command:
            for quote in re.findall(r'"([^"]*/dev/pts/\d+[^"]*)"', line):
                found[command] = quote
    return found


def _as_pattern(quote):
    return re.compile(re.sub(r"/dev/pts/\d+", lambda _m: r"/dev/pts/\d+", re.escape(quote)))


def test_the_readmes_headless_sim_port_line_is_what_sagat_sim_prints(tmp_path):
    import subprocess
    import sys
    quotes = _quoted_port_lines()
    quote = quotes["sagat sim --serial --headless"]
    proc = subprocess.Popen([sys.executable, "-m", "sagat", "sim", "--serial", "--headless", "--flash",
                             str(tmp_path / "f.img")], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, text=True, env=_sagat_env())
    try:
        line = proc.stderr.readline().rstrip("\n")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert _as_pattern(quote).fullmatch(line), (quote, line)


def test_the_readmes_interactive_sim_port_line_is_on_its_screen(tmp_path):
    """`sagat sim --serial` in a terminal (a real pseudo-terminal, its controlling one): the line the
    README quotes stays on the screen under the faces (each frame is drawn from the top left)."""
    import fcntl
    import os
    import select
    import struct
    import subprocess
    import sys
    import termios
    import time
    quote = _quoted_port_lines()["sagat sim --serial"]
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "sagat", "sim", "--serial", "--flash", str(tmp_path / "f.img")],
                            stdin=slave, stdout=slave, stderr=slave, env=_sagat_env(), start_new_session=True,
                            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    out, frame = b"", None
    try:
        deadline = time.monotonic() + 120
        while frame is None and time.monotonic() < deadline and proc.poll() is None:
            if select.select([master], [], [], 0.5)[0]:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
            start = out.find(b"\x1b[H")
            end = out.find(b"\x1b[J", start)
            if start >= 0 and end > start:
                frame = out[start + 3:end].decode("utf-8", "replace")
        assert frame is not None, out[-2000:]
        os.write(master, b"q")  # powers off
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)
        os.close(master)
    lines = [line.replace("\x1b[K", "").strip("\r") for line in frame.split("\n")]
    assert any(_as_pattern(quote).fullmatch(line) for line in lines), (quote, lines)


def test_the_readmes_build_section_links_the_russian_hardware_docs():
    """Every hardware document the build steps name (parts, pin maps, bring-up) is linked there in
    Russian too, hardware/ru/<the same name>, and the link lands on a file."""
    sec = _build_section()
    named = {n for n in re.findall(r"(?<![\w./-])(?:hardware/)?([\w-]+\.md)\b", sec)
             if (ROOT / "hardware" / n).is_file()}
    assert {"parts.md", "pico.md", "esp32.md", "bringup.md"} <= named, named
    for name in sorted(named):
        assert f"](hardware/ru/{name})" in sec, name
        assert (ROOT / "hardware" / "ru" / name).is_file(), name
