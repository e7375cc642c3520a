"""The uniform random bot (« hasard », outside the ladder): uniform among the legal
actions, its draw keyed by the decision.

A generator drawn in sequence pairs two readings of a rule only until their first different
decision: one extra choice shifts every later one. This bot draws each choice from a stream
keyed by its seed and the decision's identity (:func:`akvo.match.streams.decision_key`), as
:class:`~akvo.match.streams.KeyedChance` draws the dice: the same decision in two readings
sees the same number.
"""

from __future__ import annotations

import random

from akvo.bots.registry import BotSpec
from akvo.errors import MatchError, require_seed
from akvo.match.state import MatchState
from akvo.match.streams import KeyedChance, decision_key


class UniformBot:
    """Picks uniformly among the legal actions; seeded (``None``: a fresh random seed)."""

    __slots__ = ("chance",)

    def __init__(self, seed: object = None) -> None:
        """``seed``: an integer or None (typed ``object``: checked here, see akvo.compiled)."""
        checked = require_seed("seed", seed, MatchError)
        self.chance = KeyedChance(random.getrandbits(64) if checked is None else checked)

    def __call__(self, state: MatchState) -> str:
        legal = state.legal
        return legal[int(self.chance.decision_uniform(decision_key(state)) * len(legal))]


SPEC = BotSpec(
    name="random",
    label="hasard",
    description="joue au hasard parmi les coups permis (pour les tests et le labo)",
    factory=UniformBot,
    speed="instant",
    rank=None,
)
