"""The rule that finds an English sentence in what the `sagat` command prints, for the tests that walk
its output under a Kazakh locale (tests/host/i18n/test_no_english_under_kk.py, test_hall_round_under_kk.py).

The rule, one line at a time: a line is English when it holds two or more English words. An English
word is a run of three or more Latin letters that is none of these:
- a path, a URL, an option (`--key-file`), a file name (`records.bin`), a snake_case name (`game_start`,
  the log's field and type names), a word in backquotes (a command to type), a TimeControl string;
- a name of the allow-list below: the command's own name and its subcommands, the formats (TRF, PGN,
  CSV, JSON, HTML, USB), the rule IDs' books (TK, KB, KT), units and the like;
- the clock's faces (the simulator's rows `  ... | ...`): they speak the clock's `lang` setting, not the
  PC's (a fresh clock's is English; the hall's Set up all sets it).
One English word alone passes (an event's type name in the log's table, `OK`, `BROKEN`); two make a
sentence, which the user would have to read in English.
"""

from __future__ import annotations

import re

# names a Kazakh text keeps as they are (commands, formats, codes, units, the rule books' letters)
ALLOW = {
    "sagat", "sim", "hall", "logs", "log", "pull", "verify", "show", "report", "presets", "push", "tc", "info",
    "key", "deploy", "watch", "seq", "head", "json", "jsonl", "trf", "pgn", "csv", "html", "usb", "mqtt", "fide",
    "ctrl", "http", "https", "localhost", "micropython", "littlefs", "mpy", "cross", "pip", "utf",
    "ok", "broken", "code", "crc", "sha", "ms", "min", "max", "tk", "kb", "kt", "lang", "img",
    "null", "true", "false",  # JSON's literals (the report's events show the log's fields as JSON)
}
_CODEISH = re.compile(
    r"https?://\S+"  # a URL
    r"|`[^`]*`"  # a command in backquotes
    r"|(?<!\w)--?[A-Za-z][\w-]*"  # an option
    r"|\S*/\S*"  # a path (or a TimeControl with a slash)
    r"|\S+\.(?:bin|json|jsonl|img|html|csv|trf|pgn|png|md|key|py)\b"  # a file's name
    r"|\w*_\w*"  # a snake_case name: the log's fields and types
    r"|\b\w+=|\"\w+\":"  # a field's name before its value (the report's events: first="сол", {"left": 30})
    r"|(?<!\S)[a-z0-9]+(?:-[a-z0-9+.]+)+(?!\S)"  # a kebab-case name: a preset's (classical-repeat)
    r"|\b[A-Z]{2,}-[A-Z0-9.]+\b"  # a rule ID (TK-B3, KT-4.6)
)
_WORD = re.compile(r"(?<![\w'])[A-Za-z]{3,}(?![\w'])")


def english_words(line: str) -> list[str]:
    """The English words of a line of output, by the rule above."""
    text = _CODEISH.sub(" ", line)
    return [w for w in _WORD.findall(text) if w.lower() not in ALLOW]


def english_lines(text: str, faces: bool = False) -> list[str]:
    """The lines of text that hold an English sentence (two English words or more); `faces`: the
    simulator's rows of the clock's faces are left out (the clock's own language)."""
    bad = []
    for line in text.splitlines():
        if faces and line.startswith("  ") and " | " in line:
            continue
        if len(english_words(line)) >= 2:
            bad.append(line)
    return bad
