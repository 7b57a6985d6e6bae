"""The `sagat` command's language: gettext catalogues in host/sagat/locale/<lang>/LC_MESSAGES/sagat.mo
(compiled from the .po beside them), chosen by the usual LANGUAGE, LC_ALL, LC_MESSAGES and LANG
variables (`LANG=kk_KZ.UTF-8 sagat info --help`). English is the source text and the fallback.

    from sagat.i18n import _      # _("the text") in the user's language, or the text itself
    from sagat.i18n import N_     # N_("the text"): marked for the catalogue, translated later with _()
    from sagat.i18n import NC_    # NC_("report", "the text"): the same, in a context (msgctxt)
    from sagat.i18n import ngettext  # ngettext("{n} record", "{n} records", n).format(n=n): every count
    from sagat.i18n import Nn_    # Nn_("{n} record", "{n} records"): a counted message marked, told later
    from sagat.i18n import decimal   # decimal(1.5, 1): "1.5" in English, "1,5" in Kazakh, Russian, Kyrgyz

Every count a person reads goes through ngettext (each catalogue's Plural-Forms header holds its
language's rule: Russian's three forms, one form in Kazakh and Kyrgyz, whose nouns stay singular after
a numeral), and `{n}`, `{k}` and `{count}` in a message are counts only (tests/host/i18n/
test_plural_forms.py walks the sources for it). Every decimal number in prose goes through decimal().

The report's pages and the hall's page have their words in the same catalogues: the report's as
entries with msgctxt "report" (round/words.py, in the language the report is asked for:
translation_for(lang)), the page's as entries with msgctxt "page:KEY", from which `python tools/i18n.py
compile` writes the page's tables (hall/static/lang/<lang>.json).

Machine output (--json, the log's fields, the protocol) is never translated: only what a person reads.
The catalogues are made and compiled by `python tools/i18n.py` (Babel); argparse's own words
("usage:", "options", ...) are in the sagat catalogue too (ARGPARSE_MESSAGES), and use_for_argparse()
has argparse look them up there.
"""

from __future__ import annotations

import gettext
import os
from contextlib import contextmanager
from contextvars import ContextVar

DOMAIN = "sagat"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
LANGUAGES = ("kk", "ru", "ky", "en")  # the clock's and the hall's too: Kazakh, Russian, Kyrgyz, English
ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order

_cache: dict[tuple, gettext.NullTranslations] = {}
_cache_for: dict[tuple, gettext.NullTranslations] = {}  # translation_for's: (the locale folder, lang)
# english()'s: the source text whatever the environment says (per thread and per task: the hall serves
# requests concurrently)
_forced: ContextVar[gettext.NullTranslations | None] = ContextVar("sagat_i18n_forced", default=None)


def translation() -> gettext.NullTranslations:
    """The catalogue for the environment's language (gettext's own search of LANGUAGE, LC_ALL,
    LC_MESSAGES, LANG), or none: the English source text. Looked up again when those variables change."""
    forced = _forced.get()
    if forced is not None:
        return forced
    env = tuple(os.environ.get(v) for v in ENV)
    t = _cache.get(env)
    if t is None:
        t = _cache[env] = gettext.translation(DOMAIN, LOCALE_DIR, fallback=True)
    return t


def translation_for(lang: str) -> gettext.NullTranslations:
    """The catalogue of lang (kk, ru, ky), whatever the environment says; English: none (the source text)."""
    key = (LOCALE_DIR, lang)
    t = _cache_for.get(key)
    if t is None:
        t = _cache_for[key] = (gettext.NullTranslations() if lang == "en" else
                               gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True))
    return t


@contextmanager
def english():
    """Within it, _() gives the English source text: for machine output (--json) that carries text."""
    token = _forced.set(gettext.NullTranslations())
    try:
        yield
    finally:
        _forced.reset(token)


@contextmanager
def speaking(lang: str):
    """Within it, _() gives `lang`'s text (kk, ru, ky; en the source): for a page in a language of its
    own, as `sagat report --lang` writes it."""
    t = gettext.NullTranslations() if lang == "en" else gettext.translation(DOMAIN, LOCALE_DIR, [lang],
                                                                             fallback=True)
    token = _forced.set(t)
    try:
        yield
    finally:
        _forced.reset(token)


def _(text: str) -> str:
    return translation().gettext(text)


def N_(text: str) -> str:
    """Marks text for the catalogue without translating it (a module-level table): _() it where it is shown."""
    return text


def NC_(context: str, text: str) -> str:
    """N_ with a context (the catalogue's msgctxt): translated later with translation_for(lang).pgettext."""
    return text


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a counted message for the catalogue (both its English forms), told later with ngettext()
    (client.say(Nn_(...), n=...) does)."""
    return singular, plural


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for n in the user's language (its catalogue's Plural-Forms)."""
    return translation().ngettext(singular, plural, n)


DECIMAL_SIGN = {"en": ".", "kk": ",", "ru": ",", "ky": ","}  # what each language writes 1.5 with


def language() -> str:
    """The language the user reads now: one of LANGUAGES (the catalogue's own Language header)."""
    lang = translation().info().get("language", "en")
    return lang if lang in DECIMAL_SIGN else "en"


def decimal(x: float, digits: int | None = None) -> str:
    """A decimal number for prose, with the user's language's decimal sign: `digits` after it, or
    as few as it takes (decimal(0.5) is "0.5" in English, "0,5" in Russian). Never for --json."""
    text = f"{x:g}" if digits is None else f"{x:.{digits}f}"
    return text.replace(".", DECIMAL_SIGN[language()])


# argparse's own words that a `sagat` user meets (Python 3.10..3.13's argparse.py): its gettext domain
# is "argparse"'s default one, which no system catalogue fills; the sagat catalogue has them
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("not allowed with argument %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("%(prog)s: error: %(message)s\n"),
)


def use_for_argparse() -> None:
    """argparse's messages through the sagat catalogue (argparse calls its module-level `_` and
    `ngettext` at the time it formats a message, so the language is the environment's then)."""
    import argparse

    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
