"""`sagat sim --flash IMAGE`: a file that is no simulator's flash image is refused in one line
before anything starts (no port line first, no second line from the board), and a second
simulator on an image one already runs on is refused in one line (two boards writing one image
would overwrite each other's log); once the first has stopped, the image is free again."""

import os
import signal
import subprocess
import sys

SIM = [sys.executable, "-m", "sagat", "sim"]


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
                             stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
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
                             stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
    try:
        assert "serial port" in again.stderr.readline()  # free again
    finally:
        again.send_signal(signal.SIGINT)
        again.wait(30)
