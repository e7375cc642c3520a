"""What each rules variant of :class:`~akvo.config.RulesConfig` changes, in exact numbers.

The rulings page of the book switches each variant and shows these numbers; every one is
computed by the engine's own rule (R8 weather draws, R13 prodiges in :mod:`akvo.dice`, R19
categories in :mod:`akvo.rules`, R22 in :mod:`akvo.match.showcase`), never re-implemented.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.match.actions import WEATHER_ACTIONS
from akvo.match.weather import weather_outcomes
from akvo.rules import TURNS, Character, RuneCategory
from akvo.shots import RuneChoice, Side, shot_on_mage
from akvo.teams import Team

#: Each variant field, the ruling that names it and its two readings (default first).
VARIANT_RULINGS: Mapping[str, str] = MappingProxyType(
    {
        "weather": "R8",
        "prodige": "R13",
        "grimoire": "R19",
        "rune_u": "R22",
        "mouvement_rune": "R18",
        "ship_advance_runes": "R20",
    }
)
#: The weather bag of R8: 4 tokens favouring each side, drawn for turns 1–8.
WEATHER_BAG = (4, 4)

_ATTACK_RUNES: Mapping[RuneCategory, RuneChoice] = MappingProxyType(
    {
        RuneCategory.ATTAQUE: "attaque",
        RuneCategory.CONFUSION: "confusion",
        RuneCategory.RELANCE: "relance",
    }
)


def weather_favoured_turns(rules: RulesConfig = DEFAULT_RULES) -> Mapping[int, Fraction]:
    """Number of regular turns (1–8) in which side A is favoured → probability (R8)."""
    states: dict[tuple[int, tuple[int, int]], Fraction] = {(0, WEATHER_BAG): Fraction(1)}
    for _ in TURNS:
        following: dict[tuple[int, tuple[int, int]], Fraction] = {}
        for (count, bag), p in states.items():
            for action, q in weather_outcomes(rules, list(bag)):
                side = WEATHER_ACTIONS.index(action)
                left = (bag[0] - (side == 0), bag[1] - (side == 1))
                key = (count + (side == 0), left if rules.weather == "bag" else bag)
                following[key] = following.get(key, Fraction(0)) + p * q
        states = following
    out: dict[int, Fraction] = {}
    for (count, _), p in states.items():
        out[count] = out.get(count, Fraction(0)) + p
    return MappingProxyType(dict(sorted(out.items())))


def best_own_attack(
    team: Team, character: Character, tier: int, distance: int, rules: RulesConfig = DEFAULT_RULES
) -> tuple[RuneCategory | None, Fraction]:
    """The character's best own rune for a shot on a mage (R20, R21) and its P(push).

    Only the character's four runes count (not the bonus ones); ``None`` means none of
    them helps an attack. The categories follow the R19 reading in ``rules``.
    """
    best: tuple[RuneCategory | None, Fraction] = (
        None,
        shot_on_mage(tier, distance, rules=rules).p_push,
    )
    for rune in team.runes_of(character, rules):
        choice = _ATTACK_RUNES.get(rune.category)
        if choice is None:
            continue
        p = shot_on_mage(tier, distance, Side(rune=choice), rules=rules).p_push
        if p > best[1]:
            best = (rune.category, p)
    return best
