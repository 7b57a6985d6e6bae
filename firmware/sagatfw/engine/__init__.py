# The engines: the game clock (engine/clock.py) and the match engine with its two field games (match.py,
# kokboru.py, kilithattu.py). Pure state machines over core/; no flash, no faces, no link.
