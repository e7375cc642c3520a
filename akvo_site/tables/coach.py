"""The coach on an online table's page: the exact value of each option (:mod:`akvo.coach`)
in French, and the « normal » bot's suggestion.

The table hands the coach a copy of the match as the deciding side sees it (the other
side's unrevealed orders masked: :meth:`akvo.online.table.Table.seen_by`), so its advice
cannot leak them. At the orders there is no exact number; the suggestion is the « normal »
bot's programme, from public data.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from akvo.bots.greedy import GreedyBot
from akvo.coach import OptionValue, decision_values
from akvo.coach.values import (
    ASSUMPTIONS,
    EXPECTED_POINTS,
    GAIN,
    P_PUSH,
    P_SUCCESS,
    WORTH,
)
from akvo.match import MatchState
from akvo.match.phases import Phase
from akvo.online.views import Advice
from akvo_widgets.text.formatting import decimal, french, percent
from akvo_widgets.text.value_words import Wording, value_words

_ADVISER: Final = GreedyBot(0)  # its generator is never drawn from when it decides


def _points(value: Fraction) -> str:
    return f"{decimal(value, 2)}\u00a0pt"


#: An online table's words: short, one decimal for a chance, two for points.
TABLE = Wording(
    chance=percent,
    points=_points,
    phrases={
        P_PUSH: "{value} de recul",
        EXPECTED_POINTS: "{value} espéré",
        P_SUCCESS: "{value} de réussite",
        WORTH: "valeur {value}",
        GAIN: "gain {value}",
    },
)


def value_text(option: OptionValue) -> str:
    """One option's value in French: ``47,6 % de recul``, ``0,83 pt espéré``…"""
    return value_words(option, TABLE)


class TableCoach:
    """The book's coach for :class:`akvo.online.service.TableService`."""

    def advise(self, state: MatchState, side: int) -> Advice | None:
        if state.phase == Phase.ORDERS:
            note = ASSUMPTIONS["no_exact_value"][1]
            return Advice(_ADVISER.orders(state, side), {}, french(note))
        if state.player != side:
            return None
        values = decision_values(state)
        texts = {option.action: value_text(option) for option in values}
        return Advice(values.suggestion, texts, french(values.assumption_fr))
