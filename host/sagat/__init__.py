"""sagat host package: the `sagat` command that configures the clock and reads its logs."""

from sagatfw import VERSION as __version__

__all__ = ["__version__"]
