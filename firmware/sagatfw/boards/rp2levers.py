# sagat: the levers' edges stamped by the RP2040's hardware, so that no flash operation delays a stamp.
#
# The rp2 port runs every flash erase and program with interrupts off (the journal's writes: a 4 KB
# sector erase takes 45 ms typically, 400 ms at most, on a Pico's W25Q16JV; a page program 0.4 ms,
# 3 ms at most), and a pin IRQ that reads ticks_ms() in its handler stamps a press made meanwhile
# that much late. Here no CPU is involved in the stamp:
#
#   - a PIO state machine per lever (PIO0 SM0 left, SM1 right) waits for the pin's level to change
#     and pushes a word to its RX FIFO at the edge (`wait` then `push`: the push is the instruction
#     right after the wait, one PIO cycle after the edge);
#   - DMA channel A, paced by that FIFO's DREQ, pops the word (it only marks the edge) and chains
#     to channel B, which copies the TIMER's TIMERAWL (the microseconds since boot, low 32 bits:
#     the counter time.ticks_ms() and time.ticks_us() read) into the lever's ring of 32 words in
#     RAM (the DMA wraps its write address), then chains back to A. Some 20 system clocks (0.2 us)
#     after the edge the stamp is in RAM, whatever the CPU is doing;
#   - B's completion raises DMA_IRQ_0: the (hard) handler runs when interrupts are on again, reads
#     how far B has written (its WRITE_ADDR's low half, machine.mem16: no big int), and hands every
#     new stamp to Buttons.edge with the ticks_ms() of that microsecond. The state machine waits
#     for a release before its first press and then alternates, so a stamp's level is its slot's
#     parity: even slots are presses.
#
# The microseconds to ticks_ms: on rp2, time.ticks_ms() is to_ms_since_boot(), the 64-bit
# microsecond count // 1000, and ticks_us() its low 30 bits (ports/rp2/mphalport.h: mp_hal_ticks_ms,
# mp_hal_ticks_us; & 2^30 - 1 in the time module). With ms = ticks_ms() read at 1000*M + r us
# (M the ms count, ms = M mod 2^30) and us = ticks_us() read just after, r = us - 1000*ms
# (mod 2^30), and a stamp d us before `us` is at floor((1000*M + r - d) / 1000) = ms +
# floor((r - d) / 1000) ms: exactly the ticks_ms() of that microsecond, with 30-bit arithmetic
# only (1000*ms mod 2^30 in two 15-bit halves; r and d small), so nothing allocates in the handler.
#
# Limits: if a lever makes k > 32 edges (bounce included) before the handler runs (a stretch of
# interrupts off), the DMA has gone round its ring and the handler gets only the last k mod 32 of
# them (the parity still gives their levels); a pulse shorter than the input synchronizer's two
# system clocks (16 ns) is not seen. Resources: PIO0's SM0 and SM1 (5 instructions), four DMA
# channels, 784 bytes of heap (tests/firmware/boards/test_rp2_flash_stamp.py). The RP2350's TIMER0 has the same
# layout at 0x400B0000 (not run: rp2040py is an RP2040). Other ports, and an rp2 firmware without
# rp2.DMA, keep the pin IRQs (hw.py); the board falls back to them if any of this cannot be set up.
import time
from array import array

from machine import mem16

try:
    from micropython import const
except ImportError:  # the host's type check

    def const(x):  # type: ignore[misc]
        return x


_N = const(32)  # stamps per lever: a power of two, and even (a slot's parity is its level)
_RING = const(128)  # bytes per ring (_N words): the DMA's ring wrap, 2^_RING_BITS, aligned to it
_RING_BITS = const(7)
_DMA_BASE = const(0x50000000)  # channel n's registers at + 0x40 * n; WRITE_ADDR at + 4
_PIO0_RXF0 = const(0x50200020)  # PIO0's RX FIFO of SM n at + 4 * n
_DREQ_PIO0_RX0 = const(4)  # + n
_TIMERAWL = {"RP2040": 0x40054028, "RP2350": 0x400B0028}  # TIMER (RP2350: TIMER0) + 0x28


def _program(emit):
    """The state machine: wait for a release, then push at every edge (press, release, ...)."""
    e = emit()
    for p in (0, 1):  # PIOASMEmit's two passes, as rp2.asm_pio runs them
        e.start_pass(p)
        e.wait(1, 6, 0)  # wait 1 pin 0: released (a lever held at boot is no press)
        e.wrap_target()
        e.wait(0, 6, 0)  # wait 0 pin 0: pressed
        e.push()  # the edge: DMA stamps it
        e.wait(1, 6, 0)  # released
        e.push()
        e.wrap()
    return e.prog


class LeverStamps:
    """The two levers' edges, stamped by PIO + DMA, handed to `buttons.edge` with their ticks_ms()."""

    def __init__(self, buttons, pins, machine_name):
        import uctypes

        from rp2 import DMA, PIOASMEmit, StateMachine

        chip = "RP2350" if "RP2350" in machine_name else "RP2040"
        self.buttons = buttons
        # two rings of _RING bytes, each aligned to _RING (the DMA wraps within an aligned block)
        self._buf = buf = array("H", [0] * (3 * _RING // 2))
        addr = uctypes.addressof(buf)
        skip = (-addr) & (_RING - 1)
        self._base = skip // 2  # the first ring's slot 0, in halfwords
        self._sink = array("H", [0, 0])  # channel A's destination: the popped word, unused
        self._rd = array("i", [0, 0])  # per lever: the next slot to read (the handler's only)
        self.parts = []  # type: list  # the state machines, channels and handlers: kept (DMA's finaliser frees a channel)
        try:
            self._start(DMA, StateMachine, _program(PIOASMEmit), _TIMERAWL[chip], pins, addr + skip)
        except Exception:
            self.close()
            raise

    def _start(self, DMA, StateMachine, prog, timerawl, pins, rings):
        # The state machines first: claiming one that something else has (a Pico W's radio may
        # take PIO0) raises before a DMA channel could read that machine's FIFO.
        sms = [StateMachine(lever, prog, in_base=pins[lever]) for lever in (0, 1)]
        self.parts.extend(sms)
        for lever in (0, 1):
            ring = rings + lever * _RING
            a = DMA()
            self.parts.append(a)
            b = DMA()
            self.parts.append(b)
            a.config(read=_PIO0_RXF0 + 4 * lever, write=self._sink, count=1,
                     ctrl=a.pack_ctrl(inc_read=False, inc_write=False, treq_sel=_DREQ_PIO0_RX0 + lever,
                                      chain_to=b.channel, irq_quiet=True))  # type: ignore[attr-defined]
            b.config(read=timerawl, write=ring, count=1,
                     ctrl=b.pack_ctrl(inc_read=False, inc_write=True, ring_sel=True, ring_size=_RING_BITS,
                                      chain_to=a.channel, irq_quiet=False))  # type: ignore[attr-defined]
            waddr = _DMA_BASE + 0x40 * b.channel + 4  # type: ignore[attr-defined]  # B's WRITE_ADDR
            b.irq(self._handler(lever, waddr, ring & 0xFFFF), hard=True)
            a.active(1)  # armed: waits for the FIFO's DREQ
        for sm in sms:
            sm.active(1)

    def close(self):
        """Stop the state machines and free the channels (the board then keeps its pin IRQs)."""
        for part in self.parts:
            if hasattr(part, "close"):  # a DMA channel: its IRQ off, aborted, freed
                part.irq(None)
                part.close()
            elif hasattr(part, "active"):  # a state machine
                part.active(0)
        self.parts = []

    def _handler(self, lever, waddr, ring_lo):
        h = _Lever(self.buttons.edge, lever, self._buf, self._base + lever * (_RING // 2), waddr, ring_lo, self._rd)
        self.parts.append(h)
        return h.irq  # a bound method made once: calling it allocates nothing (a closure over this
        # many variables would: MicroPython copies them to a heap array at each call)


class _Lever:
    """One lever's DMA IRQ handler and what it reads."""

    def __init__(self, edge, lever, buf, base, waddr, ring_lo, rd):
        self.edge = edge  # Buttons.edge, bound
        self.lever = lever
        self.buf = buf
        self.base = base  # the ring's slot 0 in buf (halfwords)
        self.waddr = waddr  # the address of channel B's WRITE_ADDR
        self.ring_lo = ring_lo  # the ring's address, low 16 bits
        self.rd = rd

    def irq(self, _dma):
        lever = self.lever
        wr = ((mem16[self.waddr] - self.ring_lo) & (_RING - 1)) >> 2  # B's next slot: all before it are written
        i = self.rd[lever]
        if i == wr:
            return
        ticks_add = time.ticks_add
        ticks_diff = time.ticks_diff
        ms = time.ticks_ms()
        us = time.ticks_us()
        # us - 1000 * ms (mod 2^30): where in its ms `us` was read (0 .. 999, a little more if the
        # ms turned between the two reads: the sum below holds for any r)
        r = ticks_diff(us, ticks_add((((ms >> 15) * 1000) & 0x7FFF) << 15, (ms & 0x7FFF) * 1000))  # type: ignore[operator,type-var]
        buf = self.buf
        base = self.base
        edge = self.edge
        while i != wr:
            j = base + 2 * i
            d = ticks_diff(us, buf[j] | ((buf[j + 1] & 0x3FFF) << 16))  # us since the edge
            edge(lever, ticks_add(ms, (r - d) // 1000), not (i & 1))
            i = (i + 1) & (_N - 1)
        self.rd[lever] = i
