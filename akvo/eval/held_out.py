"""What the lab page plots of the shipped evaluation: its learning curve and its reliability
curve on held-out positions.

The learning curve is the one ``akvo train`` stored in the weights' stamp (per epoch: train
and held-out log-loss, held-out accuracy). The reliability curve is :func:`calibration` of
the shipped evaluation's predictions against ``weights/held_out.npz``: 2,000 positions from
exploring greedy matches whose seeds training never used, each with the mean of 16 greedy
rollouts from it (the data of ``benchmarks/bench_eval.py``, ``benchmarks/results/eval.md``).
The predictions are recomputed from the weights, so that retrained weights are judged on
the same positions without shipping anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from akvo.eval.calibration import Calibration, calibration
from akvo.eval.features import FEATURE_VERSION, features
from akvo.eval.model import EvalError, Evaluation, default_evaluation

#: The held-out positions (raw observations, feature version 2) and their rollout means.
HELD_OUT: Final = Path(__file__).resolve().parent / "weights" / "held_out.npz"
#: The feature version the raw observations of :data:`HELD_OUT` were read with.
HELD_OUT_FEATURES: Final = 2


@dataclass(frozen=True, slots=True)
class Epoch:
    """One epoch of training: log-losses (a coin scores ln 2 ≈ 0.693) and held-out accuracy."""

    epoch: int
    train_log_loss: float
    held_log_loss: float
    held_accuracy: float


def learning_curve(evaluation: Evaluation | None = None) -> tuple[Epoch, ...]:
    """The learning curve stored with the weights (the shipped ones by default); an
    :class:`EvalError` when the weights carry none."""
    ev = evaluation if evaluation is not None else default_evaluation()
    rows = ev.weights.meta.get("curve")
    if not rows:
        raise EvalError("these weights carry no learning curve (trained outside akvo train?)")
    return tuple(
        Epoch(
            int(row["epoch"]),
            float(row["train_log_loss"]),
            float(row["held_log_loss"]),
            float(row["held_accuracy"]),
        )
        for row in rows
    )


def held_out_calibration(evaluation: Evaluation | None = None, bins: int = 10) -> Calibration:
    """The reliability curve of the evaluation (the shipped one by default) on the shipped
    held-out positions: A's predicted win chance against the mean of the rollouts."""
    ev = evaluation if evaluation is not None else default_evaluation()
    if ev.weights.feature_version != FEATURE_VERSION or FEATURE_VERSION != HELD_OUT_FEATURES:
        raise EvalError(
            f"the held-out positions were read for feature version {HELD_OUT_FEATURES}, "
            f"the evaluation uses {ev.weights.feature_version}: remake them with "
            "benchmarks/bench_eval.py --calibration-data"
        )
    with np.load(HELD_OUT, allow_pickle=False) as data:
        raw, observed = data["raw"], data["value"]
    logits = ev.forward(features(raw, 0, ev.rules).astype(np.float64))[:, 0]
    predicted = 1.0 / (1.0 + np.exp(-logits))
    return calibration(predicted, observed, bins)
