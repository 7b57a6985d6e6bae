# sagat: the serial link - the protocol server on the board's stream, never in the clock's way.
#
# Reads whatever bytes have arrived without ever waiting (poll, then one byte at a time: a read of
# more than is there would block on MicroPython), hands them to protocol.Server, and writes its
# answers only when the stream can take them (POLLOUT), a bounded chunk per step. A host that stops
# reading fills its own buffer, never the clock's loop; a host that vanishes leaves the answers in
# the server's bounded outbox. While a game is in progress Ctrl-C (0x03) is just a byte; between
# games it interrupts as usual, so mpremote can reach the REPL.
import select
import sys

try:
    import micropython
except ImportError:  # CPython (the sim's fallback)
    micropython = None

MAX_IN = 256  # bytes read per step
# Bytes written per step. On a pipe or a pty (the sim) POLLOUT means at least 4096 bytes fit, so a
# whole answer goes at once; on a board POLLOUT only means "some room" (USB CDC buffers ~256 bytes,
# a 115200-baud UART ~11 bytes a ms), so boards write small pieces and the loop never waits.
MAX_OUT = 4096
BOARD_OUT = 256


class Link:
    def __init__(self, server, instream=None, outstream=None, max_out=MAX_OUT):
        self.server = server
        self.max_out = max_out
        self.inp = instream if instream is not None else sys.stdin
        self.out = outstream if outstream is not None else sys.stdout
        self.rin = getattr(self.inp, "buffer", self.inp)
        self.rout = getattr(self.out, "buffer", self.out)
        self.poll_in = select.poll()
        self.poll_in.register(self.inp, select.POLLIN)
        self.poll_out = select.poll()
        self.poll_out.register(self.out, select.POLLOUT)
        self.byte = bytearray(1)
        self.chunk = bytearray(MAX_IN)
        self.open = True  # False once the host end closed (EOF)
        self.guarded = None  # whether Ctrl-C is disabled (a game in progress)

    def _ready(self, poller):
        for _ in poller.ipoll(0) if hasattr(poller, "ipoll") else poller.poll(0):
            return True
        return False

    def service(self, now, in_game=False):
        """Read what has arrived (no more than the server has room for), let the server answer,
        write what the stream can take: bounded work, never a wait."""
        self.guard(in_game)
        server = self.server
        room = server.room()
        if room > MAX_IN:
            room = MAX_IN
        n = 0
        while self.open and n < room and self._ready(self.poll_in):
            got = self.rin.readinto(self.byte)  # type: ignore[misc]  # a binary stream (stdin.buffer or given)
            if not got:
                self.open = False  # the host end is gone: stop reading, keep the clock going
                self.poll_in.unregister(self.inp)
                break
            self.chunk[n] = self.byte[0]
            n += 1
        server.feed(memoryview(self.chunk)[:n] if n else b"", now)  # also finishes earlier lines
        if server.pending() and self._ready(self.poll_out):
            view = server.peek(self.max_out)
            k = self.rout.write(view)
            if hasattr(self.rout, "flush"):
                self.rout.flush()
            server.sent(len(view) if k is None else k)

    def guard(self, in_game):
        """Ctrl-C is a byte during a game (the protocol may carry it), an interrupt between games."""
        if micropython is None or in_game == self.guarded:
            return
        self.guarded = in_game
        micropython.kbd_intr(-1 if in_game else 3)
