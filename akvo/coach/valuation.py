"""The one valuation: what every option of a decision is worth, on the win-chance scale.

:func:`valuation` answers at any decision node with one :class:`OptionWorth` per option —
the chance that the side deciding wins after it, a 95 % interval, the exact immediate
measure where one exists (:func:`akvo.coach.values.decision_values`, Fractions) and a
reason in French. The bots' judgement, the pages' numbers, the analysis and the exercises
all read it, so the suggestion (:attr:`Valuation.best`, the option with the best shown
value, by construction) and the numbers shown never disagree.

How an option is valued:

- **every decision but the orders**: the expert bot's lookahead
  (:class:`akvo.bots.lookahead.Lookahead`): the option is played, then the rest of the
  activation with the greedy bot's choices, every roll expanded over its distinct outcomes
  with their exact probabilities, the learned evaluation (:mod:`akvo.eval`) at the leaves.
  No sampling: the value is a pure function of the position and the budget (``cap`` =
  :data:`CAP_PER_BUDGET` × ``budget`` chance nodes expanded per option). Its uncertainty is
  the evaluation's: :data:`EVAL_MARGIN`, the 95th percentile of how far the evaluation of a
  position moves once the activation's dice are expanded (measured on greedy matches, see
  the constant);
- **the orders** (secret, simultaneous, R9): the expert bot's payoff machinery
  (:mod:`akvo.bots.expert`): its candidate programmes (plus the one asked about) against
  the other side's probable ones, each cell the learned win chance at the end of the turn
  after :data:`ORDER_ROLLOUTS_PER_BUDGET` × ``budget`` rollouts on common dice (rollout *k*
  of every cell sees the same dice, keyed by ``seed`` and the decision); the other side's
  mixed strategy is solved by regret matching and each option's value is its payoff
  against it. Its interval is Student's over the rollouts (the variance pooled over the
  options, which share their dice), widened by :data:`EVAL_MARGIN`.

The other side's hidden orders are never read (the expert's determinisation).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from akvo.bots.expert import ExpertBot, turn_end_matrix
from akvo.bots.greedy import GreedyBot
from akvo.bots.judge import Judge, evaluation_for
from akvo.bots.lookahead import Lookahead
from akvo.bots.matrix import regret_matching
from akvo.bots.search import neighbours
from akvo.coach.budget import DEFAULT_BUDGET, MAX_BUDGET
from akvo.coach.errors import CoachError
from akvo.coach.reasons import option_reason
from akvo.coach.values import DecisionValues, Options, OptionValue, decision_values
from akvo.coach.words import action_words
from akvo.errors import excerpt, require_int
from akvo.match.core import TERMINAL
from akvo.match.phases import ORDERS
from akvo.match.state import MatchState
from akvo.match.streams import decision_key

#: Chance nodes expanded exactly per option and unit of budget.
CAP_PER_BUDGET: Final = 12
#: Rollouts per payoff cell at the orders, per unit of budget.
ORDER_ROLLOUTS_PER_BUDGET: Final = 3
#: The evaluation's uncertainty on a win chance and on a difference between two options
#: (95 %). Measured on 1,209 options of three greedy matches (``benchmarks/bench_coach_stability.py
#: --margin``): the direct evaluation of the position after an option and the lookahead's
#: expectation over the activation's dice differ by 6.6 points RMS (5.6 points on the
#: difference between two options of one decision). That gap is the direct evaluation's
#: error; the lookahead averages the leaves' errors over the dice outcomes, so its own is
#: smaller: the gap's RMS on differences, rounded up, stands as its 95 % margin.
EVAL_MARGIN: Final = 0.06
_T_CACHE: dict[int, float] = {}


@dataclass(frozen=True, slots=True)
class OptionWorth:
    """One option: ``p`` the side deciding's win chance after it, ``[low, high]`` its 95 %
    interval, ``exact`` its exact immediate value (Fractions, or None at the orders),
    ``words`` the action in French and ``reason`` why it is worth that, in French."""

    action: str
    words: str
    p: float
    low: float
    high: float
    exact: OptionValue | None
    reason: str

    def to_dict(self) -> dict[str, object]:
        exact = self.exact
        return {
            "action": self.action,
            "words": self.words,
            "p": self.p,
            "low": self.low,
            "high": self.high,
            "measure": None if exact is None else exact.measure,
            "exact": None if exact is None or exact.value is None else str(exact.value),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Valuation(Options[OptionWorth]):
    """Every option of one decision with its win chance (:func:`valuation`).

    ``samples``: at the orders, each option's value on each rollout (rollout *k* of all
    saw the same dice), for paired intervals; empty elsewhere (the values are exact
    expectations, only the evaluation's margin is uncertain)."""

    side: int
    phase: str
    prompt: str
    method: str  # "lookahead" or "orders"
    budget: int
    seed: int
    options: tuple[OptionWorth, ...]
    samples: dict[str, tuple[float, ...]] = field(default_factory=dict, repr=False)

    @property
    def best(self) -> OptionWorth:
        """The option with the best shown value (the first of equals): the suggestion."""
        return max(self.options, key=lambda o: o.p)

    @property
    def suggestion(self) -> str:
        return self.best.action

    def difference(self, first: str, second: str) -> tuple[float, float, float]:
        """``first``'s win chance minus ``second``'s, with a 95 % interval (low, high):
        paired over the rollouts at the orders, widened by :data:`EVAL_MARGIN`."""
        d = self[first].p - self[second].p
        if first == second:
            return 0.0, 0.0, 0.0
        half = EVAL_MARGIN
        b = self.samples.get(second)
        if self.samples.get(first) and b:
            half = math.hypot(half, self._paired_half(first, b))
        return d, d - half, d + half

    def _paired_half(self, first: str, base: tuple[float, ...]) -> float:
        """Student's half-width for ``first`` minus the option of samples ``base``, its
        variance pooled over every option paired with ``base`` (:func:`_pooled_half`)."""
        differences = {
            action: tuple(x - y for x, y in zip(values, base, strict=True))
            for action, values in self.samples.items()
            if values is not base
        }
        return _pooled_half(differences, first)

    def refined(self, state: MatchState) -> Valuation:
        """The same decision valued again with twice the budget (« Analyser plus
        finement »)."""
        return valuation(
            state,
            budget=min(2 * self.budget, MAX_BUDGET),
            seed=self.seed,
            actions=[o.action for o in self.options] if self.method == "orders" else None,
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "side": self.side,
            "phase": self.phase,
            "prompt": self.prompt,
            "method": self.method,
            "budget": self.budget,
            "seed": self.seed,
            "suggestion": self.suggestion,
            "options": [option.to_dict() for option in self.options],
        }


def _t975(df: int) -> float:
    """Student's 97.5 % quantile, cached; scipy is imported on first use only, so that
    importing the engine never loads it (tests/test_packaging.py)."""
    t = _T_CACHE.get(df)
    if t is None:
        from scipy import stats

        t = _T_CACHE[df] = float(stats.t.ppf(0.975, df))
    return t


def _pooled_half(series: dict[str, tuple[float, ...]], first: str) -> float:
    """Student's 95 % half-width of the mean of ``series[first]``: the larger of its own
    variance and the variance pooled over every series (a few rollouts' variance alone is
    itself too noisy: two seeds then flag different orders), with the pooled degrees of
    freedom. The series are one decision's options on common dice: their spreads are
    alike, so pooling them is what makes 3 rollouts per cell usable."""
    n = len(series[first])
    if n < 2:
        return 1.0
    variances = [statistics.variance(values) for values in series.values()]
    own = statistics.variance(series[first])
    pooled = max(own, sum(variances) / len(variances))
    return _t975(len(variances) * (n - 1)) * math.sqrt(pooled / n)


def _interval(p: float, half: float) -> tuple[float, float]:
    return max(0.0, p - half), min(1.0, p + half)


def check_budget(budget: object) -> int:
    value = require_int("budget", budget, CoachError)
    if not 1 <= value <= MAX_BUDGET:
        raise CoachError(f"budget must be an integer 1–{MAX_BUDGET}, got {value}")
    return value


def valuation(
    state: object,
    *,
    budget: object = DEFAULT_BUDGET,
    seed: object = 0,
    actions: Sequence[str] | None = None,
    judge: Judge | None = None,
) -> Valuation:
    """Every option of the decision at ``state`` with its win chance, interval, exact
    measure and reason (see the module). ``actions``: the options to value (default: every
    legal action; at the orders, the expert's candidates, to which any action asked about
    is added). A pure function of (state, budget, seed). The state is not changed.

    Raises :class:`~akvo.coach.errors.CoachError` at a chance node, at the end, for an
    action that is not legal here or a bad budget/seed."""
    if not isinstance(state, MatchState):
        raise CoachError(f"valuation needs a MatchState, got {excerpt(state)}")
    if state.player < 0:
        what = "the match is over" if state.player == TERMINAL else "this is a chance node"
        raise CoachError(f"valuation needs a decision node: {what}")
    level = check_budget(budget)
    master = require_int("seed", seed, CoachError)
    if actions is not None:
        for action in actions:
            if action not in state.legal:
                raise CoachError(f"{excerpt(action)} is not a legal action here")
    judge = judge if judge is not None else evaluation_for(state.rules)
    exact = decision_values(state)
    if state.phase == ORDERS:
        return _orders(state, level, master, actions, judge, exact)
    chosen = list(state.legal if actions is None else dict.fromkeys(actions))
    lookahead = Lookahead(GreedyBot(0), CAP_PER_BUDGET * level)
    values = lookahead.values(state, judge, chosen)
    options = tuple(
        _worth(state, action, p, _interval(p, EVAL_MARGIN), exact)
        for action, p in zip(chosen, values, strict=True)
    )
    return Valuation(
        state.player, state.phase_name(), state.prompt(), "lookahead", level, master, options
    )


def _worth(
    state: MatchState,
    action: str,
    p: float,
    interval: tuple[float, float],
    exact: DecisionValues,
) -> OptionWorth:
    known = {o.action: o for o in exact.options}.get(action)
    reason = option_reason(state, action, known, p, interval)
    words = action_words(action, state.player, state.rules)
    return OptionWorth(action, words, p, interval[0], interval[1], known, reason)


def order_candidates(
    state: MatchState, actions: Sequence[str] | None = None
) -> tuple[list[str], list[str]]:
    """The side programming's candidates (the expert's, plus ``actions``) and the other
    side's probable programmes (the greedy orders and their neighbours). The candidates
    do not depend on the analysis's seed (the expert's sampler under seed 0, keyed by the
    decision): two seeds compare the same options, only their rollouts' dice differ."""
    expert = ExpertBot(0)
    side = state.side
    mine = expert.candidates(state, side, decision_key(state))
    for action in actions or ():
        if action not in mine:
            mine.append(action)
    base = GreedyBot(0).orders(state, 1 - side)
    return mine, [base, *neighbours(base)]


def _orders(
    state: MatchState,
    level: int,
    seed: int,
    actions: Sequence[str] | None,
    judge: Judge,
    exact: DecisionValues,
) -> Valuation:
    mine, theirs = order_candidates(state, actions)
    rollouts = ORDER_ROLLOUTS_PER_BUDGET * level
    expert = ExpertBot(seed & ((1 << 63) - 1))
    key = decision_key(state)
    seeds = [expert.seeds.decision_word(key, k) for k in range(rollouts)]
    per = rollouts
    # one matrix per rollout (its dice common to every cell); cell[r][c][k]: row r
    # against column c on rollout k
    each = [turn_end_matrix(state, mine, theirs, [s], judge) for s in seeds]
    cell = [
        [[each[k][r][c] for k in range(per)] for c in range(len(theirs))] for r in range(len(mine))
    ]
    matrix = [[sum(ks) / per for ks in row] for row in cell]
    _, y = regret_matching(matrix)
    weights = y.tolist()
    samples = {
        own: tuple(sum(w * cell[r][c][k] for c, w in enumerate(weights)) for k in range(per))
        for r, own in enumerate(mine)
    }
    options = []
    for own in mine:
        values = samples[own]
        p = sum(values) / per
        half = math.hypot(EVAL_MARGIN, _pooled_half(samples, own))
        options.append(_worth(state, own, p, _interval(p, half), exact))
    return Valuation(
        state.player,
        state.phase_name(),
        state.prompt(),
        "orders",
        level,
        seed,
        tuple(options),
        samples,
    )


__all__ = [
    "CAP_PER_BUDGET",
    "DEFAULT_BUDGET",
    "EVAL_MARGIN",
    "MAX_BUDGET",
    "ORDER_ROLLOUTS_PER_BUDGET",
    "OptionWorth",
    "Valuation",
    "check_budget",
    "order_candidates",
    "valuation",
]
