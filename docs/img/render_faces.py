# Renders the OLED faces as a board draws them, with the firmware's own drawing (faces/oled.py's OLED on a
# bus that takes the bytes and drops them), in each of the clock's languages (the `lang` setting):
#
#     micropython docs/img/render_faces.py && python docs/img/to_png.py
#
# (both take a folder for the raw faces, /tmp by default; to_png.py a second one for the PNGs, docs/img by default)
# /tmp/faces.raw: a game's two faces (docs/img/faces.png, the README's picture); /tmp/faces-<lang>.raw for
# en, kk, ru and ky: six faces, two by two: a paused game (the side to move framed, a flag down), the menu
# choosing the language, a kok-boru match in a stoppage (docs/img/faces-kk.png and the others). Each face is the panel's
# 1024 bytes (8 pages of 128 columns, a byte a column of 8 rows, the top row in bit 0).
import sys

sys.path.insert(0, "firmware")

import sagatfw  # noqa: E402
from sagatfw.engine.clock import BY_ARBITER, LEFT, RIGHT, Clock  # noqa: E402
from sagatfw.engine.kokboru import KokBoru  # noqa: E402
from sagatfw.engine.matchwords import CARD_WARNING  # noqa: E402
from sagatfw.faces import game as F  # noqa: E402
from sagatfw.faces import matchfaces as MF  # noqa: E402
from sagatfw.faces import oled, words  # noqa: E402  (words: the languages' list, as the tests read it)


class Bus:
    def writeto(self, addr, buf, stop=True):
        pass

    def writevto(self, addr, vector, stop=True):
        pass


PANEL = oled.OLED(Bus(), 0x3C)


def face(items):
    """One face's 1024 bytes as the firmware draws `items`."""
    PANEL.items = None
    PANEL.draw(items)
    return bytes(PANEL.buffer)


def played():
    """A classical game two hours in: 23 moves each, the left side to move."""
    c = Clock()
    c.new_game("40/5400+30:1800+30")
    c.start(0)
    t = 0
    for i in range(46):
        t += 61000 + (i * 7919) % 60000
        c.press(i % 2, t)
        c.clear_events()
    return c, t


def flagged():
    """A blitz game paused after the right side's flag fell."""
    c = Clock()
    c.new_game("180")
    c.start(0)
    c.press(LEFT, 20000)
    c.advance(200001)
    c.pause(BY_ARBITER, 200001)
    c.clear_events()
    return c


def match():
    """Kok-boru's 1st half: 8-2, a warning to the right, the referee's stoppage 12 s long."""
    m = KokBoru()
    m.new_match(lead=8)
    t = 1000
    for op in (("start",), ("score", LEFT, 4), ("score", RIGHT, 2), ("score", LEFT, 4), ("card", RIGHT, CARD_WARNING),
               ("stoppage",)):
        t += 17000
        getattr(m, op[0])(*(op[1:] + (t,)))
        m.clear_events()
    m.advance(t + 12000)
    m.clear_events()
    return m


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp"
    c, t = played()
    c.advance(t + 1234567)
    with open(out + "/faces.raw", "wb") as f:
        for side in (LEFT, RIGHT):
            f.write(face(F.oled(c, side, 20000, 87, False, 1, None)))
    g = flagged()
    m = match()
    for i in range(len(words.CODES)):
        code = words.CODES[i]
        sagatfw.use(code)
        left, right = F.menu_items(sagatfw.T("LANGUAGE"), words.NAMES[i])
        with open(out + "/faces-%s.raw" % code, "wb") as f:
            f.write(face(F.oled(g, LEFT, 20000, 87, False, 1, None)))
            f.write(face(F.oled(g, RIGHT, 20000, 87, False, 1, None)))
            f.write(face(left))
            f.write(face(right))
            f.write(face(MF.oled(m, LEFT)))
            f.write(face(MF.oled(m, RIGHT)))
    sagatfw.use("en")


main()
