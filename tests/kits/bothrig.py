# The protocol's rig on either runtime, for the firmware tests that run under both (a plain
# test_*.py): protocolrig.py's (an App and its Server on littlefs in RAM) under MicroPython,
# apprig.py's (on a temporary directory) under CPython. rig(key) a fresh one, T(ms) its ticks,
# done() after each test.
import sys

if sys.implementation.name == "micropython":
    from protocolrig import KEY, Rig, T  # noqa: F401

    def rig(key=b""):
        return Rig(key=key)

    def done():
        from flash import unmount

        unmount()

else:
    import shutil
    import tempfile

    from apprig import KEY, Rig  # noqa: F401

    _DIRS = []

    def T(ms):
        return ms  # apprig's App boots at ticks 0

    def rig(key=b""):
        _DIRS.append(tempfile.mkdtemp(prefix="sagat-rig-"))
        return Rig(_DIRS[-1], key)

    def done():
        while _DIRS:
            shutil.rmtree(_DIRS.pop(), ignore_errors=True)
