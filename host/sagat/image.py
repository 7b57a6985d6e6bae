"""littlefs images on the PC (littlefs-python), opened here alone: the simulator's flash, a board's
dump. An image is held in memory: nothing reaches its file until save()."""

from __future__ import annotations

import os
from pathlib import Path

BLOCK = 4096  # the block size of the simulator's flash (and of the boards' littlefs)
BLOCKS = 256  # a new simulator flash: 1 MB


def mount(data: bytes, block_size: int = BLOCK):
    """The filesystem in an image's bytes (a copy of them), with this block size; littlefs-python's
    error (LittleFSError and others) where there is none."""
    import littlefs

    ctx = littlefs.UserContext(len(data))
    ctx.buffer[:] = data
    return littlefs.LittleFS(context=ctx, block_size=block_size, block_count=len(data) // block_size, mount=True)


def mount_any(data: bytes, block_sizes) -> object | None:
    """The filesystem in an image of unknown geometry: the first of block_sizes that divides it into
    at least two blocks and mounts; None if none does."""
    for size in block_sizes:
        if len(data) % size or len(data) // size < 2:
            continue
        try:
            return mount(data, size)
        except Exception:  # noqa: BLE001 - littlefs raises LittleFSError (and others) for what is not a filesystem
            pass
    return None


def new(blocks: int = BLOCKS, block_size: int = BLOCK):
    """An empty, formatted filesystem of blocks x block_size bytes."""
    import littlefs

    return littlefs.LittleFS(context=littlefs.UserContext(block_size * blocks), block_size=block_size,
                             block_count=blocks)


def load(path: str | Path):
    """The simulator's flash image at path (BLOCK-byte blocks), or a new one if there is no file."""
    if os.path.exists(path):
        return mount(Path(path).read_bytes())
    return new()


def save(fs, path: str | Path) -> None:
    """Unmount fs and write its image to path."""
    fs.unmount()
    Path(path).write_bytes(bytes(fs.context.buffer))


def unpack(path: str | Path, folder: str) -> None:
    """The image's files into a folder (the simulator on CPython, which has no littlefs of its own)."""
    fs = load(path)
    for root, _dirs, files in fs.walk("/"):
        for name in files:
            src = f"{root.rstrip('/')}/{name}"
            dst = os.path.join(folder, src.lstrip("/"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with fs.open(src, "rb") as fh, open(dst, "wb") as out:
                out.write(fh.read())


def pack(folder: str, path: str | Path) -> None:
    """The folder's files back into the image (replacing its contents): unpack's way back."""
    fs = load(path)
    for root, _dirs, files in list(fs.walk("/")):
        for name in files:
            fs.remove(f"{root.rstrip('/')}/{name}")
    for root, _dirs, files in os.walk(folder):
        rel = os.path.relpath(root, folder)
        target = "/" if rel == "." else "/" + rel.replace(os.sep, "/")
        if target != "/":
            fs.makedirs(target, exist_ok=True)
        for name in files:
            with open(os.path.join(root, name), "rb") as fh, fs.open(f"{target.rstrip('/')}/{name}", "wb") as out:
                out.write(fh.read())
    save(fs, path)
