"""Dice chance nodes with exact probabilities (R12), and fast seeded sampling.

The weather draw (R8) is :mod:`akvo.match.weather`.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import cache
from typing import Final

from akvo.match.actions import DIE_ACTIONS
from akvo.resolution import DEFAULT_DICE

SIXTH: Final = Fraction(1, 6)


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


#: ``roll 3516`` → (3, 5, 1, 6) for every roll of 1–4 dice (the counts a roll can have).
ROLL_FACES: dict[str, tuple[int, ...]] = {
    "roll " + "".join(map(str, faces)): faces
    for dice in range(1, DEFAULT_DICE + 1)
    for faces in itertools.product(range(1, 7), repeat=dice)
}


#: ``ROLLS[dice][index]`` = (``roll 3516``, (3, 5, 1, 6)): every roll of 1–4 dice, indexed by
#: its faces read as a base-6 number (first die most significant), for sampling by index.
ROLLS: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...] = (
    (),
    *(
        tuple(
            ("roll " + "".join(map(str, faces)), faces)
            for faces in itertools.product(range(1, 7), repeat=dice)
        )
        for dice in range(1, DEFAULT_DICE + 1)
    ),
)


def sample_roll_entry(rng: random.Random, dice: int) -> tuple[str, tuple[int, ...]]:
    """A roll of ``dice`` d6 (one ``rng.random()`` per die, first die first) as
    (``roll 3516``, faces), looked up rather than built."""
    rand = rng.random
    if dice == 4:
        return ROLLS[4][
            int(rand() * 6) * 216 + int(rand() * 6) * 36 + int(rand() * 6) * 6 + int(rand() * 6)
        ]
    index = 0
    for _ in range(dice):
        index = index * 6 + int(rand() * 6)
    return ROLLS[dice][index]


def sample_roll(rng: random.Random, dice: int) -> str:
    return sample_roll_entry(rng, dice)[0]


def parse_roll(action: str, dice: int) -> list[int] | None:
    """The faces of ``roll 3516`` if it is a valid roll of ``dice`` dice, else ``None``."""
    if not isinstance(action, str) or not action.startswith("roll ") or len(action) != 5 + dice:
        return None
    known = ROLL_FACES.get(action)
    if known is not None:
        return list(known)
    faces = action[5:]
    if not all("1" <= c <= "6" for c in faces):
        return None
    return [ord(c) - 48 for c in faces]
