"""`sagat sim --flash IMAGE`: a file that is no simulator's flash image is refused in one line
before anything starts (no port line first, no second line from the board), and a second
simulator on an image one already runs on is refused in one line (two boards writing one image
would overwrite each other's log); once the first has stopped, the image is free again."""

import os
import signal
import subprocess
import sys

SIM = [sys.executable, "-m", "sagat", "sim"]


def _ctrl_c_works():
    """SIGINT as a terminal's Ctrl-C finds it: a shell's background job (`bash .ci/run &`) inherits
    SIGINT ignored, and Python then never installs its handler, so a SIGINT would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_file_that_is_no_flash_image_is_one_line_before_anything_starts(tmp_path):
    bad = tmp_path / "notimg.bin"
    bad.write_bytes(os.urandom(1000))
    for extra in (["--serial", "--headless"], ["--serial"], ["--script", os.devnull]):
        run = subprocess.run([*SIM, *extra, "--flash", str(bad)], capture_output=True, text=True, timeout=60,
                             stdin=subprocess.DEVNULL)
        err = run.stderr.strip().splitlines()
        assert run.returncode == 2 and len(err) == 1, (extra, run)
        assert err[0].startswith("sagat:") and "not a simulator's flash image" in err[0], (extra, err)
        assert run.stdout == "", (extra, run.stdout)
    assert bad.stat().st_size == 1000  # left as it was


def test_two_simulators_never_share_one_flash_image(tmp_path):
    flash = tmp_path / "flash.img"
    first = subprocess.Popen([*SIM, "--serial", "--headless", "--flash", str(flash)], stderr=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True,
                             preexec_fn=_ctrl_c_works)
    try:
        line = first.stderr.readline()
        assert "serial port" in line, line
        second = subprocess.run([*SIM, "--serial", "--headless", "--flash", str(flash)], capture_output=True,
                                text=True, timeout=60, stdin=subprocess.DEVNULL)
        err = second.stderr.strip().splitlines()
        assert second.returncode == 2 and len(err) == 1 and "in use by another simulator" in err[0], second
    finally:
        first.send_signal(signal.SIGINT)
        first.wait(30)
    again = subprocess.Popen([*SIM, "--serial", "--headless", "--flash", str(flash)], stderr=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True,
                             preexec_fn=_ctrl_c_works)
    try:
        assert "serial port" in again.stderr.readline()  # free again
    finally:
        again.send_signal(signal.SIGINT)
        again.wait(30)


def _threads(pid):
    return sorted(int(t) for t in os.listdir(f"/proc/{pid}/task"))


def test_a_ctrl_c_taken_by_a_link_thread_still_stops_the_simulator(tmp_path):
    """The kernel may hand a process's SIGINT to any of its threads; one taken by a thread of the
    serial link, blocked in read, must still stop `sagat sim` (its main thread's wait wakes to run
    the handler)."""
    import ctypes
    import time

    libc = ctypes.CDLL(None, use_errno=True)
    flash = tmp_path / "flash.img"
    sim = subprocess.Popen([*SIM, "--serial", "--headless", "--flash", str(flash)], stderr=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True,
                           preexec_fn=_ctrl_c_works)
    try:
        assert "serial port" in sim.stderr.readline()
        others = [t for t in _threads(sim.pid) if t != sim.pid]
        assert others, "the serial link runs in threads of its own"
        SYS_tgkill = 234 if os.uname().machine == "x86_64" else 131  # aarch64: 131
        assert libc.syscall(SYS_tgkill, sim.pid, others[0], int(signal.SIGINT)) == 0, ctypes.get_errno()
        deadline = time.monotonic() + 20
        while sim.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sim.poll() == 130, "a SIGINT taken by the link's thread left the simulator running"
    finally:
        if sim.poll() is None:
            sim.kill()
        sim.wait(10)
