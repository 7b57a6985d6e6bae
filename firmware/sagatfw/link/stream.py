# sagat: the serial link - the protocol server on the board's stream, never in the clock's way.
#
# Reads what has arrived without ever waiting (poll, then one byte at a time: a read of more than
# is there would block on MicroPython; one line a pass at most), hands it to protocol.Server, which
# answers it in the next pass, and writes its answers only when the stream can take them (POLLOUT),
# a bounded chunk per step. A host that stops
# reading fills its own buffer, never the clock's loop; a host that vanishes leaves the answers in
# the server's bounded outbox.
#
# Ctrl-C (0x03) and the REPL: at the REPL the arbiter key's file can be read, so with a key set no
# byte on the link may reach it. While a key is set Ctrl-C is an ordinary byte in every state
# (micropython.kbd_intr(-1)), unless the arbiter's signed `maintenance` opened the REPL until the
# next reboot (Server.repl_open). Without a key it interrupts between games as usual, so mpremote can
# reach the REPL. During a game it never interrupts: a stray 0x03 must not stop the clock.
import select
import sys

try:
    import micropython
except ImportError:  # CPython (the sim's fallback)
    micropython = None

MAX_IN = 256  # bytes read per step
# Bytes written per step: MAX_OUT on a pipe or a pty (the sim), where POLLOUT means at least 4096
# bytes fit. A board sets its own from its link's speed (HwBoard.LINK_WRITE, LINK_STEP: per write
# and per service(), as much as the link moves in a few ms: 256 on a UART, 4 KB on the Pico's USB);
# the loop does not sleep while an answer is on its way (busy).
MAX_OUT = 4096


class Link:
    def __init__(self, server, instream=None, outstream=None, max_out=MAX_OUT, step_out=0):
        self.server = server
        self.max_out = max_out
        self.step_out = step_out if step_out > max_out else max_out  # bytes per service()
        self.busy = False  # the last service() moved bytes and more wait: the loop should not sleep
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
        self.intr = None  # the interrupt character in force: -1 (none) or 3 (Ctrl-C), None before the first guard
        # the port's micropython.kbd_intr (the sim board wraps it to act as a board's serial driver)
        self.kbd_intr = micropython.kbd_intr if micropython is not None else None

    def _ready(self, poller):
        for _ in poller.ipoll(0) if hasattr(poller, "ipoll") else poller.poll(0):
            return True
        return False

    def service(self, now, in_game=False):
        """Read what has arrived (no more than the server has room for), let the server answer,
        write what the stream can take: bounded work, never a wait."""
        self.guard(in_game)  # before a byte is read: a button may have started a game
        server = self.server
        # A pass does one of three things at most, so no pass holds the clock up for long (a
        # pipelined pull on the Pico: reading a line costs 5 ms, answering a log.read 10-15,
        # writing 4 KB 5): answer a line that waits whole (read in an earlier pass), or read
        # the next line (one at most: a byte costs a poll and a read, 60 us on the Pico), and
        # write what the stream takes, unless this pass answered a line.
        lines = server.lines
        server.feed(b"", now)  # answers a waiting line, and keeps the server's time
        answered = server.lines != lines
        if answered:  # at once after start, result, key.set, maintenance (a match's too)
            mt = server.app.match
            self.guard(server.in_progress() if mt is None or mt.m is None else mt.in_game())
        n = 0
        if not answered and not server.has_work():
            room = server.room()
            if room > MAX_IN:
                room = MAX_IN
            while self.open and n < room and self._ready(self.poll_in):
                got = self.rin.readinto(self.byte)  # type: ignore[misc]  # a binary stream (stdin.buffer or given)
                if not got:
                    self.open = False  # the host end is gone: stop reading, keep the clock going
                    self.poll_in.unregister(self.inp)
                    break
                c = self.chunk[n] = self.byte[0]
                n += 1
                if c == 10:
                    break  # a whole line: answered next pass
            if n:
                server._accept(memoryview(self.chunk)[:n])
        moved = n
        left = 0 if answered else self.step_out
        while left > 0 and server.pending() and self._ready(self.poll_out):
            view = server.peek(self.max_out if self.max_out < left else left)
            k = self.rout.write(view)
            if hasattr(self.rout, "flush"):
                self.rout.flush()
            k = len(view) if k is None else k
            server.sent(k)
            if not k:
                break
            moved += k
            left -= k
        # more to do at once: answers still going out, or lines still waiting (a pipelined pull)
        self.busy = answered or (moved > 0 and (server.pending() > 0 or server.has_work()))

    def guard(self, in_game):
        """Set the interrupt character for this instant: Ctrl-C interrupts (3) only between games,
        and with an arbiter key set only after `maintenance` opened the REPL; else it is a byte (-1)."""
        srv = self.server
        c = -1 if in_game or (srv.key and not srv.repl_open) else 3
        if c != self.intr and self.kbd_intr is not None:
            self.intr = c
            self.kbd_intr(c)
