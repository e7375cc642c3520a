"""The learned evaluation: speed (positions per second on one core, features + network) and
calibration (predicted win chance against the mean of long greedy rollouts on held-out
positions). Targets: ≥ 20,000 positions/s in batches; mean absolute calibration error
≤ 3 points.

Run (one core for the network: OpenBLAS threads set to 1 before numpy loads)::

    .venv/bin/python benchmarks/bench_eval.py [--positions 2000] [--rollouts 16] \\
        [--calibration-data FILE] [--training TEXT]

Speed: decision nodes of random and greedy matches, evaluated in batches of several sizes
(the whole :meth:`~akvo.eval.Evaluation.win_chances` call: reading the states, features,
network), and one at a time. Calibration: :func:`akvo.eval.train.held_out_positions` (seeds
never used in training) and :func:`akvo.eval.calibration`. The learning curve is the one
the shipped weights record; ``--training`` says how they were made. Writes
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

from akvo.eval import DEFAULT_WEIGHTS, FEATURE_VERSION, calibration, default_evaluation, rules_stamp
from akvo.eval.features import features, raw_batch
from akvo.eval.train import Dataset, held_out_positions
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


def calibration_data(path: Path | None, positions: int, rollouts: int, seed: int) -> Dataset:
    """The held-out positions: read from ``path`` if it exists, else made (and saved there)."""
    if path is not None and path.exists():
        with np.load(path) as saved:
            return Dataset(saved["raw"], saved["value"], saved["diff"], saved["match"])
    data = held_out_positions(
        default_evaluation().rules, positions, rollouts, seed, workers=0, progress=False
    )
    if path is not None:
        np.savez(path, raw=data.raw, value=data.value, diff=data.diff, match=data.match)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=12, help="matches for the speed nodes")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--training",
        default="",
        help="how the shipped weights were made (command, data and CPU time), quoted",
    )
    parser.add_argument(
        "--calibration-data",
        type=Path,
        default=None,
        help="an .npz of held-out positions saved by an earlier run (else made and saved here)",
    )
    args = parser.parse_args()
    from recorded import stamp, write  # type: ignore[import-not-found]

    ev = default_evaluation()
    meta = ev.weights.meta
    lines = ["# Learned evaluation (`benchmarks/bench_eval.py`)", ""]
    lines += [
        "Weights: `akvo/eval/weights/default.npz` "
        f"({DEFAULT_WEIGHTS.stat().st_size / 1024:.0f} KiB), feature version "
        f"{FEATURE_VERSION}, rules {rules_stamp(ev.rules)}.",
        "",
    ]
    sample = nodes(args.matches)
    lines += ["## Speed (one core)", "", f"{len(sample)} decision nodes.", ""]
    lines += speed(sample)
    saved = args.calibration_data is not None and args.calibration_data.exists()
    started = time.perf_counter()
    data = calibration_data(args.calibration_data, args.positions, args.rollouts, args.seed)
    made = "saved by an earlier run" if saved else f"made in {time.perf_counter() - started:.0f} s"
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
        f"({made}); A's predicted win chance against that mean, 10 bins:",
        "",
        curve.to_markdown(),
        "",
        f"Per position, the mean |predicted − rollout mean| is {100 * spread:.1f} points "
        f"(the rollout mean's own standard error is up to {50 / args.rollouts**0.5:.1f}).",
    ]
    lines += ["", "## Training and learning curve", ""]
    if args.training:
        lines += [args.training, ""]
    lines += [
        f"{meta.get('positions')} positions ({meta.get('held_out')} held out: every tenth "
        f"match); the weights kept are epoch {int(meta.get('best_epoch', 0))}'s (best held-out "
        "log-loss). Always predicting the mean scores a log-loss of 0.693.",
        "",
        "| epoch | train log-loss | held-out log-loss | held-out accuracy | score MAE |",
        "|---:|---:|---:|---:|---:|",
    ]
    for row in meta.get("curve", []):
        lines.append(
            f"| {int(row['epoch'])} | {row['train_log_loss']:.4f} | {row['held_log_loss']:.4f}"
            f" | {row['held_accuracy']:.4f} | {row['held_score_mae']:.3f} |"
        )
    lines += ["", stamp("bench_eval.py")]
    write(RESULTS, lines)


if __name__ == "__main__":
    main()
