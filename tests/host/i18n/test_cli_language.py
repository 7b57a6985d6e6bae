"""The `sagat` command in the arbiter's language, chosen by LANGUAGE / LC_ALL / LC_MESSAGES / LANG:
`--help` (argparse's own words too), errors and what it prints for a person in Kazakh, Russian or
Kyrgyz; machine output (--json, the log's fields) the same in every language."""

import json

import pytest
from imagekit import make_image
from langkit import sagat_in  # (its `lang` fixture: tests/conftest.py loads it)
from simkit import cli

from sagat.cli import main


def test_info_help_in_kazakh_has_no_english():
    """The arbiter's guide's first command, run as an arbiter runs it: LANG=kk_KZ.UTF-8 sagat info --help."""
    run = sagat_in("kk_KZ.UTF-8", "info", "--help")
    assert run.returncode == 0 and run.stderr == "", run.stderr
    out = run.stdout
    for kk in ("қолданылуы:", "опциялар", "осы анықтаманы көрсетіп, шығу", "Сағаттың өзі туралы мәліметі",
               "төреші кілті", "әр жауапты күту уақыты"):
        assert kk in out, (kk, out)
    for en in ("usage:", "options", "show this help message", "What the clock says", "arbiter key",
               "seconds to wait", "machine-readable", "default"):
        assert en not in out, (en, out)
    english = sagat_in("C", "info", "--help").stdout
    assert "usage: sagat info" in english and "What the clock says about itself" in english


@pytest.mark.parametrize("argv", [("info",), ("state",), ("new",), ("result",), ("key",), ("logs", "pull"),
                                  ("logs", "verify"), ("logs", "show")], ids=" ".join)
@pytest.mark.parametrize("locale, words", [
    ("kk_KZ.UTF-8", ("қолданылуы:", "осы анықтаманы көрсетіп, шығу")),
    ("ru_RU.UTF-8", ("использование:", "показать эту справку и выйти")),
    ("ky_KG.UTF-8", ("колдонуу:", "ушул жардамды көрсөтүп, чыгуу")),
])
def test_the_guides_commands_help_in_each_language(argv, locale, words, lang, capsys):
    lang(locale)
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    for w in words:
        assert w in out, (w, out)
    assert "usage:" not in out and "show this help message" not in out and "options:" not in out, out
    # every help text of these commands is translated: no English sentence is left (a word of three
    # Latin letters or more outside the options, metavars, file names and protocol words)
    prose = [line for line in out.splitlines() if " the " in line or " a " in line]
    assert not prose, prose


def test_russian_guide_terms(lang, capsys):
    lang("ru_RU.UTF-8")
    with pytest.raises(SystemExit):
        main(["result", "--help"])
    out = capsys.readouterr().out
    assert "флажке" in out and "партии" in out and "казанах" in out, out
    lang("kk_KZ.UTF-8")
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    out = capsys.readouterr().out
    assert "бастаушы" in out and "бақылау мерзімі" in out, out


@pytest.mark.parametrize("locale, want", [
    ("C", "sagat: cannot read {p}: No such file or directory"),
    ("ru_RU.UTF-8", "sagat: не удаётся прочитать {p}: No such file or directory"),
    ("kk_KZ.UTF-8", "sagat: {p} оқу мүмкін емес: No such file or directory"),
    ("ky_KG.UTF-8", "sagat: {p} окуу мүмкүн эмес: No such file or directory"),
])
def test_an_error_is_one_line_in_the_language(locale, want, lang, tmp_path, capsys):
    lang(locale)
    p = str(tmp_path / "none.bin")
    code, out, err = cli(capsys, "logs", "verify", "--records", p)
    assert code == 2 and out == "" and err == want.format(p=p) + "\n", err


def test_a_usage_error_is_in_the_language(lang, capsys):
    lang("ru_RU.UTF-8")
    with pytest.raises(SystemExit) as exc:
        main(["logs", "show", "--game", "x"])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert err == ("sagat logs show: аргумент --game: недопустимое значение int: 'x' "
                   "(см. sagat logs show --help)\n"), err
    lang("ky_KG.UTF-8")
    code, out, err = cli(capsys, "result", "2-0")
    assert code == 2 and err.startswith("sagat: натыйжа '2-0': беттештин жеңүүчүсү left, right же none"), err


def test_language_precedence_is_gettexts(lang, monkeypatch, capsys):
    """LANGUAGE first, then LC_ALL, LC_MESSAGES, LANG; an unknown language: English."""
    lang("ru_RU.UTF-8")
    monkeypatch.setenv("LANGUAGE", "ky")
    with pytest.raises(SystemExit):
        main(["state", "--help"])
    assert "колдонуу:" in capsys.readouterr().out
    monkeypatch.setenv("LANGUAGE", "fr")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    with pytest.raises(SystemExit):
        main(["state", "--help"])
    assert "usage: sagat state" in capsys.readouterr().out


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return make_image(tmp_path_factory.mktemp("img") / "keyed.img", key="sekret")


@pytest.mark.parametrize("argv", [
    ("logs", "show", "--json"),
    ("logs", "show", "--json", "--checkpoints"),
    ("logs", "export", "--format", "json"),
    ("logs", "export", "--format", "csv"),
    ("logs", "verify", "--json", "--key", "sekret"),
    ("logs", "verify", "--json"),  # (sealed: a usage error, its words the person's)
    ("logs", "verify", "--json", "--key", "sekret", "--game", "1", "--code", "000000"),
], ids=" ".join)
def test_machine_output_is_the_same_in_every_language(argv, image, lang, capsys):
    outs = {}
    for locale in ("C", "ru_RU.UTF-8", "kk_KZ.UTF-8", "ky_KG.UTF-8"):
        lang(locale)
        code, out, _err = cli(capsys, *argv, "--image", image)
        outs[locale] = (code, out)
    assert len(set(outs.values())) == 1, outs
    if "--json" in argv and outs["C"][1]:
        for line in outs["C"][1].splitlines():
            json.loads(line)


def test_logs_show_and_verify_for_a_person_in_russian(image, lang, capsys):
    lang("ru_RU.UTF-8")
    code, out, _ = cli(capsys, "logs", "show", "--image", image)
    assert code == 0 and "партия 1" in out and "событие" in out and "ходы" in out, out
    assert "game_start" in out  # the log's event names are its fields: never translated
    code, out, _ = cli(capsys, "logs", "verify", "--image", image, "--key", "sekret")
    assert code == 0 and out.startswith("OK: ") and "цепочка связывает каждую запись" in out, out
    lang("C")
    code, out, _ = cli(capsys, "logs", "verify", "--image", image, "--key", "sekret")
    assert code == 0 and "the chain links every record" in out, out


def test_a_clock_in_each_language_and_its_json_in_none(sim_port, lang, capsys):
    """new, state, info against the simulator: a person's words in the language, --json the same."""
    lang("ru_RU.UTF-8")
    code, out, err = cli(capsys, "new", "420", "--port", sim_port)
    assert code == 0 and out == "следующая партия: 420, первый игрок (начинающий) слева\n", (out, err)
    code, out, _ = cli(capsys, "state", "--port", sim_port)
    assert code == 0 and "ходы 0-0" in out and "подготовка" in out, out
    code, out, _ = cli(capsys, "info", "--port", sim_port)
    assert code == 0 and "ключ судьи" in out and "прошивка" in out and "партия" in out, out
    lang("kk_KZ.UTF-8")
    code, out, _ = cli(capsys, "info", "--port", sim_port)
    assert code == 0 and "төреші кілті" in out and "орнатылмаған (`sagat key`)" in out, out
    lang("ky_KG.UTF-8")
    code, out, _ = cli(capsys, "state", "--port", sim_port)
    assert code == 0 and "жүрүштөр 0-0" in out and "даярдалды" in out, out
    states, infos = {}, {}
    for locale in ("C", "ru_RU.UTF-8", "kk_KZ.UTF-8", "ky_KG.UTF-8"):
        lang(locale)
        state = json.loads(cli(capsys, "state", "--json", "--port", sim_port)[1])
        for k in ("id", "ticks"):  # (the request's own number, the clock's tick counter)
            state.pop(k)
        states[locale] = json.dumps(state, sort_keys=True)
        info = json.loads(cli(capsys, "info", "--json", "--port", sim_port)[1])
        info.pop("ticks", None)
        info["game"].pop("id", None)
        info["game"].pop("ticks", None)
        info.pop("uptime_ms", None)
        info.pop("loop_max_ms", None)
        for k in list(info):
            if k.startswith("heap"):
                info.pop(k)
        infos[locale] = json.dumps(info, sort_keys=True)
    assert len(set(states.values())) == 1, states
    assert len(set(infos.values())) == 1, infos
