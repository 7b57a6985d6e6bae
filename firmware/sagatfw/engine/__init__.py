# The engines: the game clock (clock.py, and rules.py: the stage rules and the arbiter's operations
# it applies) and the match engine (matchbase.py, on matchwords.py's codes) with its two field games
# (kokboru.py, kilithattu.py). Pure state machines over core/; no flash, no faces, no link.
