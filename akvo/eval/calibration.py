"""How well predicted win chances match what happens: a reliability curve and its error.

:func:`calibration` bins the predictions (10 equal bins of [0, 1] by default) and compares,
in each bin, the mean prediction with the mean observed outcome (a rollout mean or a match
result, win 1, draw ½). The mean absolute calibration error is the positions-weighted mean
of the bins' gaps (the « expected calibration error » of the forecasting literature); its
95 % interval comes from a bootstrap over positions, seeded, so that the figure says how
much it would move with other positions. The lab page plots :attr:`Calibration.rows`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from akvo.errors import AkvoError


class CalibrationError(AkvoError):
    """Predictions and outcomes that cannot be compared (lengths, ranges, bins)."""


@dataclass(frozen=True)
class Calibration:
    """A reliability curve: per bin ``(low, high, positions, mean predicted, mean observed)``,
    the mean absolute calibration error and its 95 % bootstrap interval (win-chance units)."""

    rows: tuple[tuple[float, float, int, float, float], ...]
    error: float
    interval: tuple[float, float]
    positions: int

    def to_markdown(self) -> str:
        """The curve as a Markdown table, then the error in points with its interval."""
        lines = [
            "| bin | positions | mean predicted | mean observed | gap |",
            "|---|---:|---:|---:|---:|",
        ]
        for low, high, count, predicted, observed in self.rows:
            if count:
                lines.append(
                    f"| {low:.1f}–{high:.1f} | {count} | {predicted:.3f} | {observed:.3f} | "
                    f"{observed - predicted:+.3f} |"
                )
            else:
                lines.append(f"| {low:.1f}–{high:.1f} | 0 | – | – | – |")
        low, high = self.interval
        lines.append("")
        lines.append(
            f"Mean absolute calibration error: {100 * self.error:.2f} points "
            f"(95 % bootstrap interval {100 * low:.2f}–{100 * high:.2f}) over "
            f"{self.positions} positions."
        )
        return "\n".join(lines)


def _error(predicted: np.ndarray, observed: np.ndarray, which: np.ndarray, bins: int) -> float:
    counts = np.bincount(which, minlength=bins)
    gaps = np.bincount(which, weights=observed - predicted, minlength=bins)
    return float(np.abs(gaps).sum() / max(1, counts.sum()))


def calibration(
    predicted: Sequence[float] | np.ndarray,
    observed: Sequence[float] | np.ndarray,
    bins: int = 10,
    *,
    resamples: int = 1000,
    seed: int = 0,
) -> Calibration:
    """The reliability curve of ``predicted`` win chances against ``observed`` outcomes
    (both in [0, 1], one per position), in ``bins`` equal bins."""
    p = np.asarray(predicted, dtype=np.float64)
    o = np.asarray(observed, dtype=np.float64)
    if p.ndim != 1 or p.shape != o.shape or len(p) == 0:
        raise CalibrationError(
            f"need as many predictions as outcomes (one per position), got {p.shape} and {o.shape}"
        )
    if not (np.all((p >= 0) & (p <= 1)) and np.all((o >= 0) & (o <= 1))):
        raise CalibrationError("predictions and outcomes must lie in [0, 1]")
    if not isinstance(bins, int) or bins < 1:
        raise CalibrationError(f"bins must be a positive integer, got {bins!r}")
    which = np.minimum((p * bins).astype(np.int64), bins - 1)
    counts = np.bincount(which, minlength=bins)
    sums_p = np.bincount(which, weights=p, minlength=bins)
    sums_o = np.bincount(which, weights=o, minlength=bins)
    rows = tuple(
        (
            k / bins,
            (k + 1) / bins,
            int(counts[k]),
            float(sums_p[k] / counts[k]) if counts[k] else float("nan"),
            float(sums_o[k] / counts[k]) if counts[k] else float("nan"),
        )
        for k in range(bins)
    )
    error = _error(p, o, which, bins)
    rng = np.random.default_rng(seed)
    draws = [
        _error(p[pick], o[pick], which[pick], bins)
        for pick in (rng.integers(0, len(p), len(p)) for _ in range(resamples))
    ]
    low, high = np.quantile(draws, [0.025, 0.975]) if draws else (error, error)
    return Calibration(rows, error, (float(low), float(high)), len(p))
