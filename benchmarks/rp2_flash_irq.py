"""A lever pressed while the journal writes the Pico's flash (issue 15, item 6), in the RP2040 emulator:

    python benchmarks/rp2_flash_irq.py

MicroPython's rp2 port runs every flash erase and program with interrupts off
(ports/rp2/rp2_flash.c: begin_critical_flash_section, save_and_disable_interrupts), so a lever's
GPIO IRQ that comes during one waits for its end, and the press is stamped that much late. This
boots the stock image with the deployed firmware, starts a game, and records every flash command the
emulated chip receives (the SSI's erase and page program, at chip-select release) with whether the
core had interrupts masked (PRIMASK) then. At the first command after the first move it pulls the
right lever low at that very instant, and compares the press's stamp in the log with it. (The first
move's own record is written within the 60 ms in which a press of the other lever counts as "both
together" and is ignored: the command the press goes into is a checkpoint's, every second here.)

What the emulator can and cannot say: it runs the masking (PRIMASK is the CPU's), but its flash chip
has no busy time (an erase or a program is done at chip-select release, the status register never
shows BUSY), so the window lasts only the SDK's own instructions around the command. A real Pico's
W25Q16JV needs 45 ms (typically; 400 ms at most) for a 4 KB sector erase and 0.4 ms (3 ms at most)
for a 256-byte page program: that is how late a press during one can be stamped on a board.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "rp2")]

import rp2emu  # noqa: E402
from rp2emu import Pico  # noqa: E402

from sagat.client import Clock  # noqa: E402

ERASES = {0x20: "sector erase", 0xD8: "block erase"}
PROGRAM = 0x02


def main() -> int:
    image = rp2emu.find_image(rp2emu.STOCK_NAME)
    if image is None:
        print(f"no {rp2emu.STOCK_NAME} (rp2/README.md)")
        return 1
    # checkpoints every second (the journal reads checkpoint_ms at boot)
    files = {**rp2emu.deploy_files(), "/settings.json": b'{"checkpoint_ms": 1000}'}
    with Pico(image, rp2emu.littlefs_image(files)) as pico:
        with Clock(pico.port, timeout=3600) as c:
            c.request("identify")
            c.request("new", tc="60", first="left")
        ssi, core, clock = pico.mcu.ssi, pico.mcu.core, pico.clock
        ops: list[tuple[float, int, bool]] = []
        armed = [None]  # the emulated instant from which the next flash command gets a lever press
        injected: list[float] = []
        apply = ssi._apply_command

        def hook():
            op = ssi._tx_buffer[0] if ssi._tx_buffer else -1
            if op in ERASES or op == PROGRAM:
                ops.append((clock.nanos, op, bool(core.pm)))
                if armed[0] is not None and clock.nanos >= armed[0] and not injected:
                    injected.append(clock.nanos)
                    pico.set_pin(Pico.LEVER_RIGHT, False)  # pressed now, inside the flash operation
            apply()

        pico.call(lambda: setattr(ssi, "_apply_command", hook))
        t0 = pico.presses([(Pico.START, 0, 80), (Pico.LEVER_LEFT, 80 + 400, 60)])  # left's move: a record
        ts = t0 + 80
        pico.at(pico.ns_of_ticks(ts + 500), lambda: armed.__setitem__(0, clock.nanos))
        pico.wait_ticks(ts + 2600)
        pico.call(lambda: pico.mcu.gpio[Pico.LEVER_RIGHT].release_input())
        pico.wait_ticks(ts + 2800)
        epoch = pico.epoch_ns()
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([sys.executable, "-m", "sagat", "logs", "pull", "--port", pico.port, "--out", out,
                            "--timeout", "3600"], check=True, capture_output=True)
            events = [json.loads(x) for x in open(os.path.join(out, "events.jsonl"))]
    presses = [e for e in events if e["type"] == "press"]
    masked = sum(1 for _, _, pm in ops if pm)
    kinds = {}
    for _, op, _ in ops:
        name = ERASES.get(op, "page program")
        kinds[name] = kinds.get(name, 0) + 1
    print(f"flash commands during the game: {kinds}; with interrupts masked (PRIMASK) at the command: "
          f"{masked} of {len(ops)}")
    if injected:
        at_ms = (injected[0] - epoch) / 1e6
        right = [e for e in presses if e["side"] == "right"]
        stamp = right[0]["t"] + ts if right else None
        print(f"right lever pressed inside a flash command at ticks {at_ms:.3f} ms; stamped at {stamp} ms "
              f"(late by {stamp - int(at_ms) if stamp is not None else '?'} ms in the emulator, which models no "
              f"flash busy time)")
    else:
        print("no flash command after the first move: nothing injected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
