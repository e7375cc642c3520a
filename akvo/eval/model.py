"""The evaluation itself: a small antisymmetric network over :mod:`akvo.eval.features`.

``z(x) = tanh(x W1 + b1) W2`` on the viewer's features ``x``; the output is
``z(x) - z(swap(x))`` (``swap``: the two side blocks exchanged). The first output is the
logit of the viewer's win chance (a win 1, a draw ½), the second the expected final score
difference in :data:`SCORE_SCALE` points. Built that way the evaluation is exactly
antisymmetric: ``win_chance(s, A) + win_chance(s, B) == 1`` and
``score_diff(s, A) == -score_diff(s, B)``, whatever the weights. A finished match is not
estimated: its value is the result.

A weights file (``.npz``, no pickles) holds the arrays and its stamp: the feature version
and the rules configuration it was trained for (:func:`rules_stamp`); loading it for other
rules or another feature version raises :class:`EvalError`, so that a caller can fall back
to rollouts and say so.

Speed (benchmarks/results/eval.md): a call costs ~0.25 ms plus ~10 µs per position, so
batch the leaves of a search. The network is two small matrix products: on a busy machine
OpenBLAS's threads only get in the way, so a process that evaluates all the time should run
with ``OPENBLAS_NUM_THREADS=1`` (Dask's workers do by default).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import AkvoError
from akvo.eval.features import (
    FEATURE_SIZE,
    FEATURE_VERSION,
    SCORES,
    WINNER,
    FloatArray,
    features,
    raw,
    raw_batch,
    swap_sides,
)
from akvo.match.names import side_index
from akvo.match.state import MatchState

#: Score differences are learnt in units of this many points.
SCORE_SCALE: Final = 4.0
#: The weights shipped for the default rules.
DEFAULT_WEIGHTS: Final = Path(__file__).with_name("weights") / "default.npz"
_ARRAYS: Final = ("w1", "b1", "w2", "mean", "scale")
_EPOCH: Final = (1980, 1, 1, 0, 0, 0)


class EvalError(AkvoError):
    """The evaluation cannot judge: weights for other rules or features, or a bad file."""


def rules_stamp(rules: RulesConfig) -> str:
    """A canonical name of a rules configuration: every variant spelled out, sorted."""
    return ",".join(f"{k}={v}" for k, v in sorted(rules.to_dict().items()))


def rules_hash(rules: RulesConfig) -> str:
    """A short hash of :func:`rules_stamp` (for file names and quick comparisons)."""
    return hashlib.sha256(rules_stamp(rules).encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Weights:
    """The network's arrays (float64) and what they were trained for."""

    w1: npt.NDArray[np.float64]
    b1: npt.NDArray[np.float64]
    w2: npt.NDArray[np.float64]
    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    rules: RulesConfig = DEFAULT_RULES
    feature_version: int = FEATURE_VERSION
    meta: dict[str, Any] = field(default_factory=dict)

    def save(self, path: Path | str) -> None:
        """Write an ``.npz`` (compressed, no pickles) stamped with rules and features;
        identical weights give identical bytes."""
        path = Path(path)
        arrays = {name: np.asarray(getattr(self, name), dtype=np.float32) for name in _ARRAYS}
        stamp = {
            "feature_version": self.feature_version,
            "rules": rules_stamp(self.rules),
            "rules_hash": rules_hash(self.rules),
            "meta": self.meta,
        }
        arrays["stamp"] = np.array(json.dumps(stamp, sort_keys=True))
        path.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, array in arrays.items():  # a fixed date: same weights, same bytes
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, array, allow_pickle=False)
                archive.writestr(zipfile.ZipInfo(f"{name}.npy", _EPOCH), buffer.getvalue())

    @classmethod
    def load(cls, path: Path | str) -> Weights:
        """Read a weights file; :class:`EvalError` names what is wrong with it."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                stamp = json.loads(str(data["stamp"]))
                arrays = {name: data[name].astype(np.float64) for name in _ARRAYS}
            rules = RulesConfig.from_text(stamp["rules"])
            version = int(stamp["feature_version"])
        except (OSError, KeyError, ValueError, TypeError) as error:
            raise EvalError(f"cannot read evaluation weights {str(path)!r}: {error}") from None
        if arrays["w1"].shape[0] != FEATURE_SIZE and version == FEATURE_VERSION:
            raise EvalError(f"weights {str(path)!r} do not fit {FEATURE_SIZE} features")
        return cls(**arrays, rules=rules, feature_version=version, meta=stamp.get("meta", {}))


def _side(side: object) -> int:
    try:
        return side_index(side)
    except AkvoError as error:
        raise EvalError(str(error)) from None


class Evaluation:
    """Win chances and expected score differences of positions, from one side's view.

    Only what that side may see is read (:func:`akvo.eval.features.raw`): never the other
    side's unrevealed orders. ``side`` is 0/1 or ``"A"``/``"B"``.
    """

    def __init__(self, weights: Weights, rules: RulesConfig | None = None) -> None:
        rules = DEFAULT_RULES if rules is None else rules
        if weights.feature_version != FEATURE_VERSION:
            raise EvalError(
                f"these evaluation weights were trained for feature version "
                f"{weights.feature_version}, this akvo computes version {FEATURE_VERSION}: "
                "train new ones with `akvo train`"
            )
        if weights.rules != rules:
            raise EvalError(
                f"these evaluation weights were trained for the rules {rules_stamp(weights.rules)}"
                f", not {rules_stamp(rules)}: train weights for this variant with "
                f"`akvo train --rules ...` (or fall back to rollouts)"
            )
        self.weights = weights
        self.rules = rules
        self._w1 = weights.w1 / weights.scale[:, None]  # the input scaling folded in
        self._b1 = weights.b1 - (weights.mean / weights.scale) @ weights.w1
        self._w2 = weights.w2

    # --- the batch path ------------------------------------------------------------------
    def features(self, state: MatchState, side: object) -> FloatArray:
        """The float32 feature vector of ``state`` from ``side``'s view
        (:data:`akvo.eval.features.FEATURE_NAMES`)."""
        vector: FloatArray = features(raw_batch([state]), _side(side), self.rules)[0]
        return vector

    def _outputs(self, states: Sequence[MatchState], side: int) -> npt.NDArray[np.float64]:
        """``(n, 2)``: win logit and scaled score difference; finished matches exact."""
        if not states:
            return np.zeros((0, 2))
        return self.outputs_of_raw(raw_batch(states), side)

    def outputs_of_raw(self, r: npt.NDArray[np.int32], side: int) -> npt.NDArray[np.float64]:
        """The outputs ``(n, 2)`` of raw rows (:func:`akvo.eval.features.raw_batch`, as the
        training and calibration data keep them): win logit and score difference in
        :data:`SCORE_SCALE` points, from ``side``'s view; finished matches exact."""
        x = features(r, side, self.rules).astype(np.float64)
        out = self.forward(x)
        winner = r[:, WINNER]
        done = winner >= 0
        if done.any():
            scores = r[done][:, [SCORES + side, SCORES + 1 - side]]
            won = np.where(winner[done] == 2, 0.0, np.where(winner[done] == side, np.inf, -np.inf))
            out[done, 0] = won
            out[done, 1] = (scores[:, 0] - scores[:, 1]) / SCORE_SCALE
        return out

    def win_chances_of_raw(self, r: npt.NDArray[np.int32], side: int) -> npt.NDArray[np.float64]:
        """:meth:`win_chances` of raw rows."""
        with np.errstate(over="ignore"):
            return 1.0 / (1.0 + np.exp(-self.outputs_of_raw(r, side)[:, 0]))

    def forward(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The network on features ``x``: ``(n, 2)`` antisymmetric outputs."""
        both = np.concatenate([x, swap_sides(x)])  # type: ignore[arg-type]
        z = np.tanh(both @ self._w1 + self._b1) @ self._w2
        n = len(x)
        result: npt.NDArray[np.float64] = z[:n] - z[n:]
        return result

    def win_chances(self, states: Sequence[MatchState], side: object) -> npt.NDArray[np.float64]:
        """P(``side`` wins) + ½ P(draw) of each state (float64 array)."""
        if not states:
            return np.zeros(0)
        return self.win_chances_of_raw(raw_batch(states), _side(side))

    def score_diffs(self, states: Sequence[MatchState], side: object) -> npt.NDArray[np.float64]:
        """The expected final score difference (``side`` − other) of each state."""
        return self._outputs(states, _side(side))[:, 1] * SCORE_SCALE

    # --- one position ----------------------------------------------------------------------
    def win_chance(self, state: MatchState, side: object) -> float:
        """P(``side`` wins) + ½ P(draw), from what ``side`` may see."""
        return float(self.win_chances([state], side)[0])

    def score_diff(self, state: MatchState, side: object) -> float:
        """The expected final score difference (``side`` − other)."""
        return float(self.score_diffs([state], side)[0])

    def __repr__(self) -> str:
        return f"Evaluation(rules={rules_stamp(self.rules)!r}, features=v{FEATURE_VERSION})"


_DEFAULT: dict[RulesConfig, Evaluation] = {}


def weights_path(rules: RulesConfig) -> Path:
    """Where the package keeps the weights of ``rules``: ``weights/default.npz`` for the
    default rules, ``weights/<rules_hash>.npz`` for a variant (``akvo train --rules … --out``
    that path to ship one)."""
    if rules == DEFAULT_RULES:
        return DEFAULT_WEIGHTS
    return DEFAULT_WEIGHTS.with_name(f"{rules_hash(rules)}.npz")


def default_evaluation(rules: RulesConfig | None = None) -> Evaluation:
    """The shipped evaluation for ``rules`` (None: the default rules); :class:`EvalError`
    when no shipped weights fit them (the caller may fall back to rollouts)."""
    rules = DEFAULT_RULES if rules is None else rules
    if not isinstance(rules, RulesConfig):
        raise EvalError(f"rules must be a RulesConfig or None, got {type(rules).__name__}")
    found = _DEFAULT.get(rules)
    if found is None:
        path = weights_path(rules)
        if not path.exists():
            raise EvalError(
                f"no evaluation weights were trained for the rules {rules_stamp(rules)}: "
                f"`akvo train --rules {rules.to_text()} --out {path}` makes them "
                "(or fall back to rollouts)"
            )
        found = _DEFAULT[rules] = Evaluation(Weights.load(path), rules)
    return found


__all__ = [
    "DEFAULT_WEIGHTS",
    "EvalError",
    "Evaluation",
    "Weights",
    "default_evaluation",
    "raw",
    "rules_hash",
    "rules_stamp",
    "weights_path",
]
