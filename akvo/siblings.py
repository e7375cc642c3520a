"""Exact dice odds of Akvolition's two sibling games, on the same primitives as the engine.

*Vague Attaque* (its rulebook, « Règles du jeu »):

- a duel for a Souvenir: each player rolls one die, the higher wins, a tie has no effect;
- a duel for a Lieu: "le duel se joue en 3 lancers. Il faut faire deux fois le meilleur
  score pour gagner". Reading ``"sans-suite"`` (default): three one-die throws, a tied
  throw counts for nobody, whoever wins two throws wins, and if nobody does the duel ends
  like a tie, without effect (the rules' "En cas d'égalité : le duel est sans
  conséquence"). Reading ``"rejouer"``: a tied throw is thrown again, so someone always
  wins two throws;
- the solo mode's pirate ship rolls one die after each of the player's turns; its six
  faces are printed as six lines whose symbols are lost in the text: we read them as the
  faces 1–6 in that order, one effect each; the last one makes the ship skip its next turn.

*Akeruption* (its « Aide de jeu »): a wall's resistance test rolls
a lava die against a wall die + 0 (straw), +1 (wood) or +2 (stone); a tie goes to the lava,
and when the lava wins the wall is destroyed.

Every probability is an exact :class:`~fractions.Fraction`; bad input raises
:class:`SiblingError`, an :class:`~akvo.errors.AkvoError`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Literal, get_args

from akvo.dice import sum_distribution
from akvo.errors import AkvoError, require_int


class SiblingError(AkvoError):
    """A sibling-game calculation asked for something the rules do not define."""


LieuReading = Literal["sans-suite", "rejouer"]
LIEU_READINGS: tuple[LieuReading, ...] = get_args(LieuReading)
LIEU_THROWS = 3
LIEU_WINS_NEEDED = 2

Material = Literal["paille", "bois", "pierre"]
#: Akeruption: the wall die's bonus per material.
WALL_BONUS: Mapping[Material, int] = MappingProxyType({"paille": 0, "bois": 1, "pierre": 2})
MATERIALS: tuple[Material, ...] = tuple(WALL_BONUS)  # type: ignore[assignment]

ShipEffect = Literal["perte-exploration", "rien", "perte-main", "perte-lieu", "repos"]
#: The pirate ship's die, face 1–6 in the printed order (our reading, see the docstring).
SHIP_FACES: tuple[ShipEffect, ...] = (
    "perte-exploration",
    "rien",
    "perte-main",
    "rien",
    "perte-lieu",
    "repos",
)
SHIP_EFFECTS: tuple[ShipEffect, ...] = get_args(ShipEffect)
#: Faces that cost the player a card of their own (exploration zone or hand).
PLAYER_LOSSES: frozenset[ShipEffect] = frozenset({"perte-exploration", "perte-main"})
MAX_SHIP_TURNS = 30


def _die() -> dict[int, Fraction]:
    """One fair d6, from the engine's dice primitive."""
    return sum_distribution(1)


@dataclass(frozen=True, slots=True)
class DuelOdds:
    """Outcome of one duel for the attacker: ``win``, ``tie`` (no effect), ``lose``."""

    win: Fraction
    tie: Fraction
    lose: Fraction


def souvenir_duel() -> DuelOdds:
    """One die each, the higher wins; a tie is without consequence."""
    win = tie = lose = Fraction(0)
    for (a, pa), (d, pd) in itertools.product(_die().items(), repeat=2):
        p = pa * pd
        if a > d:
            win += p
        elif a == d:
            tie += p
        else:
            lose += p
    return DuelOdds(win, tie, lose)


def lieu_duel(reading: LieuReading = "sans-suite") -> DuelOdds:
    """Three throws of the Souvenir duel; two throws won win the Lieu (see the readings)."""
    if reading not in LIEU_READINGS:
        raise SiblingError(f"unknown reading {reading!r} of the Lieu duel; choose {LIEU_READINGS}")
    throw = souvenir_duel()
    if reading == "rejouer":
        # Ties are thrown again: each decisive throw is won with w / (w + l).
        p = throw.win / (throw.win + throw.lose)
        win = _at_least_two_of_three(p)
        return DuelOdds(win, Fraction(0), 1 - win)
    win = lose = Fraction(0)
    per_throw = (("win", throw.win), ("tie", throw.tie), ("lose", throw.lose))
    for results in itertools.product(per_throw, repeat=LIEU_THROWS):
        p = results[0][1] * results[1][1] * results[2][1]
        names = [name for name, _ in results]
        if names.count("win") >= LIEU_WINS_NEEDED:
            win += p
        elif names.count("lose") >= LIEU_WINS_NEEDED:
            lose += p
    return DuelOdds(win, 1 - win - lose, lose)


def _at_least_two_of_three(p: Fraction) -> Fraction:
    return p**3 + 3 * p**2 * (1 - p)


def pirate_ship_die() -> Mapping[ShipEffect, Fraction]:
    """Effect → probability of one roll of the pirate ship's die."""
    odds = dict.fromkeys(SHIP_EFFECTS, Fraction(0))
    for face, p in _die().items():
        odds[SHIP_FACES[face - 1]] += p
    return MappingProxyType(odds)


@dataclass(frozen=True, slots=True)
class ShipForecast:
    """The pirate ship over the player's next ``turns`` turns (solo mode).

    ``plays[k]``: P(the ship rolls after the player's turn k + 1) — a "repos" face makes it
    skip the next one. ``expected``: effect → expected number of times it happens.
    ``losses``: number of the player's own cards discarded (exploration zone or hand) →
    probability.
    """

    turns: int
    plays: tuple[Fraction, ...]
    expected: Mapping[ShipEffect, Fraction]
    losses: Mapping[int, Fraction]


def pirate_ship_forecast(turns: int) -> ShipForecast:
    """Exact forecast of the ship's die over ``turns`` (1–30) of the player's turns."""
    turns = require_int("turns", turns, SiblingError)
    if not 1 <= turns <= MAX_SHIP_TURNS:
        raise SiblingError(f"turns {turns} is outside 1–{MAX_SHIP_TURNS}")
    die = pirate_ship_die()
    p_loss = sum((die[e] for e in PLAYER_LOSSES), Fraction(0))
    p_rest = die["repos"]
    # State: (the ship skips this turn?, cards lost so far) → probability.
    states: dict[tuple[bool, int], Fraction] = {(False, 0): Fraction(1)}
    plays: list[Fraction] = []
    for _ in range(turns):
        plays.append(sum((p for (skip, _), p in states.items() if not skip), Fraction(0)))
        following: dict[tuple[bool, int], Fraction] = {}
        for (skip, lost), p in states.items():
            branches = (
                [((False, lost), Fraction(1))]
                if skip
                else [
                    ((False, lost + 1), p_loss),
                    ((True, lost), p_rest),
                    ((False, lost), 1 - p_loss - p_rest),
                ]
            )
            for key, q in branches:
                following[key] = following.get(key, Fraction(0)) + p * q
        states = following
    losses: dict[int, Fraction] = {}
    for (_, lost), p in states.items():
        losses[lost] = losses.get(lost, Fraction(0)) + p
    played = sum(plays, Fraction(0))
    expected = {effect: played * die[effect] for effect in SHIP_EFFECTS}
    return ShipForecast(
        turns,
        tuple(plays),
        MappingProxyType(expected),
        MappingProxyType(dict(sorted(losses.items()))),
    )


@dataclass(frozen=True, slots=True)
class WallOdds:
    """One Akeruption resistance test: P(the wall ``holds``) and P(it is ``destroyed``)."""

    material: Material
    holds: Fraction
    destroyed: Fraction


def _check_material(material: object) -> Material:
    if material not in WALL_BONUS:
        raise SiblingError(f"unknown wall material {material!r}; choose one of {MATERIALS}")
    return material  # type: ignore[return-value]


def wall_test(material: Material) -> WallOdds:
    """Lava die against wall die + bonus; a tie goes to the lava (the wall is destroyed)."""
    bonus = WALL_BONUS[_check_material(material)]
    holds = Fraction(0)
    for (lava, pl), (wall, pw) in itertools.product(_die().items(), repeat=2):
        if wall + bonus > lava:
            holds += pl * pw
    return WallOdds(material, holds, 1 - holds)


def wall_survival(material: Material, tests: int) -> Fraction:
    """P(a wall is still standing after ``tests`` (0–30) resistance tests in a row."""
    tests = require_int("tests", tests, SiblingError)
    if not 0 <= tests <= MAX_SHIP_TURNS:
        raise SiblingError(f"tests {tests} is outside 0–{MAX_SHIP_TURNS}")
    return wall_test(material).holds ** tests


def expected_tests_survived(material: Material) -> Fraction:
    """Mean number of tests a new wall survives before the lava wins one (geometric law)."""
    odds = wall_test(material)
    return odds.holds / odds.destroyed
