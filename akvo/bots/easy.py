"""The « facile » level: the evaluation with some noise (:mod:`akvo.bots.noisy`)."""

from __future__ import annotations

from typing import Final

from akvo.bots.registry import BotSpec, noisy_level

#: Softmax temperature, in win-chance units.
TEMPERATURE: Final = 0.03


SPEC = BotSpec(
    name="easy",
    label="facile",
    description="joue souvent le bon coup, se trompe parfois de peu, rarement de beaucoup",
    factory=noisy_level(TEMPERATURE),
    speed="fast",  # tens of ms a decision, more at an activation (bench_bots)
    rank=2,
)
