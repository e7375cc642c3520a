"""An independent path to a shot's exact value, shared by the play tests: the target's
preview at the decision before, and :func:`akvo.shots.shot` with sides built here (the
widgets compute the same number another way)."""

from __future__ import annotations

from fractions import Fraction

from akvo.match import MatchState
from akvo.match.preview import unit_preview
from akvo.shots import Side, shot


def attack_value(
    previous: MatchState, state: MatchState, target: str, rune: str | None
) -> Fraction:
    """Value of the shot ``target`` chosen at ``previous`` (a target decision), now under way
    in ``state``, with the attack ``rune`` (or none) and no defence rune."""
    current = state.shot
    assert current is not None
    (preview,) = [
        t
        for t in unit_preview(previous, current.side, current.shooter).targets
        if t.action == target
    ]
    odds = preview.odds
    defence = Side(resilience=previous.resilience(1 - current.side, current.defender))
    return shot(
        odds.kind,
        odds.tier,
        odds.distance,
        odds.interception_distance,
        Side(rune),
        defence,
        rules=state.rules,
    ).value
