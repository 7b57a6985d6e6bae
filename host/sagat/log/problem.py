"""What a verify found wrong, as a typed record: callers decide on its part and code, never on its
words (the words are for the person reading them)."""

from __future__ import annotations

from dataclasses import dataclass

# a Problem's part: what it is about
RECORDS = "records"  # the records themselves, as the firmware's reader checks them (code: records.P_*)
REPLAY = "replay"  # a game or match the firmware's engines do not reproduce (code "replay"), a result
#                    record the clock would not enter (code "result"), a gap not under a key ("gap")
HEAD = "head"  # the pull's signed head against the log (codes HEAD_*)
CODE = "code"  # the result code from the faces against the log (code "code")

# the head's codes (head.py)
HEAD_SHAPE = "head_shape"  # not a head file
HEAD_EMPTY = "head_empty"  # the clock said its log was empty, and this one is not
HEAD_CUT_START = "head_cut_start"  # records cut off the log's start
HEAD_CUT_END = "head_cut_end"  # records cut off its end
HEAD_PAST = "head_past"  # the log goes on past the head
HEAD_LINK = "head_link"  # the head's record is not the log's last (its chain value)
HEAD_SEALED = "head_sealed"  # signed with the arbiter key, and no key was given to check it
HEAD_NO_KEY = "head_no_key"  # signed, but the log does not end under a key given
HEAD_MAC = "head_mac"  # its MAC does not verify under the key the log ends under
HEAD_UNSIGNED = "head_unsigned"  # not signed, but the log is keyed
HEAD_CLOCK = "head_clock"  # another clock's head than the one the log should be
HEAD_MISSING = "head_missing"  # none beside a keyed log's records
HEAD_UNREADABLE = "head_unreadable"  # head.json there, but not readable (its file, its JSON)


@dataclass(frozen=True)
class Problem:
    """One thing wrong. `line`: as the verdict says it (English for the hall and --json, or in the
    user's language, as the verify was asked); `seq`: the record it is at, when it is at one."""

    part: str
    code: str
    line: str
    seq: int | None = None

    def __str__(self) -> str:
        return self.line
