# The TM1637 bus on the unix port: fake_machine.TM1637Chip plays the chip's side
# of the two wires and pulls DIO low for its ACK from the 8th clock's falling edge to the 9th clock's
# falling edge. The driver keeps DIO open-drain, releases it for every ACK whatever the byte, and never
# drives it high against the chip; the chip receives exactly the bytes the driver meant.
import fake_machine as FM

FM.install()

from boardkit import FakeApp  # noqa: E402

from sagatfw.engine.clock import LEFT, RIGHT, Clock  # noqa: E402
from sagatfw.faces import game as F  # noqa: E402
from sagatfw.faces.tm1637 import TM1637  # noqa: E402

CLK = 2
DIO = 3


def _driver():
    # the pin trace of this driver only: 256 drivers' traces in one list grew it, doubling, to a
    # 512 KB run of the heap (a MemoryError with the heap fragmented otherwise than here)
    FM.TRACE.clear()
    chip = FM.TM1637Chip(CLK, DIO)
    tm = TM1637(FM.Pin(CLK), FM.Pin(DIO))
    return chip, tm


def test_dio_is_open_drain_and_released_in_every_ack_for_every_byte_value():
    for b in range(256):
        chip, tm = _driver()
        assert tm.dio.mode == FM.Pin.OPEN_DRAIN and tm.clk.mode == FM.Pin.OUT
        seg = bytearray((b, b, b, b))
        tm.show(seg)
        chip.detach()
        assert chip.frames == [[0x40], [0xC0, b, b, b, b], [0x88 | 4]], (b, chip.frames)
        assert chip.conflicts == [], (b, chip.conflicts)
        assert len(chip.acks) == 7 and all(chip.acks), (b, chip.acks)
        assert tm.dio() == 1 and tm.clk() == 1  # idle: both lines high after the stop


def test_the_chip_model_flags_a_push_pull_dio():
    # the driver as it once was: DIO push-pull, holding bit 7 through the ACK clock
    class Old(TM1637):
        def _byte(self, b):
            clk = self.clk
            dio = self.dio
            for _ in range(8):
                dio(b & 1)
                b >>= 1
                clk(1)
                clk(0)
            clk(1)
            clk(0)

    for b, bad in ((0x7F, False), (0x80, True), (0xFF, True), (0x00, False)):
        chip = FM.TM1637Chip(CLK, DIO)
        tm = Old(FM.Pin(CLK), FM.Pin(DIO))
        tm.dio.init(FM.Pin.OUT, value=1)
        tm._start()
        tm._byte(b)
        tm._stop()
        chip.detach()
        assert chip.frames == [[b]]
        assert (chip.conflicts != []) == bad, (b, chip.conflicts)
        assert chip.acks == [False]  # held low, or driven high: not released either way
    # today's driver with DIO forced push-pull: its release becomes a drive high against the ACK
    chip, tm = _driver()
    tm.dio.init(FM.Pin.OUT, value=1)
    tm.show(bytearray(4))
    chip.detach()
    assert len(set(c[:2] for c in chip.conflicts)) == 7 and chip.acks == [False] * 7  # every byte


def test_dio_reads_low_during_the_ack():
    chip, tm = _driver()
    got = []
    clk = tm.clk
    dio = tm.dio
    tm._start()
    for _ in range(8):
        dio(1)
        clk(1)
        clk(0)
    dio(1)  # released
    got.append(dio())  # the chip pulls it low
    clk(1)
    got.append(dio())
    clk(0)
    got.append(dio())  # the ACK is over: the pull-up
    tm._stop()
    chip.detach()
    assert got == [0, 0, 1] and chip.frames == [[0xFF]] and chip.conflicts == [] and chip.acks == [True]


def _board(module):
    FM.use({"pico": "rp2", "esp32": "esp32"}[module])  # the fake `machine` of that board's port
    mod = __import__("sagatfw.boards." + module, None, None, ["Board"])
    pins = dict(mod.PINS)
    pins["display"] = "tm1637"

    class Board(mod.Board):
        PINS = pins

    return Board, pins


def test_both_boards_faces_reach_the_chips_without_contention():
    for module in ("pico", "esp32"):
        Board, pins = _board(module)
        chips = [FM.TM1637Chip(clk, dio) for clk, dio in pins["tm1637"]]
        board = Board()
        c = Clock()
        c.new_game("600+5")
        c.start(0)
        c.advance(10400)
        board.show(FakeApp(c), 10400)
        for side in (LEFT, RIGHT):
            chip = chips[side]
            chip.detach()
            want = F.tm1637(bytearray(4), c, side, 20000, (10400 // 500) & 1)
            assert chip.frames == [[0x40], [0xC0] + list(want), [0x88 | 4]], (module, side, chip.frames)
            assert chip.conflicts == [] and len(chip.acks) == 7 and all(chip.acks), (module, side)
            assert FM.Pin.pins[pins["tm1637"][side][1]].mode == FM.Pin.OPEN_DRAIN
