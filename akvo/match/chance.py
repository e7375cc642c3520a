"""Chance nodes with exact probabilities (R8 weather, R12 dice), and fast seeded sampling."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache

from akvo.match.actions import DIE_ACTIONS, WEATHER_ACTIONS

SIXTH = Fraction(1, 6)


@cache
def roll_outcomes(dice: int) -> tuple[tuple[str, Fraction], ...]:
    """Every ordered roll of ``dice`` d6 as ``roll 3516``, each with probability 6^-n."""
    p = Fraction(1, 6**dice)
    return tuple(
        ("roll " + "".join(map(str, faces)), p)
        for faces in itertools.product(range(1, 7), repeat=dice)
    )


def die_outcomes() -> tuple[tuple[str, Fraction], ...]:
    return tuple((action, SIXTH) for action in DIE_ACTIONS)


def weather_outcomes(rule: str, bag: list[int]) -> tuple[tuple[str, Fraction], ...]:
    """R8: a bag drawn without replacement, or a fair coin."""
    if rule == "coin":
        return ((WEATHER_ACTIONS[0], Fraction(1, 2)), (WEATHER_ACTIONS[1], Fraction(1, 2)))
    total = bag[0] + bag[1]
    return tuple(
        (WEATHER_ACTIONS[side], Fraction(bag[side], total)) for side in (0, 1) if bag[side]
    )


def sample_roll(rng: random.Random, dice: int) -> str:
    rand = rng.random
    return "roll " + "".join([str(int(rand() * 6) + 1) for _ in range(dice)])


def parse_roll(action: str, dice: int) -> list[int] | None:
    """The faces of ``roll 3516`` if it is a valid roll of ``dice`` dice, else ``None``."""
    if not isinstance(action, str) or not action.startswith("roll ") or len(action) != 5 + dice:
        return None
    faces = action[5:]
    if not all("1" <= c <= "6" for c in faces):
        return None
    return [ord(c) - 48 for c in faces]
