"""The sim's match scripts (the lines of `sagat sim --script`, docs/user-guide.md): a kok-boru bout (a
score, a card, a stoppage, an undo, the rest, golden score) and a kilithattu match (a stoppage,
the changeover, a tie, both lots, seed 7). Played end to end by tests/host/sim/test_sim_match.py;
the logs they leave are the match logs of tests/host/log (test_logs_match,
test_verify_match_restored_from_checkpoint) and
tests/host/game/test_match_result_undo_and_reboot_host.py."""

KOKBORU = [
    {"at": 0, "do": "new", "mode": "kokboru", "lead": 8},
    {"at": 0, "do": "start"},
    {"at": 30000, "do": "score", "side": "left", "points": 4},
    {"at": 60000, "do": "card", "side": "right", "kind": "warning"},
    {"at": 90000, "do": "stoppage"},
    {"at": 100000, "do": "resume"},
    {"at": 120000, "do": "score", "side": "right", "points": 2},
    {"at": 125000, "do": "undo"},
    {"at": 130000, "do": "score", "side": "right", "points": 4},
    # the 1st half ends at 250 s (4:00 of match time, 10 s stopped), the rest runs to 310 s
    {"at": 320000, "do": "start"},
    {"at": 400000, "do": "score", "side": "left", "points": 2},
    {"at": 410000, "do": "score", "side": "right", "points": 2},
    # the 2nd half ends level at 560 s: golden score waits for the referee
    {"at": 600000, "do": "start"},
    {"at": 620000, "do": "card", "side": "left", "kind": "warning"},
    {"at": 650000, "do": "score", "side": "right", "points": 1},
]

KILITHATTU = [
    {"at": 0, "do": "new", "mode": "kilithattu", "first": "left", "changeover_ms": 60000, "method": "lot",
     "seed": 7},
    {"at": 0, "do": "start"},
    {"at": 60000, "do": "score", "side": "left", "points": 1},
    {"at": 120000, "do": "stoppage"},
    {"at": 150000, "do": "resume"},
    {"at": 200000, "do": "score", "side": "left", "points": 1},
    # innings 1 ends at 450 s (7:00 + 30 s stopped); the changeover starts innings 2 at 510 s
    {"at": 600000, "do": "score", "side": "right", "points": 1},
    {"at": 650000, "do": "score", "side": "right", "points": 1},
    {"at": 660000, "do": "score", "side": "right", "points": 1},
    {"at": 670000, "do": "undo"},
    # level 2-2 at 930 s: the lot for the order of the extra time, drawn at once
    {"at": 1000000, "do": "start"},  # extra 1 (5:00), then the changeover, then extra 2
    {"at": 1700000, "do": "result", "winner": "none"},  # after the second lot: the referee's entry counts
]
