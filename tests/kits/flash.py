# A flash chip in RAM for littlefs (os.VfsLfs2 / vfs.VfsLfs2) under the MicroPython unix port:
# counts program and erase operations, and can cut the power at operation N (that one and every
# later one never reach the chip) or tear operation N (only its first half reaches the chip).
import vfs


class PowerCut(Exception):
    pass


class Flash:
    def __init__(self, block_size=4096, blocks=64, image=None, cut_at=0, tear=False):
        self.block_size = block_size
        self.blocks = blocks
        if image is None:  # erased: 0xFF, filled a block at a time (no second copy of the image)
            image = bytearray(block_size * blocks)
            ff = b"\xff" * block_size
            for i in range(blocks):
                image[i * block_size : (i + 1) * block_size] = ff
        self.data = image
        self.ops = 0  # program + erase operations so far
        self.programs = 0
        self.program_bytes = 0
        self.erases = 0
        self.cut_at = cut_at  # 0: never
        self.tear = tear
        self.dead = False
        self.read_only = False
        self.armed = False  # the cut counts operations from arm() on

    @classmethod
    def within(cls, buf, blocks, image=None, block_size=4096):
        """A chip of `blocks` blocks in the front of `buf`, erased or holding a copy of `image`: `buf`
        is a buffer its test allocated once (at import, while the heap is empty) and reuses for one
        chip at a time. A new chip of a megabyte or more each time needs a free run of the heap as
        long, and where the heap's small objects fall, and so whether that run is there, depends on
        things as far off as the length of the clone's path."""
        view = memoryview(buf)[: blocks * block_size]
        if image is not None:
            view[:] = image
            return cls(block_size, blocks, image=view)
        ff = b"\xff" * block_size
        for i in range(blocks):
            view[i * block_size : (i + 1) * block_size] = ff
        return cls(block_size, blocks, image=view)

    def arm(self):
        """Start counting operations towards the cut (e.g. after formatting)."""
        self.ops = 0
        self.armed = True

    def _op(self):
        """Count one operation; returns how much of it reaches the chip: 0, 1 (half) or 2."""
        self.ops += 1
        if self.dead:
            return 0
        if self.armed and self.cut_at and self.ops >= self.cut_at:
            self.dead = True
            return 1 if self.tear else 0
        return 2

    def readblocks(self, block, buf, offset=0):
        a = block * self.block_size + offset
        buf[:] = self.data[a : a + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        if self.read_only:
            raise OSError(30)  # EROFS
        if offset is None:
            offset = 0
        part = self._op()
        n = len(buf) if part == 2 else (len(buf) // 2 if part == 1 else 0)
        a = block * self.block_size + offset
        self.data[a : a + n] = buf[:n]
        self.programs += 1
        self.program_bytes += len(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.block_size
        if op == 6:  # erase
            if self.read_only:
                return -30
            part = self._op()
            self.erases += 1
            n = self.block_size if part == 2 else (self.block_size // 2 if part == 1 else 0)
            a = arg * self.block_size
            self.data[a : a + n] = b"\xff" * n
            return 0
        return 0

    def image(self):
        return bytearray(self.data)


def mount(flash, at="/flash", progsize=256, fresh=False, readonly=False):
    """Mount a littlefs on the flash at `at` (formatting it first if fresh); returns the path."""
    if fresh:
        vfs.VfsLfs2.mkfs(flash, progsize=progsize)
    fs = vfs.VfsLfs2(flash, progsize=progsize)
    try:
        vfs.umount(at)
    except OSError:
        pass
    vfs.mount(fs, at, readonly=readonly)
    return at


def unmount(at="/flash"):
    try:
        vfs.umount(at)
    except OSError:
        pass


def read_log(journal, key=b"", checkpoints=False):
    """Every record of a journal's segments through logread.Reader: (reader, events)."""
    from sagatfw.log import read as logread
    from sagatfw.log.records import RECORD_SIZE

    reader = logread.Reader(key, checkpoints)
    events = []
    buf = bytearray(RECORD_SIZE)
    for name in journal.segments():
        for rec in journal.read_segment(name, buf):
            got = reader.feed(rec, name)
            if got is not None:
                events.extend(got if isinstance(got, tuple) else (got,))
    fin = reader.finish()
    if fin is not None:
        events.append(fin)
    return reader, events
