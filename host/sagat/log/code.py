"""A result code copied from the faces onto a scoresheet, against the log: the result record it is
the code of, and that record in the arbiter's words (the firmware's decoding and engine)."""

from __future__ import annotations

from sagatfw.engine import clock as C
from sagatfw.log import read as logread
from sagatfw.log import records as R
from sagatfw.log.replay import Replay

from ..i18n import _, english, ngettext
from .decode import Log, Result
from .show import MatchSheet, sheet_word


def code_problem(code: str) -> str | None:
    """What is wrong with a result code as typed (None if it has the code's shape): six digits."""
    code = code.strip()
    digits = logread.CODE_DIGITS
    if len(code) != digits or not code.isdigit():
        return ngettext("a result code is {n} digit (the faces show CODE and {n} digit), not {code}",
                        "a result code is {n} digits (the faces show CODE and {n} digits), not {code}",
                        digits).format(n=digits, code=repr(code))
    return None


def _flag_down(log: Log, game: int, seq: int) -> str | None:
    """The side whose flag was down first when the result at `seq` was entered ("left", "right"), as the
    firmware's engine has it (log/replay.py: a flag that an extension or a correction raised again is
    not down); None if none was, or the game cannot be replayed up to there (its setup cut off)."""
    evs = [e for e in log.events if e["game"] == game and e["seq"] < seq]
    starts = [i for i, e in enumerate(evs) if e["type"] == "settings" and e.get("tc") is not None]
    if not starts:
        return None
    rp = Replay()
    try:
        for e in evs[starts[-1] :]:
            rp.feed(e)
    except Exception:  # noqa: BLE001 - a game the engine cannot replay (verify says so): no flag named
        return None
    side = rp.clock.first_flag()
    return C.SIDE_NAMES[side] if side in (C.LEFT, C.RIGHT) else None


def result_words(log: Log, game: int, res: Result) -> str:
    """A result record as the arbiter reads it, in the user's language: "1-0 by flag, kazans 85-60",
    "+/-: right did not appear, left wins by default (TK-R4)", a match's winner and why. From the
    firmware's decoding of the record (res.event) and the flag that was down first when it was
    entered (the firmware's engine replaying the game: TK-C12, TK-R7)."""
    e = res.event
    if "winner" in e or "why" in e:  # a match's result (log/matchrecords.py)
        setups = [x for x in log.events if x["game"] == game and x["type"] == "match" and x["seq"] < res.seq]
        return MatchSheet(setups[-1] if setups else {}).result_words(e)
    r, k = e.get("result"), e.get("kazans")
    flag = _flag_down(log, game, res.seq)
    winner = {"1-0": "left", "0-1": "right"}.get(r)
    if r is None:
        text = _("a result this sagat does not know")
    elif winner and flag and flag != winner:
        text = _("{result} by flag").format(result=r)  # the loser's flag fell first
    elif winner and flag:
        text = _("{result} with {side}'s flag down (TK-R7)").format(result=r, side=sheet_word(flag))
    elif r == "1/2-1/2" and flag:
        text = _("{result}, a draw with {side}'s flag down").format(result=r, side=sheet_word(flag))
    elif r == "1/2-1/2":
        text = _("{result}, a draw").format(result=r)
    elif r == "+/-":
        text = _("+/-: right did not appear, left wins by default (TK-R4)")
    elif r == "-/+":
        text = _("-/+: left did not appear, right wins by default (TK-R4)")
    elif r == "-/-":
        text = _("-/-: neither player appeared (TK-R4)")
    else:
        text = r
    return text + (_(", kazans {left}-{right}").format(left=k[0], right=k[1]) if k else "")


def check_code(log: Log, game: int, code: str, keys: list[bytes] | None = None,
               unkeyed_ok: bool = False, uid: str | None = None, translate: bool = False) -> tuple[bool, str]:
    """(ok, line): the result code copied from the faces onto game `game`'s scoresheet against the
    log. The code comes from the chain at the result record, whose clock tag names the clock that
    entered it (records.clock_tag): two clocks with the same history give different codes. Under a
    key given, a match proves the log holds that game as it was when its result was entered (no
    forger can make one). In an unkeyed stretch (no key yet, or after a key was cleared) anyone can
    recompute the code of any history, so a match says only that this log gives the code the faces
    showed: nothing about tampering. With keys given, such a result counts only with `unkeyed_ok`
    (`logs verify`: a game played before the key was set); the hall, which expects its clocks keyed,
    refuses it. `uid`: the clock the log should be (its head's, or --clock): a result record that
    names another clock is refused. `translate`: the line in the user's language (else English: the
    hall reads it)."""
    if not translate:
        with english():
            return check_code(log, game, code, keys, unkeyed_ok, uid, translate=True)
    code = code.strip()
    wrong = code_problem(code)
    if wrong:
        return False, _("code: {why}").format(why=wrong)
    results = log.results.get(game)
    if not results:
        return False, _("code: game {game} has no result in this log: it was cut off, or this is another log").format(
            game=game)
    for i, res in enumerate(results):
        if R.result_code(res.link) != code:
            continue
        words = dict(code=code, game=game, seq=res.seq, result=result_words(log, game, res), uid=uid)
        if uid and res.tag is not None and res.tag != R.clock_tag(uid):
            return False, _("code: game {game}'s result at seq {seq} was entered on another clock, not clock "
                            "{uid}: this log is another clock's, or the code is checked against the wrong "
                            "clock").format(**words)
        on = _(" on clock {uid}").format(uid=uid) if uid and res.tag is not None else ""
        if res.keyed:
            line = _("code {code}: game {game}'s result {result} at seq {seq} is the one the faces showed: "
                     "the log holds game {game} as it was when its result was entered").format(**words) + on
        elif res.unkeyed and keys and not unkeyed_ok:
            return False, _("code: game {game}'s result at seq {seq} does not link under a key given: its "
                            "code proves nothing").format(**words)
        elif res.unkeyed:
            line = _("code {code}: matches game {game}'s result {result} at seq {seq}, which is not under an "
                     "arbiter key: anyone can recompute an unkeyed code for any history, so this shows "
                     "nothing about tampering (only a code under the key does)").format(**words)
        else:  # its record links under no chain this check knows: a damaged or sealed stretch
            return False, _("code: game {game}'s result at seq {seq} does not link under a key given nor "
                            "unkeyed: its code proves nothing").format(**words)
        if i < len(results) - 1:
            later = results[-1]
            line += _(" (a later result record, seq {seq}, changed it to {result})").format(
                seq=later.seq, result=result_words(log, game, later))
        return True, line
    last = results[-1]
    words = dict(code=code, game=game, seq=last.seq, result=result_words(log, game, last),
                 gives=R.result_code(last.link), uid=uid)
    if uid and last.tag is not None and last.tag == R.clock_tag(uid):
        text = _("code: {code} is not the code of game {game}'s result in this log (seq {seq}, {result}, "
                 "gives {gives}): the game was changed or cut, or {code} is another clock's code (this log "
                 "is clock {uid}'s)")
    else:
        text = _("code: {code} is not the code of game {game}'s result in this log (seq {seq}, {result}, "
                 "gives {gives}): the game was changed or cut, or this is another clock's log")
    return False, text.format(**words)
