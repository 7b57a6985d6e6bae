"""Builds the two Pico images of rp2/ from pinned sources: MicroPython's rp2 port, board RPI_PICO,
stock and with sagat frozen in.

    python rp2/build.py [--cache DIR] [--jobs N] [--only stock|sagat] [--out DIR]

Every source comes from Debian's package pool (the one registry that carries them), pinned below by
file name, size and SHA-256, and is checked before use:

- MicroPython v1.26.1 (Debian's 1.26.1+ds-1, sid): its git submodules are not in it (lib/ has
  empty folders for them), so the build puts in what RPI_PICO needs:
- lib/pico-sdk: the Raspberry Pi Pico SDK 2.1.1 (Debian 2.1.1-1, trixie), the SDK MicroPython
  v1.26.1's rp2 port is written for (with 2.2.0 the build stops: pico/platform/common.h moved);
- lib/tinyusb: TinyUSB 0.18.0, from Debian's binary package tinyusb-source 0.18.0+dfsg-1 (its
  /usr/src/tinyusb: the source package's tarball is not served by the pool's mirror here);
- lib/mbedtls: Mbed TLS 3.6.7 (Debian 3.6.7-3, sid): v1.26.1's rp2 port links it on every board
  (ssl, cryptolib, hashlib's SHA-1);
- lib/micropython-lib is not in Debian: the board's manifest require()s four of its packages
  (onewire, ds18x20, dht, neopixel), so both images are built with rp2/manifest_board.py, the
  board's manifest without them (sagat uses none of them);
- picotool 2.1.1 (Debian 2.1.1+dfsg-1, trixie), the host tool the SDK writes the .uf2 with, built
  without USB (PICOTOOL_NO_LIBUSB) and with its embedded RP2350 programs compiled from source
  (USE_PRECOMPILED=OFF: the +dfsg tarball has no prebuilt .elf files).

Toolchain (Debian 12): `apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi
libstdc++-arm-none-eabi-newlib` (GCC 12.2.1), with cmake, make, gcc and g++.

Writes rp2/micropython-v1.26.1-RPI_PICO.uf2, rp2/micropython-v1.26.1-RPI_PICO-sagat.uf2 (FROZEN_MANIFEST
rp2/manifest_sagat.py: the board's manifest and firmware/manifest.py) and the latter's sidecar .json
(the sagat commit and tests/kits/rp2emu.py's frozen_sources_digest of what it froze), and prints
each image's SHA-256. The build is reproducible: the banner's date is SOURCE_DATE_EPOCH (the day of
the newest file in v1.26.1's tarball), GCC's __DATE__ too, and the build folder's path is mapped
away (-ffile-prefix-map), so the same sources and toolchain give the same bytes in any cache folder.

The downloads and the build live in the cache folder (--cache, else $SAGAT_RP2_BUILD_CACHE, else
~/.cache/sagat/rp2-build), outside the repository; each run unpacks and builds afresh there (about
4 minutes with -j2).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RP2 = ROOT / "rp2"
POOL = "https://deb.debian.org/debian/pool/main/"
MP_VERSION = "v1.26.1"
BOARD = "RPI_PICO"
STOCK_NAME = f"micropython-{MP_VERSION}-{BOARD}.uf2"
FROZEN_NAME = f"micropython-{MP_VERSION}-{BOARD}-sagat.uf2"
SOURCE_DATE_EPOCH = "1757548800"  # 2025-09-11 00:00 UTC: the day of the newest file in v1.26.1's tarball
APT = "apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake make g++"

# key: (pool path, size, SHA-256, Debian version and suite)
SOURCES = {
    "micropython": ("m/micropython/micropython_1.26.1+ds.orig.tar.xz", 6084116,
                    "f5ad2ec89d3e921f753d448955af98b6005655f84ba26087dde6ba0e8d062f34", "1.26.1+ds-1 (sid)"),
    "pico-sdk": ("p/pico-sdk/pico-sdk_2.1.1.orig.tar.gz", 2437119,
                 "179c5531e75ac7f82d0679e70b6e8881f871738dc0ef17baf3b4ff4679291c41", "2.1.1-1 (trixie)"),
    "tinyusb": ("t/tinyusb/tinyusb-source_0.18.0+dfsg-1_all.deb", 1320704,
                "01ce2c645df68f14a8a7dcfc8fb355713152543757955820479a87949a61154e", "0.18.0+dfsg-1 (sid, trixie)"),
    "mbedtls": ("m/mbedtls/mbedtls_3.6.7.orig.tar.bz2", 5473689,
                "a7e8bcbec0e6f761b4af24f25677626b35f762f68eef79c08677a363212d11f6", "3.6.7-3 (sid)"),
    "picotool": ("p/picotool/picotool_2.1.1+dfsg.orig.tar.xz", 283988,
                 "c515d75ce6df590ca783b3a4267f6e8a963ffec753aeeb1892f8ba1771b8786d", "2.1.1+dfsg-1 (trixie)"),
}


class BuildError(Exception):
    pass


def say(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ----------------------------------------------------------------------------------- the sources


def download(cache: Path, key: str) -> Path:
    """The pinned file of `key` in the cache, downloaded if missing, checked by size and SHA-256."""
    rel, size, sha, _ = SOURCES[key]
    path = cache / "downloads" / rel.rsplit("/", 1)[1]
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        url = POOL + rel
        say(f"downloading {url}")
        last: Exception | None = None
        for attempt in range(3):
            try:
                with urllib.request.urlopen(url, timeout=120) as r, open(f"{path}.part", "wb") as f:
                    shutil.copyfileobj(r, f)
                os.replace(f"{path}.part", path)
                break
            except urllib.error.HTTPError as e:  # 404: the pool no longer has this version
                raise BuildError(f"{url}: HTTP {e.code} (the pool may have dropped this version: "
                                 f"update SOURCES in rp2/build.py)") from None
            except OSError as e:  # offline, DNS, reset, timeout
                last = e
                time.sleep(3 * (attempt + 1))
        else:
            raise BuildError(f"cannot download {url}: {getattr(last, 'reason', last)} (offline?)")
    data = path.read_bytes()
    got = hashlib.sha256(data).hexdigest()
    if len(data) != size or got != sha:
        path.unlink()
        raise BuildError(f"{path.name}: {len(data)} bytes, SHA-256 {got}; pinned {size} bytes, {sha}")
    return path


def untar(archive: Path | io.BytesIO, dest: Path, strip: str) -> None:
    """Members of a tarball under `strip` (a path prefix), unpacked into dest without it."""
    dest.mkdir(parents=True, exist_ok=True)
    prefix = strip.rstrip("/") + "/"
    kw = {"fileobj": archive} if isinstance(archive, io.BytesIO) else {"name": str(archive)}
    with tarfile.open(mode="r:*", **kw) as t:
        members = []
        for m in t.getmembers():
            name = m.name[2:] if m.name.startswith("./") else m.name
            if not name.startswith(prefix) or name == prefix:
                continue
            m.name = name[len(prefix):]
            members.append(m)
        if sys.version_info >= (3, 12):
            t.extractall(dest, members=members, filter="tar")
        else:
            t.extractall(dest, members=members)


def deb_data(deb: Path) -> io.BytesIO:
    """The data.tar of a .deb (an ar archive), decompressed."""
    raw = deb.read_bytes()
    if not raw.startswith(b"!<arch>\n"):
        raise BuildError(f"{deb.name} is not a .deb")
    pos = 8
    while pos + 60 <= len(raw):
        name = raw[pos:pos + 16].decode().strip().rstrip("/")
        size = int(raw[pos + 48:pos + 58].decode().strip())
        body = raw[pos + 60:pos + 60 + size]
        if name == "data.tar.xz":
            return io.BytesIO(lzma.decompress(body))
        if name in ("data.tar.gz", "data.tar"):
            return io.BytesIO(body)
        pos += 60 + size + (size & 1)
    raise BuildError(f"{deb.name}: no data.tar.xz or data.tar.gz in it")


def sources(cache: Path) -> tuple[Path, Path]:
    """The MicroPython tree with its lib/ filled in, and picotool's source: unpacked afresh."""
    files = {key: download(cache, key) for key in SOURCES}
    src = cache / "src"
    shutil.rmtree(src, ignore_errors=True)
    say("unpacking")
    mp = src / "micropython-1.26.1"
    untar(files["micropython"], mp, "micropython-1.26.1")
    untar(files["pico-sdk"], mp / "lib" / "pico-sdk", "pico-sdk-2.1.1")
    untar(deb_data(files["tinyusb"]), mp / "lib" / "tinyusb", "usr/src/tinyusb")
    untar(files["mbedtls"], mp / "lib" / "mbedtls", "mbedtls-3.6.7")
    picotool = src / "picotool-2.1.1"
    untar(files["picotool"], picotool, "picotool-2.1.1")
    for need in ("lib/pico-sdk/pico_sdk_init.cmake", "lib/tinyusb/hw/bsp/rp2040/family.cmake",
                 "lib/mbedtls/library/aes.c", "ports/rp2/Makefile"):
        if not (mp / need).is_file():
            raise BuildError(f"the unpacked sources lack {need}")
    # the stand-in micropython-lib: the build checks that its README.md exists; the manifests
    # require() nothing from it, so a require() that slips in fails loudly ("not found")
    nolib = src / "no-micropython-lib"
    nolib.mkdir()
    (nolib / "README.md").write_text("micropython-lib is not in Debian's source: rp2/manifest_board.py needs none\n")
    return mp, picotool


# ------------------------------------------------------------------------------------ the build


def run(args: list[str], log: Path, cwd: Path | None = None, env: dict | None = None) -> float:
    t = time.monotonic()
    with open(log, "w") as f:
        done = subprocess.run(args, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-3000:]
        raise BuildError(f"{' '.join(args)} failed (log {log}):\n{tail}")
    return time.monotonic() - t


def check_tools() -> None:
    missing = [t for t in ("make", "cmake", "gcc", "g++", "arm-none-eabi-gcc", "arm-none-eabi-g++")
               if shutil.which(t) is None]
    if not missing:  # the newlib C library and libstdc++ for the cross compiler
        for lib in ("libc.a", "libstdc++.a"):
            out = subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m0plus", "-mthumb", f"-print-file-name={lib}"],
                                 capture_output=True, text=True).stdout.strip()
            if not os.path.isabs(out):
                missing.append(f"{lib} for arm-none-eabi")
    if missing:
        raise BuildError(f"missing: {', '.join(missing)}. On Debian 12: {APT}")


def sagat_commit() -> tuple[str, bool]:
    """HEAD of this repository and whether firmware/ differs from it."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "firmware"],
                               capture_output=True, text=True, check=True).stdout.strip() != ""
    except (OSError, subprocess.CalledProcessError):
        return "unknown", True
    return head, dirty


def firmware(mp: Path, work: Path, manifest: Path, picotool_dir: Path, jobs: int, name: str) -> tuple[Path, float]:
    build = work / f"build-{name}"
    shutil.rmtree(build, ignore_errors=True)
    env = dict(os.environ)
    env.update(
        SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH,  # the banner's date (py/makeversionhdr.py) and GCC's __DATE__
        MICROPY_GIT_TAG=MP_VERSION,  # no git describe of whatever repository the cache lies in
        # makes the build's paths (in assert and panic strings) the same in any cache folder;
        # CMake puts $CFLAGS before the SDK's own flags on the first configure
        CFLAGS=f"-ffile-prefix-map={work}=/build",
        CXXFLAGS=f"-ffile-prefix-map={work}=/build",
        ASMFLAGS=f"-ffile-prefix-map={work}=/build",
        # on the first configure only; an environment variable, since `make CMAKE_ARGS=...` would
        # replace the Makefile's own (board, manifest) instead of adding to them
        CMAKE_ARGS=f"-Dpicotool_DIR={picotool_dir} -DMICROPY_LIB_DIR={work / 'src' / 'no-micropython-lib'}",
    )
    env.pop("MICROPY_GIT_HASH", None)
    secs = run(["make", "-C", str(mp / "ports" / "rp2"), f"-j{jobs}", f"BOARD={BOARD}", f"BUILD={build}",
                f"FROZEN_MANIFEST={manifest}"], work / f"firmware-{name}.log", env=env)
    uf2 = build / "firmware.uf2"
    if not uf2.is_file():
        raise BuildError(f"the build made no {uf2}")
    return uf2, secs


def write_sidecar(image: Path) -> dict:
    """image's .json: what it froze (the sagat commit, and tests/kits/rp2emu.py's digest of firmware/
    as it is now, which test_frozen_image_is_of_the_current_firmware compares)."""
    for p in (ROOT / "host", ROOT / "firmware", ROOT / "tests" / "kits"):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
    try:
        from rp2emu import frozen_sources_digest

        digest = frozen_sources_digest()
    except (ImportError, OSError) as e:
        raise BuildError(f"cannot digest firmware/ for {image.name}'s .json: {e}") from None
    commit, dirty = sagat_commit()
    meta = {
        "image": image.name,
        "sha256": hashlib.sha256(image.read_bytes()).hexdigest(),
        "micropython": MP_VERSION,
        "board": BOARD,
        "sagat_commit": commit,
        "sagat_firmware_modified": dirty,  # firmware/ differed from that commit when built
        "frozen_sources_sha256": digest,
        "manifest": "rp2/manifest_sagat.py",
    }
    image.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
    return meta


def build(cache: Path, out: Path, jobs: int, only: str | None = None) -> dict:
    check_tools()
    cache.mkdir(parents=True, exist_ok=True)
    times: dict[str, float] = {}
    t = time.monotonic()
    mp, picotool_src = sources(cache)
    times["download and unpack"] = time.monotonic() - t

    say("mpy-cross")
    times["mpy-cross"] = run(["make", "-C", str(mp / "mpy-cross"), f"-j{jobs}"], cache / "mpy-cross.log")

    say("picotool")
    pt_build, pt_inst = cache / "picotool-build", cache / "picotool-install"
    shutil.rmtree(pt_build, ignore_errors=True)
    shutil.rmtree(pt_inst, ignore_errors=True)
    t = time.monotonic()
    run(["cmake", "-S", str(picotool_src), "-B", str(pt_build), f"-DPICO_SDK_PATH={mp / 'lib' / 'pico-sdk'}",
         "-DPICOTOOL_NO_LIBUSB=1", "-DUSE_PRECOMPILED=OFF", "-DCMAKE_BUILD_TYPE=Release",
         f"-DCMAKE_INSTALL_PREFIX={pt_inst}"], cache / "picotool-configure.log")
    run(["make", "-C", str(pt_build), f"-j{jobs}", "install"], cache / "picotool.log")
    times["picotool"] = time.monotonic() - t
    picotool_dir = pt_inst / "lib" / "cmake" / "picotool"

    out.mkdir(parents=True, exist_ok=True)
    made = {}
    images = [("stock", RP2 / "manifest_board.py", STOCK_NAME), ("sagat", RP2 / "manifest_sagat.py", FROZEN_NAME)]
    for name, manifest, image in images:
        if only and only != name:
            continue
        say(f"firmware: {image}")
        uf2, times[f"firmware {name}"] = firmware(mp, cache, manifest, picotool_dir, jobs, name)
        shutil.copyfile(uf2, out / image)
        made[image] = hashlib.sha256(uf2.read_bytes()).hexdigest()
        if name == "sagat":
            write_sidecar(out / image)
    return {"images": made, "times": times}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, default=None,
                    help="downloads and build folder (default $SAGAT_RP2_BUILD_CACHE or ~/.cache/sagat/rp2-build)")
    ap.add_argument("--out", type=Path, default=RP2, help="where the images go (default rp2/)")
    ap.add_argument("--jobs", "-j", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", choices=("stock", "sagat"), help="build one image only")
    a = ap.parse_args(argv)
    cache = a.cache or Path(os.environ.get("SAGAT_RP2_BUILD_CACHE") or Path.home() / ".cache" / "sagat" / "rp2-build")
    t = time.monotonic()
    try:
        res = build(cache.resolve(), a.out.resolve(), a.jobs, a.only)
    except BuildError as e:
        print(f"rp2/build.py: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rp2/build.py: interrupted", file=sys.stderr)
        return 130
    for step, secs in res["times"].items():
        print(f"{step}: {secs:.0f} s")
    print(f"total: {time.monotonic() - t:.0f} s")
    for image, sha in res["images"].items():
        print(f"{sha}  {a.out / image}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
