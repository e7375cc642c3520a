"""The « normal » level: the greedy bot (:mod:`akvo.bots.greedy`), the best immediate exact
value at each decision. Declared here because the greedy module is compiled by mypyc."""

from __future__ import annotations

from akvo.bots.registry import Bot, BotSpec


def _greedy(seed: int | None) -> Bot:
    from akvo.bots.greedy import GreedyBot

    return GreedyBot(seed)


SPEC = BotSpec("greedy", "normal", "prend le meilleur gain immédiat", _greedy, rank=3)
