"""Training the evaluation by self-play: positions from exploring bot matches, labelled by
the outcome of a greedy rollout from each, fitted by a small network.

Why fit on rollout outcomes (Monte Carlo targets) rather than TD(λ): a compiled greedy
match takes a few milliseconds, so an unbiased label — the result of playing the position
out — costs about as much as the position itself, and the fit is then plain supervised
learning (deterministic, reproducible, its held-out log-loss a direct measure of quality).
TD(λ) earns its keep when playing out is expensive or the policy improves as it learns;
here the value wanted is the one the project's rollouts measure (greedy play from the
position: what the coach, the lab and the search bot roll out), and the labels are exactly
samples of it. Exploration is in how positions are reached, not in how they are labelled:
each side of a data match plays the greedy bot with a chance ε (drawn per side and match)
of a uniformly random legal move, and the teams are drawn among the presets, so that
positions are varied and lopsided ones occur.

Everything is seeded from ``seed``: match ``i`` of a run draws its teams, its ε, its dice,
its sampled positions and their rollouts from a SHA-256 of the purpose, the seed, ``i`` and
the role (as :func:`akvo.lab.play.match_seed` does for the lab's matches), so the data
are the same whatever the workers; the fit draws its initial weights and mini-batches from
``numpy.random.default_rng(seed)``. Same seed, same weights file (on one machine and
BLAS build: OpenBLAS may sum in another order with another thread count; the shipped
weights were fitted with ``OPENBLAS_NUM_THREADS=1``).

Weights for a rules variant::

    akvo train --rules weather=coin,prodige=all --matches 30000 --workers 2 --out coin.npz

``akvo train`` ends by naming where the package looks for the weights of those rules
(:func:`akvo.eval.model.weights_path`: ``akvo/eval/weights/<rules hash>.npz``); copied
there, :func:`akvo.eval.default_evaluation` finds them, and until then it raises
:class:`~akvo.eval.EvalError` naming the command. Any file loads directly too:
``Evaluation(Weights.load("coin.npz"), rules)``. Only the default rules ship today.
"""

from __future__ import annotations

import hashlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import AkvoError
from akvo.eval.features import FEATURE_SIZE, RAW_SIZE, features, raw, swap_sides
from akvo.eval.model import SCORE_SCALE, Weights
from akvo.match.state import MatchState, new_match
from akvo.rules import PRESET_TEAMS

#: Exploration rates a data match draws for each side (chance of a random legal move).
EPSILONS: Final = (0.0, 0.03, 0.1, 0.25)
#: Mean positions sampled per match (each node kept with the matching probability).
POSITIONS_PER_MATCH: Final = 8
#: Nodes a greedy match visits, chance nodes included, about (measured: 441 over 10
#: matches; turns :data:`POSITIONS_PER_MATCH` into a rate).
NODES_PER_MATCH: Final = 440
HIDDEN: Final = 48
HELD_OUT_SHARE: Final = 0.1

Array = npt.NDArray[np.float64]
Params = dict[str, Array]


class TrainError(AkvoError):
    """A bad training option (counts, seed, rules)."""


@dataclass(frozen=True)
class DataSpec:
    """What one run's data matches are: rules, master seed, positions per match."""

    rules: RulesConfig = DEFAULT_RULES
    seed: int = 0
    positions: int = POSITIONS_PER_MATCH
    rollouts: int = 1
    purpose: str = "train"  # another purpose, other seeds (held-out calibration positions)


def _seed(spec: DataSpec, index: int, role: str) -> int:
    """A 64-bit seed for one data match and one role (as :func:`akvo.lab.play.match_seed`)."""
    text = f"akvo.eval:{spec.purpose}:{spec.seed}:{index}:{role}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class _Exploring:
    """The greedy bot, with a chance ``epsilon`` of a uniformly random legal move."""

    def __init__(self, epsilon: float, rng: random.Random) -> None:
        from akvo.bots.greedy import GreedyBot

        self.greedy = GreedyBot(0)
        self.epsilon = epsilon
        self.rng = rng

    def __call__(self, state: MatchState) -> str:
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(state.legal)
        return self.greedy(state)


def rollout_value(state: MatchState, rng: random.Random) -> tuple[float, int]:
    """Play ``state`` (a copy) to the end with the greedy bot on both sides: A's result
    (win 1, draw ½, loss 0) and the final score difference A − B."""
    from akvo.bots.greedy import GreedyBot
    from akvo.match.bots import decisions

    node = state.copy()
    greedy = GreedyBot(0)
    for _ in decisions(node, rng, (greedy, greedy)):
        pass
    a, b = node.scores
    return (0.5 if node.winner == 2 else float(node.winner == 0)), a - b


def match_positions(spec: DataSpec, index: int) -> tuple[list[list[int]], list[float], list[float]]:
    """Data match ``index``: the raw rows of its sampled positions, each one's mean
    rollout value for A and mean final score difference A − B."""
    pick = random.Random(_seed(spec, index, "setup"))
    teams = sorted(PRESET_TEAMS)
    team_a, team_b = pick.choice(teams), pick.choice(teams)
    bots = (
        _Exploring(pick.choice(EPSILONS), random.Random(_seed(spec, index, "A"))),
        _Exploring(pick.choice(EPSILONS), random.Random(_seed(spec, index, "B"))),
    )
    state = new_match(team_a, team_b, spec.rules, log=False)
    chance = random.Random(_seed(spec, index, "chance"))
    rollouts = random.Random(_seed(spec, index, "rollouts"))
    rate = spec.positions / NODES_PER_MATCH
    rows: list[list[int]] = []
    values: list[float] = []
    diffs: list[float] = []
    while not state.is_terminal():  # every node is a candidate, chance nodes included
        if pick.random() < rate:
            results = [rollout_value(state, rollouts) for _ in range(spec.rollouts)]
            rows.append(raw(state))
            values.append(sum(v for v, _ in results) / len(results))
            diffs.append(sum(d for _, d in results) / len(results))
        if state.player >= 0:
            state.apply_action(bots[state.player](state))
        else:
            state.apply_random_chance(chance)
    return rows, values, diffs


@dataclass
class Dataset:
    """Raw rows (public facts), A's rollout values and score differences, match indices."""

    raw: npt.NDArray[np.int32]
    value: npt.NDArray[np.float64]
    diff: npt.NDArray[np.float64]
    match: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.value)

    def subset(self, keep: npt.NDArray[np.bool_]) -> Dataset:
        return Dataset(self.raw[keep], self.value[keep], self.diff[keep], self.match[keep])


def play_data_chunk(spec: DataSpec, start: int, stop: int) -> Dataset:
    """The data of matches ``start … stop - 1`` (one Dask task)."""
    rows: list[list[int]] = []
    values: list[float] = []
    diffs: list[float] = []
    matches: list[int] = []
    for index in range(start, stop):
        r, v, d = match_positions(spec, index)
        rows += r
        values += v
        diffs += d
        matches += [index] * len(v)
    return Dataset(
        np.array(rows, dtype=np.int32).reshape(len(rows), RAW_SIZE),
        np.array(values),
        np.array(diffs, dtype=np.float64),
        np.array(matches, dtype=np.int64),
    )


def generate(
    spec: DataSpec,
    matches: int,
    *,
    workers: int | None = 1,
    scheduler: str | None = None,
    progress: bool | None = None,
    chunk: int = 25,
    start: int = 0,
) -> Dataset:
    """Play ``matches`` data matches (in this process with ``workers=0``, else on a Dask
    LocalCluster of ``workers`` or the cluster at ``scheduler``), with a tqdm bar."""
    from akvo.lab.run import _distributed, dask_client

    if not isinstance(matches, int) or matches < 1:
        raise TrainError(f"matches must be a positive integer, got {matches!r}")
    end = start + matches
    bounds = [(s, min(end, s + chunk)) for s in range(start, end, chunk)]
    show = sys.stderr.isatty() if progress is None else progress
    bar = _bar(matches) if show else None
    parts: list[Dataset | None] = [None] * len(bounds)
    try:
        with dask_client(workers, None, scheduler) as client:
            if client is None:
                for k, (start, stop) in enumerate(bounds):
                    parts[k] = play_data_chunk(spec, start, stop)
                    if bar is not None:
                        bar.update(stop - start)
            else:
                futures = [
                    client.submit(play_data_chunk, spec, start, stop, pure=False)
                    for start, stop in bounds
                ]
                index_of = {f.key: k for k, f in enumerate(futures)}
                for future in _distributed().as_completed(futures):
                    k = index_of[future.key]
                    parts[k] = future.result()
                    if bar is not None:
                        bar.update(bounds[k][1] - bounds[k][0])
    finally:
        if bar is not None:
            bar.close()
    return concatenate([p for p in parts if p is not None])


def held_out_positions(
    rules: RulesConfig = DEFAULT_RULES,
    positions: int = 2000,
    rollouts: int = 16,
    seed: int = 0,
    *,
    workers: int | None = 1,
    scheduler: str | None = None,
    progress: bool | None = None,
) -> Dataset:
    """``positions`` positions from data matches of their own seeds (never those of
    training), each valued by the mean of ``rollouts`` greedy rollouts: what
    :func:`akvo.eval.calibration` compares the predictions with."""
    spec = DataSpec(rules, seed, rollouts=rollouts, purpose="calibration")
    where: dict[str, Any] = {"workers": workers, "scheduler": scheduler, "progress": progress}
    matches = positions // (POSITIONS_PER_MATCH // 2) + 1
    parts = [generate(spec, matches, **where)]
    while sum(map(len, parts)) < positions:  # rare: fewer positions sampled than expected
        parts.append(generate(spec, matches, start=matches * len(parts), **where))
    return concatenate(parts).subset(np.arange(sum(map(len, parts))) < positions)


def concatenate(parts: Sequence[Dataset]) -> Dataset:
    """The datasets one after the other."""
    return Dataset(
        np.concatenate([p.raw for p in parts]),
        np.concatenate([p.value for p in parts]),
        np.concatenate([p.diff for p in parts]),
        np.concatenate([p.match for p in parts]),
    )


def _bar(total: int) -> Any:
    from akvo.extras import optional

    return optional("tqdm").tqdm(total=total, unit="match", file=sys.stderr, leave=False)


# --- fitting --------------------------------------------------------------------------------
@dataclass
class Fit:
    """Fitted weights and the learning curve: per epoch, held-out log-loss, accuracy (the
    favourite, by the prediction, wins more than half the rollout), score MAE, and the
    train log-loss."""

    weights: Weights
    curve: list[dict[str, float]] = field(default_factory=list)


def _log_loss(p: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _forward(params: Params, x: Array) -> tuple[Array, Array, Array]:
    """Outputs ``(n, 2)`` and the two hidden layers (viewer's, swapped) for backprop."""
    xs = swap_sides(x)  # type: ignore[arg-type]
    h = np.tanh(x @ params["w1"] + params["b1"])
    hs = np.tanh(xs @ params["w1"] + params["b1"])
    return (h - hs) @ params["w2"], h, hs


def fit(
    data: Dataset,
    rules: RulesConfig,
    seed: int = 0,
    *,
    epochs: int = 20,
    hidden: int = HIDDEN,
    batch: int = 256,
    rate: float = 0.003,
    score_weight: float = 0.2,
    decay: float = 1e-4,
    meta: dict[str, Any] | None = None,
    on_epoch: Callable[[dict[str, float]], None] | None = None,
) -> Fit:
    """Fit the network on ``data`` (a held-out tenth of the matches kept aside, by match
    index) with Adam on log-loss (win chance) + ``score_weight`` × squared error (score
    difference, in :data:`~akvo.eval.model.SCORE_SCALE` points), weight decay ``decay``;
    the weights kept are those of the epoch with the best held-out log-loss."""
    if len(data) < 10:
        raise TrainError(f"too few positions to fit ({len(data)})")
    rng = np.random.default_rng(seed)
    held = (data.match % round(1 / HELD_OUT_SHARE)) == 0
    if held.all() or not held.any():
        held = np.arange(len(data)) % 10 == 0
    x_all = features(data.raw, 0, rules).astype(np.float64)
    # one mean and scale per feature, the two side blocks pooled (keeps the swap exact)
    both = np.concatenate([x_all, swap_sides(x_all)])  # type: ignore[arg-type]
    mean = both.mean(axis=0)
    scale = both.std(axis=0)
    scale[scale < 1e-6] = 1.0
    x = (x_all - mean) / scale
    y = data.value
    d = data.diff / SCORE_SCALE
    xt, yt, dt = x[~held], y[~held], d[~held]
    xh, yh, dh = x[held], y[held], d[held]
    params = {
        "w1": rng.normal(0.0, 1.0 / np.sqrt(FEATURE_SIZE), (FEATURE_SIZE, hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0.0, 0.1 / np.sqrt(hidden), (hidden, 2)),
    }
    moments = adam_moments(params)
    step = 0
    curve: list[dict[str, float]] = []
    best_loss, best = float("inf"), params
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(yt))
        for start in range(0, len(order), batch):
            pick = order[start : start + batch]
            xb, yb, db = xt[pick], yt[pick], dt[pick]
            out, h, hs = _forward(params, xb)
            p = 1.0 / (1.0 + np.exp(-out[:, 0]))
            grad_out = np.stack([p - yb, score_weight * 2 * (out[:, 1] - db)], axis=1) / len(pick)
            grads = _backward(params, xb, h, hs, grad_out)
            grads["w1"] += decay * params["w1"]
            grads["w2"] += decay * params["w2"]
            step += 1
            adam_step(params, grads, moments, step, rate)
        row = _scores(params, (xt, yt, dt), (xh, yh, dh))
        row["epoch"] = float(epoch)
        curve.append(row)
        if row["held_log_loss"] < best_loss:
            best_loss, best = row["held_log_loss"], {k: v.copy() for k, v in params.items()}
        if on_epoch is not None:
            on_epoch(row)
    weights = Weights(
        w1=best["w1"],
        b1=best["b1"],
        w2=best["w2"],
        mean=mean,
        scale=scale,
        rules=rules,
        meta=dict(
            meta or {},
            positions=len(data),
            held_out=int(held.sum()),
            hidden=hidden,
            best_epoch=min(curve, key=lambda row: row["held_log_loss"])["epoch"],
            curve=[{k: round(v, 5) for k, v in row.items()} for row in curve],
        ),
    )
    return Fit(weights, curve)


def adam_moments(params: Params) -> dict[str, tuple[Array, Array]]:
    """Adam's first and second moments of each parameter, at zero."""
    return {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}


def adam_step(
    params: Params,
    grads: Params,
    moments: dict[str, tuple[Array, Array]],
    step: int,
    rate: float,
    betas: tuple[float, float] = (0.9, 0.999),
    eps: float = 1e-8,
) -> None:
    """One Adam update of ``params`` in place (``step`` counts from 1)."""
    beta1, beta2 = betas
    for k in params:
        m, v = moments[k]
        m *= beta1
        m += (1 - beta1) * grads[k]
        v *= beta2
        v += (1 - beta2) * grads[k] ** 2
        m_hat = m / (1 - beta1**step)
        v_hat = v / (1 - beta2**step)
        params[k] -= rate * m_hat / (np.sqrt(v_hat) + eps)


def _backward(params: Params, x: Array, h: Array, hs: Array, grad_out: Array) -> Params:
    w2 = params["w2"]
    grad_w2 = (h - hs).T @ grad_out
    grad_h = grad_out @ w2.T * (1 - h**2)
    grad_hs = -(grad_out @ w2.T) * (1 - hs**2)
    xs = swap_sides(x)  # type: ignore[arg-type]
    grad_w1 = x.T @ grad_h + xs.T @ grad_hs
    grad_b1 = grad_h.sum(axis=0) + grad_hs.sum(axis=0)
    return {"w1": grad_w1, "b1": grad_b1, "w2": grad_w2}


def _scores(
    params: Params, train: tuple[Array, Array, Array], held: tuple[Array, Array, Array]
) -> dict[str, float]:
    """Train and held-out log-losses, held-out accuracy and score MAE; each set is
    (features, win values, scaled score differences)."""
    (xt, yt, _), (xh, yh, dh) = train, held
    out_h = _forward(params, xh)[0]
    out_t = _forward(params, xt)[0]
    ph = 1.0 / (1.0 + np.exp(-out_h[:, 0]))
    pt = 1.0 / (1.0 + np.exp(-out_t[:, 0]))
    decided = yh != 0.5
    return {
        "train_log_loss": _log_loss(pt, yt),
        "held_log_loss": _log_loss(ph, yh),
        "held_accuracy": float(np.mean((ph[decided] > 0.5) == (yh[decided] > 0.5))),
        "held_score_mae": float(np.mean(np.abs(out_h[:, 1] - dh)) * SCORE_SCALE),
    }


def baseline_log_loss(values: Sequence[float] | npt.NDArray[np.float64]) -> float:
    """The log-loss of always predicting the mean (what the features must beat)."""
    y = np.asarray(values, dtype=np.float64)
    return _log_loss(np.full_like(y, y.mean()), y)


def train(
    matches: int,
    seed: int = 0,
    rules: RulesConfig = DEFAULT_RULES,
    *,
    workers: int | None = 1,
    scheduler: str | None = None,
    progress: bool | None = None,
    epochs: int = 20,
    on_epoch: Callable[[dict[str, float]], None] | None = None,
) -> tuple[Fit, Dataset, float]:
    """Generate the data of ``matches`` matches and fit; returns the fit, the data and the
    seconds taken."""
    started = time.perf_counter()
    spec = DataSpec(rules, seed)
    data = generate(spec, matches, workers=workers, scheduler=scheduler, progress=progress)
    meta = {"matches": matches, "seed": seed, "epochs": epochs, "command": "akvo train"}
    result = fit(data, rules, seed, epochs=epochs, meta=meta, on_epoch=on_epoch)
    return result, data, time.perf_counter() - started
