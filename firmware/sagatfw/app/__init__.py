# The app: one step function wiring a board, the buttons, the engine, the journal, the faces and
# the link (main.py), and the app running a match (matchmode.py) with its set-up (setup.py).
