"""A clock's log segments in a littlefs image file (the simulator's flash or a dump of a board's),
through littlefs-python: the log folder and its segments' suffix are the firmware's
(sagatfw/log/records.py ROOT, SUFFIX)."""

from __future__ import annotations

from sagatfw.log import records as R

from ..client import say
from ..i18n import N_
from .decode import LogError

BLOCK_SIZES = (4096, 512, 1024, 2048, 8192, 16384)


def read_image(path: str, block_size: int | None = None) -> list[tuple[str, bytes]]:
    """The log segments (name, bytes) in a littlefs image file, oldest first."""
    from .. import image

    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise LogError(say(N_("cannot read image {file}: {error}"), file=path, error=e.strerror or e)) from None
    if not data:
        raise LogError(say(N_("image {file} is empty"), file=path))
    sizes = (block_size,) if block_size else BLOCK_SIZES
    fs = image.mount_any(data, sizes)
    if fs is None:
        raise LogError(say(N_("{file} is not a littlefs image (tried block sizes {sizes})"), file=path,
                            sizes=", ".join(map(str, sizes))))
    try:
        names = sorted(n for n in fs.listdir(R.ROOT) if n.endswith(R.SUFFIX))
    except Exception:
        raise LogError(say(N_("{file} has no log (no {dir} folder): is it a sagat clock's flash?"), file=path,
                            dir=R.ROOT)) from None
    out = []
    for name in names:
        try:
            with fs.open(f"{R.ROOT}/{name}", "rb") as fh:
                out.append((name, fh.read()))
        except Exception as e:
            raise LogError(say(N_("cannot read {segment} in {file}: {error}"), segment=f"{R.ROOT}/{name}",
                                file=path, error=str(e))) from None
    return out
