"""A zero-sum matrix game solved by regret matching (Hart & Mas-Colell 2000).

Both players update their regrets against each other's current strategy; each one's
regret matching is Hannan-consistent, so the average strategies converge to a Nash
equilibrium of the zero-sum game (the row player's payoff ``M``, the column player's
``1 − M``). :func:`exploitability` says how far a pair is from it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float64]
#: Iterations by default: the matrices are at most a few dozen rows and columns.
ITERATIONS = 400


def _matching(regret: Matrix) -> Matrix:
    positive = np.maximum(regret, 0.0)
    total = positive.sum()
    if total <= 0:
        return np.full(len(regret), 1.0 / len(regret))
    result: Matrix = positive / total
    return result


def regret_matching(payoff: Any, iterations: int = ITERATIONS) -> tuple[Matrix, Matrix]:
    """The average strategies (rows', columns') of regret matching in self-play on the
    row player's ``payoff`` (the columns' is ``−payoff``; a constant changes nothing)."""
    m = np.asarray(payoff, dtype=np.float64)
    rows, cols = m.shape
    regret_r, regret_c = np.zeros(rows), np.zeros(cols)
    sum_r, sum_c = np.zeros(rows), np.zeros(cols)
    for _ in range(iterations):
        x, y = _matching(regret_r), _matching(regret_c)
        row_values = m @ y  # each row's payoff against y
        col_values = -(x @ m)  # each column's payoff against x
        regret_r += row_values - x @ row_values
        regret_c += col_values - y @ col_values
        sum_r += x
        sum_c += y
    return sum_r / sum_r.sum(), sum_c / sum_c.sum()


def exploitability(payoff: Any, x: Matrix, y: Matrix) -> float:
    """How much a best response gains against the pair: the column player's best
    response against ``x`` and the row player's against ``y``, summed (0 at equilibrium)."""
    m = np.asarray(payoff, dtype=np.float64)
    return float(np.max(m @ y) - np.min(x @ m))
