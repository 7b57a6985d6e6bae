# Writes a littlefs image whose log has a gap record, as the firmware writes it on a flash the game in
# progress fills (MicroPython unix port):
#   micropython tests/kits/make_full_image.py OUT.img [KEY [BLOCKS]]
# A 64 KB flash (or BLOCKS blocks of 4 KB: 256, the simulator's 1 MB), one game pressed until seven
# presses cannot be kept, then its result (the ballast makes room for it, after the gap record that
# counts the seven).
import sys

here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, here)
sys.path.insert(0, here + "/../../firmware")

from flash import Flash, mount, unmount  # noqa: E402
from virtualsim import boot, play  # noqa: E402


def main():
    out = sys.argv[1]
    f = Flash(blocks=int(sys.argv[3]) if len(sys.argv) > 3 else 16)
    mount(f, fresh=True)
    if len(sys.argv) > 2 and sys.argv[2]:
        with open("/flash/key", "wb") as fh:
            fh.write(sys.argv[2].encode())
    app, board, _ = boot(0)
    play(app, board, [{"at": 0, "do": "new", "tc": "-"}, {"at": 0, "do": "start"}])
    j = app.journal
    t = 0
    after = 0
    while after < 7:
        t += 2000
        play(app, board, [{"at": t, "do": "press", "side": "left" if t % 4000 else "right"}])
        if j.gap:
            after += 1
    play(app, board, [{"at": t + 1000, "do": "result", "result": "0-1"}])
    assert j.gap == 0 and not j.backlog
    unmount()
    with open(out, "wb") as fh:
        fh.write(f.data)
    print("wrote", out, "records", j.seq, "dropped", j.dropped)


main()
