"""The weather rule (R8), owned here: every place that draws, offers, forces or refills the
weather reads it through these functions.

``"bag"`` (default): 8 tokens, 4 favouring each side, drawn without replacement; when one
kind is left the draw is forced (no chance node); the bag is refilled whole for the two
tie-break turns. ``"coin"``: a fair coin each turn, and the bag's counts stay untouched.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Final

from akvo.config import RulesConfig
from akvo.match.actions import WEATHER_ACTIONS

TOKENS_PER_SIDE: Final = 4
#: The turns the bag's 8 tokens serve (1–8; the tie-break turns draw from a refilled bag).
REGULAR_TURNS: Final = 2 * TOKENS_PER_SIDE
HALF: Final = Fraction(1, 2)


def full_bag() -> list[int]:
    return [TOKENS_PER_SIDE, TOKENS_PER_SIDE]


def weather_outcomes(rules: RulesConfig, bag: list[int]) -> tuple[tuple[str, Fraction], ...]:
    """Each weather outcome with its exact probability."""
    if rules.weather == "coin":
        return ((WEATHER_ACTIONS[0], HALF), (WEATHER_ACTIONS[1], HALF))
    total = bag[0] + bag[1]
    return tuple(
        (WEATHER_ACTIONS[side], Fraction(bag[side], total)) for side in (0, 1) if bag[side]
    )


def sample_weather(rules: RulesConfig, bag: list[int], rng: random.Random) -> str:
    if rules.weather == "coin":
        return WEATHER_ACTIONS[0] if rng.random() < 0.5 else WEATHER_ACTIONS[1]
    return WEATHER_ACTIONS[0] if rng.randrange(bag[0] + bag[1]) < bag[0] else WEATHER_ACTIONS[1]


def forced_weather(rules: RulesConfig, bag: list[int]) -> int:
    """The side a draw must favour when the bag holds one kind of token, else -1."""
    if rules.weather == "bag" and (bag[0] == 0 or bag[1] == 0):
        return 0 if bag[0] else 1
    return -1


def draw_readings_part(rules: RulesConfig, bag: list[int], favoured_before: int, turn: int) -> bool:
    """R8's switch comes into play at a draw: from a bag whose two kinds are not even (so the
    draw is weighted, or forced); with the coin, a regular turn that favours a side beyond
    the bag's four tokens (``favoured_before``: the regular turns it was favoured so far)."""
    if rules.weather == "coin":
        return turn <= REGULAR_TURNS and favoured_before >= TOKENS_PER_SIDE
    return bag[0] != bag[1]


def weather_drawn(rules: RulesConfig, bag: list[int], favoured: int) -> None:
    if rules.weather == "bag":
        bag[favoured] -= 1


def weather_reshuffled(rules: RulesConfig, bag: list[int]) -> None:
    """R8: before the tie-break turns the bag is refilled whole."""
    if rules.weather == "bag":
        bag[:] = full_bag()


def bag_problem(rules: RulesConfig, bag: list[int], draws_left: int) -> str:
    """Why a bag cannot serve ``draws_left`` more turns (empty string if it can)."""
    if rules.weather != "bag":
        return ""
    if max(bag) > TOKENS_PER_SIDE or sum(bag) < draws_left:
        return (
            f"the weather bag (R8) holds at most {TOKENS_PER_SIDE} tokens of each side and "
            f"needs one per turn left before a reshuffle ({draws_left}), got {bag}"
        )
    return ""
