"""`sagat result --help` says the kazans rule the way the clock checks it (engine/kazans.py): the counts are
required after a flag fall for a draw or for the win of the player whose flag fell (TK-R7: 82 or more wins
despite the flag; TK-C12: under 81 it lost), and the opponent's win needs none. The old words ("a win
against a fallen flag") read as the one case that needs none."""

import pytest

from sagat.cli import main

SAYS = {
    "C": ("flag fall", "whose flag fell", "TK-C12", "not for the opponent's win"),
    "kk_KZ.UTF-8": ("жалаушасы құлаған ойыншының жеңісіне міндетті", "TK-C12", "қарсыласының жеңісіне қажет емес"),
    "ru_RU.UTF-8": ("победы того, чей флажок упал", "TK-C12", "для победы его соперника не нужны"),
    "ky_KG.UTF-8": ("желекчеси түшкөн оюнчунун жеңиши үчүн милдеттүү", "TK-C12", "атаандашынын жеңишине керек эмес"),
}
WRONG = ("a win against a fallen flag", "жалаушасы құлаған ойыншыға қарсы жеңіс", "победы при упавшем флажке",
         "желекчеси түшкөн оюнчуга каршы жеңиш")


@pytest.mark.parametrize("locale", SAYS)
def test_result_help_says_the_kazans_are_required_for_the_flagged_players_draw_or_win(locale, lang, capsys):
    lang(locale)
    with pytest.raises(SystemExit):
        main(["result", "--help"])
    out = " ".join(capsys.readouterr().out.split())  # (argparse wraps the help's lines)
    for words in SAYS[locale]:
        assert words in out, (words, out)
    for words in WRONG:
        assert words not in out, (words, out)
