"""The hall's page in its four languages: Kazakh, Russian, Kyrgyz and English (sagat.i18n.LANGUAGES).

The page's words are its tables, static/lang/<lang>.json, which hall.js looks up (t(key)): written by
`python tools/i18n.py compile` from the gettext catalogues' entries with msgctxt "page:KEY" (the one
catalogue a language of the command and the report too). The server only tells the page its language
(`sagat hall --lang`, else the browser's Accept-Language). What the server composes for the page (a
pull's verdict, an action's report, its refusals, the MQTT bridge's notes) comes with a code beside its
English (said.py), said from the same tables. The report's words are round/words.py's (a language
checked by its check())."""

from __future__ import annotations

import json
from pathlib import Path

from ..i18n import LANGUAGES
from ..round.words import check

DEFAULT = "en"  # a browser that asks for none of the four
STATIC_LANG = Path(__file__).parent / "static" / "lang"


def accept(header: str | None) -> str | None:
    """The first of the four languages an Accept-Language header asks for, by its q-values ("ru-RU,ru;q=0.9,
    en;q=0.8" is ru; "kk-KZ" is kk; "de" is None)."""
    best = []
    for i, part in enumerate((header or "").split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()
        q = 1.0
        for b in bits[1:]:
            b = b.strip()
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        base = tag.split("-")[0]
        if base in LANGUAGES and q > 0:
            best.append((-q, i, base))
    return min(best)[2] if best else None


def page_table(lang: str) -> dict:
    """The page's words in lang (static/lang/<lang>.json)."""
    with open(STATIC_LANG / f"{check(lang)}.json", encoding="utf-8") as fh:
        return json.load(fh)
