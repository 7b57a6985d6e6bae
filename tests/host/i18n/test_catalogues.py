"""The `sagat` command's gettext catalogues (host/sagat/locale/{kk,ru,ky}/LC_MESSAGES/sagat.po and the
.mo beside each): the committed .mo is what Babel compiles from the .po; every msgid in host/sagat's
code is in each .po (`python tools/i18n.py update` adds new ones); what the arbiter's guide uses is
translated in all three; a translation keeps its msgid's placeholders; nothing is fuzzy."""

import importlib.util
import os
import re

import pytest

from conftest import ROOT

pytest.importorskip("babel", reason="Babel extracts and compiles the catalogues: install the dev extra")


def _tool():
    spec = importlib.util.spec_from_file_location("sagat_i18n_tool", os.path.join(ROOT, "tools", "i18n.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


tool = _tool()
LANGS = tool.LANGS  # kk, ru, ky

# the files of the commands the arbiter's guide uses (info, state, new, result, key, logs pull/verify/show),
# their errors, their --help, and argparse's own words: every msgid from these is translated
GUIDE_FILES = ("host/sagat/cli.py", "host/sagat/cliutil.py", "host/sagat/i18n.py",
               # the log's (what `logs show`, `logs verify` and `logs export` say)
               *(f"host/sagat/log/{m}.py" for m in ("decode", "flash", "pulled", "show", "code", "verify", "export")),
               "host/sagat/commands/admin.py", "host/sagat/commands/clock.py", "host/sagat/commands/game.py",
               "host/sagat/commands/logs.py",
               # and the other commands of this module set: tc, presets, deploy, sim (`sagat hall` and
               # `sagat report` are translated with the hall's and the report's pages)
               "host/sagat/commands/tc.py", "host/sagat/commands/deploy.py", "host/sagat/commands/sim.py",
               # the link's, a pull's, deploy's and the simulator's errors and notes (the protocol's and the
               # log's own words, and the line `sagat hall --sim` reads, stay as they are)
               "host/sagat/client.py", "host/sagat/pull.py", "host/sagat/firmware.py",
               "host/sagat/deploy/install.py", "host/sagat/deploy/protocol.py", "host/sagat/deploy/transport.py",
               "host/sagat/sim/board.py", "host/sagat/sim/runners.py", "host/sagat/sim/script.py")


@pytest.fixture(scope="module")
def extracted():
    return tool.extract()


@pytest.fixture(scope="module", params=LANGS)
def catalog(request):
    return request.param, tool.read(request.param)


def test_the_committed_mo_is_what_babel_compiles_from_the_po(catalog):
    lang, cat = catalog
    with open(tool.mo_path(lang), "rb") as fh:
        committed = fh.read()
    assert committed == tool.mo_bytes(cat), f"{lang}: the .mo is stale: run `python tools/i18n.py compile`"


def test_every_msgid_in_the_code_is_in_each_po(extracted, catalog):
    lang, cat = catalog
    have = {m.id for m in cat if m.id}
    missing = sorted(str(m.id) for m in extracted if m.id and m.id not in have)
    assert not missing, f"{lang}: not in the .po (run `python tools/i18n.py update`): {missing[:10]}"


def test_what_the_arbiters_guide_uses_is_translated(extracted, catalog):
    lang, cat = catalog
    guide = [m.id for m in extracted if m.id and any(loc[0] in GUIDE_FILES for loc in m.locations)]
    assert len(guide) > 200
    untranslated = [str(i) for i in guide if not tool.translated(cat[i])]
    assert not untranslated, f"{lang}: untranslated: {untranslated[:10]}"


def _placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"\{[^{}]*\}", text) + re.findall(r"%(?:\([a-z_]+\))?[a-z]", text))


def test_each_translation_keeps_its_msgids_placeholders(catalog):
    lang, cat = catalog
    for m in cat:
        if not m.id or not tool.translated(m) or m.context == "page:date":  # (the page's date: English {iso})
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = _placeholders(ids[-1])
        for s in strings:
            assert _placeholders(s) == want, (lang, m.id, s)
        assert all(_placeholders(i) == want for i in ids), m.id  # (singular and plural alike)


def test_nothing_is_fuzzy_and_the_header_asks_for_a_review(catalog):
    lang, cat = catalog
    assert not cat.fuzzy
    assert not [m.id for m in cat if m.id and m.fuzzy], lang
    with open(tool.po_path(lang), encoding="utf-8") as fh:
        head = fh.read(600)
    assert "await review by native-speaking arbiters" in head, head


def test_the_plural_forms_are_the_languages(catalog):
    lang, cat = catalog
    assert cat.num_plurals == (3 if lang == "ru" else 2)
    for m in cat:
        if isinstance(m.id, tuple) and tool.translated(m):
            assert len(m.string) == cat.num_plurals, (lang, m.id)
