"""The evaluation the bots judge positions with: the learned one (:mod:`akvo.eval`) when
weights fit the match's rules, else a plain heuristic, said once as a warning.

Every judging bot reads positions through :func:`evaluation_for`, so a variant without
trained weights still plays (more weakly) instead of failing mid-match.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from functools import cache
from typing import Protocol

from akvo.config import RulesConfig
from akvo.match.state import MatchState

#: Win-chance logistic slope per point of the heuristic's score (difference + threats).
HEURISTIC_SLOPE = 0.35


class Judge(Protocol):
    """What a bot needs of an evaluation (:class:`akvo.eval.Evaluation` has it)."""

    def win_chances(self, states: Sequence[MatchState], side: int) -> object: ...


class HeuristicJudge:
    """P(win) as a logistic of the score difference plus half of each side's chest threat
    (the « fort » bot's cut-off score): the fallback where no learned weights fit."""

    def win_chances(self, states: Sequence[MatchState], side: int) -> list[float]:
        from akvo.bots.search import evaluate

        out = []
        for state in states:
            if state.winner >= 0:
                out.append(0.5 if state.winner == 2 else float(state.winner == side))
            else:
                out.append(1 / (1 + math.exp(-10 * HEURISTIC_SLOPE * evaluate(state, side))))
        return out


@cache
def evaluation_for(rules: RulesConfig) -> Judge:
    """The learned evaluation of ``rules``, or :class:`HeuristicJudge` (with a warning)."""
    try:
        from akvo.eval import EvalError, default_evaluation
    except ImportError:  # pragma: no cover - akvo.eval ships with akvo
        return HeuristicJudge()
    try:
        return default_evaluation(rules)
    except EvalError as error:
        warnings.warn(
            f"bots: no learned evaluation for these rules ({error}); they judge positions "
            "by a plain heuristic (score and chest threats) instead",
            stacklevel=2,
        )
        return HeuristicJudge()
