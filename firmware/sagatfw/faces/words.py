# sagat: the words on the OLED faces, in English: the list each language's table follows.
#
# Code writes a face's word in English, in capitals as a face shows it, through sagatfw.T: T("PAUSE"). KEYS lists
# every such word. Each other language is a module of its own, faces/words_kk.py, words_ru.py, words_ky.py, whose
# WORDS pairs each of KEYS, in this order, with its translation; sagatfw.use loads the chosen one alone (the `lang`
# setting). tests/firmware/faces/test_words.py checks every table against KEYS, the font (faces/glyphs.py) and the
# 128 px of a face, and the code's words against KEYS. This module is the tests' and the translators': a board never
# loads it. The four-digit faces keep their codes in every language (a 7-segment digit cannot draw Cyrillic; the
# guides list what each means). A text that is no key (a name, a code, a reason with a number in it) shows as it is.
#
# Words are in capitals, as a clock writes them (MicroPython's str.upper() knows only ASCII).

CODES = ("en", "kk", "ru", "ky")  # log/settings.py's `lang` values
NAMES = ("English", "Қазақша", "Русский", "Кыргызча")  # each in its own language, for the menu

KEYS = (
    # the status line (faces/game.py STATUS_TEXT) and the board's number
    "CODE", "LOG ERROR", "LOG FULL", "LOG DAMAGED", "RESTORE FAILED", "SETTINGS DEFAULT", "SETTINGS UNSAVED",
    "ERROR", "BOARD", "PROTEST",
    # a game's marks and states (faces/game.py)
    "FLAG", "1ST", "LOW", "ST>", "DEF", "USED", "READY", "PAUSE", "ADJ", "END",
    # the menu's levels and items (ui/menu.py)
    "MENU", "PRESET", "CUSTOM", "SETTINGS", "ARBITER", "MATCH", "PRE",
    "TIME L", "TIME R", "MOVES L", "MOVES R", "STAGE L", "STAGE R", "EXTEND", "LATE", "ADJOURN", "RESULT",
    "RESUME", "ABORT?", "OK", "NO", "YES", "OK?", "EXTEND?", "ADJOURN?", "RESUME?", "NEW GAME", "BAD TC",
    "a game is in progress", "both sides (TK-C14)",
    # the editors (ui/editors.py)
    "FIRST", "LEFT", "RIGHT", "MIN L", "MIN R", "BONUS L", "BONUS R", "SEC L", "SEC R", "SAME R?", "KAZAN L",
    "KAZAN R", "LEAD", "CHANGE", "TIE", "MIN", "S", "OFF", "ON", "AUTO", "NONE",
    "FREEZE", "TENTHS", "DEFAULT", "SOUND", "BRIGHT", "LANGUAGE",
    "10 S", "20 S", "30 S", "60 S", "15 MIN", "30 MIN", "60 MIN", "1 MIN", "2 MIN", "5 MIN", "10 MIN",
    "KOK-BORU", "KILITHAT", "SUDDEN", "LOT", "DRAW", "REFEREE",
    "Fischer increment", "simple delay", "Bronstein delay", "no kumalak counts", "kumalaks in left's kazan",
    "kumalaks in right's kazan", "kok-boru one-on-one", "kilithattu",
    "minutes played (TK-C11)", "a lead of more than this wins (KB-14)", "the team entering first (KT-4.4)",
    "the changeover, at most 60 s (KT-4.4)", "the next pazham wins (KT-4.6)", "drawn by lot on the clock (KT-4.6)",
    "a draw (KT-4.6)", "the referee decides (KT-4.6)",
    # a match's faces (faces/matchfaces.py, app/matchmode.py)
    "1ST HALF", "2ND HALF", "GOLDEN SCORE", "REST", "INNINGS 1", "INNINGS 2", "EXTRA 1", "EXTRA 2",
    "CHANGEOVER", "RED", "W", "IN", "WIN", "LOSS", "TIME", "STOP", "STOPPED",
    "POINTS", "GOLDEN", "REMOVAL", "BY LEAD", "BY LOT", "BY REFEREE", "BY PAZHAM", "START? again:cut",
    "TOSS? lever=won",
    # the face before the battery's cut-off (boards/hw.py)
    "BATTERY", "EMPTY", "CHARGE IT",
    # why an action was refused: the menu's reasons (engine/rules.py, app/main.py, ui/actions.py, engine/kazans.py;
    # ui/menu.py's detail, word-wrapped on four lines) ...
    "settings change between games (pause is not enough)", "corrections need the clock stopped (pause first)",
    "late installation is set before the clock is started", "late installation needs a time limit, not a count-up",
    "pause the game in progress first", "the clock's events wait to be logged: try again in a moment",
    "kazans go with a game played (1-0, 0-1, 1/2-1/2), not a forfeit (TK-R4)", "kazans 81-81: a draw (TK-R5)",
    "no match is set up (new with a mode first)",
    # ... and a match's (engine/matchbase.py, kokboru.py, kilithattu.py; app/matchmode.py's note: one line of 21)
    "not started", "period not started", "period running", "stoppage on", "break running", "lot due",
    "time over: result?", "match over", "nothing to undo", "no stoppage", "no lot due", "undo the scores first",
    "stop the period first", "not the entering team", "a pazham is 1 point", "score limit", "too many entries",
    "events not logged yet", "no scores", "no cards in this game", "no lot in this game",
)
