# sagat firmware as a MicroPython manifest (docs/reference/manifest.rst in MicroPython), to freeze
# it into a firmware image. A manifest given as FROZEN_MANIFEST replaces the board's own, which
# freezes asyncio among others, so include both from a manifest of yours:
#
#     include("$(PORT_DIR)/boards/manifest.py")
#     include("/path/to/sagat/firmware/manifest.py")
#
#     make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/that/manifest.py
#
# A frozen main.py runs at boot instead of one on the filesystem; the settings and the log stay on
# the filesystem. package.json (next to this file) is the same firmware for `mpremote mip install`;
# tests/host/deploy/test_deploy.py checks that both list the firmware's files and carry sagatfw.VERSION.

# ruff: noqa: F821 - metadata, require, package and module are the manifest's commands
metadata(description="sagat: a tournament clock for toguz kumalak", version="0.1.0", license="MIT")

package("sagatfw")  # every sagatfw/**.py, as `sagat deploy` copies it
module("main.py")
