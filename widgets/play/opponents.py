"""The bots a page offers: whatever :mod:`akvo.bots` provides, else the engine's random bot.

``akvo.bots`` (``make_bot``, ``BOTS``) is looked up at run time so that the pages work with
any engine that has it and fall back to :class:`akvo.match.RandomBot` (« facile ») without.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from akvo.match import MatchState, RandomBot

Bot = Callable[[MatchState], str]
FALLBACK = {"random": "facile"}


def _bots_module() -> object | None:
    try:
        return importlib.import_module("akvo.bots")
    except ImportError:
        return None


def bot_choices() -> dict[str, str]:
    """Bot name → French label, in the engine's order."""
    module = _bots_module()
    offered = getattr(module, "BOTS", None)
    return dict(offered) if offered else dict(FALLBACK)


def default_bot() -> str:
    """The « normal » bot if the engine has one, else the first."""
    choices = bot_choices()
    return "greedy" if "greedy" in choices else next(iter(choices))


def make_opponent(name: str, seed: int | None = None) -> Bot:
    module = _bots_module()
    factory = getattr(module, "make_bot", None)
    if factory is not None:
        bot: Bot = factory(name, seed=seed)
        return bot
    if name not in FALLBACK:
        raise ValueError(f"unknown bot {name!r}; expected one of {sorted(FALLBACK)}")
    return RandomBot(seed)
