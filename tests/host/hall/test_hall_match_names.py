"""A match round's names from the pairings (docs/hall.md, "A match round"): Set up all gives each
clock its pairing's names cut to what the clock keeps (sagatfw.log.names.fit_names) and with the
control characters a pairing program or a spreadsheet left in them (a tab, a NUL) turned into
spaces, so every board is set up and its report line says with which names. Real simulated
clocks on pseudo-terminals, with the hall's key."""

from __future__ import annotations

from hallkit import until

from sagat.hall.core import Hall
from sagat.hall.sims import Sims
from sagatfw.log import names as N

KEY = bytes(range(64, 80))
SOUTH = "Оңтүстік Қазақстан облысының құрамасы"
NORTH = "Солтүстік Қазақстан облысының құрамасы"


def test_set_up_all_gives_long_names_cut_and_names_with_a_tab_or_nul_cleaned(tmp_path):
    sims = Sims(2, str(tmp_path / "sims"))
    hall = Hall(key=KEY, out_dir=str(tmp_path / "logs"), discover=False,
                pairings={1: (SOUTH, NORTH), 2: ("Асан\tҮсөнов", "Usen\x00 Asanov\r\n")})
    try:
        for n, port in enumerate(sims.start(), 1):
            hall.add(port, "sim", n)
        until(lambda: len(hall.boards) == 2 and all(b["state"] and b["key_set"] for b in hall.view()["boards"]),
              60, "2 keyed sims up")
        rep = hall.set_up("", "left", mode="kokboru")
        assert rep["done"] == 2 and rep["failed"] == 0, rep["boards"]
        kept = N.names_of(N.fit_names(SOUTH, NORTH))
        for n, pair in ((1, kept), (2, ("Асан Үсөнов", "Usen Asanov"))):
            st = until(lambda n=n: (hall.board(n).state or {}).get("mode") == "kokboru" and hall.board(n).state,
                       30, "a kok-boru bout")
            assert st["names"] == {"left": pair[0], "right": pair[1]}, st["names"]
            assert rep["boards"][n]["text"] == f"set up kokboru: {pair[0]} - {pair[1]}"
    finally:
        hall.close()
        sims.close()
