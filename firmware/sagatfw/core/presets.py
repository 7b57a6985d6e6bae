# sagat: the built-in TimeControl presets, toguz kumalak's first (TK-B3).
#
# Pure module, apart from timecontrol so the clock's loop does not carry these strings in RAM: the
# on-clock menu imports it when the arbiter chooses a preset, and the host lists them.

# Built-in presets: (name, TimeControl string, description). Toguz kumalak first.
PRESETS = (
    ("tk-blitz", "420", "Toguz kumalak blitz: 7 min per player (TK-B3)"),
    ("tk-rapid", "1200", "Toguz kumalak rapid: 20 min per player (TK-B3)"),
    ("tk-classical-60", "3600", "Toguz kumalak classical: 60 min per player"),
    ("tk-classical-90", "5400", "Toguz kumalak classical: 90 min per player"),
    ("tk-classical-2stage", "40/5400:1800", "Toguz kumalak classical: 40 moves in 90 min, then 30 min (TK-C16)"),
    ("bullet-1", "60", "Bullet: 1 min sudden death"),
    ("bullet-1+1", "60+1", "Bullet: 1 min + 1 s Fischer"),
    ("blitz-3", "180", "Blitz: 3 min sudden death"),
    ("blitz-3+2", "180+2", "Blitz: 3 min + 2 s Fischer"),
    ("blitz-5", "300", "Blitz: 5 min sudden death"),
    ("blitz-5+3", "300+3", "Blitz: 5 min + 3 s Fischer"),
    ("blitz-5d5", "300d5", "Blitz: 5 min, 5 s simple (US) delay"),
    ("blitz-5b3", "300b3", "Blitz: 5 min, 3 s Bronstein delay"),
    ("rapid-10", "600", "Rapid: 10 min sudden death"),
    ("rapid-10+5", "600+5", "Rapid: 10 min + 5 s Fischer"),
    ("rapid-15+10", "900+10", "Rapid: 15 min + 10 s Fischer"),
    ("rapid-25+10", "1500+10", "Rapid: 25 min + 10 s Fischer (FIDE rapid)"),
    ("rapid-25d5", "1500d5", "Rapid: 25 min, 5 s simple delay"),
    ("rapid-25b10", "1500b10", "Rapid: 25 min, 10 s Bronstein delay"),
    ("classical-90+30", "5400+30", "Classical: 90 min + 30 s Fischer"),
    ("classical-fide", "40/5400+30:1800+30", "Classical: 40 moves in 90 min, then 30 min, +30 s from move 1"),
    ("classical-40/120", "40/7200:3600", "Classical: 40 moves in 2 h, then 1 h sudden death"),
    ("classical-repeat", "40/7200:20/3600", "Classical: 40 moves in 2 h, then 1 h per 20 moves, repeated"),
    ("hourglass-1", "*60", "Hourglass: 1 min, time used is added to the opponent"),
    ("hourglass-3", "*180", "Hourglass: 3 min"),
    ("countup", "-", "No limit: both faces count up"),
    ("byoyomi-jp", "600j30x5", "Japanese byo-yomi: 10 min, then 5 periods of 30 s"),
    ("byoyomi-ca", "1200c25/300", "Canadian byo-yomi: 20 min, then 25 moves per 5 min"),
)


def preset(name):
    """The TimeControl string of a built-in preset, or None."""
    for p in PRESETS:
        if p[0] == name:
            return p[1]
    return None
