"""Flash images for the host's log tests: a keyed or plain image with the games of
tests/kits/make_image.py (made by the MicroPython unix port, as the firmware writes them), and a copy
of an image with its log segments changed."""

import os
import subprocess

import littlefs

from conftest import ROOT, tool


def make_image(path, key=None):
    exe = tool("micropython")
    assert exe, "no micropython: install the dev extra"
    args = [exe, os.path.join(ROOT, "tests", "kits", "make_image.py"), str(path)] + ([key] if key else [])
    run = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return str(path)


def edit_image(src, dst, fn):
    """Copy a littlefs image, changing its log segments with fn(dict name -> bytearray)."""
    data = open(src, "rb").read()
    ctx = littlefs.UserContext(len(data))
    ctx.buffer[:] = data
    fs = littlefs.LittleFS(context=ctx, block_size=4096, block_count=len(data) // 4096)
    segs = {}
    names = sorted(n for n in fs.listdir("/log") if n.endswith(".seg"))  # not the checkpoint file, the ballast
    for name in names:
        with fs.open("/log/" + name, "rb") as fh:
            segs[name] = bytearray(fh.read())
    fn(segs)
    for name in names:
        fs.remove("/log/" + name)
    for name, content in segs.items():
        with fs.open("/log/" + name, "wb") as fh:
            fh.write(bytes(content))
    fs.unmount()
    with open(dst, "wb") as fh:
        fh.write(bytes(ctx.buffer))
    return str(dst)
