# sagat firmware entry point: boot the app on this board (Pico, ESP32), or the sim board on the
# MicroPython unix port (arguments: see sagatfw/boards/sim.py).
import sys

if sys.platform in ("rp2", "esp32"):
    from sagatfw.app import run

    run()
else:
    from sagatfw.boards.sim import main

    main(sys.argv[1:])
