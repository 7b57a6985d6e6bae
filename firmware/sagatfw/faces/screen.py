# sagat: what the two faces show now, decided here, not by a board's driver: boards/hw.py (the Pico's
# and the ESP32's) only draws it on its TM1637s or OLEDs and its LEDs. Before, that driver chose the
# result code's turns, the messages and the battery's "bAtt" itself. The sim board, OLED faces only,
# makes `oled`'s choice with faces/game.py's and faces/matchfaces.py's items itself (boards/sim.py): this
# module loaded there would cost the sim's frozen heap its module at the 64 KB budget's edge.
#
# What is on the faces: the on-clock menu while it is open (ui/menu.py's view), a match's faces while
# a match is set up (faces/matchfaces.py, loaded only then), else the game's (faces/game.py); with them
# what the app has to say (its status line: a message, the result code, the board number, TK-P1's
# protest window) and the board's battery warning. Pure: it reads the view the app gives the faces
# (the App's clock, match, menu, status, code_text, store.values and protest_left: app/main.py),
# the ticks `now` the board's loop passes and the battery the board measured; never the journal,
# never a pin.
#
# A four-digit face cannot say everything at once, so things take turns on it:
#   the result code   "C042" and " 917" (for the scoresheet) every other 2 s, with the final times
#   a message         (a log that fails, bad settings: the OLED's bottom line) every other 2 s while
#                     the clock is stopped; during play 1 s in every 10 on the waiting face, whose
#                     time stands still, so a player never loses sight of a running time
#   the battery       "bAtt" 1 s in every 30 s of play on the waiting face (FIDE: the warning comes
#                     with 10 h of play left); while the clock is stopped both low LEDs blink instead,
#                     so it shows at setup too
# No allocation on a running game's four-digit face and LEDs (a refresh of the tick path), as
# faces/game.py's: tests/firmware/faces/test_screen_heap_mp.py.

from sagatfw.faces import game as F

# Codes and periods as literals: a const() needs `const` imported, a name more in this module's dict,
# which lives in RAM (the frozen 64 KB budget holds every entry).
#   1   the status line's result code (faces.STATUS_TEXT)
#   30  "bAtt" for 1 s in every 30 s during play; 10: a message for 1 s in every 10 s during play


def leds(app, side, now, low_battery):
    """The LED bitmask (faces/game.py's LED_* bits) of `side`'s face; -1 while the menu is open (the LEDs
    keep what they showed). `low_battery`: the board's warning. No allocation in a game."""
    menu = app.menu
    if menu is not None and menu.active:
        return -1
    blink = (now // 500) & 1
    if app.match is not None:
        from sagatfw.faces import matchfaces as MF

        return MF.leds(app.match.m, side, blink)
    c = app.clock
    mask = F.leds(c, side, blink)
    if low_battery and c.running == -1 and blink:
        mask |= F.LED_LOW  # low battery: both low LEDs blink while the clock is stopped
    return mask


def tm1637(buf, app, side, now, low_battery):
    """Fill `buf` (a bytearray of 4) with `side`'s four-digit face and return it: the menu's texts, a match's
    faces or the game's, and the turns of the code, a message and the battery (above). No allocation in a
    running game's time."""
    blink = (now // 500) & 1
    menu = app.menu
    if menu is not None and menu.active:  # what is edited on the left, its value on the right (its field blinking)
        return F.text4(buf, menu.view4(now)[side], menu.field4 if side == 1 else None, blink)
    code = app.code_text if app.status == 1 else None
    turn = (now // 2000) & 1
    if app.match is not None:
        from sagatfw.faces import matchfaces as MF

        ma = app.match
        note = ma.note4(now) if side == 1 else None  # the score face's note (a score taken back...)
        m4 = F.STATUS4[app.status]
        if note is not None:
            return F.text4(buf, note)
        if code is not None and turn:
            return F.text4(buf, ("C" + code[5:8]) if side == 0 else code[8:11])  # as a game's
        if m4 is not None and turn:
            return F.text4(buf, m4)
        return MF.tm1637(buf, ma.m, side, blink)
    c = app.clock
    m4 = F.status_text(app, True)  # (in setup: the board number, "b  8")
    if code is not None and turn:
        # the result code (for the scoresheet) every other 2 s, with the final times: "C123" on the
        # left face, " 456" on the right
        return F.text4(buf, ("C" + code[5:8]) if side == 0 else code[8:11])
    if m4 is not None and (turn if c.running == -1 else c.running != side and c.t // 1000 % 10 == 5):
        return F.text4(buf, m4)
    if low_battery and c.running != -1 and c.running != side and c.t // 1000 % 30 == 0:
        return F.text4(buf, b"bAtt")
    return F.tm1637(buf, c, side, app.store.values["tenths_below_ms"], blink)


def oled(app, now, battery, low_battery):
    """Both OLED faces' draw items, (left, right): the menu's, a match's (its note, else the status line, at
    the bottom) or the game's (the board's `battery` percent or None, and its warning, on the top line)."""
    blink = (now // 500) & 1
    menu = app.menu
    if menu is not None and menu.active:
        left, right = menu.view(now)
        return F.menu_items(left, right, menu.field, blink, menu.detail)
    if app.match is not None:
        from sagatfw.faces import matchfaces as MF

        ma = app.match
        note = getattr(ma, "note", None)  # a MatchApp's (tests may give the engine alone)
        return (MF.oled(ma.m, 0, (note and note(0, now)) or F.status_text(app)),
                MF.oled(ma.m, 1, (note and note(1, now)) or F.status_text(app)))
    c = app.clock
    tenths = app.store.values["tenths_below_ms"]
    return (F.oled(c, 0, tenths, battery, low_battery, blink, F.status_text(app)),
            F.oled(c, 1, tenths, battery, low_battery, blink, F.status_text(app)))
