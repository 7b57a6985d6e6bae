# The engines: the game clock (clock.py) and the match engine (matchbase.py, on match.py's codes)
# with its two field games (kokboru.py, kilithattu.py). Pure state machines over core/; no flash, no faces, no link.
