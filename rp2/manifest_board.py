# RPI_PICO's board manifest (MicroPython v1.26.1, ports/rp2/boards/manifest.py) without its four
# require()s (onewire, ds18x20, dht, neopixel): those come from micropython-lib, which is not in
# Debian's source of MicroPython (rp2/build.py builds from that). Everything else is the board's:
# the port's modules (rp2, _boot, _boot_fat) and asyncio. sagat uses none of the four.

# ruff: noqa: F821 - freeze and include are the manifest's commands
freeze("$(PORT_DIR)/modules")
include("$(MPY_DIR)/extmod/asyncio")
