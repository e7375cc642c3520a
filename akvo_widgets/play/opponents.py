"""The bots a page offers: whatever :mod:`akvo.bots` provides, by name."""

from __future__ import annotations

from akvo.bots import BOTS, Bot, make_bot

__all__ = ["Bot", "bot_choices", "default_bot", "make_opponent"]


def bot_choices() -> dict[str, str]:
    """Bot name → French label, in the engine's order."""
    return dict(BOTS)


def default_bot() -> str:
    """The « normal » bot (greedy), the one a newcomer should meet first."""
    return "greedy" if "greedy" in BOTS else next(iter(BOTS))


def make_opponent(name: str, seed: int | None = None) -> Bot:
    return make_bot(name, seed=seed)
