"""Decimal numbers in the `sagat` command's prose as each language writes them: 0.5 in English, 0,5 in
Kazakh, Russian and Kyrgyz (a timeout the user gave, a clock's heap in KB); --json keeps the point."""

import json
import re

import pytest
from fakedev import FakeDevice
from simkit import cli


@pytest.mark.parametrize("locale, want", [("C", "within 0.5 s"), ("kk_KZ.UTF-8", "0,5 с ішінде"),
                                          ("ru_RU.UTF-8", "за 0,5 с"), ("ky_KG.UTF-8", "0,5 сек ичинде")])
def test_a_timeout_is_said_with_the_languages_decimal_sign(locale, want, lang, capsys):
    """`sagat info --timeout 0.5` against a device that never answers: the error line says 0.5 s its way."""
    lang(locale)
    dev = FakeDevice("silent")
    try:
        code, out, err = cli(capsys, "info", "--port", dev.port, "--timeout", "0.5")
    finally:
        dev.close()
    assert code != 0 and want in err and err.count("\n") == 1, err


@pytest.mark.parametrize("locale, sign", [("C", "."), ("kk_KZ.UTF-8", ","), ("ru_RU.UTF-8", ","),
                                          ("ky_KG.UTF-8", ",")])
def test_the_clocks_heap_is_said_with_the_languages_decimal_sign(locale, sign, sim_port, lang, capsys):
    """`sagat info`'s heap line (KB with one decimal) under each LANG; --json gives the bytes as they are."""
    lang(locale)
    code, out, err = cli(capsys, "info", "--port", sim_port)
    assert code == 0, err
    heap = re.findall(r"(\d+)([.,])(\d) (?:KB|КБ)", out)
    assert len(heap) == 2 and {s for _i, s, _d in heap} == {sign}, out
    code, out, err = cli(capsys, "info", "--port", sim_port, "--json")
    assert isinstance(json.loads(out)["heap_used"], int)
