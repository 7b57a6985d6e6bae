"""Baselines on the Pico's real MicroPython (rp2 port, RPI_PICO) in the RP2040 emulator:

    python benchmarks/rp2_baseline.py [--records N] [--short M] [--frozen] [--interrupted] [--pty]
                                      [--pulls P] [--copies C]

1. boot time to the faces' first frame (the loop's first pass; the TM1637 pins) and to the first
   `identify` answer (asked by a host that keeps up, as soon as the board is on USB), with a short
   log (M presses) and a long one (N presses, the game finished with a result), in emulated time
   from the reset;
2. `sagat logs pull` of the long log (P times, default 5) against `mpremote fs cp` of the same
   segment files (C times, default 2) over the same emulated USB link, in emulated time, with
   their minimum, median and maximum (mpremote runs after the pulls: it stops the clock),
   both run in this process with a host that keeps up (rp2emu.Lockstep: the host's own work costs
   no emulated time, so the figures do not depend on this machine's load; --pty: each also run as
   a user runs it, in a process of its own on the pseudo-terminal, where they do);
3. heap_used after boot and between the pull's chunks (identify collects first), and the clock
   loop's longest gap while log.read chunks go out.

--frozen: the same on the image with sagat frozen in (an empty filesystem but for the log).
--interrupted: the long game is not finished (no result: the power went while a side ran), so the
boot restores it: from the checkpoint file's snapshot and the records after it (docs/log-format.md, "Snapshots");
only the boots are measured then (no pull).
The logs are played on the sim board in virtual time (`sagat sim --script --virtual`) and copied
onto a Pico-geometry littlefs image with the deploy's files. Needs the stock image
(tests/kits/rp2emu.py finds it; rp2/README.md); the emulator runs at 1/15 to 1/60 of real time, so
the long log takes several minutes of wall time. Prints one line per figure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "kits")]

import rp2emu  # noqa: E402

from sagat.client import Clock  # noqa: E402
from sagat.sim import runners  # noqa: E402


def arg(name: str, default: int) -> int:
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def log_files(work: str, presses: int, finished: bool = True) -> dict[str, bytes]:
    """/log/* and /settings.json of a sim board that played a count-up game of `presses` presses and
    its result (unless not `finished`: the log ends while a side runs), in virtual time."""
    script = os.path.join(work, f"game{presses}.jsonl")
    flash = os.path.join(work, f"sim{presses}.img")
    lines = [{"at": 0, "do": "new", "tc": "-"}, {"at": 0, "do": "start"}]
    for i in range(presses):
        lines.append({"at": 1000 * (i + 1), "do": "press", "side": "left" if i % 2 == 0 else "right"})
    if finished:
        lines.append({"at": 1000 * (presses + 1), "do": "result", "result": "1-0"})
    with open(script, "w") as fh:
        fh.write("".join(json.dumps(x) + "\n" for x in lines))
    runners.run_script(script, flash, virtual=True, echo=lambda *a, **k: None)
    files = rp2emu.littlefs_files(open(flash, "rb").read())
    return {k: v for k, v in files.items() if k.startswith("/log/") or k == "/settings.json"}


def first_frame_ms(pico):
    """Emulated ms from the reset to the faces' first frame (the left TM1637's first transfer: the
    loop's first pass), from which the loop answers `identify`."""
    clk = rp2emu.Pico.TM1637[0][0]
    edges = [t for t, _, _ in pico.pin_changes([clk])]
    for i in range(len(edges) - 8):
        if edges[i + 8] - edges[i] < 5e6:  # a transfer's clock burst (one edge at the pin's set-up)
            return edges[i] / 1e6
    return None


def boot(image, files, label):
    pico = rp2emu.Pico(image, rp2emu.littlefs_image(files), watch_pins=(rp2emu.Pico.TM1637[0][0],))
    t = time.monotonic()
    pico.start()
    with pico.lockstep() as port, port.patched():  # a host that keeps up: asks as soon as USB is up
        with Clock(pico.port, timeout=3600) as c:
            ident = c.request("identify")
            at = pico.now_ns() / 1e6
            info = c.request("log.info")
    frame = first_frame_ms(pico)
    print(f"{label}: faces' first frame {frame:.0f} ms (emulated) after the reset; identify answered {at:.0f} ms, "
          f"uptime_ms {ident['uptime_ms']}, heap_used {ident['heap_used']}, "
          f"log seq {info.get('first')}..{info.get('last')}, {time.monotonic() - t:.0f} s wall", flush=True)
    return pico, ident


def quiet(fn, *args):
    """fn(*args) with its stdout and stderr kept (a tool run in this process): (its value or exit
    code, what it printed)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            rc = fn(*args)
        except SystemExit as e:
            rc = e.code
    return rc, " ".join(out.getvalue().split())


def mpremote_cp(port, sources, dest):
    import mpremote.main

    saved = sys.argv
    sys.argv = ["mpremote", "connect", port, "fs", "cp", *sources, dest]
    try:
        return mpremote.main.main()
    finally:
        sys.argv = saved


def spread(xs):
    xs = sorted(xs)
    return xs[0], xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2, xs[-1]


def pull(pico, work, segments, pulls, copies, pty):
    """heap_used between a pull's chunks, the loop's longest gap while they go out, and `sagat logs
    pull` against `mpremote fs cp` of the same segments (the log the pull reads: not /log/room, the
    journal's 8 KB of ballast, nor /log/ckpt), `pulls` and `copies` times, each run in this process
    with a host that keeps up (rp2emu.Lockstep: the chip runs only while the host waits, so the
    host's own work and load cost no emulated time). What spread is left comes from the clock's own
    state (where in its loop each request lands), hence the runs and their medians. mpremote is
    given the pty's path, so it takes its pty path (a blocking read a byte at a time), its fastest:
    on /dev/ttyACM0 it polls with 10 ms sleeps. --pty: each tool also as a user runs it, in a
    process of its own on the pseudo-terminal (emulated time then runs on while the host lags:
    those figures vary with the machine's load)."""
    from sagat import cli

    with pico.lockstep() as port, port.patched():
        with Clock(pico.port, timeout=3600) as c:
            info = c.request("log.info")
            c.request("log.read", from_seq=info["first"], max_records=32)
            print(f"heap_used between pull chunks: {c.request('identify')['heap_used']}", flush=True)
            # the clock's loop while log.read chunks go out as sagat logs pull asks them (bin, 4 in
            # flight): identify's loop_max_ms counts from the pass after the identify before
            seq, ask, window = info["first"], info["first"], []
            while seq <= info["last"]:
                while len(window) < 4 and ask <= info["last"]:
                    window.append(c.send("log.read", from_seq=ask, max_records=256, bin=True))
                    ask += 256
                ans = c.wait(window.pop(0), "log.read")
                if not ans["count"]:
                    break
                seq = ans["next"]
            print(f"the loop's longest gap while the log.read chunks went out: "
                  f"{c.request('identify')['loop_max_ms']} ms", flush=True)
        times, raw = [], None
        for k in range(pulls):
            out = os.path.join(work, f"pulled{k}")
            t0, w0 = pico.now_ns(), time.monotonic()
            rc, said = quiet(cli.main, ["logs", "pull", "--port", pico.port, "--out", out, "--timeout", "3600"])
            times.append((pico.now_ns() - t0) / 1e9)
            if rc:
                print(f"sagat logs pull failed (rc {rc}): {said}", flush=True)
                return
            raw = open(os.path.join(out, "records.bin"), "rb").read()
            print(f"  sagat logs pull {k + 1}: {len(raw) // 64} records in {times[-1]:.3f} s emulated, "
                  f"{time.monotonic() - w0:.0f} s wall", flush=True)
    lo, med, hi = spread(times)
    print(f"sagat logs pull: {len(raw) // 64} records ({len(raw)} bytes), {pulls} runs: {lo:.3f} / {med:.3f} / "
          f"{hi:.3f} s emulated (min / median / max), {len(raw) // 64 / med:.0f} records/s", flush=True)
    if pty:  # before mpremote, which stops the clock
        out = os.path.join(work, "pulled-pty")
        t0, w0 = pico.now_ns(), time.monotonic()
        run = subprocess.run([sys.executable, "-m", "sagat", "logs", "pull", "--port", pico.port, "--out", out,
                              "--timeout", "3600"], capture_output=True, text=True)
        pty_pull_s = (pico.now_ns() - t0) / 1e9
        print(f"  on the pty, in a process of its own: {pty_pull_s:.3f} s emulated, {time.monotonic() - w0:.0f} s "
              f"wall (rc {run.returncode})", flush=True)
    sources = [":/log/" + name for name in segments]
    cps, copied = [], b""
    with pico.lockstep() as port, port.patched():
        for k in range(copies):
            dest = os.path.join(work, f"cp{k}")
            os.makedirs(dest)
            t0, w0 = pico.now_ns(), time.monotonic()
            rc, said = quiet(mpremote_cp, pico.port, sources, dest)
            cps.append((pico.now_ns() - t0) / 1e9)
            copied = b"".join(open(os.path.join(dest, name), "rb").read() for name in segments) if not rc else b""
            print(f"  mpremote fs cp {k + 1}: {len(copied)} bytes in {cps[-1]:.3f} s emulated, "
                  f"{time.monotonic() - w0:.0f} s wall (rc {rc})", flush=True)
            if rc:
                print(f"mpremote failed: {said}", flush=True)
                return
    clo, cmed, chi = spread(cps)
    print(f"mpremote fs cp of the {len(segments)} segments ({len(copied)} bytes; the pull's records.bin is "
          f"{'the same bytes' if copied == raw else 'NOT the same bytes'}), {copies} runs: {clo:.3f} / {cmed:.3f} / "
          f"{chi:.3f} s emulated", flush=True)
    if pty:
        dest = os.path.join(work, "cp-pty")
        os.makedirs(dest)
        t0, w0 = pico.now_ns(), time.monotonic()
        run = subprocess.run([sys.executable, "-m", "mpremote", "connect", pico.port, "fs", "cp", *sources, dest],
                             capture_output=True, text=True)
        pty_cp_s = (pico.now_ns() - t0) / 1e9
        print(f"  on the pty, in a process of its own: {pty_cp_s:.3f} s emulated, {time.monotonic() - w0:.0f} s "
              f"wall (rc {run.returncode}); pull/cp {pty_pull_s / pty_cp_s:.2f}", flush=True)
    print(f"pull ratio (a host that keeps up): sagat logs pull {med:.3f} s, mpremote fs cp {cmed:.3f} s (medians): "
          f"the pull is {cmed / med:.2f}x as fast; the slowest pull against the fastest copy {clo / hi:.2f}x "
          f"(the budget of docs/design.md: at least 3x)", flush=True)

def main() -> int:
    frozen = "--frozen" in sys.argv
    name = rp2emu.FROZEN_NAME if frozen else rp2emu.STOCK_NAME
    image = rp2emu.find_image(name)
    if image is None:
        print(f"no {name} (rp2/README.md)")
        return 1
    print(f"image: {name}", flush=True)
    n, m = arg("--records", 2000), arg("--short", 20)
    work = tempfile.mkdtemp(prefix="sagat-rp2-")
    try:
        fw = {} if frozen else rp2emu.deploy_files()
        short = log_files(work, m)
        interrupted = "--interrupted" in sys.argv
        long = log_files(work, n, not interrupted)
        pico, _ = boot(image, {**fw, **short}, f"boot, {m}-press log")
        pico.stop()
        if interrupted:
            pico, ident = boot(image, {**fw, **long}, f"boot, {n}-press log (interrupted game: restored)")
            with Clock(pico.port, timeout=3600) as c:
                st = c.request("state")
            print(f"restored: {st.get('state')}, moves {st.get('left', {}).get('moves')}/"
                  f"{st.get('right', {}).get('moves')}", flush=True)
            pico.stop()
            return 0
        pico, _ = boot(image, {**fw, **long}, f"boot, {n}-press log (finished game)")
        try:
            segments = sorted(k[len("/log/"):] for k in long if k.endswith(".seg"))
            pull(pico, work, segments, arg("--pulls", 5), arg("--copies", 2), "--pty" in sys.argv)
        finally:
            pico.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
