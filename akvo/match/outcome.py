"""A shot's outcome in three steps: compute it from the rolls, apply it to the board, and
describe it in French.

- :func:`compute_outcome` — the outcome key (:mod:`akvo.shots` names) from the two rolls:
  R16 (mage: miss, defended, defence critical, push 1 or 2), R17 (chest: miss, intercepted,
  interception critical, score 1 or 2).
- :func:`apply_outcome` — its consequences: the push (R11: the pushed mage's unit moves,
  that mage alone gains Résilience, capped at 3), the points, and whether Rouleau is offered.
- :func:`describe_outcome` — the log sentence, built only when the state keeps a log.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from akvo.match import geometry, log
from akvo.match.board import CHARS, CHEST, UNIT_OF_CHAR
from akvo.match.core import Roll, Shot, StateCore
from akvo.match.flow import add_event
from akvo.match.ultimes import rouleau_offered
from akvo.rules import MAX_RESILIENCE

PLAIN_POINTS, CRITICAL_POINTS = 1, 2  # R17
PLAIN_PUSH, CRITICAL_PUSH = 1, 2  # R16
COUNTER_PUSH: Final = 1  # a critical defence or interception pushes the shooter back 1 (R16, R17)


class Push(NamedTuple):
    """One push effect: who, how far it should go, how far it went, Résilience after."""

    side: int
    char: int
    cells: int
    moved: int
    resilience: int


def compute_outcome(shot: Shot) -> str:
    """The outcome key of a finished resolution (its rolls are in ``shot``)."""
    attack, defence = shot.attack, shot.defence
    assert attack is not None
    chest = shot.target == CHEST
    if not attack.success:
        return "miss"
    if defence is None or not defence.success:
        if chest:
            return f"score_{CRITICAL_POINTS if attack.critical else PLAIN_POINTS}"
        return f"push_{CRITICAL_PUSH if attack.critical else PLAIN_PUSH}"
    if defence.critical:
        return "interception_critical" if chest else "defence_critical"
    return "intercepted" if chest else "defended"


def push(s: StateCore, side: int, char: int, cells: int) -> Push:
    """R11: push a mage (its unit moves); the pushed mage alone gains Résilience."""
    moved = geometry.push(s.rows, side, UNIT_OF_CHAR[char], cells)
    return Push(side, char, cells, moved, gain_resilience(s, side, char))


def gain_resilience(s: StateCore, side: int, char: int) -> int:
    """R11: +1 per push effect, even when no cell could be moved; capped at 3."""
    index = side * CHARS + char
    if s.res[index] < MAX_RESILIENCE:
        s.res[index] += 1
    return s.res[index]


def apply_outcome(s: StateCore, shot: Shot, outcome: str) -> Push | None:
    """Points, pushes and the Rouleau offer of ``outcome``; returns the push, if any."""
    side = shot.side
    kind, _, amount = outcome.partition("_")
    if kind == "score":
        s.scores[side] += int(amount)
        return None
    if kind == "push":
        effect = push(s, 1 - side, shot.target, int(amount))
        shot.rouleau = rouleau_offered(s, shot, effect.moved)
        return effect
    if outcome in ("defence_critical", "interception_critical"):
        return push(s, side, shot.shooter, COUNTER_PUSH)
    return None


def resolve(s: StateCore, shot: Shot) -> None:
    """Compute, apply and (with a log) describe the outcome of the finished rolls."""
    outcome = compute_outcome(shot)
    effect = apply_outcome(s, shot, outcome)
    shot.outcome = outcome
    s.last_outcome = outcome
    if s.log:
        add_event(s, describe_outcome(shot, outcome, effect))


# --- the French sentence -------------------------------------------------------------------
def _versus(roll: Roll) -> str:
    return f"{roll.total} contre {roll.threshold}"


def describe_push(effect: Push) -> str:
    who = log.mage(effect.side, effect.char)
    if effect.moved == effect.cells:
        how = f"recule de {log.cells(effect.moved)}"
    elif effect.moved:
        how = f"recule de {log.cells(effect.moved)} sur {effect.cells} (bord du plan d'eau)"
    else:
        how = "ne peut pas reculer (bord du plan d'eau)"
    capped = " (max)" if effect.resilience == MAX_RESILIENCE else ""
    return f"{who} {how}, Résilience {effect.resilience}{capped}."


def describe_outcome(shot: Shot, outcome: str, effect: Push | None) -> str:
    side, shooter = shot.side, shot.shooter
    attack, defence = shot.attack, shot.defence
    assert attack is not None
    if shot.target == CHEST:
        what = f"le coffre du couloir {shooter + 1}"
    else:
        what = log.mage(1 - side, shot.target)
    text = (
        f"{log.mage(side, shooter)} tire sur {what} (distance {shot.distance}) : {_versus(attack)}"
    )
    if not attack.success:
        text += ", raté."
    else:
        text += ", critique !" if attack.critical else ", réussi."
    if attack.prodige:
        text += " Prodige !"
    if outcome == "miss":
        return text
    kind, _, amount = outcome.partition("_")
    if shot.target == CHEST:
        if kind == "score":
            if defence is None:
                text += " Interception impossible"
            else:
                text += f" Interception ratée ({_versus(defence)})"
            text += f" : {log.points(int(amount))}."
        else:
            assert defence is not None
            text += f" Interception réussie par {log.mage(1 - side, shooter)} ({_versus(defence)})"
            if effect is not None:
                text += ", critique : " + describe_push(effect)
            else:
                text += "."
    else:
        assert defence is not None
        text += f" Défense {_versus(defence)}"
        if outcome == "defence_critical":
            assert effect is not None
            text += ", critique : le tir est annulé et " + describe_push(effect)
        elif outcome == "defended":
            text += ", réussie : le tir est annulé."
        else:
            assert effect is not None
            text += ", ratée : " + describe_push(effect)
    if defence is not None and defence.prodige:
        text += " Prodige en défense !"
    return text
