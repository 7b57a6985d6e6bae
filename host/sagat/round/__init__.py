"""The round, offline: its folder (round.json the hall writes and the report reads, each board's log
folder's name, what a round may hold: folder.py), its pairings (pairings.py; the pairing program's TRF:
trfread.py, trftime.py, trf.py), each game's record (pgn.py, scoresheet.py) and time use (timeuse.py),
and `sagat report` (report.py, pages.py, words.py). It imports nothing from the hall (hall/), which
imports it: the hall's live server writes what this package reads."""
