"""The short matches the coach's tests review, built in one place.

Both the review tests and the command-line tests need a match that is quick to review
(turn 8 of 10, few decisions) yet has real choices: chests in reach on both sides, a few
runes and Ultimes left. They differ only by the dice and the random side's seed, so one
function builds them (cached: each is played once per test session).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from akvo.bots import make_bot
from akvo.match import decisions
from akvo.match.streams import KeyedChance
from tests.match.helpers import bare


@cache
def short_match(dice: int = 3, random_seed: int = 2) -> dict[str, Any]:
    """The record of a match from turn 8: greedy A against random B (seed
    ``random_seed``), the dice from ``KeyedChance(dice)``. The defaults give the match
    most coach tests read; ``short_match(7, 7)`` has a « gaffe » and two « erreur » of B."""
    state = bare(
        keep={"A": "NIV", "B": "AF"},
        ultimes={"A": ["lanceur"], "B": ["plongeur"]},
        turn=8,
        rows={
            "A": {"pedalair": 5, "kitesurfeur": 5, "navire": 4, "surfeur": 3, "plongeur": 3},
            "B": {"pedalair": 6, "kitesurfeur": 6, "navire": 5, "surfeur": 4, "plongeur": 4},
        },
    )
    bots = (make_bot("greedy", 1), make_bot("random", random_seed))
    for _ in decisions(state, KeyedChance(dice), bots):
        pass
    return state.record()
