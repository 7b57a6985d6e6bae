# Writes a littlefs image with a sagat log, as the firmware writes it (MicroPython unix port):
#   micropython tests/kits/make_image.py OUT.img [KEY]
# Game 1: 420 (TK-B3 blitz) without freeze: left flags first, right flags second, the arbiter
# gives the tie extension (TK-C14), then 1-0. Game 2: 2/60+2:30+2 in progress: a stage, a pause,
# a correction, a checkpoint.
import sys

here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, here)
sys.path.insert(0, here + "/../../firmware")

from flash import Flash, mount, unmount  # noqa: E402

from sagatfw.engine import clock as C  # noqa: E402
from sagatfw.log import boot as journalboot  # noqa: E402
from sagatfw.log.journal import Journal  # noqa: E402


def main():
    out = sys.argv[1]
    key = sys.argv[2].encode() if len(sys.argv) > 2 else b""
    f = Flash(blocks=32)
    mount(f, fresh=True, progsize=256)
    if key:  # the clock's key file, as key.set leaves it: a sim booted on the image goes on keyed
        with open("/flash/key", "wb") as fh:
            fh.write(key)
    j = Journal("/flash/log", key=key, segment_records=16)
    journalboot.open_log(j)
    c = C.Clock()
    c.new_game("420", None, C.LEFT, C.Settings(False))
    j.begin_game(c, 0)
    j.time_sync(c, 1796000000000, 0)
    c.start(0)
    j.log_events(c, 0)
    t = 0
    for d in (5000, 4000, 6000, 3000):
        t += d
        c.press(c.running, t)
        j.log_events(c, t)
    c.advance(t + 420000)  # left (to move) flags, then right's clock never runs: only one flag
    j.log_events(c, t + 420000)
    c.press(C.LEFT, t + 420500)  # the flagged side completes its move (TK-B8)
    c.advance(t + 900000)  # right flags too
    j.log_events(c, t + 900000)
    c.extend(t + 901000)
    j.log_events(c, t + 901000)
    c.press(c.running, t + 902000)
    c.result(0, t + 903000)
    j.log_events(c, t + 903000)
    c.new_game("2/60+2:30+2")
    j.begin_game(c, 1000000)
    c.start(1000000)
    j.log_events(c, 1000000)
    t = 1000000
    for d in (2000, 3000, 2500, 1500, 1000):
        t += d
        c.press(c.running, t)
        j.log_events(c, t)
    c.pause(C.BY_RIGHT, t + 100)
    j.log_events(c, t + 100)
    c.adjust(C.RIGHT, t + 200, 45000, 2, 2)
    j.log_events(c, t + 200)
    c.resume(t + 300)
    j.log_events(c, t + 300)
    c.advance(t + 20000)
    j.checkpoint(c, t + 20000)
    unmount()
    with open(out, "wb") as fh:
        fh.write(f.data)
    print("wrote", out, "records", j.seq)


main()
