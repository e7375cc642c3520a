"""The arithmetic of one resolution's rolls, in one place (R12–R14, R16–R18, R20, R24).

Both the exact odds (:mod:`akvo.shots`) and the match engine (:mod:`akvo.match`) build
their rolls from these functions, so a rule of the dice is written once:

- how many dice each roll keeps after Confusion and Tourbillon (R14: at least one);
- the modifier of each roll (Attaque / Défense +2, Vigie / Égide +1, Résilience);
- the shot distance after Souffle portant (−2, at least 1);
- whether a set of dice is a prodige (R13, both variants);
- success and critical (the critical margin of R12).

The brute-force tests (``tests/brute_force.py``) and the independent property referee
(``tests/match/test_match_properties.py``) deliberately do *not* use this module: they
are the oracles that check it.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from akvo.rules import CRITICAL_MARGIN, DISTANCES, TIERS, thresholds

#: R15: which reroll a Relance makes — the one that maximises P(success) first, or
#: P(critical) first.
RelancePolicy = Literal["success", "critical"]
RELANCE_POLICIES: Final[tuple[RelancePolicy, ...]] = get_args(RelancePolicy)

DEFAULT_DICE: Final = 4  # R12: a roll is 4d6
MIN_DICE: Final = 1  # R14: a roll keeps at least one die
CONFUSION_PENALTY: Final = 1  # R20: the opponent's next roll loses one die
TOURBILLON_PENALTY: Final = 1  # R24: the Kitesurfeur's opponents lose one die
ATTAQUE_BONUS: Final = 2  # R20
DEFENSE_BONUS: Final = 2  # R20
VIGIE_BONUS: Final = 1  # R24: +1 to every allied attack roll
EGIDE_BONUS: Final = 1  # R24: +1 to every allied defence or interception roll
SOUFFLE_REDUCTION: Final = 2  # R24: Souffle portant shortens the shot by 2 cells, minimum 1
MIN_DISTANCE: Final = DISTANCES[0]
MAX_RANGE: Final = DISTANCES[-1]
MAX_SOUFFLE_DISTANCE: Final = MAX_RANGE + SOUFFLE_REDUCTION
TRIDENT_SHOTS: Final = 3  # R24: Trident gives the Plongeur up to three shots at mages
PRODIGE_DICE: Final = 4  # R13 (default "four"): four dice showing one face
#: The outcome of a shot on a mage (R16) and on a chest (R17), by key, in this order: miss,
#: the attack stopped, stopped by a critical (the shooter is pushed 1), a plain hit, a
#: critical hit.
MAGE_OUTCOMES: Final[tuple[str, ...]] = ("miss", "defended", "defence_critical", "push_1", "push_2")
CHEST_OUTCOMES: Final[tuple[str, ...]] = (
    "miss",
    "intercepted",
    "interception_critical",
    "score_1",
    "score_2",
)

#: ``THRESHOLDS[tier][distance]`` = (attack X, defence U): the matrix without argument checks,
#: for the engine's hot path (index 0 unused).


def _threshold_table() -> tuple[tuple[tuple[int, int], ...], ...]:
    table: list[tuple[tuple[int, int], ...]] = [()]
    for tier in TIERS:
        row = [(0, 0)] + [(t.attack, t.defence) for t in (thresholds(tier, d) for d in DISTANCES)]
        table.append(tuple(row))
    return tuple(table)


THRESHOLDS: Final = _threshold_table()
__all__ = [
    "ATTAQUE_BONUS",
    "CHEST_OUTCOMES",
    "CONFUSION_PENALTY",
    "CRITICAL_MARGIN",
    "DEFAULT_DICE",
    "DEFENSE_BONUS",
    "EGIDE_BONUS",
    "MAGE_OUTCOMES",
    "MAX_RANGE",
    "MAX_SOUFFLE_DISTANCE",
    "MIN_DICE",
    "RELANCE_POLICIES",
    "SOUFFLE_REDUCTION",
    "THRESHOLDS",
    "TOURBILLON_PENALTY",
    "TRIDENT_SHOTS",
    "VIGIE_BONUS",
    "RelancePolicy",
    "attack_dice",
    "attack_modifier",
    "defence_dice",
    "defence_modifier",
    "dice_after",
    "is_critical",
    "is_prodige",
    "prodige_possible",
    "souffle_distance",
]


def dice_after(opponent_confusion: bool, opponent_tourbillon: bool) -> int:
    """Dice of a roll: the opponent's Confusion and the opponent Kitesurfeur's Tourbillon
    each remove one (R14, R20, R24), down to one die."""
    dice = (
        DEFAULT_DICE
        - CONFUSION_PENALTY * opponent_confusion
        - TOURBILLON_PENALTY * opponent_tourbillon
    )
    return dice if dice > MIN_DICE else MIN_DICE


#: The attack roll: the defender's Confusion, a targeted Kitesurfeur's Tourbillon.
attack_dice = dice_after
#: The defence or interception roll: the attacker's Confusion, a shooting Kitesurfeur's
#: Tourbillon.
defence_dice = dice_after


def attack_modifier(attaque: bool, vigie: bool) -> int:
    """R20 Attaque +2, R24 Vigie +1."""
    return ATTAQUE_BONUS * attaque + VIGIE_BONUS * vigie


def defence_modifier(defense: bool, egide: bool, resilience: int) -> int:
    """R20 Défense +2, R24 Égide +1, R11 one per point of Résilience."""
    return DEFENSE_BONUS * defense + EGIDE_BONUS * egide + resilience


def souffle_distance(distance: int) -> int:
    """R24 Souffle portant: the shot's own distance − 2, at least 1."""
    reduced = distance - SOUFFLE_REDUCTION
    return reduced if reduced > MIN_DISTANCE else MIN_DISTANCE


def souffle_helps(distance: int) -> bool:
    """Souffle portant is offered where it shortens a shot into range (distances 2–6)."""
    return MIN_DISTANCE < distance <= MAX_SOUFFLE_DISTANCE


def prodige_possible(dice: int, rule: str) -> bool:
    """R13: only four dice can make a prodige (``"four"``), or any two or more (``"all"``)."""
    return dice == PRODIGE_DICE if rule == "four" else dice >= 2


def is_prodige(dice: list[int], rule: str) -> bool:
    """R13: every die shows the same face, on a roll that can make a prodige."""
    return prodige_possible(len(dice), rule) and dice.count(dice[0]) == len(dice)


def prodige_readings_part(dice: list[int]) -> bool:
    """R13's switch comes into play: 2 or 3 dice all equal, a prodige for ``"all"`` only."""
    return 2 <= len(dice) < PRODIGE_DICE and dice.count(dice[0]) == len(dice)


def is_success(total: int, threshold: int) -> bool:
    """A roll succeeds when its total (dice + modifier) reaches the threshold."""
    return total >= threshold


def is_critical(total: int, threshold: int) -> bool:
    """R12: a critical success beats the threshold by the critical margin."""
    return total >= threshold + CRITICAL_MARGIN
