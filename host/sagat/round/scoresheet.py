"""A scoresheet's PGN as `sagat report --moves FILE` takes it (docs/pgn.md): read and checked (read_moves),
each board's game picked out of a round's file by its [Board] tag (pick), and a game's tags and movetext
tokens (parse) for pgn.game to put the clock's comments on. Toguz kumalak moves (`76(10)`: the capture
glued to the move) or SAN; PGN's comments, NAGs and variations kept."""

from __future__ import annotations

import re


class PgnError(Exception):
    """One line for the user."""


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\\r\n]|\\.)*)"\s*\]')
_SPACE = re.compile(r"\s+")
_RESULT = re.compile(r"(?:1-0|0-1|1/2-1/2|\*)(?=[\s{};()\[]|$)")
_NUMBER = re.compile(r"[0-9]+\.+")
_NAG = re.compile(r"\$[0-9]+|[!?]{1,2}(?=[\s{};()\[]|$)")
# a move: any run of characters but PGN's delimiters; "(digits)" inside one is a toguz kumalak
# capture (`76(10)`), any other parenthesis a variation
_MOVE = re.compile(r'[^\s{}();\[\]"]+(?:\([0-9]+\)[^\s{}();\[\]"]*)*')


def parse(text: str) -> list[tuple[dict, list[tuple[str, str]], str, int]]:
    """The games of a PGN text: (tags, movetext tokens (kind, text), Result tag or marker, where it starts)."""
    text = text.lstrip("\ufeff")
    games: list[tuple[dict, list[tuple[str, str]], str, int]] = []
    pos = 0
    line = 1
    while True:
        tags: dict[str, str] = {}
        tokens: list[tuple[str, str]] = []
        depth = 0
        marker = ""
        at = None
        while pos < len(text):
            m = _SPACE.match(text, pos)
            if m:
                line += m.group().count("\n")
                pos = m.end()
                continue
            if text.startswith("%", pos) and (pos == 0 or text[pos - 1] == "\n"):
                end = text.find("\n", pos)
                pos = len(text) if end < 0 else end  # an escape line
                continue
            if at is None:
                at = pos
            if text[pos] == "[":
                if tokens or marker:
                    break  # the next game's tags
                m = _TAG.match(text, pos)
                if not m:
                    raise PgnError(f"line {line}: a broken tag (write it [Name \"value\"])")
                tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
                pos = m.end()
                continue
            if marker:
                break  # the next game, without tags
            c = text[pos]
            if c == "{":
                end = text.find("}", pos)
                if end < 0:
                    raise PgnError(f"line {line}: a comment {{ that is never closed with }}")
                tokens.append(("comment", text[pos:end + 1]))
                line += text.count("\n", pos, end)
                pos = end + 1
            elif c == ";":
                end = text.find("\n", pos)
                end = len(text) if end < 0 else end
                tokens.append(("line", text[pos:end]))
                pos = end
            elif c == "(":
                depth += 1
                tokens.append(("open", "("))
                pos += 1
            elif c == ")":
                if not depth:
                    raise PgnError(f"line {line}: a ) that closes no variation")
                depth -= 1
                tokens.append(("close", ")"))
                pos += 1
            elif c in '}]"':
                raise PgnError(f"line {line}: an unexpected {c} in the moves")
            elif depth == 0 and (m := _RESULT.match(text, pos)):
                marker = m.group()
                pos = m.end()
            else:
                for kind, rx in (("number", _NUMBER), ("nag", _NAG), ("move", _MOVE)):
                    m = rx.match(text, pos)
                    if m:
                        tokens.append((kind, m.group()))
                        pos = m.end()
                        break
                else:  # pragma: no cover - _MOVE takes any character the branches above leave
                    raise PgnError(f"line {line}: cannot read {text[pos:pos + 20]!r}")
        if depth:
            raise PgnError(f"line {line}: a variation ( that is never closed with )")
        if not tags and not tokens and not marker:
            return games
        games.append((tags, tokens, tags.get("Result") or marker, at or 0))


def main_moves(tokens: list[tuple[str, str]]) -> int:
    depth = 0
    n = 0
    for kind, _text in tokens:
        depth += kind == "open"
        depth -= kind == "close"
        n += kind == "move" and depth == 0
    return n


def read_moves(path: str) -> str:
    """A scoresheet PGN file's text (one game, or a round's games told apart by [Board "N"]: pick()),
    checked: PgnError with one line when it is missing, not UTF-8, broken or holds no moves."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise PgnError(f"{path}: no such file (give the scoresheet's PGN)") from None
    except OSError as e:
        raise PgnError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PgnError(f"{path}: not UTF-8 text (byte {e.start}): save the PGN as UTF-8") from None
    try:
        games = parse(text)
    except PgnError as e:
        raise PgnError(f"{path}: {e}") from None
    if not any(main_moves(tokens) for _tags, tokens, _r, _at in games):
        raise PgnError(f"{path}: no moves in it (a PGN's movetext, e.g. 1. 76(10) 45(12) 2. ...)")
    return text


def _same(a: str, b: str) -> bool:
    a, b = a.strip(), b.strip()
    return int(a) == int(b) if a.isdigit() and b.isdigit() else a == b


def pick(text: str, board: int | str | None, round_: str | None = None) -> str | None:
    """The game of `board` in a scoresheet PGN of several games: the one whose [Board] tag is `board`
    (and whose [Round] is `round_`, when both say one); a file of one game without a Board tag is that
    game. None if no game is the board's; PgnError if two are."""
    games = _split(text)
    if len(games) == 1 and "Board" not in games[0][0]:
        return games[0][1]
    found = [g for tags, g in games if board is not None and "Board" in tags and _same(tags["Board"], str(board))
             and (round_ is None or "Round" not in tags or _same(tags["Round"], str(round_)))]
    if len(found) > 1:
        raise PgnError(f"{len(found)} games for board {board}" + (f" in round {round_}" if round_ else "")
                       + " in the moves file: give each board one")
    return found[0] if found else None


def _split(text: str) -> list[tuple[dict, str]]:
    """(tags, the game's own text) of each game of a PGN text."""
    games = parse(text)
    body = text.lstrip("\ufeff")
    return [(tags, body[at:games[i + 1][3] if i + 1 < len(games) else len(body)])
            for i, (tags, _tokens, _r, at) in enumerate(games)]
