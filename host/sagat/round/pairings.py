"""The pairings file of a round: CSV rows `board, left player, right player` (a header row is
optional), so the hall's page names the players at each board; or the pairing program's TRF (FIDE's
Tournament Report File, docs/trf.md), whose round's White sits at the left face."""

from __future__ import annotations

import csv
import re

from ..i18n import _, ngettext
from .folder import MAX_BOARD, problem


class PairingsError(Exception):
    """One line for the user."""


_CONTROL = re.compile(r" *[\x00-\x1f\x7f][\x00-\x1f\x7f ]*")


def clean_name(name: str) -> str:
    """A player's or team's name as a clock takes it (sagatfw.log.names.fit_names refuses control
    characters): each run of control characters a pairing program or a spreadsheet left in it (a tab,
    a NUL, a line's end), with the spaces beside it, one space; none at its ends."""
    return _CONTROL.sub(" ", name).strip()


def _is_trf(path: str) -> bool:
    """A TRF by its content: its first line that is neither blank nor a comment ('#', TRF's "###") is
    a tag and a space ("012 ", "001 ", "XXR ") or a bare tag ("012": a tournament without a name); a
    CSV row starts with a board number and a comma."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False  # the CSV reader says why
    for line in head.decode("utf-8", "replace").lstrip("\ufeff").splitlines():
        if line.strip() and not line.startswith("#"):
            return re.match(r"(?:[0-9]{3}|XX[A-Z])(?: |$)", line) is not None
    return False


def load(path: str, round_no: int | None = None):
    """(pairings as read() gives them, the tournament a TRF holds or None, the round's number: the one
    given, a TRF's round to play, or None): the report writes that tournament's TRF with the round.
    A round no round may be (folder.problem: a TRF's round 1000, its boards from 1000 up) is a
    PairingsError: the hall refuses it at its start, as its report would refuse its round.json."""
    if not _is_trf(path):
        return read(path), None, round_no
    from . import trf

    try:
        t = trf.read(path)
        rnd, boards, _ranks = trf.pairings(t, round_no)
    except trf.TrfError as e:
        raise PairingsError(str(e)) from None
    found = problem({"round": rnd}, boards)
    if found:
        raise PairingsError(_("{file}: round {round} {why}").format(file=path, round=rnd, why=found[1])
                            if found[0] == "round" else
                            _("{file}: round {round}'s pairings: {why}").format(file=path, round=rnd, why=found[1]))
    return boards, t, rnd


def read(path: str, round_no: int | None = None) -> dict[int, tuple[str, str]]:
    """{board number: (left player, right player)}; PairingsError naming the file and line.

    A TRF gives round `round_no`'s pairings (else the first round paired without results), White at
    the left face; its byes are no board (trf.byes lists them)."""
    if _is_trf(path):
        from . import trf

        try:
            return trf.pairings(trf.read(path), round_no)[1]
        except trf.TrfError as e:
            raise PairingsError(str(e)) from None
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.reader(fh))
    except FileNotFoundError:
        raise PairingsError(_("pairings file {file} not found (CSV lines: board, left player, right player)").format(
            file=path)) from None
    except (OSError, UnicodeError) as e:
        raise PairingsError(_("cannot read pairings file {file}: {error}").format(
            file=path, error=getattr(e, "strerror", None) or e)) from None
    except csv.Error as e:
        raise PairingsError(_("pairings file {file} is not CSV: {error}").format(file=path, error=e)) from None
    out: dict[int, tuple[str, str]] = {}
    for n, row in enumerate(rows, 1):
        cells = [c.strip() for c in row]
        if not cells or not any(cells) or cells[0].startswith("#"):
            continue
        if n == 1 and not any(ch.isdigit() for ch in cells[0]):
            continue  # a header: board,left,right
        if len(cells) != 3:
            sep = next((_(" (fields are separated by commas, not {sep})").format(sep=repr(c)) for c in (";", "\t")
                        if len(cells) == 1 and c in cells[0]), "")  # a spreadsheet's export in another locale
            fields = ngettext("{n} field", "{n} fields", len(cells)).format(n=len(cells))
            raise PairingsError(_("{file} line {line}: {fields}; want 3: board, left player, right player").format(
                file=path, line=n, fields=fields) + sep)
        if not re.fullmatch(r"[0-9]{1,3}", cells[0]) or not 1 <= int(cells[0]) <= MAX_BOARD:  # ASCII: not ², ١, １
            raise PairingsError(_("{file} line {line}: board {board} is not a board number 1..{max}").format(
                file=path, line=n, board=repr(cells[0]), max=MAX_BOARD))
        board = int(cells[0])
        if board in out:
            raise PairingsError(_("{file} line {line}: board {board} is paired twice").format(
                file=path, line=n, board=board))
        out[board] = (cells[1], cells[2])
    if not out:
        raise PairingsError(_("pairings file {file} has no pairings (CSV lines: board, left player, right "
                              "player)").format(file=path))
    return out
