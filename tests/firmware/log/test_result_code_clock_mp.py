# The clock's id reaches its result records (MicroPython unix port, littlefs in RAM): the uid the link's
# Server gives the host (machine.unique_id on a board, app.run; the simulator's own) is the clock's tag
# (records.Chain.tag), and two journals with the same short history (`+/-` entered before the start, TK-R4) under
# the same key give different result codes, as two clocks of one hall must.
import gc

from appkit import RootBoard, T
from flash import Flash, mount, read_log, unmount

from sagatfw.app.main import App
from sagatfw.engine import clock as C
from sagatfw.link.server import Server
from sagatfw.log import boot as journalboot
from sagatfw.log import records as R
from sagatfw.log.journal import Journal
from sagatfw.log.read import TAG_SIZE, tag_of

KEY = b"one key for the hall"


def _fresh():
    unmount()
    gc.collect()
    mount(Flash(blocks=64), fresh=True)


def _forfeit_code(tag):
    _fresh()
    j = Journal("/flash/log", key=KEY, segment_records=16)
    journalboot.open_log(j)
    was, R.Chain.tag = R.Chain.tag, (tag if tag is not None else bytes(TAG_SIZE))
    c = C.Clock()
    c.new_game("60")
    assert j.begin_game(c, 0)
    assert c.result(3, 500)  # +/-
    assert j.log_events(c, 500)
    code = j.result_code
    R.Chain.tag = was
    unmount()
    return code


def test_the_uid_the_link_gives_the_host_is_the_clocks_tag():
    _fresh()
    was = R.Chain.tag
    try:
        app = App(RootBoard("/flash/"))
        Server(app, {"uid": "e6614103e7a1b2c3"}, T(0))  # before the boot, as app.run makes it
        app.boot(T(0))
        c, j = app.clock, app.journal
        c.new_game("60")
        assert j.begin_game(c, 0) and c.result(3, 500) and j.log_events(c, 500)
        _, events = read_log(j)
        recs = [bytes(rec) for name in j.segments() for rec in j.read_segment(name, bytearray(R.RECORD_SIZE))]
        assert events[-1]["type"] == "result" and tag_of(recs[-1]) == R.clock_tag("e6614103e7a1b2c3")
    finally:
        R.Chain.tag = was
    unmount()


def test_two_clocks_with_one_history_give_two_codes():
    a = _forfeit_code(R.clock_tag("e6614103e7a1b2c3"))
    b = _forfeit_code(R.clock_tag("e6614103e7a1b2c4"))
    assert a != b and a == _forfeit_code(R.clock_tag("e6614103e7a1b2c3")), (a, b)
    assert _forfeit_code(None) not in (a, b)  # (a clock without an id: no tag)
