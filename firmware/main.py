# sagat firmware entry point: boot the app on this board (Pico, ESP32), or the sim board on the
# MicroPython unix port (arguments: see sagatfw/boards/simulator.py).
import sys


def keyed():
    """Whether an arbiter key is set (sagatfw.KEY_FILE in the board's root), read without loading
    anything: the first lines of main.py must be quick."""
    for path in ("/key", "/key.new"):  # (.new: a key change a power cut left pending)
        try:
            with open(path, "rb") as f:
                if f.read(1):
                    return True
        except OSError:
            pass
    return False


if sys.platform in ("rp2", "esp32"):
    # With an arbiter key set, no byte on the serial link may reach the REPL, where the key file can
    # be read: Ctrl-C is an ordinary byte from here on (MicroPython turned it on to run main.py),
    # through the boot, and then as sagatfw/link/stream.py decides.
    if keyed():
        import micropython

        micropython.kbd_intr(-1)
    try:
        from sagatfw.app.main import run

        run()  # returns only when Ctrl-C stopped it after the arbiter's `maintenance` (into the REPL)
    except BaseException:
        if keyed():  # main.py ending would start the REPL: with a key set, reset instead
            import machine

            machine.reset()
        raise
else:
    from sagatfw.boards.simulator import main

    main(sys.argv[1:])
