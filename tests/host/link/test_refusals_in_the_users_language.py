"""The clock's refusals said in the user's language (sagat/reasons.py, docs/protocol.md "Reason codes"): a
refusal over a real pseudo-terminal from the simulator, under LANG=kk_KZ.UTF-8, names no English word; every
reason code the firmware can send has its sentence here and a translation in kk, ru and ky; a code this host
does not know (a newer clock) is said in the clock's own text."""

import ast
import json
import os
import re
import time

import pytest
from babel.messages.pofile import read_po
from fakedev import ScriptedClock
from langkit import sagat_in
from simkit import Sim, cli

from conftest import FIRMWARE, ROOT
from sagat import client, reasons
from sagatfw.engine import clock as C
from sagatfw.engine import matchwords as M

RULE_ID = re.compile(r"\b[A-Z]{2}-[A-Z]?\d+(\.\d+)?\b")  # TK-R7, KT-5.5: the rule books' IDs, not words


def _english_words(text: str) -> list[str]:
    """The Latin words left in a line of the command's output once its name (`sagat`) and rule IDs are gone."""
    text = RULE_ID.sub("", text.replace("sagat", ""))
    return re.findall(r"[A-Za-z]{2,}", text)


@pytest.fixture
def this_tree(monkeypatch):
    """The simulator and the `sagat` processes run this tree's firmware and host, not the venv's install."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([os.path.join(ROOT, "host"), FIRMWARE]))


def test_a_refusal_under_kazakh_over_a_pty_says_no_english_word(tmp_path, capsys, this_tree):
    sim = Sim(tmp_path, [])
    try:
        assert cli(capsys, "new", "--port", sim.port, "2")[0] == 0
        assert cli(capsys, "start", "--port", sim.port)[0] == 0
        run = sagat_in("kk_KZ.UTF-8", "key", "--port", sim.port, "abcd")  # the key changes between games only
        assert run.returncode != 0 and "кілті" in run.stderr, run.stderr
        assert _english_words(run.stderr) == [], run.stderr
        deadline = time.monotonic() + 30
        while not json.loads(cli(capsys, "state", "--port", sim.port, "--json")[1])["left"]["flag"]:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        run = sagat_in("kk_KZ.UTF-8", "result", "--port", sim.port, "1-0")  # left's flag: the kazans needed
        assert run.returncode != 0 and "жалаушасы" in run.stderr, run.stderr
        assert _english_words(run.stderr) == [], run.stderr
    finally:
        sim.stop()


def _codes_the_firmware_sends() -> set:
    """Every reason code in the firmware's source: the code argument of each sagatfw.Refused raised (its
    second; engine/kazans.py's ValueErrors' too) and of each wire.Error (its third), and the codes refusal()
    picks (ui/actions.py). A refusal raised without a code fails here, so that a new one cannot reach a user
    in English."""
    codes, missing = set(), []
    for folder, _dirs, files in os.walk(os.path.join(FIRMWARE, "sagatfw")):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            tree = ast.parse(open(path, encoding="utf-8").read())
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef) and node.name == "refusal":
                    for a in ast.walk(node):  # code = "...", or a dict's value, or .get()'s default
                        names = [t.id for t in getattr(a, "targets", ()) if isinstance(t, ast.Name)]
                        if isinstance(a, ast.Assign) and names == ["code"]:
                            keys = {id(k) for d in ast.walk(a.value) if isinstance(d, ast.Dict) for k in d.keys}
                            codes |= {c.value for c in ast.walk(a.value) if isinstance(c, ast.Constant)
                                      and isinstance(c.value, str) and id(c) not in keys}
                if not isinstance(node, ast.Call):
                    continue
                f = node.func
                fname = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                where = f"{os.path.relpath(path, ROOT)}:{node.lineno}"
                if fname == "Refused" or (fname == "ValueError" and len(node.args) > 1):  # (kazans.py's)
                    at = 1
                elif fname == "Error" and node.args and isinstance(node.args[0], ast.Attribute) \
                        and node.args[0].attr in ("REFUSED",):
                    at = 2
                else:
                    continue
                arg = node.args[at] if len(node.args) > at else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    codes.add(arg.value)
                elif not (fname == "Refused" and isinstance(arg, ast.Name) and arg.id == "code"):  # refusal()'s
                    missing.append(where)
    assert not missing, f"refusals without a reason code: {missing}"
    return codes


def _msgids(code: str) -> list[str]:
    if code in reasons.BY_PART:
        name, texts = reasons.BY_PART[code]
        assert set(M.STATE_NAMES if name == "state" else ("left", "right")) <= set(texts), (code, texts)
        return list(texts.values())
    assert code in reasons.REASONS, f"reason code {code} has no sentence in sagat/reasons.py"
    return [reasons.REASONS[code]]


def test_every_reason_code_the_firmware_can_send_is_translated_in_kk_ru_ky():
    codes = _codes_the_firmware_sends()
    assert {"key_between_games", "flag_needs_kazans", "match_state", "state_pause", "no_flag"} <= codes, codes
    wanted = {m for c in codes for m in _msgids(c)}
    wanted |= set(reasons.STATES.values()) | set(reasons.MODES.values())  # the parts said as words
    assert set(C.STATE_NAMES) | set(M.STATE_NAMES) <= set(reasons.STATES)
    for lang in ("kk", "ru", "ky"):
        with open(os.path.join(ROOT, "host", "sagat", "locale", lang, "LC_MESSAGES", "sagat.po"), "rb") as f:
            cat = read_po(f)
        untranslated = sorted(m for m in wanted if not (cat.get(m) and cat.get(m).string and not cat.get(m).fuzzy))
        assert not untranslated, (lang, untranslated)


def _refusing_clock(error: dict) -> ScriptedClock:
    def answer(req):
        if req.get("cmd") == "identify":
            return {"uid": "e6614103e7", "firmware": "9.9.9", "protocol": 2, "board": "sim", "key_set": False}
        return json.dumps({"id": req.get("id"), "ok": False, "error": error}).encode() + b"\n"

    return ScriptedClock(answer)


@pytest.mark.parametrize("error", [
    {"code": "refused", "message": "pause: a reason of a newer clock", "why": "from_a_newer_clock"},
    {"code": "refused", "message": "pause: a reason of a newer clock", "why": "state_pause", "with": {"state": "warp"}},
], ids=["unknown code", "unknown part"])
def test_a_reason_this_host_does_not_know_is_said_in_the_clocks_own_text(error, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "kk")
    dev = _refusing_clock(error)
    try:
        with client.Clock(dev.port) as clock, pytest.raises(client.LinkError) as e:
            clock.request("pause")
        assert "a reason of a newer clock" in e.value.text() and e.value.why is None
    finally:
        dev.close()
