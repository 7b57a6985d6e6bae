# sagat firmware entry point: boot the app on this board (Pico, ESP32), or the sim board on the
# MicroPython unix port (arguments: see sagatfw/boards/sim.py).
import sys

if sys.platform in ("rp2", "esp32"):
    import micropython

    from sagatfw import load_key

    # With an arbiter key set, no byte on the serial link may reach the REPL, where the key file can
    # be read: Ctrl-C is an ordinary byte from this first line on (MicroPython set it to interrupt
    # main.py), through the boot, and then as sagatfw/link.py decides.
    if load_key("/"):
        micropython.kbd_intr(-1)
    try:
        from sagatfw.app import run

        run()  # returns only when Ctrl-C stopped it after the arbiter's `maintenance` (into the REPL)
    except BaseException:
        if load_key("/"):  # main.py ending would start the REPL: with a key set, reset instead
            import machine

            machine.reset()
        raise
else:
    from sagatfw.boards.sim import main

    main(sys.argv[1:])
