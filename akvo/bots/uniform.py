"""The uniform random bot (« hasard », outside the ladder): its registry entry. The bot
itself, :class:`~akvo.match.bots.UniformBot` (uniform among the legal actions, each draw
keyed by the decision), lives with the engine's match loop, which plays random matches
without the registry.
"""

from __future__ import annotations

from akvo.bots.registry import BotSpec
from akvo.match.bots import UniformBot

__all__ = ["SPEC", "UniformBot"]

SPEC = BotSpec(
    name="random",
    label="hasard",
    description="joue au hasard parmi les coups permis (pour les tests et le labo)",
    factory=UniformBot,
    speed="instant",
    rank=None,
)
