"""A learned evaluation of Akvolition positions: win chances and expected score differences.

    from akvo.eval import default_evaluation
    ev = default_evaluation()                  # the shipped weights, default rules
    ev.win_chance(state, "A")                  # P(A wins) + ½ P(draw), from A's view only
    ev.win_chances(states, "B")                # a batch (the fast path: search leaves)
    ev.score_diff(state, "A")                  # expected final score A − B

Only what the judged side may see is read: never the other side's unrevealed orders
(:mod:`akvo.eval.features`). The model is :mod:`akvo.eval.model`; how it is trained, and
how to train weights for a rules variant, :mod:`akvo.eval.train`.
"""

from __future__ import annotations

from akvo.eval.calibration import Calibration, calibration
from akvo.eval.features import FEATURE_NAMES, FEATURE_SIZE, FEATURE_VERSION
from akvo.eval.model import (
    DEFAULT_WEIGHTS,
    EvalError,
    Evaluation,
    Weights,
    default_evaluation,
    rules_hash,
    rules_stamp,
    weights_path,
)

__all__ = [
    "DEFAULT_WEIGHTS",
    "FEATURE_NAMES",
    "FEATURE_SIZE",
    "FEATURE_VERSION",
    "Calibration",
    "EvalError",
    "Evaluation",
    "Weights",
    "calibration",
    "default_evaluation",
    "rules_hash",
    "rules_stamp",
    "weights_path",
]
