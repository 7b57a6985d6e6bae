"""`sagat logs pull` against clocks of both kinds: one whose log.info says `bin` and its
uid gets raw chunks of 256 records and no identify; one of before (base64 only, 32 records a chunk,
its uid in identify only) is never sent `bin` nor asked more than it takes, and both pulls save the
same records."""

import base64
import os

from sagat import pull as pull
from sagat.client import LinkError
from sagatfw.log import records as R


def _records(n):
    out = []
    for seq in range(n):
        rec = bytearray(R.RECORD_SIZE)
        rec[0] = R.MAGIC
        rec[4:8] = seq.to_bytes(4, "little")
        rec[R.CRC : R.CRC + 4] = R.crc32(bytes(rec[: R.CRC])).to_bytes(4, "little")
        out.append(bytes(rec))
    return out


class FakeClock:
    """Answers log.info / identify / log.read / log.head as a clock of either kind does."""

    def __init__(self, recs, new):
        self.recs = recs
        self.new = new
        self.asked = []
        self.pending = {}
        self.next = 1
        self.key = b""

    def request(self, cmd, auth=False, **args):
        return self.wait(self.send(cmd, auth, **args), cmd)

    def send(self, cmd, auth=False, **args):
        self.asked.append((cmd, dict(args)))
        rid = self.next
        self.next += 1
        self.pending[rid] = (cmd, args)
        return rid

    def wait(self, rid, cmd="request"):
        cmd, args = self.pending.pop(rid)
        last = len(self.recs) - 1
        if cmd == "identify":
            return {"ok": True, "uid": "old-or-new", "max_records": 256 if self.new else 32}
        if cmd == "log.info":
            ans = {"ok": True, "first": 0, "last": last, "max_records": 256 if self.new else 32}
            if self.new:
                ans.update(uid="old-or-new", bin=True)
            return ans
        if cmd == "log.head":  # as the client raises a clock's refusal: its code with it
            e = LinkError("clock refused log.head: unknown_cmd")
            e.code = "unknown_cmd"
            raise e
        assert cmd == "log.read"
        limit = 256 if self.new else 32
        if "bin" in args and not self.new or args["max_records"] > limit:
            e = LinkError("clock refused log.read: bad_arg")
            e.code = "bad_arg"
            raise e
        start = args["from_seq"]
        got = self.recs[start : start + args["max_records"]]
        ans = {"ok": True, "from": start, "next": start + len(got), "last": last, "count": len(got)}
        if args.get("bin"):
            ans["bin"] = len(got) * R.RECORD_SIZE
            ans["raw"] = b"".join(got)
        else:
            ans["data"] = base64.b64encode(b"".join(got)).decode()
        return ans


def test_a_clock_with_bin_and_one_from_before_give_the_same_records(tmp_path):
    recs = _records(700)
    saved = {}
    for new in (True, False):
        clock = FakeClock(recs, new)
        out = str(tmp_path / ("new" if new else "old"))
        got = pull.pull(clock, out, progress=False)
        assert got["pulled"] == 700 and got["uid"] == "old-or-new"
        reads = [a for c, a in clock.asked if c == "log.read"]
        if new:  # raw chunks of 256, and no identify: log.info says all
            assert all(a.get("bin") is True and a["max_records"] == 256 for a in reads)
            assert not any(c == "identify" for c, _ in clock.asked)
        else:  # never `bin`, never more than it takes; its uid from identify
            assert all("bin" not in a and a["max_records"] == 32 for a in reads)
            assert any(c == "identify" for c, _ in clock.asked)
        with open(os.path.join(out, "records.bin"), "rb") as fh:
            saved[new] = fh.read()
    assert saved[True] == saved[False] == b"".join(recs)
