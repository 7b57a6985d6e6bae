# sagat: MicroPython ticks arithmetic, the same on every runtime.
#
# Pure module. On the Pico and the ESP32, time.ticks_ms() wraps at 2^30 ms (12.4 days) and
# time.ticks_diff() is valid for half of that. The MicroPython unix port wraps at 2^62 and CPython
# has no ticks at all, so the clock never calls time.ticks_diff(): it uses these functions, which
# wrap at 2^30 everywhere, so every runtime computes exactly what the boards compute. A board's
# ticks_ms() value is already in range; other runtimes mask theirs with TICKS_MAX (2^62 is a
# multiple of 2^30, so masking keeps the arithmetic).
#
# Every intermediate value stays inside MicroPython's 31-bit small ints on 32-bit boards
# (-2^30 .. 2^30-1), so none of these allocate.

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x


TICKS_MAX = const(0x3FFFFFFF)  # 2^30 - 1; the period itself (2^30) is not a 32-bit small int
TICKS_HALF = const(0x20000000)  # 2^29: ticks_diff is valid for |difference| < 2^29 ms (6.2 days)


def ticks_diff(a, b):
    """Signed difference a - b of two ticks values, as time.ticks_diff on the boards."""
    d = (a - b) & TICKS_MAX
    if d >= TICKS_HALF:
        d = d - TICKS_MAX - 1
    return d


def ticks_add(a, delta):
    """The ticks value `delta` ms after `a` (delta may be negative), as time.ticks_add."""
    if delta >= 0:
        if a > TICKS_MAX - delta:
            return a - (TICKS_MAX - delta) - 1
        return a + delta
    a = a + delta
    if a < 0:
        a = a + TICKS_MAX + 1
    return a
