"""The « débutant » level: the evaluation with much noise (:mod:`akvo.bots.noisy`)."""

from __future__ import annotations

from typing import Final

from akvo.bots.registry import BotSpec, noisy_level

#: Softmax temperature, in win-chance units.
TEMPERATURE: Final = 0.08


SPEC = BotSpec(
    name="beginner",
    label="débutant",
    description="voit les bons coups mais se trompe souvent, surtout quand l’écart est mince",
    factory=noisy_level(TEMPERATURE),
    speed="fast",  # tens of ms a decision, more at an activation (bench_bots)
    rank=1,
)
