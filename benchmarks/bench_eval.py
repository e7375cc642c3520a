"""The learned evaluation: speed (positions per second on one core, features + network) and
calibration (predicted win chance against the mean of long greedy rollouts on held-out
positions). Targets: ≥ 20,000 positions/s in batches; mean absolute calibration error
≤ 3 points.

Run (one core for the network: OpenBLAS threads set to 1 before numpy loads)::

    .venv/bin/python benchmarks/bench_eval.py [--positions 2000] [--rollouts 16] \\
        [--train-log FILE]

Speed: decision nodes of random and greedy matches, evaluated in batches of several sizes
(the whole :meth:`~akvo.eval.Evaluation.win_chances` call: reading the states, features,
network), and one at a time. Calibration: :func:`akvo.eval.train.held_out_positions` (seeds
never used in training) and :func:`akvo.eval.calibration`. ``--train-log``: the output of
the ``akvo train`` run that made the shipped weights, quoted in the report. Writes
benchmarks/results/eval.md.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core, as the target says

import argparse
import statistics
import time
from functools import partial
from pathlib import Path

import numpy as np

from akvo.eval import calibration, default_evaluation
from akvo.eval.features import features, raw_batch
from akvo.eval.train import held_out_positions
from akvo.match import MatchState, decisions, new_match
from akvo.match.bots import RandomBot

RESULTS = Path(__file__).parent / "results" / "eval.md"


def nodes(matches: int) -> list[MatchState]:
    """Every decision node of ``matches`` random and greedy matches (copies)."""
    from akvo.bots.greedy import GreedyBot

    out: list[MatchState] = []
    for seed in range(matches):
        bots = (
            (RandomBot(seed), RandomBot(seed + 1))
            if seed % 2
            else (GreedyBot(seed), GreedyBot(seed + 1))
        )
        state = new_match("perrockiss", "fish-tank", log=False)
        out += [n.copy() for n in decisions(state, seed, bots)]
    return out


def per_position(call: object, batch: list[MatchState], repeats: int) -> float:
    """The best of ``repeats`` timings of ``call(batch)``, in µs per position."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        call(batch)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best / len(batch) * 1e6


def speed(positions: list[MatchState]) -> list[str]:
    ev = default_evaluation()
    lines = [
        "| batch | whole call µs/position | reading states | features | network | positions/s |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for size in (1, 16, 256, 4096):
        batch = positions[:size]
        repeats = max(3, 20_000 // size)
        r = raw_batch(batch)
        x = features(r, 0, ev.rules).astype(np.float64)
        total = per_position(partial(ev.win_chances, side=0), batch, repeats)
        reading = per_position(raw_batch, batch, repeats)
        feats = per_position(lambda _, r=r: features(r, 0, ev.rules), batch, repeats)
        network = per_position(lambda _, x=x: ev.forward(x), batch, repeats)
        lines.append(
            f"| {size} | {total:.1f} | {reading:.1f} | {feats:.1f} | {network:.1f} | "
            f"{1e6 / total:,.0f} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=12, help="matches for the speed nodes")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-log", type=Path, default=None)
    args = parser.parse_args()
    from recorded import stamp, write  # type: ignore[import-not-found]

    ev = default_evaluation()
    meta = ev.weights.meta
    lines = ["# Learned evaluation (`benchmarks/bench_eval.py`)", ""]
    lines += [f"Weights: `akvo/eval/weights/default.npz`, {meta}", ""]
    sample = nodes(args.matches)
    lines += ["## Speed (one core)", "", f"{len(sample)} decision nodes.", ""]
    lines += speed(sample)
    started = time.perf_counter()
    data = held_out_positions(
        ev.rules, args.positions, args.rollouts, args.seed, workers=0, progress=False
    )
    seconds = time.perf_counter() - started
    predicted = 1.0 / (
        1.0 + np.exp(-ev.forward(features(data.raw, 0, ev.rules).astype(float))[:, 0])
    )
    curve = calibration(predicted, data.value)
    spread = statistics.fmean(abs(p - v) for p, v in zip(predicted, data.value, strict=True))
    lines += [
        "",
        "## Calibration",
        "",
        f"{len(data)} held-out positions (exploring greedy matches, seeds never used in "
        f"training), each valued by the mean of {args.rollouts} greedy rollouts "
        f"({seconds:.0f} s); A's predicted win chance against that mean, 10 bins:",
        "",
        curve.to_markdown(),
        "",
        f"Per position, the mean |predicted − rollout mean| is {100 * spread:.1f} points "
        f"(the rollout mean's own standard error is up to {50 / args.rollouts**0.5:.1f}).",
    ]
    curve_rows = meta.get("curve")
    if args.train_log is not None:
        lines += ["", "## Training run", "", "```", args.train_log.read_text().strip(), "```"]
    elif curve_rows:
        lines += ["", "## Learning curve", "", str(curve_rows)]
    lines += ["", stamp("bench_eval.py")]
    write(RESULTS, lines)


if __name__ == "__main__":
    main()
