# The sim board's firmware frozen into a MicroPython unix port (benchmarks/frozen_unix.py builds
# it): the same sagatfw package that firmware/manifest.py freezes for a Pico or an ESP32, and
# asyncio, which a board's own manifest freezes too. Not main.py (the sim is started by
# `sagatfw.boards.sim`), not the OLED driver (micropython-lib; the sim draws no OLED).
#
# ruff: noqa: F821 - include and package are the manifest's commands
include("$(MPY_DIR)/extmod/asyncio")
package("sagatfw", base_path="../firmware")
