# Storage benchmark: what the journal costs the flash, on the real littlefs of the MicroPython
# unix port, with the Pico's and the ESP32's geometry.
#
#   micropython benchmarks/storage_bench.py [--games N] [--moves M]
#
# Plays N games of M moves (default: a club day, 10 games of 200 moves) with random thinking
# times (1..40 s, so running clocks also write checkpoints), and reports per move: records,
# bytes programmed, program operations and block erases; the flash endurance in years for a club
# playing 10 games of 200 moves a day (littlefs levels wear over the whole filesystem; NOR flash
# is rated 100,000 erase cycles per block); and the time per durable append under MicroPython on
# this PC (a RAM chip: real flash adds its program and erase times, estimated from the datasheet
# figures printed below).
import random
import sys
import time

here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, here + "/../firmware")
sys.path.insert(0, here + "/../tests/kits")

from flash import Flash, mount, unmount  # noqa: E402

from sagatfw.engine import clock as C  # noqa: E402
from sagatfw.log import boot as journalboot  # noqa: E402
from sagatfw.log.journal import Journal  # noqa: E402

# name, block size, littlefs progsize, filesystem blocks (what MicroPython's builds give)
GEOMETRIES = (
    ("pico (rp2, 2 MB flash, 1.4 MB fs)", 4096, 256, 352),
    ("esp32 (DevKit v1, 4 MB flash, 2 MB fs)", 4096, 32, 512),
)
SIM_BLOCKS = 96  # the chip simulated in RAM (384 KB); endurance is computed for the real size
CYCLES = 100000  # rated erase cycles per block (W25Q16/W25Q32 class NOR flash)
PAGE_PROGRAM_MS = 0.7  # typical page program, W25Q datasheets
SECTOR_ERASE_MS = 45.0  # typical 4 KB sector erase


def arg(name, default):
    if name in sys.argv:
        return int(sys.argv[sys.argv.index(name) + 1])
    return default


def run(geometry, games, moves, seed=1):
    label, block, prog, blocks = geometry
    rng = random.Random(seed) if hasattr(random, "Random") else random
    if not hasattr(random, "Random"):
        random.seed(seed)
    f = Flash(block_size=block, blocks=SIM_BLOCKS)  # erases per move do not depend on the size
    mount(f, fresh=True, progsize=prog)
    j = Journal("/flash/log", key=b"bench", segment_records=128, max_bytes=256 * 1024)
    journalboot.open_log(j)
    f.arm()
    f.programs = 0
    f.program_bytes = 0
    f.erases = 0
    c = C.Clock()
    now = 0
    records0 = j.seq
    append_us = 0
    appends = 0
    worst_us = 0
    for _ in range(games):
        c.new_game("40/5400+30:1800+30")
        j.begin_game(c, now)
        c.start(now)
        j.log_events(c, now)
        for _ in range(moves):
            think = 1000 + rng.getrandbits(16) % 39000
            # the app's loop: checkpoints while the side thinks, every second
            for s in range(1000, think, 1000):
                c.advance(now + s)
                j.log_events(c, now + s)
                j.checkpoint(c, now + s)
            now += think
            c.press(c.running, now)
            t0 = time.ticks_us()
            ok = j.log_events(c, now)
            dt = time.ticks_diff(time.ticks_us(), t0)
            assert ok, j.error
            append_us += dt
            appends += 1
            if dt > worst_us:
                worst_us = dt
        c.result(2, now + 1)
        j.log_events(c, now + 1)
        now += 60000
    unmount()
    total_moves = games * moves
    records = j.seq - records0
    per = {
        "records": records / total_moves,
        "bytes": f.program_bytes / total_moves,
        "programs": f.programs / total_moves,
        "erases": f.erases / total_moves,
    }
    day_erases = per["erases"] * 2000  # 10 games of 200 moves
    years = CYCLES * blocks / day_erases / 365 if day_erases else float("inf")
    board_ms = per["programs"] * PAGE_PROGRAM_MS + per["erases"] * SECTOR_ERASE_MS
    print(label)
    print("  %d games x %d moves, %d records (%d bytes each)" % (games, moves, records, 64))
    print("  per move: %.2f records, %.0f bytes programmed, %.2f program ops, %.3f block erases"
          % (per["records"], per["bytes"], per["programs"], per["erases"]))
    print("  flash endurance at 10 games x 200 moves a day: %.0f years (%d blocks x %d cycles)"
          % (years, blocks, CYCLES))
    print("  durable append under MicroPython (RAM chip): %.0f us mean, %d us worst"
          % (append_us / appends, worst_us))
    print("  + real flash, estimated: %.1f ms per move (%.1f ms/page program, %.0f ms/sector erase)"
          % (board_ms, PAGE_PROGRAM_MS, SECTOR_ERASE_MS))
    return per, years


def main():
    games = arg("--games", 10)
    moves = arg("--moves", 200)
    print("sagat storage benchmark: journal on littlefs (MicroPython %s)" % sys.version)
    for g in GEOMETRIES:
        run(g, games, moves)


main()
