"""The « facile » bot: uniform among the legal actions, its draw keyed by the decision.

A generator drawn in sequence pairs two readings of a rule only until their first different
decision: one extra choice shifts every later one. This bot draws each choice from a stream
keyed by its seed and the decision's identity (:func:`akvo.match.streams.decision_key`), as
:class:`~akvo.match.streams.KeyedChance` draws the dice: the same decision in two readings
sees the same number.
"""

from __future__ import annotations

import random

from akvo.match.state import MatchState
from akvo.match.streams import KeyedChance, decision_key


class UniformBot:
    """Picks uniformly among the legal actions; seeded (``None``: a fresh random seed)."""

    __slots__ = ("chance",)

    def __init__(self, seed: int | None = None) -> None:
        self.chance = KeyedChance(random.getrandbits(64) if seed is None else seed)

    def __call__(self, state: MatchState) -> str:
        legal = state.legal
        return legal[int(self.chance.decision_uniform(decision_key(state)) * len(legal))]
