"""The report's words in its four languages, Kazakh, Russian, Kyrgyz and English (sagat.i18n.LANGUAGES):
REPORT below (words(lang)), with the dates and the numbers as each language writes them: 7 желтоқсан
2026, 7 декабря 2026, 7-декабрь 2026 (English keeps 2026-12-07); a decimal comma in Kazakh, Russian
and Kyrgyz. The terms are the Kazakh rule book's (бастаушы for the player who moves first, жалауша,
төреші, тақта, қазан), Russian tournament usage (флажок, контроль времени, судья, тур, доска,
результат) and Kyrgyz (тогуз коргоол's коргоол and казан, калыс, желекче), as docs/glossary.md has
them. The hall's page has its own tables (hall/lang.py); the command's lines are gettext's (i18n)."""

from __future__ import annotations

import os
import re

from ..i18n import LANGUAGES

DEFAULT = "en"  # an environment that names none of the four


def check(lang: str | None) -> str | None:
    """lang when it is one of the four (or None); ValueError otherwise."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"{lang}: not one of {', '.join(LANGUAGES)}")
    return lang


def from_env() -> str:
    """The language of the environment (gettext's LANGUAGE, LC_ALL, LC_MESSAGES, LANG: "ru_RU.UTF-8" is ru)
    when it is one of the four, else English."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            for item in value.split(":"):
                base = item.split(".")[0].split("_")[0].split("@")[0].lower()
                if base in LANGUAGES:
                    return base
            if var != "LANGUAGE":
                break  # (gettext's order: the first variable set decides, LANGUAGE's list aside)
    return DEFAULT


MONTHS = {
    "en": "January February March April May June July August September October November December",
    "kk": "қаңтар ақпан наурыз сәуір мамыр маусым шілде тамыз қыркүйек қазан қараша желтоқсан",
    "ru": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    "ky": "январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
}
DATE = {"en": "{d} {month} {y}", "kk": "{d} {month} {y}", "ru": "{d} {month} {y}", "ky": "{d}-{month} {y}"}


def date_text(iso: str | None, lang: str) -> str | None:
    """A YYYY-MM-DD date as lang writes it (7 желтоқсан 2026, 7 декабря 2026, 7-декабрь 2026; English keeps
    2026-12-07, unambiguous to every reader); anything else as it is."""
    m = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", iso or "")
    if lang == "en" or not m or not 1 <= int(m.group(2)) <= 12:  # (English: ISO 8601, as the pages always wrote it)
        return iso
    return DATE[lang].format(d=int(m.group(3)), month=MONTHS[lang].split()[int(m.group(2)) - 1], y=m.group(1))


def number(x: float, lang: str, digits: int = 1) -> str:
    """A number with `digits` decimals as lang writes it: 1.5 in English, 1,5 in Kazakh, Russian, Kyrgyz."""
    text = f"{x:.{digits}f}"
    return text if lang == "en" else text.replace(".", ",")


def decimal_comma(text: str, lang: str) -> str:
    """The decimals in a text (a clock time's 1:02.345, an axis' 2.5) with lang's decimal sign."""
    return text if lang == "en" else re.sub(r"(?<=[0-9])\.(?=[0-9])", ",", text)


# The report's words: key -> (en, kk, ru, ky); {name}s filled by words(lang)(key, name=...)
REPORT = {
    "results": ("Results", "Нәтижелер", "Результаты", "Натыйжалар"),
    "round_n": ("round {n}", "{n}-тур", "тур {n}", "{n}-тур"),
    "col_board": ("board", "тақта", "доска", "такта"),
    "col_players": ("players (left - right)", "ойыншылар (сол - оң)", "игроки (слева - справа)", "оюнчулар (сол - оң)"),
    "col_result": ("result", "нәтиже", "результат", "натыйжа"),
    "col_code": ("result code", "нәтиже коды", "код результата", "натыйжа коду"),
    "col_log": ("log", "журнал", "журнал", "журнал"),
    "col_flags": ("flags", "жалаушалар", "флажки", "желекчелер"),
    "col_game": ("game", "ойын", "партия", "оюн"),
    "earlier_game": ("an earlier game of its clock: not the round's", "сағаттың бұрынғы ойыны: бұл турдікі емес",
                     "более ранняя партия этих часов: не этого тура", "сааттын мурунку оюну: бул турдуку эмес"),
    "none": ("none", "жоқ", "нет", "жок"),
    "no_log": ("no log", "журнал жоқ", "нет журнала", "журнал жок"),
    "no_log_why": ("no game of this board's clock was pulled", "бұл тақта сағатының бірде-бір ойыны жүктелмеді",
                   "ни одной партии с часов этой доски не загружено", "бул тактанын саатынан бир да оюн жүктөлгөн жок"),
    "link_report": ("report", "есеп", "отчёт", "отчёт"),
    "verified": ("verified", "расталды", "проверен", "текшерилди"),
    "unkeyed": ("chain intact, authorship unproven", "тізбек бүтін, авторлығы дәлелденбеген",
                "цепочка цела, авторство не доказано", "чынжыр бүтүн, авторлугу далилденген жок"),
    "sealed": ("not checked", "тексерілмеді", "не проверен", "текшерилген жок"),
    "failed": ("NOT verified", "РАСТАЛМАДЫ", "НЕ ПРОШЁЛ проверку", "ТЕКШЕРҮҮДӨН ӨТКӨН ЖОК"),
    "sealed_why": ("this clock's log is sealed with an arbiter key: give --key/--key-file to verify it",
                   "бұл сағаттың журналы төрешінің кілтімен бекітілген: тексеру үшін --key/--key-file беріңіз",
                   "журнал этих часов запечатан ключом судьи: укажите --key/--key-file для проверки",
                   "бул сааттын журналы калыстын ачкычы менен бекитилген: текшерүү үчүн --key/--key-file бериңиз"),
    "side_left": ("left", "сол", "левый", "сол"),
    "side_right": ("right", "оң", "правый", "оң"),
    "first_mark": ("1st", "1-ші", "1-й", "1-чи"),
    "board_title": ("Board {n}", "{n}-тақта", "Доска {n}", "{n}-такта"),
    "board_clock": ("Board {n} (clock {clock})", "{n}-тақта ({clock} сағаты)", "Доска {n} (часы {clock})",
                    "{n}-такта ({clock} сааты)"),
    "game_title": ("{board}, game {game}", "{board}, {game}-ойын", "{board}, партия {game}", "{board}, {game}-оюн"),
    "back": ("the round", "тур", "тур", "тур"),
    "tc": ("time control {tc}", "бақылау мерзімі {tc}", "контроль времени {tc}", "убакыт чеги {tc}"),
    "first_player": ("first: {side}", "бастаушы: {side}", "начинает: {side}", "баштоочу: {side}"),
    "pgn_link": ("the clock record as PGN", "сағат жазбасы PGN түрінде", "запись часов в PGN",
                 "сааттын жазуусу PGN түрүндө"),
    "certificate": ("Flag-fall certificate", "Жалауша құлағаны туралы куәлік", "Акт о падении флажка",
                    "Желекче түшкөнү тууралуу күбөлүк"),
    "time_use": ("Time use", "Уақыттың жұмсалуы", "Расход времени", "Убакыттын сарпталышы"),
    "time_use_alt": ("time left and time used per move, both sides",
                     "екі жақтың әр жүрістегі қалған және жұмсалған уақыты",
                     "оставшееся и затраченное на ход время, обе стороны",
                     "эки тараптын ар бир жүрүштөгү калган жана сарпталган убактысы"),
    "events": ("Events", "Оқиғалар", "События", "Окуялар"),
    "ev_seq": ("seq", "№", "№", "№"),
    "ev_event": ("event", "оқиға", "событие", "окуя"),
    "ev_t": ("t", "t", "t", "t"),
    "ev_moves": ("moves", "жүрістер", "ходы", "жүрүштөр"),
    "ev_running": ("running", "жүріп тұр", "идут", "жүрүп турат"),
    "ev_side": ("side / by", "жақ / кім", "сторона / кем", "тарап / ким"),
    "ev_wall": ("wall", "нақты уақыт", "астрономическое время", "чыныгы убакыт"),
    "ev_details": ("details", "толығырақ", "подробности", "толугураак"),
    "fell_first": ("fell first", "бірінші құлады", "упал первым", "биринчи түштү"),
    "fell_first_text": ("{side} at t = {t} (game time by the clock's own ticks, the exact instant the time reached "
                        "zero)",
                        "{side}, t = {t} (сағаттың өз тықылымен ойын уақыты, уақыт нөлге жеткен нақты сәт)",
                        "{side}, t = {t} (время партии по собственным тикам часов, точный момент, когда время "
                        "дошло до нуля)",
                        "{side}, t = {t} (сааттын өз тиктери боюнча оюн убактысы, убакыт нөлгө жеткен так учур)"),
    "flag_n": ("flag {n}", "{n}-жалауша", "флажок {n}", "{n}-желекче"),
    "flag_text": ("{side} at t = {t}, wall {wall}, seq {seq}", "{side}, t = {t}, нақты уақыт {wall}, № {seq}",
                  "{side}, t = {t}, астрономическое время {wall}, № {seq}",
                  "{side}, t = {t}, чыныгы убакыт {wall}, № {seq}"),
    "not_synced": ("not synced", "үйлестірілмеген", "не синхронизировано", "шайкештирилген эмес"),
    "flags": ("flags", "жалаушалар", "флажки", "желекчелер"),
    "no_flag": ("no flag fell in this game", "бұл ойында бірде-бір жалауша құламады", "в этой партии флажок не падал",
                "бул оюнда бир да желекче түшкөн жок"),
    "result": ("result", "нәтиже", "результат", "натыйжа"),
    "result_text": ("{result}{kazans} at t = {t}, wall {wall}, seq {seq}",
                    "{result}{kazans}, t = {t}, нақты уақыт {wall}, № {seq}",
                    "{result}{kazans}, t = {t}, астрономическое время {wall}, № {seq}",
                    "{result}{kazans}, t = {t}, чыныгы убакыт {wall}, № {seq}"),
    "kazans": (", kazans {k} (TK-R7)", ", қазандар {k} (TK-R7)", ", казаны {k} (TK-R7)", ", казандар {k} (TK-R7)"),
    "no_result": ("none in this log", "бұл журналда жоқ", "в этом журнале нет", "бул журналда жок"),
    "result_code": ("result code", "нәтиже коды", "код результата", "натыйжа коду"),
    "code_keyed": ("from the keyed chain: compare the scoresheet",
                   "кілтпен бекітілген тізбектен: жазу бланкасымен салыстырыңыз",
                   "из цепочки с ключом: сверьте с бланком записи",
                   "ачкыч менен бекитилген чынжырдан: жазуу бланкы менен салыштырыңыз"),
    "code_sealed": ("sealed with an arbiter key: give --key/--key-file to check it",
                    "төрешінің кілтімен бекітілген: тексеру үшін --key/--key-file беріңіз",
                    "запечатан ключом судьи: укажите --key/--key-file для проверки",
                    "калыстын ачкычы менен бекитилген: текшерүү үчүн --key/--key-file бериңиз"),
    "code_unkeyed": ("unkeyed: it proves nothing", "кілтсіз: ештеңені дәлелдемейді", "без ключа: ничего не доказывает",
                     "ачкычсыз: эч нерсени далилдебейт"),
    "log": ("log", "журнал", "журнал", "журнал"),
    "key": ("key", "кілт", "ключ", "ачкыч"),
    "key_ok": ("the chain links under the arbiter key given", "тізбек берілген төреші кілтімен тұтас",
               "цепочка сходится под данным ключом судьи", "чынжыр берилген калыстын ачкычы менен туташ"),
    "key_bad": ("does not verify under the key given", "берілген кілтпен расталмайды", "не проверяется данным ключом",
                "берилген ачкыч менен текшерилбейт"),
    "key_none": ("no key given: the chain shows no tampering by accident, not authorship",
                 "кілт берілмеген: тізбек кездейсоқ бұзылмағанын ғана көрсетеді, авторлықты емес",
                 "ключ не задан: цепочка показывает лишь отсутствие случайных повреждений, не авторство",
                 "ачкыч берилген жок: чынжыр кокустан бузулбаганын гана көрсөтөт, авторлукту эмес"),
    "head": ("head", "соңғы жазба", "последняя запись", "акыркы жазуу"),
    "head_none": ("no head.json: nothing shows that the pull reached the clock's last record",
                  "head.json жоқ: жүктеу сағаттың соңғы жазбасына жеткенін ештеңе көрсетпейді",
                  "нет head.json: ничто не показывает, что загрузка дошла до последней записи часов",
                  "head.json жок: жүктөө сааттын акыркы жазуусуна жеткенин эч нерсе көрсөтпөйт"),
    "head_ok": ("the pull reached the clock's signed last record: nothing cut off",
                "жүктеу сағаттың қол қойылған соңғы жазбасына жетті: ештеңе кесілмеген",
                "загрузка дошла до подписанной последней записи часов: ничего не отрезано",
                "жүктөө сааттын кол коюлган акыркы жазуусуна жетти: эч нерсе кесилген жок"),
    "head_sealed": ("the clock signed its last record with the arbiter key: the key shows whether anything was cut off",
                    "сағат соңғы жазбасына төреші кілтімен қол қойған: бірдеңе кесілгенін кілт көрсетеді",
                    "часы подписали последнюю запись ключом судьи: отрезано ли что-нибудь, покажет ключ",
                    "саат акыркы жазуусуна калыстын ачкычы менен кол койгон: бир нерсе кесилгенин ачкыч көрсөтөт"),
    "plot_left": ("time left after the move (min)", "жүрістен кейін қалған уақыт (мин)", "осталось после хода (мин)",
                  "жүрүштөн кийин калган убакыт (мүн)"),
    "plot_used": ("time used for the move (s)", "жүріске жұмсалған уақыт (с)", "затрачено на ход (с)",
                  "жүрүшкө сарпталган убакыт (сек)"),
    "plot_move": ("move (each side's own count)", "жүріс (әр жақтың өз есебі)", "ход (свой счёт каждой стороны)",
                  "жүрүш (ар бир тараптын өз эсеби)"),
    "plot_flag": ("flag: the time reached 0", "жалауша: уақыт 0-ге жетті", "флажок: время дошло до 0",
                  "желекче: убакыт 0гө жетти"),
    "plot_flag_text": ("flag {side} ({order}), t = {t}", "жалауша: {side} ({order}), t = {t}",
                       "флажок: {side} ({order}), t = {t}", "желекче: {side} ({order}), t = {t}"),
    "plot_no_move": ("no move was made in this game: there is no time use to plot",
                     "бұл ойында бірде-бір жүріс жасалмады: уақыт жұмсалуының графигі жоқ",
                     "в этой партии не сделано ни одного хода: графика расхода времени нет",
                     "бул оюнда бир да жүрүш жасалган жок: убакыт сарпталышынын графиги жок"),
    "plot_flag_fell": ("flag {side} ({order}) fell at t = {t}", "жалауша: {side} ({order}) t = {t} кезде құлады",
                       "флажок: {side} ({order}) упал при t = {t}", "желекче: {side} ({order}) t = {t} учурда түштү"),
    "plot_result_at": ("the result {result} was entered at t = {t}", "{result} нәтижесі t = {t} кезде енгізілді",
                       "результат {result} внесён при t = {t}", "{result} натыйжасы t = {t} учурда киргизилди"),
    "plot_no_result": ("no result is in this log", "бұл журналда нәтиже жоқ", "в этом журнале нет результата",
                       "бул журналда натыйжа жок"),
}


def words(lang: str):
    """The report's words in lang: w(key, **names)."""
    i = ("en", "kk", "ru", "ky").index(check(lang))

    def w(key: str, **names) -> str:
        return REPORT[key][i].format(**names) if names else REPORT[key][i]

    return w
