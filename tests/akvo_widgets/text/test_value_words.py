"""akvo_widgets.text.value_words: the three pages word one option's facts each in their words."""

from __future__ import annotations

from fractions import Fraction

import pytest

from akvo.coach import OptionValue
from akvo.coach.values import GAIN, P_PUSH, P_SUCCESS, WORTH
from akvo_site.tables.coach import value_text as table_text
from akvo_widgets.play.advice import value_phrase
from akvo_widgets.play.coach import value_text as match_text

NB = "\u00a0"


@pytest.mark.parametrize(
    ("option", "guided", "match", "table"),
    [
        (
            OptionValue("rune P", P_PUSH, Fraction(1, 4), reply="rune D"),
            f"25,0{NB}% de recul pour{NB}B",
            f"25,0{NB}% de recul face à la meilleure réponse",
            f"25,0{NB}% de recul",
        ),
        (
            OptionValue("keep", P_SUCCESS, Fraction(1, 3), critical=Fraction(1, 9)),
            f"33,3{NB}% de réussite, critique 11,1{NB}%",
            f"réussite 33,3{NB}%, critique 11,1{NB}%",
            f"33,3{NB}% de réussite",
        ),
        (
            OptionValue("trident", WORTH, Fraction(3, 8), target="surfeur", note="per shot"),
            f"vaut 0,38{NB}point pour{NB}B par tir, jusqu’à trois",
            f"meilleur tir 0,38{NB}pt",
            f"valeur 0,38{NB}pt",
        ),
        (
            OptionValue("activate navire", WORTH, Fraction(0), note="does not shoot"),
            f"vaut 0{NB}point pour{NB}B",
            "ne tire pas",
            f"valeur 0,00{NB}pt",
        ),
        (
            OptionValue("activate surfeur", WORTH, Fraction(1, 2)),
            f"vaut 0,50{NB}point pour{NB}B",
            "aucune cible à portée",
            f"valeur 0,50{NB}pt",
        ),
        (
            OptionValue("advance", GAIN, Fraction(1, 40)),
            f"gain 0,025{NB}point pour{NB}B",
            f"gain du tour +0,03{NB}pt",
            f"gain 0,03{NB}pt",
        ),
    ],
    ids=["reply", "critical", "per-shot", "no-shot", "no-target", "gain"],
)
def test_each_page_words_the_same_facts_in_its_own_words(
    option: OptionValue, guided: str, match: str, table: str
) -> None:
    assert (value_phrase(option, 1), match_text(option), table_text(option)) == (
        guided,
        match,
        table,
    )


def test_an_option_without_a_number_shows_nothing() -> None:
    option = OptionValue("rune U plongeur", "none", None, note="restores an Ultime")
    assert (value_phrase(option, 0), match_text(option), table_text(option)) == ("", "", "")
