"""`sagat hall --sim N`: N simulated clocks, each `sagat sim --serial --headless` (the firmware on
the MicroPython unix port, its serial link on a pseudo-terminal that the hall opens like a USB
clock's port), each on its own flash image, so the page can be tried without hardware."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import sagatfw

from .. import __file__ as _sagat_init
from ..i18n import _


class SimError(Exception):
    """One line for the user."""


def _env() -> dict:
    """The environment of a sim: this process's, with the host and firmware packages importable
    (a source checkout run with PYTHONPATH=host works as an installed one does)."""
    env = dict(os.environ)
    paths = [str(Path(_sagat_init).parent.parent), str(Path(sagatfw.__file__).parent.parent)]
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = os.pathsep.join(paths + ([old] if old else []))
    return env


def _die_with_parent() -> None:
    """Linux: the sim gets SIGTERM when the hall dies, however it dies (a SIGKILL too), so no
    simulated clock outlives its hall."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Sims:
    def __init__(self, n: int, folder: str, think: str | None = None):
        self.n = n
        self.folder = folder
        self.think = think  # a random player in each (`sagat sim --play`): its think range, seconds "1-4"
        self.procs: list[subprocess.Popen] = []
        self.ports: list[str] = []

    def start(self, timeout: float = 60.0) -> list[str]:
        """Start every sim; returns their ports in order (board 1 first)."""
        from ..sim import board as simboard

        os.makedirs(self.folder, exist_ok=True)
        env = _env()
        # one compiled copy of the firmware for all of them (each compiling its own took most of the
        # start-up with many sims); they only read it, and it goes with the folder
        try:
            env[simboard.SHARED_FW] = simboard.firmware_dir(compiled=simboard.micropython() is not None,
                                                            into=os.path.join(self.folder, "firmware"))
        except OSError as e:
            raise SimError(_("cannot prepare the simulators' firmware: {error}").format(error=e)) from None
        for i in range(1, self.n + 1):
            flash = os.path.join(self.folder, f"sim-{i:02d}.img")
            cmd = [sys.executable, "-m", "sagat", "sim", "--serial", "--headless", "--flash", flash]
            if self.think:  # board i's player plays with seed i: each board its own game
                cmd += ["--play", str(i), "--think", self.think]
            self.procs.append(subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                               stderr=subprocess.PIPE, text=True, env=env,
                                               preexec_fn=_die_with_parent if sys.platform == "linux" else None))
        deadline = time.monotonic() + timeout
        for i, p in enumerate(self.procs, 1):
            port = self._port(p, deadline)
            if port is None:
                err = p.stderr.read() if p.poll() is not None else ""
                self.close()
                tail = (err.strip().splitlines() or ["no answer"])[-1]
                raise SimError(_("simulator {number} did not start: {error}").format(number=i, error=tail))
            self.ports.append(port)
            threading.Thread(target=self._drain, args=(p,), daemon=True).start()
        return self.ports

    @staticmethod
    def _port(p: subprocess.Popen, deadline: float) -> str | None:
        while time.monotonic() < deadline:
            line = p.stderr.readline()
            if not line:
                return None
            words = line.split()  # "sagat sim: serial port /dev/pts/3", in the user's language: the path last
            if words and words[-1].startswith("/dev/"):
                return words[-1]
        return None

    @staticmethod
    def _drain(p: subprocess.Popen) -> None:
        for _line in p.stderr:  # the sim's notes; never let its pipe fill
            pass

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        import shutil

        shutil.rmtree(os.path.join(self.folder, "firmware"), ignore_errors=True)
