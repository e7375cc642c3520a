"""The coach's exact values (:func:`akvo.coach.decision_values`) as French button texts for
the guided pages: each value says whose it is (« pour A ») and a small one never rounds to
zero (« 0,0011 point », « < 0,1 % »)."""

from __future__ import annotations

import math
from fractions import Fraction

from akvo.coach import OptionValue
from akvo.coach.values import EXPECTED_POINTS, GAIN, P_PUSH, P_SUCCESS, WORTH
from akvo.match.board import SIDE_NAMES
from akvo_widgets.text.formatting import NBSP, decimal, exact_percent
from akvo_widgets.text.value_words import Wording, value_words

#: The most decimals a number of points gets; below it the page says « < 0,0001 ».
MOST_DIGITS = 4


def exact_points(value: Fraction) -> str:
    """Points in French with two significant digits at least (« 0,0011 »), never « 0,00 »
    for a value that is not zero."""
    if value == 0:
        return "0"
    size = abs(value)
    digits = max(2, min(MOST_DIGITS, 1 - math.floor(math.log10(size))))
    if size < Fraction(1, 10**MOST_DIGITS):
        return f"<{NBSP}0,{'0' * (MOST_DIGITS - 1)}1"
    return decimal(value, digits)


#: The guided pages' words: whole words (« point »), and the side each value is for.
GUIDED = Wording(
    chance=exact_percent,
    points=exact_points,
    phrases={
        P_PUSH: "{value} de recul {whose}",
        EXPECTED_POINTS: "{value}\u00a0point espéré {whose}",
        P_SUCCESS: "{value} de réussite{critical}",
        WORTH: "vaut {value}\u00a0point {whose}{each}",
        GAIN: "gain {value}\u00a0point {whose}",
    },
)


def value_phrase(option: OptionValue, shooter: int) -> str:
    """One option's value in French, naming the side it is for: the shooter's at a shot or
    rune, the deciding side's otherwise (``shooter`` is that side, 0 = A)."""
    return value_words(option, GUIDED, f"pour{NBSP}{SIDE_NAMES[shooter]}")
