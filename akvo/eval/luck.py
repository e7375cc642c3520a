"""The luck evaluation: the shipped evaluation fine-tuned so that the luck of each chance
event explains as much of a match's result as it can (AIVAT's learned control variate).

The coach's luck (:mod:`akvo.coach.luck`) gives each chance event — a roll, a Relance
reroll, a weather draw — the value of the position after it minus the exact expectation
over the event's distinct outcomes. Whatever the value function, each event's luck has
mean 0, so the luck-adjusted result (result − luck) is an unbiased measure of the result;
how much of the result's variance it removes depends only on the value being *consistent
along play*: between two chance events no chance happens, so a consistent value does not
move there, and the result is then its start plus the luck. The evaluation trained on
rollout outcomes (:mod:`akvo.eval.train`) is accurate on average but swings by 10–15
points between consecutive positions where nothing random happened (a unit activated and
the next one), so the luck it measures explains little.

The luck evaluation has the evaluation's network and features; starting from the shipped
weights it is fitted directly on what it is for: over bot matches (greedy against greedy,
the deterministic reference policy), it minimises the variance of the luck-adjusted result

    adjusted(match) = result − Σ_events [ f(after) − Σ_outcomes p · f(outcome) ],

a differentiable function of ``f`` (the win chance, from A's view) at the states right
after each event and at each distinct outcome. Since the expectation of ``adjusted`` is the
expected result whatever ``f``, the fit cannot bias the measure; held-out matches (other
seeds) say how much variance it removes (``benchmarks/bench_luck.py``). It is a separate
weights file so that the bots' evaluation, its calibration and its strength stay as they
are; the coach's luck reads it (:func:`luck_evaluation`).

Reproducible from its seed, like ``akvo train``: match ``i`` is ``play_match`` with a seed
hashed from the purpose, the seed and ``i``; the fit draws its mini-batches from
``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

import hashlib
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.eval.features import RAW_SIZE, features, raw_batch
from akvo.eval.model import DEFAULT_WEIGHTS, EvalError, Evaluation, Weights, default_evaluation
from akvo.eval.train import TrainError, _backward, _forward, adam_moments, adam_step
from akvo.match.core import CHANCE
from akvo.match.state import MatchState

#: The luck weights shipped for the default rules.
LUCK_WEIGHTS: Final = DEFAULT_WEIGHTS.with_name("luck.npz")
#: Matches per Dask task when generating luck data.
CHUNK: Final = 25

_RESULT: Final = {"A": 1.0, "B": 0.0, "draw": 0.5}


def match_seed(seed: int, index: int, purpose: str = "luck") -> int:
    """The dice seed of luck match ``index`` of a run (another ``purpose``: other seeds)."""
    text = f"akvo.eval.luck:{purpose}:{seed}:{index}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:7], "big")


def chance_outcomes(state: MatchState) -> list[tuple[MatchState, Fraction]]:
    """The distinct outcomes of a chance node with their exact probabilities (they sum to
    1): the dice grouped by what the engine reads of them, or the weather's draws."""
    from akvo.bots.lookahead import chance_branches
    from akvo.match.phases import WEATHER

    if state.phase == WEATHER:
        return [(state.child(action), p) for action, p in state.chance_outcomes()]
    return chance_branches(state)


@dataclass
class LuckData:
    """Per match, the states the luck reads and their coefficients in the luck sum.

    ``raw`` rows (public facts, :func:`akvo.eval.features.raw_batch`); ``weight[j]`` is +1
    for the state right after an event, −p for an outcome of probability p; ``match[j]``
    the match of row ``j`` (0 … len(result) − 1); ``result`` A's result per match."""

    raw: npt.NDArray[np.int32]
    weight: npt.NDArray[np.float64]
    match: npt.NDArray[np.int64]
    result: npt.NDArray[np.float64]
    events: int = 0

    def __len__(self) -> int:
        return len(self.result)


def record_rows(record: dict[str, Any]) -> tuple[list[MatchState], list[float], float]:
    """The states a finished match's luck reads, their coefficients and A's result."""
    from akvo.match.state import replay

    final = replay(record, log=False)
    state = replay({**record, "actions": []}, log=False)
    states: list[MatchState] = []
    weights: list[float] = []
    for action in record["actions"]:
        if state.player == CHANCE:
            for child, p in chance_outcomes(state):
                states.append(child)
                weights.append(-float(p))
            states.append(state.child(action))
            weights.append(1.0)
        state.apply_action(action)
    return states, weights, _RESULT[final.result or "draw"]


def luck_chunk(
    seed: int, start: int, stop: int, rules: RulesConfig = DEFAULT_RULES, purpose: str = "luck"
) -> LuckData:
    """Luck data of greedy-vs-greedy matches ``start … stop − 1`` (one Dask task)."""
    from akvo.bots.greedy import GreedyBot
    from akvo.match.bots import play_match

    rows: list[npt.NDArray[np.int32]] = []
    weights: list[float] = []
    matches: list[int] = []
    results: list[float] = []
    for index in range(start, stop):
        final = play_match(
            match_seed(seed, index, purpose),
            rules=rules,
            bots=(GreedyBot(0), GreedyBot(0)),
            log=False,
        )
        states, w, result = record_rows(final.record())
        rows.append(raw_batch(states))
        weights += w
        matches += [index - start] * len(w)
        results.append(result)
    return LuckData(
        np.concatenate(rows) if rows else np.zeros((0, RAW_SIZE), np.int32),
        np.array(weights),
        np.array(matches, dtype=np.int64),
        np.array(results),
        events=sum(1 for w in weights if w == 1.0),
    )


def _concatenate(parts: list[LuckData]) -> LuckData:
    offset = 0
    matches = []
    for part in parts:
        matches.append(part.match + offset)
        offset += len(part)
    return LuckData(
        np.concatenate([p.raw for p in parts]),
        np.concatenate([p.weight for p in parts]),
        np.concatenate(matches),
        np.concatenate([p.result for p in parts]),
        events=sum(p.events for p in parts),
    )


def luck_data(
    matches: int,
    seed: int = 0,
    rules: RulesConfig = DEFAULT_RULES,
    *,
    purpose: str = "luck",
    workers: int | None = 1,
    scheduler: str | None = None,
) -> LuckData:
    """Play ``matches`` greedy-vs-greedy matches (here with ``workers=0``, else on Dask) and
    keep what their luck reads."""
    from akvo.lab.run import _distributed, dask_client

    if not isinstance(matches, int) or matches < 1:
        raise TrainError(f"matches must be a positive integer, got {matches!r}")
    bounds = [(s, min(matches, s + CHUNK)) for s in range(0, matches, CHUNK)]
    parts: list[LuckData | None] = [None] * len(bounds)
    with dask_client(workers, None, scheduler) as client:
        if client is None:
            parts = [luck_chunk(seed, a, b, rules, purpose) for a, b in bounds]
        else:
            futures = [
                client.submit(luck_chunk, seed, a, b, rules, purpose, pure=False) for a, b in bounds
            ]
            index_of = {f.key: k for k, f in enumerate(futures)}
            for future in _distributed().as_completed(futures):
                parts[index_of[future.key]] = future.result()
    return _concatenate([p for p in parts if p is not None])


def adjusted_results(data: LuckData, chances: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each match's luck-adjusted result, given A's win chance at every row of ``data``."""
    luck = np.bincount(data.match, weights=data.weight * chances, minlength=len(data))
    adjusted: npt.NDArray[np.float64] = data.result - luck
    return adjusted


def variance_reduction(data: LuckData, judge: Evaluation) -> tuple[float, float]:
    """The variance of the raw result and of the luck-adjusted one under ``judge``."""
    chances = judge.win_chances_of_raw(data.raw, 0)
    adjusted = adjusted_results(data, chances)
    return float(np.var(data.result, ddof=1)), float(np.var(adjusted, ddof=1))


@dataclass
class LuckFit:
    """Fitted luck weights and, per epoch, the variance ratio on the training matches."""

    weights: Weights
    curve: list[dict[str, float]] = field(default_factory=list)


def fit_luck(
    data: LuckData,
    start: Weights,
    seed: int = 0,
    *,
    epochs: int = 10,
    batch: int = 16,
    rate: float = 3e-4,
    decay: float = 1e-4,
    meta: dict[str, Any] | None = None,
    progress: bool = False,
) -> LuckFit:
    """Fine-tune ``start`` (its input scaling kept) to minimise the mean squared deviation
    of the luck-adjusted result from the mean result, with Adam over mini-batches of
    matches; the score head is left as it was."""
    if len(data) < 2:
        raise TrainError(f"too few matches to fit ({len(data)})")
    rng = np.random.default_rng(seed)
    rules = start.rules
    x = ((features(data.raw, 0, rules) - start.mean) / start.scale).astype(np.float32)
    target = float(data.result.mean())
    params = {"w1": start.w1.copy(), "b1": start.b1.copy(), "w2": start.w2.copy()}
    moments = adam_moments(params)
    rows_of = np.split(
        np.argsort(data.match, kind="stable"), np.cumsum(np.bincount(data.match))[:-1]
    )
    step = 0
    curve: list[dict[str, float]] = []

    def ratio() -> float:
        chances = np.empty(len(x))
        for a in range(0, len(x), 65536):
            out = _forward(params, x[a : a + 65536].astype(np.float64))[0]
            chances[a : a + 65536] = 1 / (1 + np.exp(-out[:, 0]))
        return float(np.var(data.result) / np.var(adjusted_results(data, chances)))

    curve.append({"epoch": 0.0, "ratio": ratio()})
    for epoch in range(1, epochs + 1):
        started = time.perf_counter()
        order = rng.permutation(len(data))
        for a in range(0, len(order), batch):
            rows = np.concatenate([rows_of[m] for m in order[a : a + batch]])
            xb = x[rows].astype(np.float64)
            out, h, hs = _forward(params, xb)
            f = 1 / (1 + np.exp(-out[:, 0]))
            local = np.unique(data.match[rows], return_inverse=True)[1]
            luck = np.bincount(local, weights=data.weight[rows] * f)
            deviation = data.result[np.unique(data.match[rows])] - luck - target
            grad_f = -2 * deviation[local] * data.weight[rows] / (len(deviation))
            grad_out = np.zeros_like(out)
            grad_out[:, 0] = grad_f * f * (1 - f)
            grads = _backward(params, xb, h, hs, grad_out)
            grads["w1"] += decay * (params["w1"] - start.w1)
            grads["w2"] += decay * (params["w2"] - start.w2)
            step += 1
            adam_step(params, grads, moments, step, rate)
        row = {"epoch": float(epoch), "ratio": ratio(), "seconds": time.perf_counter() - started}
        curve.append(row)
        if progress:
            print(f"epoch {epoch}: variance ratio {row['ratio']:.2f}×", file=sys.stderr)
    weights = Weights(
        w1=params["w1"],
        b1=params["b1"],
        w2=params["w2"],
        mean=start.mean,
        scale=start.scale,
        rules=rules,
        meta=dict(
            meta or {},
            purpose="luck",
            matches=len(data),
            events=data.events,
            curve=[{k: round(v, 4) for k, v in row.items()} for row in curve],
        ),
    )
    return LuckFit(weights, curve)


_LUCK: dict[RulesConfig, Evaluation] = {}


def luck_evaluation(rules: RulesConfig | None = None) -> Evaluation:
    """The luck evaluation of ``rules``: the shipped luck weights for the default rules,
    else the shipped evaluation itself (:class:`EvalError` if there is none)."""
    rules = DEFAULT_RULES if rules is None else rules
    found = _LUCK.get(rules)
    if found is None:
        if rules == DEFAULT_RULES and LUCK_WEIGHTS.exists():
            found = Evaluation(Weights.load(LUCK_WEIGHTS), rules)
        else:
            found = default_evaluation(rules)
        _LUCK[rules] = found
    return found


__all__ = [
    "LUCK_WEIGHTS",
    "EvalError",
    "LuckData",
    "LuckFit",
    "adjusted_results",
    "chance_outcomes",
    "fit_luck",
    "luck_chunk",
    "luck_data",
    "luck_evaluation",
    "match_seed",
    "record_rows",
    "variance_reduction",
]
