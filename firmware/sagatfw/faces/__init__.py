# What the clock shows: the game's and a match's faces as text (game.py, matchfaces.py) and the two
# display drivers (faces/oled.py, faces/tm1637.py). Above engine/; no flash, no link.
