"""Bots that play Akvolition matches, chosen by name, seeded and reproducible.

A bot is a callable ``bot(state) -> action`` answering any decision node of
:class:`akvo.match.MatchState` with one of ``state.legal``::

    from akvo.bots import BOTS, make_bot
    from akvo.match import play_match

    bot_a, bot_b = make_bot("greedy", seed=1), make_bot("expert", seed=2, budget=2)
    state = play_match(7, bots=(bot_a, bot_b))

Each bot declares itself in its own module (:mod:`akvo.bots.registry`): its name, French
label, options, speed class and rank on the ladder. The ladder, weakest first: « débutant »
and « facile » (the evaluation with noise, :mod:`akvo.bots.noisy`), « normal » (``greedy``:
the best immediate exact value), « fort » (``search``: Monte Carlo over the orders), « expert »
(regret matching over the orders, exact lookahead elsewhere, :mod:`akvo.bots.expert`). The
uniform random bot (``random``, « hasard ») is outside the ladder.
"""

from __future__ import annotations

from typing import Any, Final

from akvo.bots.registry import Bot, BotError, BotSpec, load_registry
from akvo.errors import require_choice, require_seed

#: Every bot, by engine name, from the registry.
REGISTRY: Final[dict[str, BotSpec]] = load_registry()
#: Bot names and their French labels (as the book shows them).
BOTS: Final[dict[str, str]] = {name: spec.label for name, spec in REGISTRY.items()}
#: The ladder's levels, weakest first.
LADDER: Final[tuple[str, ...]] = tuple(
    spec.name
    for spec in sorted(REGISTRY.values(), key=lambda s: s.rank if s.rank is not None else 0)
    if spec.rank is not None
)


def bot_spec(name: object) -> BotSpec:
    """The registry's entry of a bot (its engine name or its French label)."""
    if isinstance(name, str) and name not in REGISTRY:
        by_label = {spec.label: spec for spec in REGISTRY.values()}
        if name in by_label:
            return by_label[name]
    return REGISTRY[require_choice("bot", name, REGISTRY, BotError)]


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot by name (see :data:`BOTS`); ``options`` are those its registry entry
    accepts (``budget`` for ``"search"`` and ``"expert"``), an unknown one is refused.
    ``seed``: an integer, or ``None`` for a random one."""
    spec = REGISTRY[require_choice("bot", name, REGISTRY, BotError)]
    return spec.make(require_seed("seed", seed, BotError), **options)


def options_for(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options of ``name`` among a run's options given for several bots: the plain
    ones it accepts, and those qualified by its name (``"search.budget"``), which win."""
    accepted = REGISTRY[name].option_names
    plain = {key: value for key, value in options.items() if key in accepted}
    prefix = f"{name}."
    own = {key[len(prefix) :]: value for key, value in options.items() if key.startswith(prefix)}
    return {**plain, **own}


__all__ = ["BOTS", "LADDER", "REGISTRY", "Bot", "BotError", "BotSpec", "bot_spec", "make_bot"]
