"""The hall's own sentences, said on the page in the page's language.

What the hall composes for the page (a pull's verdict, an action's report and its refusals, a board's
link and key notes, the MQTT bridge's notes) is a Said: its English text, as the JSON API always gave
it, and beside it a code for the page, `msg`: {"key": ..., and its names' values}. hall.js says it with
its own table (static/lang/<lang>.json, under the same key: the catalogues' msgctxt "page:KEY"), falling
back to the English text; the server never needs the viewer's language. A name's value is a number, a
text said as it is (a port, a uid, what the clock itself said) or another Said (its code nested). The
English text of each key here is the English table's, word for word (tests/host/hall/test_hall_said.py
checks every call).

A Said is a str: whatever took the text takes it still (a comparison, the MQTT bridge's JSON); a
text made from it (an f-string, a slice) is a plain str again, without a code (the page then shows
its English)."""

from __future__ import annotations

import re

_NAME = re.compile(r"\{([a-z_]+)\}")


class Said(str):
    """An English text and its code for the page (msg)."""

    msg: dict


def said(key: str, text: str, /, **names) -> Said:
    """The English `text` with its {names} filled, carrying {"key": key, **names} (a Said's name: its
    own code, nested)."""
    out = Said(_NAME.sub(lambda m: str(names[m.group(1)]), text))
    out.msg = {"key": key, **{n: _value(v) for n, v in names.items()}}
    return out


def _value(v):
    if isinstance(v, Said):
        return v.msg
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v
    return str(v)


def msg_of(text) -> dict | None:
    """A text's code for the page, or None (a text with none: the page shows it as it is)."""
    return text.msg if isinstance(text, Said) else None


def with_msg(d: dict, field: str, text, name: str | None = None) -> dict:
    """d with d[field] = text and, when the text has a code, d[name or field + "_msg"] = its code."""
    d[field] = text
    m = msg_of(text)
    if m is not None:
        d[name or field + "_msg"] = m
    return d


def text_of(e: BaseException) -> str:
    """An exception's text: its Said when it was raised with one (its code kept), else str(e)."""
    a = e.args[0] if len(e.args) == 1 else None
    return a if isinstance(a, Said) else str(e)


def joined(items: list, sep: str = "; "):
    """Texts one after the other ("a; b; c", or "a, b" with sep ", "), each keeping its code; None for none."""
    out = None
    for x in items:
        if out is None:
            out = x
        elif sep == "; ":
            out = said("list_semicolon", "{a}; {b}", a=out, b=x)
        else:
            out = said("list_comma", "{a}, {b}", a=out, b=x)
    return out


# a game's states as the clock names them (its `state`), each the page's word for it
STATES = {
    "idle": said("state_idle", "idle"), "setup": said("state_setup", "setup"),
    "running": said("state_running", "running"), "paused": said("state_paused", "paused"),
    "flagged": said("state_flagged", "flagged"), "adjourned": said("state_adjourned", "adjourned"),
    "finished": said("state_finished", "finished"),
}


def state(st) -> str:
    """A clock's state as the page says it (one it does not know: as the clock named it)."""
    return STATES.get(st, str(st)) if isinstance(st, str) else str(st)


def side(s) -> str:
    """left or right as the page says it."""
    return said("side_left", "left") if s == "left" else said("side_right", "right") if s == "right" else str(s)
