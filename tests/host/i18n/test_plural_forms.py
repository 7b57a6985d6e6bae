"""Counts in the arbiter's language: every count the `sagat` command prints goes through gettext's plural
forms (ngettext), each catalogue's Plural-Forms header holds its language's rule (CLDR's, as Babel has it),
and a message that formats a count without ngettext is found in the sources."""

import ast
import gettext
import json
import os
import re

import pytest
from babel import Locale
from babel.messages.pofile import read_po
from simkit import cli

from conftest import ROOT

HOST = os.path.join(ROOT, "host", "sagat")
LOCALE = os.path.join(HOST, "locale")
NEW = {"at": 0, "do": "new", "tc": "60", "first": "left"}


def _events_game(capsys, tmp_path, n):
    """A flash whose game 1 the log shows as n events: its settings, its start, then n - 2 presses."""
    lines = [NEW] + ([{"at": 1000, "do": "start"}] if n > 1 else [])
    lines += [{"at": 2000 + 500 * i, "do": "press", "side": "left" if i % 2 == 0 else "right"} for i in range(n - 2)]
    script = tmp_path / f"game{n}.jsonl"
    script.write_text("".join(json.dumps(x) + "\n" for x in lines))
    flash = str(tmp_path / f"flash{n}.img")
    rc, _out, err = cli(capsys, "sim", "--script", str(script), "--flash", flash, "--virtual")
    assert rc == 0, err
    return flash


@pytest.mark.parametrize("n, form", [(1, "событие записано"), (2, "события записаны"), (5, "событий записано"),
                                     (11, "событий записано"), (21, "событие записано"),
                                     (22, "события записаны"), (25, "событий записано")])
def test_russian_event_count_takes_its_plural_form(n, form, lang, capsys, tmp_path):
    """`logs export --output` under LANG=ru_RU.UTF-8: 1 событие, 2 события, 5 событий, 11 событий, 21 событие."""
    flash = _events_game(capsys, tmp_path, n)
    out = str(tmp_path / "events.csv")
    lang("C")
    code, _out, err = cli(capsys, "logs", "export", "--image", flash, "--game", "1", "--output", out)
    assert code == 0 and err == f"{n} {'event' if n == 1 else 'events'} written to {out}\n", err
    lang("ru_RU.UTF-8")
    code, _out, err = cli(capsys, "logs", "export", "--image", flash, "--game", "1", "--output", out)
    assert code == 0 and err == f"{n} {form} в {out}\n", err


@pytest.mark.parametrize("locale, want", [("kk_KZ.UTF-8", "{out} ішіне {n} оқиға жазылды"),
                                          ("ky_KG.UTF-8", "{out} ичине {n} окуя жазылды")])
def test_kazakh_and_kyrgyz_nouns_stay_singular_after_a_count(locale, want, lang, capsys, tmp_path):
    """Kazakh and Kyrgyz say 5 оқиға / 5 окуя (the noun singular after a numeral), the same for 1."""
    for n in (1, 5):
        flash = _events_game(capsys, tmp_path, n)
        out = str(tmp_path / f"events{n}.csv")
        lang(locale)
        code, _out, err = cli(capsys, "logs", "export", "--image", flash, "--game", "1", "--output", out)
        assert code == 0 and err == want.format(out=out, n=n) + "\n", err


def _cldr_form(lang, n):
    """The gettext form index of n by CLDR's rule for lang (Babel's table): Russian one, few, many; the
    others one, other."""
    category = Locale.parse(lang).plural_form(n)
    order = {"ru": ("one", "few", "many")}.get(lang, ("one", "other"))
    return order.index(category)


@pytest.mark.parametrize("lang, nplurals", [("ru", 3), ("kk", 2), ("ky", 2)])
def test_plural_forms_headers_are_the_languages_rule(lang, nplurals):
    """Each catalogue's Plural-Forms (the .po's and its compiled .mo's) picks CLDR's form for 0..1000."""
    folder = os.path.join(LOCALE, lang, "LC_MESSAGES")
    with open(os.path.join(folder, "sagat.po"), "rb") as fh:
        po = read_po(fh, locale=lang)
    header = dict(po.mime_headers)["Plural-Forms"]
    m = re.fullmatch(r"nplurals=(\d+); plural=(.+);", header.strip())
    assert m and int(m.group(1)) == nplurals, header
    plural = gettext.c2py(m.group(2))
    with open(os.path.join(folder, "sagat.mo"), "rb") as fh:
        mo = gettext.GNUTranslations(fh)
    for n in range(1001):
        assert plural(n) == _cldr_form(lang, n), (lang, n, plural(n))
        assert mo.plural(n) == plural(n), (lang, n)


@pytest.mark.parametrize("lang, nplurals", [("ru", 3), ("kk", 2), ("ky", 2)])
def test_every_plural_message_has_all_its_forms(lang, nplurals):
    """Each msgid_plural has nplurals msgstr[], filled, each with the msgid's placeholders."""
    with open(os.path.join(LOCALE, lang, "LC_MESSAGES", "sagat.po"), "rb") as fh:
        po = read_po(fh, locale=lang)
    plurals = [m for m in po if m.id and m.pluralizable]
    assert len(plurals) >= 30
    for m in plurals:
        fields = set(re.findall(r"\{(\w+)", m.id[1]))
        assert len(m.string) == nplurals and all(m.string), m.id
        for form in m.string:
            assert set(re.findall(r"\{(\w+)", form)) == fields, (m.id, form)


# A count in a message: a field named n, k or count (these names are kept for counts: an ordinal is
# {number}, a line {line}), or a field before a noun it counts, an adjective between at most
# ("{size} raw bytes", "{lead} points"; not "{time} of match time", "{time} this period"); units'
# abbreviations (s, ms, KB, V) do not inflect.
COUNT_FIELDS = {"n", "k", "count"}
NOUNS = ("record", "event", "game", "board", "clock", "move", "byte", "file", "module", "segment", "kumalak",
         "point", "period", "boot", "character", "anchor", "error", "gap", "field", "player", "second",
         "minute", "entry", "entries")
NOT_BETWEEN = ("of", "in", "on", "at", "to", "this", "that", "the", "its", "their")
COUNTED = re.compile(r"\{(\w+)[^}]*\}(?: (?!(?:" + "|".join(NOT_BETWEEN) + r")\b)\w+)? (?:" + "|".join(NOUNS)
                     + r")s?\b")


def counted_fields(text):
    fields = {f for f in re.findall(r"\{(\w+)", text) if f in COUNT_FIELDS}
    return fields | set(COUNTED.findall(text))


def test_counting_messages_go_through_ngettext():
    """No `_()` / `N_()` message of host/sagat formats a count: those are ngettext's."""
    found = []
    for folder, _dirs, files in os.walk(HOST):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            for node in ast.walk(tree):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "N_")
                        and node.args and isinstance(node.args[0], ast.Constant)
                        and isinstance(node.args[0].value, str)):
                    fields = counted_fields(node.args[0].value)
                    if fields:
                        found.append(f"{os.path.relpath(path, ROOT)}:{node.lineno}: {sorted(fields)} in "
                                     f"{node.args[0].value!r}")
    assert not found, "\n".join(found)


def test_the_rule_finds_counts_and_leaves_the_rest():
    """The walk's rule on messages it must find and messages it must leave."""
    for counted in ("{n} events in {file}", "sent {got} of the {n} bytes", "{size} raw bytes",
                    "more than {lead} points", "{written} files written", "{n} segment(s) erased"):
        assert counted_fields(counted), counted
    for not_counted in ("game {game}", "stoppage {number} starts", "within {seconds} s", "{kb:.1f} KB",
                        "moves {left}-{right}", "{result} kazans {left}-{right}", "{side} wins the lot",
                        "{time} of match time", "stopped {time} this period", "{script} line {line}: {why}"):
        assert not counted_fields(not_counted), not_counted
