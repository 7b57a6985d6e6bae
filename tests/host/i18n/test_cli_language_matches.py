"""The rest of the `sagat` command in the arbiter's language: a match's score sheet (`sagat logs show`
of a kok-boru bout and a kilithattu match played by the simulator), the link's errors (client.py:
no clock, a port that cannot be opened, the clock's refusals said from their reason codes),
`sagat tc`'s explanation, the settings', the simulator's and deploy's errors. Machine output (--json,
CSV, a script's --log-json) is the same in every language, and a link's or a log's error stays
English where the hall reads it (str(e)), whatever the language."""

import json
import re

import pytest
from langkit import sagat_in  # (its `lang` fixture: tests/conftest.py loads it)
from matchscripts import KILITHATTU, KOKBORU
from simkit import cli

LOCALES = ("C", "ru_RU.UTF-8", "kk_KZ.UTF-8", "ky_KG.UTF-8")


def _play(folder, lines, name):
    """The simulator plays a match script onto a fresh flash image (in English: its own output is
    not under test here); returns the image's path."""
    script = folder / f"{name}.jsonl"
    script.write_text("".join(json.dumps(x) + "\n" for x in lines))
    flash = folder / f"{name}.img"
    run = sagat_in("C", "sim", "--script", str(script), "--flash", str(flash), "--virtual")
    assert run.returncode == 0, run.stderr
    return str(flash)


@pytest.fixture(scope="module")
def bout(tmp_path_factory):
    """The kok-boru bout of matchscripts.py: scores, a warning, a stoppage, an undo, the rest, golden score."""
    return _play(tmp_path_factory.mktemp("bout"), KOKBORU, "kb")


@pytest.fixture(scope="module")
def innings(tmp_path_factory):
    """The kilithattu match of matchscripts.py: changeovers, a tie, both lots, a referee's result."""
    return _play(tmp_path_factory.mktemp("innings"), KILITHATTU, "kt")


# ------------------------------------------------------------------ the match's score sheet


def test_a_kokboru_score_sheet_in_russian_as_an_arbiter_runs_it(bout):
    run = sagat_in("ru_RU.UTF-8", "logs", "show", "--image", bout)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    out = run.stdout
    for ru in ("партия 1: матч кок-бору (бланк записи), разница 8 (разница больше 8 очков сразу даёт победу, KB-14)",
               "период", "счёт", "матч кок-бору настроен",
               "1-й тайм — начало: 4:00 матчевого времени, по старту судьи",
               "ОЧКИ слева +4 (запись 1)", "КАРТОЧКА справа: предупреждение (запись 2)",
               "остановка 1 — начало: матчевое время остановлено", "ОТМЕНА записи 3: справа +2 снято",
               "перерыв — начало (1:00)", "золотое очко", "прямой отсчёт, побеждает первое очко",
               "периоды: 1-й тайм 4-4 (остановлено 0:10.000); 2-й тайм 6-6; золотое очко 6-7",
               "результат: побеждает сторона справа, 6-7: первое очко в дополнительное время «золотое очко» (KB-17)"):
        assert ru in out, (ru, out)
    sheet = out[out.index("партия 1"):]
    for en in ("match", "score sheet", "SCORE", "CARD", "UNDO", "RESULT", "starts", "ends", "stoppage", "result:",
               "periods:", "golden score", "1st half", "rest", "left", "right", "wins", "of match time"):
        assert en not in sheet, (en, sheet)
    english = sagat_in("C", "logs", "show", "--image", bout).stdout
    assert "game 1: kokboru match (score sheet), lead 8" in english
    assert "result: right wins 6-7: the first score in golden score (KB-17)" in english


@pytest.mark.parametrize("locale, words", [
    ("ru_RU.UTF-8", ("матч килитатту (бланк записи)", "первой входит команда слева", "смена команд 1:00",
                     "ЖРЕБИЙ 1 (KT-4.6, жребий часов): в дополнительное время первой входит команда слева",
                     "иннинг 2 — начало: 7:00 матчевого времени, часами по окончании «смена команд»",
                     "РЕЗУЛЬТАТ ничья 2-2: решение судьи (заменяет прежний результат)",
                     "результат: ничья 2-2: решение судьи")),
    ("kk_KZ.UTF-8", ("ойын 1: килитатту кездесуі (жазу бланкасы)", "бірінші сол жақ кіреді",
                     "командалардың ауысуы 1:00", "иннинг 1 басталды: кездесу уақытының 7:00, төрешінің бастауымен",
                     "ЖЕРЕБЕ 2 (KT-4.6, сағаттың жеребесі)", "нәтиже: тең 2-2: төрешінің шешімі")),
    ("ky_KG.UTF-8", ("1-оюн: килитатту беттеши (жазуу бланкы)", "биринчи сол тарап кирет",
                     "ЧҮЧҮКУЛАК 1 (KT-4.6, сааттын чүчүкулагы)", "мезгилдер: иннинг 1 2-0 (0:30.000 токтотулду)",
                     "натыйжа: тең чыгуу 2-2: калыстын киргизүүсү")),
])
def test_a_kilithattu_score_sheet_in_each_language(innings, locale, words, lang, capsys):
    lang(locale)
    code, out, err = cli(capsys, "logs", "show", "--image", innings)
    assert code == 0 and err == "", err
    for w in words:
        assert w in out, (w, out)
    sheet = out[out.index(" 1:"):]
    for en in ("match", "score sheet", "LOT", "RESULT", "innings 1", "changeover", "enters", "a draw", "extra 1"):
        assert en not in sheet, (en, sheet)
    assert "method lot" in out or "lot (KT-4.6)" in out  # the option's value (`sagat new --method lot`) as typed


def test_a_match_score_sheet_in_english_is_as_before(innings, lang, capsys):
    """The source text is the English score sheet the logs tests read (their assertions stand)."""
    lang("C")
    code, out, _ = cli(capsys, "logs", "show", "--image", innings)
    assert code == 0
    assert "game 1: kilithattu match (score sheet), left enters first, changeover 1:00, a tie after the extra " \
           "time: lot (KT-4.6), lots drawn from seed 7 (a script's)" in out
    assert f"{'seq':>6}  {'t':>10}  {'period':<13} {'time':>9}  {'score':>7}  what" in out
    assert "RESULT a draw 2-2: the referee's entry (it replaces the result before)" in out
    assert "by the clock at the changeover's end; right enters" in out


@pytest.mark.parametrize("argv", [
    ("logs", "show", "--json"),
    ("logs", "show", "--json", "--checkpoints"),
    ("logs", "show", "--json", "--game", "1"),
    ("logs", "export", "--format", "json"),
    ("logs", "export", "--format", "csv"),
    ("logs", "export", "--format", "csv", "--checkpoints"),
    ("logs", "verify", "--json"),
], ids=" ".join)
@pytest.mark.parametrize("which", ["bout", "innings"])
def test_a_matchs_machine_output_is_byte_identical_in_every_language(argv, which, request, lang, capsys):
    image = request.getfixturevalue(which)
    outs = {}
    for locale in LOCALES:
        lang(locale)
        code, out, _err = cli(capsys, *argv, "--image", image)
        outs[locale] = (code, out)
    assert len(set(outs.values())) == 1, outs
    code, out = outs["C"]
    assert code == 0 and out
    if "csv" in argv:
        head = out.splitlines()[0]
        assert head.startswith("game,seq,type,t,") and "period_name" in head, head
        assert "1st half" in out or "innings 1" in out  # the log's own values, never translated
    else:
        for line in out.splitlines():
            json.loads(line)


def test_the_csv_file_that_export_writes_is_the_same_in_every_language(bout, lang, capsys, tmp_path):
    files = {}
    for locale in LOCALES:
        lang(locale)
        path = tmp_path / f"{locale}.csv"
        code, out, err = cli(capsys, "logs", "export", "--image", bout, "-o", str(path))
        assert code == 0 and out == "", out
        if locale == "ru_RU.UTF-8":  # (the note on stderr is the person's)
            assert re.fullmatch(rf"\d+ (событие записано|события записаны|событий записано) в {re.escape(str(path))}\n",
                                err), err
        files[locale] = path.read_bytes()
    assert len(set(files.values())) == 1


def test_a_scripts_log_json_is_the_same_in_every_language(tmp_path):
    """`sagat sim --script --log-json`: the events file is machine output."""
    script = tmp_path / "kb.jsonl"
    script.write_text("".join(json.dumps(x) + "\n" for x in KOKBORU))
    got = {}
    for locale in ("C", "kk_KZ.UTF-8"):
        out = tmp_path / f"{locale}.jsonl"
        run = sagat_in(locale, "sim", "--script", str(script), "--flash", str(tmp_path / f"{locale}.img"), "--virtual",
                     "--log-json", str(out))
        assert run.returncode == 0, run.stderr
        got[locale] = [{k: v for k, v in json.loads(line).items() if k != "wall"}
                       for line in out.read_text().splitlines()]
        if locale != "C":  # the note on stderr is the person's
            assert "сценарий орындалды" in run.stderr and "script done" not in run.stderr, run.stderr
    assert got["C"] == got["kk_KZ.UTF-8"] and got["C"]


def test_a_log_that_cannot_be_read_is_one_line_in_the_language(lang, capsys, tmp_path):
    lang("ru_RU.UTF-8")
    p = str(tmp_path / "none.img")
    code, out, err = cli(capsys, "logs", "show", "--image", p)
    assert code == 2 and out == "" and err == f"sagat: не удаётся прочитать образ {p}: No such file or directory\n", err
    junk = tmp_path / "junk.img"
    junk.write_bytes(b"x" * 1000)
    lang("kk_KZ.UTF-8")
    code, out, err = cli(capsys, "logs", "show", "--image", str(junk))
    assert code == 2 and err.startswith(f"sagat: {junk} littlefs бейнесі емес (тексерілген блок өлшемдері: "), err
    erased = tmp_path / "erased.img"
    erased.write_bytes(b"\xff" * 8192)  # (an erased flash: a filesystem without the log's folder)
    lang("ky_KG.UTF-8")
    code, out, err = cli(capsys, "logs", "show", "--image", str(erased))
    assert code == 2 and err == f"sagat: {erased} ичинде журнал жок (/log папкасы жок): бул sagat саатынын " \
                                "флеш-эстутумубу?\n", err


def test_a_log_error_stays_english_for_the_hall(lang):
    """decode.LogError: str() is what the hall shows and matches (English in every language); text() the
    command's line in the user's language."""
    from sagat.log import decode
    from sagat.log.flash import read_image

    lang("kk_KZ.UTF-8")
    with pytest.raises(decode.LogError) as e:
        read_image("/nonexistent/flash.img")
    assert str(e.value) == "cannot read image /nonexistent/flash.img: No such file or directory"
    assert e.value.text() == "/nonexistent/flash.img бейнесін оқу мүмкін емес: No such file or directory"


# ------------------------------------------------------------------ the link (client.py)


def test_a_port_that_cannot_be_opened_in_kazakh_as_an_arbiter_runs_it():
    run = sagat_in("kk_KZ.UTF-8", "info", "--port", "/dev/nonexistent")
    assert run.returncode == 2 and run.stdout == "", run
    assert "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 1, run.stderr
    assert run.stderr.startswith("sagat: /dev/nonexistent ашу мүмкін емес: "), run.stderr
    assert "(плата қосылған ба? `sagat ports` USB-дегі сағаттарды тізеді)" in run.stderr, run.stderr
    for en in ("cannot open", "is the board plugged in", "lists clocks"):
        assert en not in run.stderr, run.stderr
    english = sagat_in("C", "info", "--port", "/dev/nonexistent")
    assert english.returncode == 2
    assert english.stderr.startswith("sagat: cannot open /dev/nonexistent: ") and \
        "(is the board plugged in? `sagat ports` lists clocks on USB)" in english.stderr, english.stderr


@pytest.mark.parametrize("locale, want", [
    ("C", "sagat: no clock found on USB (give --port, e.g. /dev/ttyACM0 or the simulator's pty)\n"),
    ("ru_RU.UTF-8", "sagat: часы на USB не найдены (укажите --port, например /dev/ttyACM0 или pty симулятора)\n"),
    ("ky_KG.UTF-8", "sagat: USB'де саат табылган жок (--port бериңиз, мисалы /dev/ttyACM0 же симулятордун pty'и)\n"),
])
def test_no_clock_on_usb_in_the_language(locale, want, lang, capsys, monkeypatch):
    from sagat import client

    monkeypatch.setattr(client, "find_ports", lambda: [])
    lang(locale)
    code, out, err = cli(capsys, "state")
    assert code == 2 and out == "" and err == want, err


def test_several_clocks_in_russian(lang, capsys, monkeypatch):
    from sagat import client

    monkeypatch.setattr(client, "find_ports", lambda: [client.Port("/dev/ttyACM0", "Pico", None),
                                                       client.Port("/dev/ttyACM1", "Pico", None)])
    lang("ru_RU.UTF-8")
    code, out, err = cli(capsys, "info")
    assert code == 2 and err == "sagat: найдено несколько часов: /dev/ttyACM0, /dev/ttyACM1 (укажите --port)\n", err


def test_a_link_error_is_english_for_the_hall_and_the_users_language_for_the_command(lang):
    """client.LinkError: str() stays English in every language (the hall shows it); text() is the
    command's line in the user's language. A lost link (the port failed, or no answer) is its own
    type, LinkLost: the hall tells it by the type, never by the words."""
    import errno

    from sagat import client

    lang("kk_KZ.UTF-8")
    lost = client.port_error("/dev/p1", OSError(errno.EIO, "Input/output error"), client.LOST)
    assert str(lost) == "serial link lost on /dev/p1: Input/output error"
    assert isinstance(lost, client.LinkLost)
    assert lost.text() == "/dev/p1 сериялық байланысы үзілді: Input/output error"
    busy = client.port_error("/dev/p1", OSError(errno.EBUSY, "busy"))
    assert not isinstance(busy, client.LinkLost)  # (a port that does not open: nothing was lost)
    assert str(busy).startswith("cannot open /dev/p1: ") and str(busy).endswith("mpremote, a serial monitor, Thonny)")
    assert busy.text().startswith("/dev/p1 ашу мүмкін емес: ") and "басқа бағдарлама" in busy.text()
    clock = client.Clock.__new__(client.Clock)  # (the silence's words only: no port behind it)
    clock.port, clock.timeout, clock.echoed, clock.junk = "/dev/p1", 2.0, False, b""
    silent = clock._silence("state")
    assert str(silent) == ("no answer from the clock on /dev/p1 to state within 2 s (is it a sagat clock? "
                           "`sagat info` says what answers there)")
    assert silent.text().startswith("/dev/p1 сағаты 2 с ішінде state сұрауына жауап бермеді")
    assert isinstance(silent, client.LinkLost)
    clock.echoed = True
    echo = clock._silence("state")
    assert isinstance(echo, client.NotAClock) and echo.kind == "echo"
    assert str(echo).startswith("/dev/p1 is not a sagat clock: it echoes what it is sent")
    assert echo.why().startswith("ол жіберілгенді кері қайтарады")
    plain = client.LinkError("the clock is not connected")  # (the hall's own, as before)
    assert str(plain) == plain.text() == "the clock is not connected"


def test_the_clocks_refusal_is_said_in_the_language_from_its_reason_code(sim_port, lang, capsys):
    """A refusal the clock gives with a reason code (sagat/reasons.py) is said whole in the user's
    language; in English it is the clock's own reason."""
    lang("C")
    code, out, err = cli(capsys, "toss", "left", "--port", sim_port)
    assert code == 2 and err == "sagat: the clock refused: no match is set up: this is a match's action " \
        "(set up a match first)\n", err
    lang("kk_KZ.UTF-8")
    code, out, err = cli(capsys, "toss", "left", "--port", sim_port)
    assert code == 2 and err == "sagat: сағат бас тартты: кездесу дайындалмаған: бұл кездесудің әрекеті " \
        "(алдымен кездесу дайындаңыз)\n", err


def test_a_matchs_state_in_russian_and_its_json_in_none(sim_port, lang, capsys):
    lang("C")
    code, out, err = cli(capsys, "new", "--mode", "kokboru", "--port", sim_port)
    assert code == 0, err
    lang("ru_RU.UTF-8")
    code, out, err = cli(capsys, "state", "--port", sim_port)
    assert code == 0 and out == "кок-бору 1-й тайм 4:00  |  слева 0 - справа 0  |  подготовка\n", out
    lang("C")
    code, out, _ = cli(capsys, "state", "--port", sim_port)
    assert out == "kokboru 1st half 4:00  |  left 0 - right 0  |  setup\n", out
    states = {}
    for locale in LOCALES:
        lang(locale)
        st = json.loads(cli(capsys, "state", "--json", "--port", sim_port)[1])
        for k in ("id", "ticks"):
            st.pop(k, None)
        states[locale] = json.dumps(st, sort_keys=True)
    assert len(set(states.values())) == 1, states
    lang("C")
    assert cli(capsys, "new", "420", "--port", sim_port)[0] == 0  # (a game again, for whatever comes next)


# ------------------------------------------------------------------ tc, settings, sim, deploy


def test_tc_explains_in_kazakh_as_an_arbiter_runs_it():
    run = sagat_in("kk_KZ.UTF-8", "tc", "300+2")
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert run.stdout == "300+2\nекі жақ та:\n  1-кезең: ойынның қалған бөлігіне 5:00, Фишер 2 с\n", run.stdout
    english = sagat_in("C", "tc", "300+2").stdout
    assert english == "300+2\nboth sides:\n  stage 1: 5:00 for the rest of the game, Fischer 2 s\n", english


@pytest.mark.parametrize("control, locale, words", [
    ("40/5400+30:1800+30", "ru_RU.UTF-8", ("обе стороны:", "этап 1: 40 ходов за 1:30:00, Фишер 30 с",
                                           "этап 2: 30:00 до конца партии, Фишер 30 с")),
    ("40/7200:1/60", "ru_RU.UTF-8", ("этап 2: 1 ход за 1:00 (повторяется)",)),
    ("300+2|180d3", "ky_KG.UTF-8", ("сол:", "оң:", "1-этап: оюндун калган бөлүгүнө 3:00, кечиктирүү 3 сек")),
    ("*300", "kk_KZ.UTF-8", ("құм сағат 5:00: бір жақ пайдаланған уақыт екінші жаққа өтеді",)),
])
def test_tc_in_each_language(control, locale, words, lang, capsys):
    lang(locale)
    code, out, err = cli(capsys, "tc", control)
    assert code == 0, err
    for w in words:
        assert w in out, (w, out)
    assert "stage" not in out and "both sides" not in out and "rest of the game" not in out, out


def test_tc_and_presets_json_is_the_same_in_every_language(lang, capsys):
    for argv in (("tc", "--json", "40/5400+30:1800+30"), ("tc", "--json", "300+2|180+2"), ("presets", "--json")):
        outs = set()
        for locale in LOCALES:
            lang(locale)
            code, out, _ = cli(capsys, *argv)
            assert code == 0
            outs.add(out)
        assert len(outs) == 1, argv


def test_an_unknown_preset_in_russian(lang, capsys):
    lang("ru_RU.UTF-8")
    code, out, err = cli(capsys, "tc", "tk-blits")
    assert code == 2 and err == "sagat: неизвестный шаблон 'tk-blits': может быть, tk-blitz? sagat presets покажет " \
                                "список\n", err


@pytest.mark.parametrize("argv, locale, want", [
    (("settings", "sound=maybe"), "ru_RU.UTF-8", "sagat: settings: sound — on или off, а не 'maybe'\n"),
    (("settings", "lang=de"), "kk_KZ.UTF-8", "sagat: settings: lang мыналардың бірі: en, kk, ru, ky, 'de' емес\n"),
    (("settings", "low_time_ms=soon"), "ky_KG.UTF-8",
     "sagat: settings: low_time_ms — 0..360000000 аралыгындагы бүтүн сан, 'soon' эмес\n"),
    (("settings", "freeze=maybe"), "ru_RU.UTF-8", "sagat: settings: freeze — auto, on или off, а не 'maybe'\n"),
    (("settings", "sound"), "kk_KZ.UTF-8", "sagat: settings: 'sound' KEY=VALUE емес\n"),
    (("sim", "--virtual"), "kk_KZ.UTF-8", "sagat: --virtual және --log-json үшін --script керек\n"),
    (("sim", "--play", "1"), "ru_RU.UTF-8", "sagat: --play делает ходы на часах, обслуживающих связь: используйте его "
                                            "с --serial\n"),
])
def test_settings_and_sim_errors_in_the_language(argv, locale, want, lang, capsys):
    lang(locale)
    code, out, err = cli(capsys, *argv)
    assert code == 2 and out == "" and err == want, err


def test_a_bad_sim_script_is_one_line_in_russian(lang, capsys, tmp_path):
    script = tmp_path / "bad.jsonl"
    script.write_text('{"at": 0, "do": "new", "tc": "420"}\n{"at": 10, "do": "fly"}\n')
    lang("ru_RU.UTF-8")
    code, out, err = cli(capsys, "sim", "--script", str(script), "--virtual")
    assert code == 2 and err.startswith('sagat: bad.jsonl, строка 2: неизвестное "do" \'fly\' (одно из: press, '), err
    script.write_text('{"at": 5, "do": "new", "tc": "420"}\n{"at": 1, "do": "start"}\n')
    lang("ky_KG.UTF-8")
    code, out, err = cli(capsys, "sim", "--script", str(script), "--virtual")
    assert code == 2 and err == ('sagat: bad.jsonl, 2-сап: "at" 1 мурунку саптын 5 маанисинен эрте: саптар убакыт '
                                 'тартибинде болушу керек\n'), err


def test_deploys_errors_in_the_language(lang):
    from sagat.deploy import install
    from sagat.deploy.transport import DeployError

    lang("ru_RU.UTF-8")
    with pytest.raises(DeployError) as e:
        install.deploy(None, "sim", "/nonexistent", "mpy-cross", "0", ask_state=lambda: None, identify=lambda: None)
    assert str(e.value) == "неизвестная плата 'sim' (одна из: pico, esp32)"
    lang("kk_KZ.UTF-8")
    with pytest.raises(DeployError) as e:
        install.deploy(None, None, "/nonexistent", "mpy-cross", "0", ask_state=lambda: None, identify=lambda: None)
    assert str(e.value) == "/nonexistent микробағдарлама қалтасы емес (main.py және sagatfw/)"
    lang("C")
    with pytest.raises(DeployError, match=r"^unknown board 'sim' \(one of: pico, esp32\)$"):
        install.deploy(None, "sim", "/nonexistent", "mpy-cross", "0", ask_state=lambda: None, identify=lambda: None)


def test_deploy_to_no_port_in_kazakh(lang, capsys):
    lang("kk_KZ.UTF-8")
    code, out, err = cli(capsys, "deploy", "--port", "/dev/nonexistent", "--timeout", "1", "--boot-timeout", "1")
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("sagat: /dev/nonexistent ") and "cannot" not in err, err
