"""Luck's variance reduction (issue 34: the luck-adjusted result has ≥ 10× less variance
than the raw result over 10,000 bot matches), written to ``benchmarks/results/coach.md``.

Greedy-vs-greedy matches (the default teams; dice seeds of the purpose « held-out », never
those the luck evaluation was fitted on, :mod:`akvo.eval.luck`): per match the result
(A: 1, ½, 0) and the luck-adjusted result (result − the luck of every chance event:
rolls, Relance rerolls, weather draws; greedy bots do not draw at random) under the shipped
evaluation and under the luck evaluation. The variances' ratio comes with a 95 % bootstrap
interval over matches.

    nice -n 10 .venv/bin/python benchmarks/bench_luck.py --matches 10000 --workers 2
    nice -n 10 .venv/bin/python benchmarks/bench_luck.py --decompose 80   # where it comes from

``--decompose N`` splits, over N matches, what the luck leaves unexplained: with the
evaluation V from A's view (exact at the end), result − V(start) − luck is the sum of the
moves of V at decision nodes (a consistent V does not move there under the bots' known,
deterministic play) and, at each chance node, of (expectation over its outcomes − V at the
node). It prints the variance over matches of each phase's sum.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recorded import stamp
from sections import show_and_record

RESULTS = Path(__file__).resolve().parent / "results" / "coach.md"
SECTION = "## Luck: variance of the luck-adjusted result (`bench_luck.py`)"


def chunk(seed: int, start: int, stop: int) -> list[tuple[float, float, float]]:
    """Per match ``start … stop − 1``: result, adjusted (shipped), adjusted (luck)."""
    warnings.simplefilter("ignore")
    from akvo.eval import default_evaluation
    from akvo.eval.luck import adjusted_results, luck_chunk, luck_evaluation

    out = []
    for index in range(start, stop):
        data = luck_chunk(seed, index, index + 1, purpose="held-out")
        shipped = adjusted_results(data, default_evaluation().win_chances_of_raw(data.raw, 0))
        judge = luck_evaluation()
        luck = (
            shipped
            if judge is default_evaluation()
            else adjusted_results(data, judge.win_chances_of_raw(data.raw, 0))
        )
        out.append((float(data.result[0]), float(shipped[0]), float(luck[0])))
    return out


def decompose(matches: int) -> list[str]:
    """The residual's parts per phase (see the module), as Markdown lines."""
    from collections import defaultdict

    from akvo.bots.greedy import GreedyBot
    from akvo.eval import default_evaluation
    from akvo.eval.luck import chance_outcomes
    from akvo.match.bots import play_match
    from akvo.match.core import CHANCE
    from akvo.match.state import replay

    judge = default_evaluation()
    parts: list[dict[str, float]] = []
    for index in range(matches):
        record = play_match(7000 + index, bots=(GreedyBot(0), GreedyBot(0)), log=False).record()
        state = replay({**record, "actions": []}, log=False)
        sums: dict[str, float] = defaultdict(float)
        for action in record["actions"]:
            name = state.phase_name()
            before = judge.win_chance(state, 0)
            if state.player == CHANCE:
                outcomes = chance_outcomes(state)
                chances = judge.win_chances([child for child, _ in outcomes], 0)
                expected = sum(float(p) * c for (_, p), c in zip(outcomes, chances, strict=True))
                sums[f"chance node: expectation − value, {name}"] += expected - before
                sums[f"luck, {name}"] += judge.win_chance(state.child(action), 0) - expected
            else:
                sums[f"decision: move of the value, {name}"] += (
                    judge.win_chance(state.child(action), 0) - before
                )
            state.apply_action(action)
        parts.append(sums)
    keys = sorted({key for sums in parts for key in sums})
    table = np.array([[sums.get(key, 0.0) for key in keys] for sums in parts])
    residual = table[:, [not key.startswith("luck") for key in keys]].sum(axis=1)
    lines = [
        f"Over {matches} greedy matches (seeds 7000…), the unexplained part "
        f"(result − start − luck) has variance {np.var(residual, ddof=1):.4f}.",
        "",
        "| part (summed over a match) | variance | mean |",
        "| --- | ---: | ---: |",
    ]
    order = np.argsort(-table.var(axis=0))
    lines += [
        f"| {keys[i]} | {table[:, i].var(ddof=1):.4f} | {table[:, i].mean():+.4f} |" for i in order
    ]
    return lines


def ratio_interval(raw: np.ndarray, adjusted: np.ndarray, draws: int = 2000) -> tuple[float, float]:
    rng = np.random.default_rng(0)
    n = len(raw)
    ratios = []
    for _ in range(draws):
        pick = rng.integers(0, n, n)
        ratios.append(np.var(raw[pick], ddof=1) / np.var(adjusted[pick], ddof=1))
    low, high = np.percentile(ratios, [2.5, 97.5])
    return float(low), float(high)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=60.0, help="stop after this long")
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--decompose", type=int, default=0, help="only the residual's parts")
    args = parser.parse_args()
    if args.decompose:
        warnings.simplefilter("ignore")
        print("\n".join(decompose(args.decompose)))
        return 0
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from akvo import compiled

    started = time.perf_counter()
    rows: list[tuple[float, float, float]] = []
    bounds = [(a, min(args.matches, a + 50)) for a in range(0, args.matches, 50)]
    with ProcessPoolExecutor(max(1, args.workers)) as pool:
        futures = [pool.submit(chunk, args.seed, a, b) for a, b in bounds]
        for future in as_completed(futures):
            rows += future.result()
            if time.perf_counter() - started > 60 * args.minutes:
                for other in futures:
                    other.cancel()
                break
    seconds = time.perf_counter() - started
    data = np.array(rows)
    raw, shipped, luck = data[:, 0], data[:, 1], data[:, 2]
    var_raw = np.var(raw, ddof=1)
    lines = [
        SECTION,
        "",
        stamp("bench_luck.py", f" (`--matches {args.matches} --workers {args.workers}`)") + ".",
        "",
        f"{len(raw)} greedy-vs-greedy matches (held-out dice seeds) in {seconds:.0f} s; "
        f"engine: {compiled.ENGINE} (this process).",
        "",
        "| value function | variance of the adjusted result | reduction (95 % bootstrap) |",
        "| --- | ---: | ---: |",
        f"| none (the raw result) | {var_raw:.4f} | 1× |",
    ]
    from akvo.eval.luck import LUCK_WEIGHTS

    measured = [("shipped evaluation", shipped)]
    if LUCK_WEIGHTS.exists():  # else the luck evaluation is the shipped one
        measured.append(("luck evaluation", luck))
    for name, adjusted in measured:
        var = np.var(adjusted, ddof=1)
        low, high = ratio_interval(raw, adjusted)
        lines.append(f"| {name} | {var:.4f} | {var_raw / var:.2f}× ({low:.2f}–{high:.2f}) |")
    return show_and_record(RESULTS, SECTION, lines, record=not args.no_record)


if __name__ == "__main__":
    sys.exit(main())
