"""The « facile » level: the evaluation with some noise (:mod:`akvo.bots.noisy`): at a
softmax temperature of 0.03 win-chance points, an option 3 points worse than the best is
played a third as often as the best, one 10 points worse about 3 % as often."""

from akvo.bots.registry import noisy_level

SPEC = noisy_level(
    "easy",
    "facile",
    2,
    0.03,
    "joue souvent le bon coup, se trompe parfois de peu, rarement de beaucoup",
)
