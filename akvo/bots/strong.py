"""The « fort » level: Monte Carlo search over the orders with greedy rollouts
(:mod:`akvo.bots.search`). Declared here because the search module is compiled by mypyc."""

from __future__ import annotations

from akvo.bots.registry import Bot, BotOption, BotSpec, int_at_least, positive_int


def _search(seed: int | None, **options: object) -> Bot:
    from akvo.bots.search import SearchBot

    return SearchBot(seed, **options)


SPEC = BotSpec(
    name="search",
    label="fort",
    description="essaie ses ordres sur des parties simulées avant de choisir",
    factory=_search,
    options=(
        BotOption(
            "budget",
            "rollouts per candidate orders (default 4)",
            positive_int("budget", "rollouts"),
        ),
        BotOption(
            "horizon",
            "turns looked ahead (default 1; None: to the end)",
            int_at_least("horizon", 0, none_ok=True),
        ),
    ),
    speed="fast",
    rank=4,
    ladder_options={"budget": 8},
)
