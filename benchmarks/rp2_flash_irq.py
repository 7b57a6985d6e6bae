"""A lever pressed while the journal writes the Pico's flash, in the RP2040 emulator:

    SAGAT_RP2_IMAGES=... python benchmarks/rp2_flash_irq.py [--max] [--stamps irq|pio|both]

MicroPython's rp2 port runs every flash erase and program with interrupts off
(ports/rp2/rp2_flash.c: begin_critical_flash_section, save_and_disable_interrupts), and the SDK
polls the chip's status register until the operation is done. rp2040py's flash chip has no busy
time (an erase or a program is done at chip-select release), so this gives it the W25Q16JV's
(tests/kits/flashbusy.py): a 4 KB sector erase 45 ms and a page program 0.4 ms typically, 400 ms and
3 ms with --max.

It boots the stock image with the deployed firmware (checkpoints every second), starts a game, and
plays two presses inside the journal's own flash operations: the right lever 10 ms into the first
sector erase after the first move, then the left lever 0.1 ms into the first page program after
that. Each press is an alarm on the emulated clock set from the flash command itself, so it lands
inside the operation. The log pulled afterwards says at which ticks each press was charged.

Two ways to stamp the levers (--stamps, both by default): `irq`, the pin IRQ that reads ticks_ms()
in its handler (hw.py; the firmware deployed without boards/rp2levers.py, so the board falls back
to it), and `pio`, boards/rp2levers.py's PIO + DMA stamps. With the first, a press is charged when
the operation ends and interrupts come back on; with the second, at its own ms.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "kits")]

import rp2emu  # noqa: E402
from flashbusy import MAXIMUM, TYPICAL, FlashBusy, summary  # noqa: E402
from rp2emu import Pico  # noqa: E402

from sagat.client import Clock  # noqa: E402


def stock_image():
    image = rp2emu.find_image(rp2emu.STOCK_NAME)
    if image is None:
        for d in rp2emu.image_dirs():
            found = sorted(d.glob("micropython-v*-RPI_PICO.uf2")) if d.is_dir() else []
            if found:
                return found[-1]
    return image


def run(image, stamps: str, times: tuple[float, float, float]) -> dict:
    files = {**rp2emu.deploy_files(), "/settings.json": b'{"checkpoint_ms": 1000}'}
    if stamps == "irq":
        del files["/sagatfw/boards/rp2levers.mpy"]  # the board keeps the levers on pin IRQs
    wall = time.monotonic()
    with Pico(image, rp2emu.littlefs_image(files)) as pico:
        busy = pico.call(lambda: FlashBusy(pico.mcu, *times).install())
        with Clock(pico.port, timeout=3600) as c:
            heap = c.request("identify")["heap_used"]
            c.request("new", tc="60", first="left")
        print(f"  ({stamps}: booted, heap_used {heap} B, wall {time.monotonic() - wall:.0f} s)", file=sys.stderr,
              flush=True)
        clock = pico.clock
        epoch = pico.epoch_ns()
        # (flash op kind, pin, ns into the busy time, hold ns); the next plan waits for `after_ns`
        plan = [["sector erase", Pico.LEVER_RIGHT, 10e6, 80e6], ["page program", Pico.LEVER_LEFT, 0.1e6, 80e6]]
        armed = [None]  # the emulated instant from which the next planned press may go in
        pressed: list[dict] = []
        done = []

        def on_command(op):
            if not plan or armed[0] is None or clock.nanos < armed[0] or op.kind != plan[0][0]:
                return
            kind, pin, after, hold = plan.pop(0)
            at = (math.floor((op.start_ns + after) / 1000) + 0.5) * 1000  # half a us: no ms is crossed
            gpio = pico.mcu.gpio[pin]
            rec = {"kind": kind, "pin": pin, "ticks": int((at - epoch) // 1_000_000), "op": op}
            pressed.append(rec)
            clock.create_alarm(lambda: gpio.set_input_value(False)).schedule(at - clock.nanos)
            clock.create_alarm(gpio.release_input).schedule(at + hold - clock.nanos)
            armed[0] = at + hold + 200e6
            if not plan:
                done.append(at + hold + 300e6)

        busy.on_command = on_command
        t0 = pico.presses([(Pico.START, 0, 80), (Pico.LEVER_LEFT, 80 + 400, 60)])  # left's move: right runs
        ts = t0 + 80  # the game's t = 0: START's release
        pico.at(pico.ns_of_ticks(ts + 500), lambda: armed.__setitem__(0, clock.nanos))
        while not done:
            pico.wait_ms(200)
            now = pico.ticks_ms()
            print(f"  ({stamps}: game at {now - ts} ms, {len(busy.ops)} flash operations, wall "
                  f"{time.monotonic() - wall:.0f} s)", file=sys.stderr, flush=True)
            if now > ts + 60000:
                raise RuntimeError(f"no {plan[0][0]} in a minute of play")
        pico.wait_ns(done[0])
        with tempfile.TemporaryDirectory() as out:
            env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "host")}  # this checkout's host, as its firmware
            pull = subprocess.run([sys.executable, "-m", "sagat", "logs", "pull", "--port", pico.port, "--out", out,
                                   "--timeout", "3600"], capture_output=True, text=True, env=env)
            if pull.returncode != 0:
                raise RuntimeError(f"sagat logs pull: {pull.returncode} {pull.stdout} {pull.stderr}")
            events = [json.loads(x) for x in open(os.path.join(out, "events.jsonl"))]
        ops = summary(busy.ops)
        for op in busy.ops:
            print(f"  ({op.kind} at game {(op.start_ns - epoch) / 1e6 - ts:.1f} ms)", file=sys.stderr)
        ignored = busy.ignored
    presses = [e for e in events if e["type"] == "press"]
    side = {Pico.LEVER_LEFT: "left", Pico.LEVER_RIGHT: "right"}
    rows = []
    for rec in pressed:
        mine = [e for e in presses if e["side"] == side[rec["pin"]] and e["t"] + ts >= rec["ticks"] - 5]
        charged = mine[0]["t"] + ts if mine else None
        op = rec["op"]
        rows.append({"kind": rec["kind"], "lever": side[rec["pin"]], "pressed": rec["ticks"], "charged": charged,
                     "error_ms": None if charged is None else charged - rec["ticks"],
                     "busy_ms": (op.ready_ns - op.start_ns) / 1e6 if op.ready_ns else None,
                     "masked": op.masked})
    return {"stamps": stamps, "rows": rows, "ops": ops, "ignored": ignored, "wall_s": time.monotonic() - wall,
            "heap_used": heap}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max", action="store_true", help="the W25Q16JV's maximum busy times (400 ms, 3 ms)")
    ap.add_argument("--stamps", choices=("irq", "pio", "both"), default="both")
    args = ap.parse_args()
    image = stock_image()
    if image is None:
        print(f"no {rp2emu.STOCK_NAME} (rp2/README.md)")
        return 1
    times = MAXIMUM if args.max else TYPICAL
    print(f"{image.name}; flash busy ({'maximum' if args.max else 'typical'}): sector erase {times[0]} ms, "
          f"page program {times[2]} ms")
    for stamps in (("irq", "pio") if args.stamps == "both" else (args.stamps,)):
        r = run(image, stamps, times)
        how = "pin IRQ, ticks_ms() in the handler" if stamps == "irq" else "PIO + DMA (rp2levers.py)"
        print(f"levers stamped by {how} (heap_used after boot {r['heap_used']} B; wall {r['wall_s']:.0f} s):")
        for row in r["rows"]:
            charged = (f"charged at {row['charged']}, {row['error_ms']} ms late" if row["charged"] is not None else
                       "not charged: no press in the log (a tap that ends inside the operation is lost when "
                       "the IRQ reads the level after it; a press of the side not running is no move)")
            print(f"  {row['lever']} lever pressed at ticks {row['pressed']} for 80 ms, inside a {row['kind']} "
                  f"(busy {row['busy_ms']:.1f} ms, interrupts masked at every poll: {row['masked']}): {charged}")
        print(f"  the journal's flash operations: {r['ops']}; commands while busy: {r['ignored']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
