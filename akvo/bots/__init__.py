"""Bots that play Akvolition matches, chosen by name, seeded and reproducible.

A bot is a callable ``bot(state) -> action`` answering any decision node of
:class:`akvo.match.MatchState` with one of ``state.legal``::

    from akvo.bots import BOTS, make_bot
    from akvo.match import play_match

    bot_a, bot_b = make_bot("greedy", seed=1), make_bot("random", seed=2)
    state = play_match(7, bots=(bot_a, bot_b))

- ``"random"`` (« facile »): uniform among the legal actions, each draw keyed by the
  decision (:mod:`akvo.bots.uniform`);
- ``"greedy"`` (« normal »): the best immediate expected value, exact (:mod:`akvo.bots.greedy`);
- ``"search"`` (« fort »): looks ahead with Monte Carlo rollouts, never peeking at the other
  side's hidden orders (:mod:`akvo.bots.search`); ``make_bot("search", seed, budget=…)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from akvo.errors import AkvoError
from akvo.match.state import MatchState

Bot = Callable[[MatchState], str]

#: Bot names and their French labels (as the book shows them).
BOTS: dict[str, str] = {"random": "facile", "greedy": "normal", "search": "fort"}


class BotError(AkvoError):
    """An unknown bot name or a bad bot option."""


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot by name (see :data:`BOTS`); ``options`` go to its constructor
    (``budget`` for ``"search"``)."""
    if name == "random":
        if options:
            raise BotError(f"the random bot takes no options, got {sorted(options)}")
        from akvo.bots.uniform import UniformBot

        return UniformBot(seed)
    if name == "greedy":
        from akvo.bots.greedy import GreedyBot

        if options:
            raise BotError(f"the greedy bot takes no options, got {sorted(options)}")
        return GreedyBot(seed)
    if name == "search":
        from akvo.bots.search import SearchBot

        return SearchBot(seed, **options)
    raise BotError(f"unknown bot {name!r}; choose one of {', '.join(BOTS)}")


__all__ = ["BOTS", "Bot", "BotError", "make_bot"]
