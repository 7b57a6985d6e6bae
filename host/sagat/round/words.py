"""The report's words in its four languages, Kazakh, Russian, Kyrgyz and English (sagat.i18n.LANGUAGES):
REPORT below (words(lang)), each an English text whose translations are the `sagat` command's gettext
catalogues' entries with msgctxt "report" (host/sagat/locale/<lang>/LC_MESSAGES/sagat.po: one catalogue
a language for the command, the report and the hall's page; `python tools/i18n.py` makes them); with the
dates and the numbers as each language writes them: 7 желтоқсан 2026, 7 декабря 2026, 7-декабрь 2026
(English keeps 2026-12-07); a decimal comma in Kazakh, Russian and Kyrgyz. The terms are docs/glossary.md's.
The hall's page has its own words (hall/lang.py), in the same catalogues."""

from __future__ import annotations

import os
import re

from ..i18n import LANGUAGES, NC_, translation_for

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


# a date's months, as the report writes "7 <month> 2026" (English: 2026-12-07, these unused)
MONTHS = (
    # i18n: a month in a date, "7 <month> 2026", in the case the date takes (Russian: декабря)
    NC_("report", "January"), NC_("report", "February"), NC_("report", "March"), NC_("report", "April"),
    NC_("report", "May"), NC_("report", "June"), NC_("report", "July"), NC_("report", "August"),
    NC_("report", "September"), NC_("report", "October"), NC_("report", "November"), NC_("report", "December"),
)
# i18n: a date: {d} the day, {month} its month, {y} the year
DATE = NC_("report", "{d} {month} {y}")


def date_text(iso: str | None, lang: str) -> str | None:
    """A YYYY-MM-DD date as lang writes it (7 желтоқсан 2026, 7 декабря 2026, 7-декабрь 2026; English keeps
    2026-12-07, unambiguous to every reader); anything else as it is."""
    m = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", iso or "")
    if lang == "en" or not m or not 1 <= int(m.group(2)) <= 12:  # (English: ISO 8601, as the pages always wrote it)
        return iso
    t = translation_for(lang)
    month = t.pgettext("report", MONTHS[int(m.group(2)) - 1])
    return t.pgettext("report", DATE).format(d=int(m.group(3)), month=month, y=m.group(1))


def number(x: float, lang: str, digits: int = 1) -> str:
    """A number with `digits` decimals as lang writes it: 1.5 in English, 1,5 in Kazakh, Russian, Kyrgyz."""
    text = f"{x:.{digits}f}"
    return text if lang == "en" else text.replace(".", ",")


def decimal_comma(text: str, lang: str) -> str:
    """The decimals in a text (a clock time's 1:02.345, an axis' 2.5) with lang's decimal sign."""
    return text if lang == "en" else re.sub(r"(?<=[0-9])\.(?=[0-9])", ",", text)


# The report's words: key -> its English, translated in the catalogues' context "report"; {name}s filled by
# words(lang)(key, name=...)
REPORT = {
    "results": NC_("report", "Results"),
    "round_n": NC_("report", "round {n}"),
    "col_board": NC_("report", "board"),
    "col_players": NC_("report", "players (left - right)"),
    "col_result": NC_("report", "result"),
    "col_code": NC_("report", "result code"),
    "col_log": NC_("report", "log"),
    "col_flags": NC_("report", "flags"),
    "col_game": NC_("report", "game"),
    "earlier_game": NC_("report", "an earlier game of its clock: not the round's"),
    "none": NC_("report", "none"),
    "no_log": NC_("report", "no log"),
    "no_log_why": NC_("report", "no game of this board's clock was pulled"),
    "link_report": NC_("report", "report"),
    "verified": NC_("report", "verified"),
    "unkeyed": NC_("report", "chain intact, authorship unproven"),
    "sealed": NC_("report", "not checked"),
    "failed": NC_("report", "NOT verified"),
    "sealed_why": NC_("report", "this clock's log is sealed with an arbiter key: give --key/--key-file to verify it"),
    "side_left": NC_("report", "left"),
    "side_right": NC_("report", "right"),
    "first_mark": NC_("report", "1st"),
    "board_title": NC_("report", "Board {n}"),
    "board_clock": NC_("report", "Board {n} (clock {clock})"),
    "game_title": NC_("report", "{board}, game {game}"),
    "back": NC_("report", "the round"),
    "tc": NC_("report", "time control {tc}"),
    "first_player": NC_("report", "first: {side}"),
    "pgn_link": NC_("report", "the clock record as PGN"),
    "certificate": NC_("report", "Flag-fall certificate"),
    "time_use": NC_("report", "Time use"),
    "time_use_alt": NC_("report", "time left and time used per move, both sides"),
    "events": NC_("report", "Events"),
    "ev_seq": NC_("report", "seq"),
    "ev_event": NC_("report", "event"),
    "ev_t": NC_("report", "t"),
    "ev_moves": NC_("report", "moves"),
    "ev_running": NC_("report", "running"),
    "ev_side": NC_("report", "side / by"),
    "ev_wall": NC_("report", "wall"),
    "ev_details": NC_("report", "details"),
    "fell_first": NC_("report", "fell first"),
    "fell_first_text": NC_("report", "{side} at t = {t} (game time by the clock's own ticks, the exact instant the "
                                     "time reached zero)"),
    "flag_n": NC_("report", "flag {n}"),
    "flag_text": NC_("report", "{side} at t = {t}, wall {wall}, seq {seq}"),
    "not_synced": NC_("report", "not synced"),
    "flags": NC_("report", "flags"),
    "no_flag": NC_("report", "no flag fell in this game"),
    "result": NC_("report", "result"),
    "result_text": NC_("report", "{result}{kazans} at t = {t}, wall {wall}, seq {seq}"),
    "kazans": NC_("report", ", kazans {k} (TK-R7)"),
    "no_result": NC_("report", "none in this log"),
    "result_code": NC_("report", "result code"),
    "code_keyed": NC_("report", "from the keyed chain: compare the scoresheet"),
    "code_sealed": NC_("report", "sealed with an arbiter key: give --key/--key-file to check it"),
    "code_unkeyed": NC_("report", "unkeyed: it proves nothing"),
    "log": NC_("report", "log"),
    "key": NC_("report", "key"),
    "key_ok": NC_("report", "the chain links under the arbiter key given"),
    "key_bad": NC_("report", "does not verify under the key given"),
    "key_none": NC_("report", "no key given: the chain shows no tampering by accident, not authorship"),
    "head": NC_("report", "head"),
    "head_none": NC_("report", "no head.json: nothing shows that the pull reached the clock's last record"),
    "head_ok": NC_("report", "the pull reached the clock's signed last record: nothing cut off"),
    "head_sealed": NC_("report", "the clock signed its last record with the arbiter key: the key shows whether "
                                 "anything was cut off"),
    "plot_left": NC_("report", "time left after the move (min)"),
    "plot_used": NC_("report", "time used for the move (s)"),
    "plot_move": NC_("report", "move (each side's own count)"),
    "plot_flag": NC_("report", "flag: the time reached 0"),
    "plot_flag_text": NC_("report", "flag {side} ({order}), t = {t}"),
    "plot_no_move": NC_("report", "no move was made in this game: there is no time use to plot"),
    "plot_flag_fell": NC_("report", "flag {side} ({order}) fell at t = {t}"),
    "plot_result_at": NC_("report", "the result {result} was entered at t = {t}"),
    "plot_no_result": NC_("report", "no result is in this log"),
}


def words(lang: str):
    """The report's words in lang: w(key, **names)."""
    t = translation_for(check(lang))

    def w(key: str, **names) -> str:
        text = t.pgettext("report", REPORT[key])
        return text.format(**names) if names else text

    return w
