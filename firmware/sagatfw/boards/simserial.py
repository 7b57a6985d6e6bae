# sagat: the sim board's serial driver (loaded only by `sim --serial`): what a board's USB CDC or
# UART driver does with the interrupt character, which the unix port's stdin does not do.


class SerialDriver:
    """The link's input as a board's USB CDC (or UART) driver hands it over. While an interrupt
    character is set (micropython.kbd_intr; MicroPython sets Ctrl-C, 3, while main.py runs) that
    byte never arrives: the driver raises KeyboardInterrupt in the running program instead
    (mp_sched_keyboard_interrupt), which ends main.py into the REPL. The unix port has no such driver
    (its kbd_intr only sets the SIGINT handler), so the sim board puts this between its link and the
    stream: a 0x03 on the sim's pty does what it does on a board's USB serial."""

    def __init__(self, stream, kbd_intr=None):
        self.stream = stream
        self.real = kbd_intr  # the port's own kbd_intr, still called
        self.char = 3

    @classmethod
    def attach(cls, link):
        drv = cls(link.rin, link.kbd_intr)
        link.rin = drv
        link.kbd_intr = drv.kbd_intr
        return drv

    def kbd_intr(self, c):
        self.char = c
        if self.real is not None:
            self.real(c)

    def readinto(self, buf):
        n = self.stream.readinto(buf)
        if n and self.char >= 0:
            for i in range(n):
                if buf[i] == self.char:
                    raise KeyboardInterrupt
        return n
