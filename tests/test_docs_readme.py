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
