"""`sagat sim --serial --headless`: the time until its serial port line appears, cold (an empty
firmware cache) and warm (the cache filled by the cold start). Run: python benchmarks/sim_start.py"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def start_time(env) -> float:
    sagat = str(Path(sys.executable).parent / "sagat")
    with tempfile.TemporaryDirectory() as d:
        t0 = time.monotonic()
        proc = subprocess.Popen([sagat, "sim", "--serial", "--headless", "--flash", os.path.join(d, "f.img")],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env=env, text=True)
        try:
            for line in proc.stderr:
                if "serial port" in line:
                    return time.monotonic() - t0
            raise SystemExit("sagat sim ended without its serial port line")
        finally:
            proc.terminate()
            proc.wait()


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        cold = start_time(env)
        warm = start_time(env)
    print(f"sagat sim start (until the serial port line): cold {cold:.2f} s, warm {warm:.2f} s")


if __name__ == "__main__":
    main()
