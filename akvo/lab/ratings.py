"""Bradley–Terry ratings of bots (or teams) from their head-to-head results, with intervals.

Each pairing gives ``(player, other, points, matches)``: ``points`` of ``player`` (win 1,
draw ½) out of ``matches``. The model: P(player beats other) = σ(r_player − r_other). The
ratings maximise the likelihood (Newton's method; the log-likelihood is concave), one player
anchored at 0; their 95 % intervals come from the observed information (the inverse of the
Hessian). ``prior`` adds that many half-points each way to every pairing, so that a pairing
one player always won keeps a finite rating (with a wide interval). Shown on the Elo scale:
400 / ln 10 per unit, so 400 points mean 10 to 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from akvo.lab.results import LabError
from akvo.lab.stats import LEVEL, Interval

if TYPE_CHECKING:
    import numpy as np

ELO_PER_UNIT = 400 / math.log(10)


def bradley_terry(
    pairings: Sequence[tuple[str, str, float, int]],
    anchor: str | None = None,
    prior: float = 0.5,
    elo: bool = True,
) -> dict[str, Interval]:
    """The rating of each player with its 95 % interval (``anchor``, default the first
    player named, is 0 exactly)."""
    import numpy as np  # on first use: ``import akvo.lab`` stays light

    players: list[str] = []
    for a, b, points, matches in pairings:
        if matches <= 0 or not 0 <= points <= matches or a == b:
            raise LabError(f"bad pairing {a!r} vs {b!r}: {points} points of {matches} matches")
        players += [p for p in (a, b) if p not in players]
    anchor = players[0] if anchor is None else anchor
    if anchor not in players:
        raise LabError(f"anchor {anchor!r} played no pairing")
    index = {p: i for i, p in enumerate(players)}
    free = [i for i in range(len(players)) if players[i] != anchor]
    rating = np.zeros(len(players))
    for _ in range(100):
        gradient, hessian = _derivatives(pairings, index, rating, prior)
        g, h = gradient[free], hessian[np.ix_(free, free)]
        step = np.linalg.solve(h, g)
        rating[free] -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    _, hessian = _derivatives(pairings, index, rating, prior)
    covariance = np.linalg.inv(-hessian[np.ix_(free, free)])
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + LEVEL / 2))
    scale = ELO_PER_UNIT if elo else 1.0
    out = {anchor: Interval(0.0, 0.0, 0.0)}
    for k, i in enumerate(free):
        half = z * math.sqrt(float(covariance[k, k]))
        value = float(rating[i])
        out[players[i]] = Interval(scale * value, scale * (value - half), scale * (value + half))
    return {p: out[p] for p in players}


def _derivatives(
    pairings: Sequence[tuple[str, str, float, int]],
    index: dict[str, int],
    rating: np.ndarray,
    prior: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and Hessian of the log-likelihood at ``rating``."""
    import numpy as np

    size = len(index)
    gradient, hessian = np.zeros(size), np.zeros((size, size))
    for a, b, points, matches in pairings:
        i, j = index[a], index[b]
        n = matches + 2 * prior
        p = 1 / (1 + math.exp(rating[j] - rating[i]))
        residual = points + prior - n * p
        gradient[i] += residual
        gradient[j] -= residual
        weight = n * p * (1 - p)
        hessian[i, i] -= weight
        hessian[j, j] -= weight
        hessian[i, j] += weight
        hessian[j, i] += weight
    return gradient, hessian
