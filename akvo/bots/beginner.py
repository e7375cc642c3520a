"""The « débutant » level: the evaluation with much noise (:mod:`akvo.bots.noisy`). At a
softmax temperature of 0.3 win-chance points it plays an option 5 points worse than the best
85 % as often as the best, one 30 points worse 37 % as often: it blunders far more than
« facile » (0.03) yet still prefers good moves (at 0.08 it stood only about 100 Elo below
« facile », benchmarks/results/ladder.md)."""

from akvo.bots.registry import noisy_level

DESCRIPTION = "voit les bons coups mais se trompe souvent, parfois de beaucoup"
SPEC = noisy_level("beginner", "débutant", 1, temperature=0.3, description=DESCRIPTION)
