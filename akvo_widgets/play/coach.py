"""The coach's exact values in the match page's words.

:func:`value_text` words one option's exact immediate value (:class:`akvo.coach.OptionValue`,
from :func:`akvo.coach.decision_values`) as its button shows it. The win chance beside it,
its interval, reason and the suggestion are the one valuation's (:mod:`.valued`, over
:mod:`akvo.coach.valuation`), which replaced the rollout estimates this module used to run
in a thread.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from akvo.coach import OptionValue
from akvo.coach.values import EXPECTED_POINTS, GAIN, P_PUSH, P_SUCCESS, WORTH
from akvo_widgets.text.formatting import NBSP, decimal, exact_percent
from akvo_widgets.text.value_words import Wording, value_words

#: Seconds the first rollout estimates took on the page before the one valuation
#: (``benchmarks/bench_coach.py`` still measures akvo.coach.WinChances against it).
FIRST_SECONDS: Final = 1.2


def small_points(value: Fraction) -> str:
    """Points in French, a tiny non-zero value never shown as ``0,00 pt``."""
    if 0 < value < Fraction(1, 200):
        return f"<{NBSP}0,01{NBSP}pt"
    if 0 > value > -Fraction(1, 200):
        return f">{NBSP}−0,01{NBSP}pt"
    return f"{decimal(value, 2).replace('-', '−')}{NBSP}pt"


def _signed_points(value: Fraction) -> str:
    return ("+" if value > 0 else "") + small_points(value)


#: The match page's words: short (« pt »), the best shot behind a worth, and whether a
#: value assumes the opponent's best reply.
MATCH = Wording(
    chance=exact_percent,
    points=small_points,
    phrases={
        P_PUSH: "{value} de recul{reply}",
        EXPECTED_POINTS: "{value} espéré{reply}",
        P_SUCCESS: "réussite {value}{critical}",
        WORTH: "meilleur tir {value}{reply}",
        GAIN: "gain du tour {sign}{value}",
    },
    no_shot="ne tire pas",
    no_target="aucune cible à portée",
)


def value_text(option: OptionValue) -> str:
    """One option's exact value in French, as its button shows it."""
    return value_words(option, MATCH)
