"""The « débutant » level: the evaluation with much noise (:mod:`akvo.bots.noisy`)."""

from __future__ import annotations

from typing import Final

from akvo.bots.registry import Bot, BotSpec

#: Softmax temperature, in win-chance units.
TEMPERATURE: Final = 0.08


def _beginner(seed: int | None) -> Bot:
    from akvo.bots.noisy import NoisyBot

    return NoisyBot(seed, TEMPERATURE)


SPEC = BotSpec(
    name="beginner",
    label="débutant",
    description="voit les bons coups mais se trompe souvent, surtout quand l’écart est mince",
    factory=_beginner,
    speed="fast",  # tens of ms a decision, more at an activation (bench_bots)
    rank=1,
)
