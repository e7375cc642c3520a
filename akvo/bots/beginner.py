"""The « débutant » level: the evaluation with much noise (:mod:`akvo.bots.noisy`). At a
softmax temperature of 0.08 win-chance points it plays an option 5 points worse than the best
54 % as often as the best, one 10 points worse 29 %, one 30 points worse 2 %: it errs often,
almost always by little. Over 500 decisions of greedy matches it takes a loss of 10 points or
more on 11 % of the decisions that offer one (« facile » 1 %, a uniform choice 40 %; at 0.3 it
was 30 %, near uniform), and it stands about 150 Elo below « facile »
(``benchmarks/results/noise.md``, ``benchmarks/results/ladder.md``)."""

from akvo.bots.registry import noisy_level

DESCRIPTION = "voit les bons coups mais se trompe souvent, presque toujours de peu"
SPEC = noisy_level("beginner", "débutant", 1, temperature=0.08, description=DESCRIPTION)
