"""A pull's head against its log: the clock's last durable record, signed with the arbiter key over
the pull's nonce (head.json, written by sagat.pull). Each problem is a typed record (its code)."""

from __future__ import annotations

from .. import pull
from . import problem as problem
from .decode import Log
from .problem import Problem


def check_head(log: Log, head: dict, keys: list[bytes]) -> list[Problem]:
    """Problems of a pull against the head the clock gave at its end (pull.HEAD_FILE): the records
    must reach that head, and with a key set the head must carry the key's MAC over the pull's
    nonce, under the key the log ends under (a retired key cannot sign for a later log)."""
    keys = [k for k in keys if k]  # as the reader numbers them
    out = []
    if not _head_shaped(head):
        return [_p(problem.HEAD_SHAPE, "head: not a head file (seq, first: whole numbers or null; link, nonce, "
                   "uid: text; mac: text or null)")]
    seq, link = head["seq"], head["link"]
    if seq is None:
        return [] if log.records == 0 else [_p(problem.HEAD_EMPTY, "head: the clock said its log was empty")]
    first = head.get("first")
    if first is not None and (log.start_seq is None or log.start_seq > first):  # (earlier is fine: erased since)
        out.append(_p(problem.HEAD_CUT_START, f"head: the clock's log began at seq {first} at the pull, this one at "
                      f"seq {log.start_seq}: records were cut off its start", first))
    if log.last_seq is None or log.last_seq < seq:
        out.append(_p(problem.HEAD_CUT_END, f"head: the clock's last record was seq {seq}, the log ends at seq "
                      f"{log.last_seq}: records were cut off the end", seq))
    elif log.last_seq > seq:
        out.append(_p(problem.HEAD_PAST, f"head: the log goes on past the clock's head (seq {seq}) to seq "
                      f"{log.last_seq}", seq))
    elif log.last_link is None or log.last_link.hex() != link:
        out.append(_p(problem.HEAD_LINK, f"head: seq {seq} is not the record the clock signed for (its chain value "
                      f"differs)", seq))
    if head.get("mac"):
        if not keys:
            out.append(_p(problem.HEAD_SEALED, "head: it is signed with the arbiter key: give --key to check it"))
        elif log.last_key is None or log.last_key < 0 or log.last_key >= len(keys):
            out.append(_p(problem.HEAD_NO_KEY, "head: signed, but the log does not end under a key given"))
        elif not pull.head_ok(head, keys[log.last_key]):
            out.append(_p(problem.HEAD_MAC, "head: its MAC does not verify under the key the log ends under: not this "
                          "clock's head"))
    elif head.get("key_set") or (keys and log.last_key is not None and log.last_key >= 0):
        out.append(_p(problem.HEAD_UNSIGNED, "head: not signed, but the log is keyed: not a head this clock gave"))
    return out


def _p(code: str, line: str, seq: int | None = None) -> Problem:
    return Problem(problem.HEAD, code, line, seq)


def _head_shaped(head) -> bool:
    """Whether `head` has the fields and types of a head that `sagat logs pull` saves."""
    if not isinstance(head, dict):
        return False
    for k in ("seq", "first"):
        v = head.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            return False
    for k in ("link", "nonce", "uid", "mac"):
        v = head.get(k)
        if v is None and k in ("uid", "mac"):
            continue
        if not isinstance(v, str) or not v.isascii() or not v.isprintable():  # (no lone surrogates)
            return False
    return True
