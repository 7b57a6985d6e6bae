# The frozen image's manifest (rp2/build.py): the board's (as manifest_board.py has it) and sagat's
# firmware (firmware/manifest.py: main.py and the sagatfw package). Paths are relative to this file.

# ruff: noqa: F821 - include is the manifest's command
include("manifest_board.py")
include("../firmware/manifest.py")
