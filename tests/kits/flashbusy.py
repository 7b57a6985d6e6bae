"""A busy time for rp2040py's flash chip: erases and page programs take as long as on a Pico's W25Q16JV.

rp2040py 0.3.6's flash (rp2040py/peripherals/ssi.py, RPSSI) applies an erase or a page program at
the chip-select release that ends the command (`_apply_command`), and its status register never
shows BUSY (`_shift_byte`: READ_STATUS_1 answers WEL only). So the SDK's flash_range_erase and
flash_range_program, which run from RAM with interrupts off and poll the status register until
its WIP bit (bit 0) falls, return at once, and the window in which a lever's IRQ waits lasts only
their own instructions.

`FlashBusy(pico_mcu).install()` (on the emulator's thread) makes the chip busy as a real one is:
after a sector erase (0x20), a 64 KB block erase (0xD8) or a page program (0x02) that the chip
accepted (write-enable latch set), READ_STATUS_1 answers WIP=1 and WEL=1 until the command's busy
time has passed in emulated time, then 0, as the W25Q16JV does. The data is still changed at the
chip-select release (nothing reads the array while the SDK polls). A command other than
READ_STATUS_1 that comes while the chip is busy is ignored, as the chip ignores it, and counted in
`ignored` (the SDK never sends one: a test can assert it stays 0).

It is a monkeypatch of one RPSSI instance, not of the installed package: CI installs rp2040py from
PyPI unmodified. Busy times (W25Q16JV datasheet, rev. H, table 9.7 "AC electrical
characteristics": tSE, tBE2, tPP): TYPICAL and MAXIMUM below.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SECTOR_ERASE = 0x20  # 4 KB
BLOCK_ERASE = 0xD8  # 64 KB
PAGE_PROGRAM = 0x02
READ_STATUS_1 = 0x05
WIP, WEL = 0x01, 0x02

KINDS = {SECTOR_ERASE: "sector erase", BLOCK_ERASE: "block erase", PAGE_PROGRAM: "page program"}

# (sector erase 4 KB, block erase 64 KB, page program 256 B), ms
TYPICAL = (45.0, 150.0, 0.4)
MAXIMUM = (400.0, 2000.0, 3.0)


@dataclass
class FlashOp:
    """One erase or page program the chip accepted: its kind, address, the emulated instants
    (ns) of the command's end (chip select released) and of the first status read that found the
    chip ready again, and whether the core had interrupts masked (PRIMASK) at every status read
    in between (None if nothing polled)."""

    kind: str
    address: int
    start_ns: float
    busy_ns: float
    ready_ns: float | None = None
    polls: int = 0
    masked: bool | None = None

    @property
    def end_ns(self) -> float:
        return self.start_ns + self.busy_ns


@dataclass
class FlashBusy:
    """The busy-time model on one emulated RP2040 (`mcu`, rp2040py's RP2040). Times in ms."""

    mcu: object
    sector_erase_ms: float = TYPICAL[0]
    block_erase_ms: float = TYPICAL[1]
    page_program_ms: float = TYPICAL[2]
    ops: list[FlashOp] = field(default_factory=list)
    ignored: int = 0  # commands sent while the chip was busy (the chip drops them)
    on_command: object = None  # called (FlashOp) on the emulator's thread when a busy time starts

    @classmethod
    def maximum(cls, mcu) -> FlashBusy:
        return cls(mcu, *MAXIMUM)

    def busy_ms(self, opcode: int) -> float:
        return {SECTOR_ERASE: self.sector_erase_ms, BLOCK_ERASE: self.block_erase_ms,
                PAGE_PROGRAM: self.page_program_ms}[opcode]

    def busy(self) -> bool:
        op = self.ops[-1] if self.ops else None
        return op is not None and self.mcu.clock.nanos < op.end_ns

    def install(self) -> FlashBusy:
        """Patch the RPSSI instance (call on the emulator's thread, or before it runs)."""
        ssi = self.mcu.ssi
        apply = ssi._apply_command
        shift = ssi._shift_byte
        clock = self.mcu.clock
        core = self.mcu.core

        def apply_command() -> None:
            buf = ssi._tx_buffer
            if not buf:
                return apply()
            op = buf[0]
            if self.busy() and op != READ_STATUS_1:
                self.ignored += 1
                ssi._tx_buffer = bytearray()
                return None
            accepted = ssi._write_enabled and len(buf) >= 4 and (op != PAGE_PROGRAM or len(buf) > 4)
            if op in KINDS and accepted:
                address = (buf[1] << 16) | (buf[2] << 8) | buf[3]
                rec = FlashOp(KINDS[op], address, clock.nanos, self.busy_ms(op) * 1e6)
                self.ops.append(rec)
                if self.on_command is not None:
                    self.on_command(rec)
            return apply()

        def shift_byte(byte_out: int) -> int:
            buf = ssi._tx_buffer
            if buf and buf[0] == READ_STATUS_1 and self.ops:
                op = self.ops[-1]
                if op.ready_ns is None:
                    masked = bool(core.pm)
                    op.masked = masked if op.masked is None else (op.masked and masked)
                    op.polls += 1
                    if clock.nanos < op.end_ns:
                        buf.append(byte_out)
                        return WIP | WEL
                    op.ready_ns = clock.nanos
            return shift(byte_out)

        ssi._apply_command = apply_command
        ssi._shift_byte = shift_byte
        return self


def summary(ops: list[FlashOp]) -> dict[str, dict[str, float]]:
    """Per kind: how many, and the longest time from the command to the SDK's seeing it done (ms)."""
    out: dict[str, dict[str, float]] = {}
    for op in ops:
        s = out.setdefault(op.kind, {"count": 0, "max_ms": 0.0, "masked": 0})
        s["count"] += 1
        if op.ready_ns is not None:
            s["max_ms"] = max(s["max_ms"], (op.ready_ns - op.start_ns) / 1e6)
        s["masked"] += 1 if op.masked else 0
    return out
