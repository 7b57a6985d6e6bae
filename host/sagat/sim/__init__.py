"""`sagat sim`: the clock's firmware on the sim board, under the MicroPython unix port.

script.py   the script language: its actions (the firmware's one table of actions), checked line by
            line before anything runs, split at power cuts; the actions' help
board.py    the sim board: the unix port, the firmware copy it runs (compiled, cached), its flash
            image held by one simulator at a time, the command that boots it
runners.py  a script's boots (virtual or real time), interactive, and serial on a pseudo-terminal
            (with the faces or headless, a script in real time or the random player)
"""
