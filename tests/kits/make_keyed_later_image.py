# Writes a littlefs image whose log is unkeyed at first and keyed later, as the firmware writes it
# (MicroPython unix port):  micropython tests/kits/make_keyed_later_image.py OUT.img KEY
# Game 1: 420, four presses, then 1-0, with no key set. Then the arbiter key is set between games
# (the key_set record, sealed as the chain was: unkeyed). Game 2: 420, four presses, then 0-1,
# every record keyed.
import sys

here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, here)
sys.path.insert(0, here + "/../../firmware")

from flash import Flash, mount, unmount  # noqa: E402

from sagatfw.engine import clock as C  # noqa: E402
from sagatfw.log import boot as journalboot  # noqa: E402
from sagatfw.log import records as R  # noqa: E402
from sagatfw.log.journal import Journal  # noqa: E402


def game(j, c, t, result):
    c.new_game("420", None, C.LEFT, C.Settings(False))
    j.begin_game(c, t)
    c.start(t)
    j.log_events(c, t)
    for d in (5000, 4000, 6000, 3000):
        t += d
        c.press(c.running, t)
        j.log_events(c, t)
    c.result(result, t + 1000)
    j.log_events(c, t + 1000)
    return t + 1000


def main():
    out, key = sys.argv[1], sys.argv[2].encode()
    f = Flash(blocks=32)
    mount(f, fresh=True, progsize=256)
    j = Journal("/flash/log", key=b"", segment_records=16)
    journalboot.open_log(j)
    c = C.Clock()
    t = game(j, c, 0, 0)
    j.log_settings(c, C.Settings(False), R.ORIGIN_KEY_SET, t + 1000)  # as commands.key_set logs it
    j.chain = R.Chain(key)
    with open("/flash/key", "wb") as fh:
        fh.write(key)
    game(j, c, t + 100000, 1)
    unmount()
    with open(out, "wb") as fh:
        fh.write(f.data)
    print("wrote", out, "records", j.seq)


main()
