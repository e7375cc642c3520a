"""The « facile » level: the evaluation with some noise (:mod:`akvo.bots.noisy`)."""

from __future__ import annotations

from typing import Final

from akvo.bots.registry import Bot, BotSpec

#: Softmax temperature, in win-chance units.
TEMPERATURE: Final = 0.03


def _easy(seed: int | None) -> Bot:
    from akvo.bots.noisy import NoisyBot

    return NoisyBot(seed, TEMPERATURE)


SPEC = BotSpec(
    name="easy",
    label="facile",
    description="joue souvent le bon coup, se trompe parfois de peu, rarement de beaucoup",
    factory=_easy,
    speed="fast",  # tens of ms a decision, more at an activation (bench_bots)
    rank=2,
)
