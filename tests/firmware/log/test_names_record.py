# A match's names record (log/names.py T_NAMES, docs/log-format.md): fit_names keeps two names
# in the record's 40 bytes as UTF-8 cut on a character boundary, refuses what is not text; the
# record is chained like any other. Both runtimes.
from sagatfw.log import names as N
from sagatfw.log import records as R


def _fits(text):
    return len(text) <= N.NAMES_SIZE


def test_two_short_names_are_kept_whole():
    t = N.fit_names("Asan", "Usen")
    assert t == b"Asan\x00Usen" and N.names_of(t) == ("Asan", "Usen")
    assert N.names_of(N.fit_names("", "Usen")) == ("", "Usen") and N.fit_names("", "") is None


def test_long_names_are_cut_on_a_character_boundary_each_keeping_half_the_room():
    t = N.fit_names("Ж" * 30, "Q" * 30)  # 60 and 30 bytes: 39 for both
    assert _fits(t) and N.names_of(t) == ("Ж" * 9, "Q" * 21)  # 19 bytes end inside a letter: 18
    t = N.fit_names("Asan", "Ü" * 40)  # the short one gives the long one what it does not use
    assert _fits(t) and N.names_of(t) == ("Asan", "Ü" * 17)
    t = N.fit_names("L" * 50, "Usen")
    assert _fits(t) and N.names_of(t) == ("L" * 35, "Usen")
    t = N.fit_names("😀" * 20, "😀" * 20)  # 4-byte characters: 19 and 20 bytes of room hold 4 and 5
    assert _fits(t) and N.names_of(t) == ("😀" * 4, "😀" * 5)
    for n in range(0, 45):  # every length, every cut: the text stays UTF-8
        t = N.fit_names("é" * n, "ы" * (44 - n))
        assert _fits(t) and N.names_of(t) is not None, n


def test_attack_names_that_are_not_text_are_refused():
    for bad in ((1, "x"), ("x", None), (b"Asan", "Usen"), ("A\x00B", "C"), ("A", "B\nC"), ("\x7f", "")):
        try:
            N.fit_names(bad[0], bad[1])
        except ValueError as e:
            assert "names" in str(e)
        else:
            raise AssertionError(bad)


def test_the_names_record_round_trips_and_is_chained():
    buf = bytearray(R.RECORD_SIZE)
    N.pack_names(buf, 7, 42, N.fit_names("Асан", "Usen"))
    assert R.type_of(buf) == N.T_NAMES and R.game_of(buf) == 7 and R.seq_of(buf) == 42 and R.t_of(buf) == 0
    R.seal(buf, R.ZERO_CHAIN, R.Chain(b"key"))
    assert R.check(buf) is None
    assert N.names_of(N.names_text(buf)) == ("Асан", "Usen")
    forged = bytearray(buf)
    forged[N.NAMES_AT] ^= 0x80  # not UTF-8 any more: no names, never a crash
    assert N.names_of(N.names_text(forged)) is None and R.check(forged) == R.P_CRC
