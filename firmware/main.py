# sagat firmware entry point. The app (buttons, faces, journal, protocol) lands with the firmware
# issue; until then the board boots to the REPL with the clock engine importable:
#   from sagatfw.clock import Clock
