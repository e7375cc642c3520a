"""Luck's variance reduction (issue 34: the luck-adjusted result has ≥ 10× less variance
than the raw result over 10,000 bot matches), written to ``benchmarks/results/coach.md``.

Greedy-vs-greedy matches (the default teams; dice seeds of the purpose « held-out », never
those the luck evaluation was fitted on, :mod:`akvo.eval.luck`): per match the result
(A: 1, ½, 0) and the luck-adjusted result (result − the luck of every chance event:
rolls, Relance rerolls, weather draws; greedy bots do not draw at random) under the shipped
evaluation and under the luck evaluation. The variances' ratio comes with a 95 % bootstrap
interval over matches.

    nice -n 10 .venv/bin/python benchmarks/bench_luck.py --matches 10000 --workers 2
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
from sections import write_section

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
        luck = adjusted_results(data, luck_evaluation().win_chances_of_raw(data.raw, 0))
        out.append((float(data.result[0]), float(shipped[0]), float(luck[0])))
    return out


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
    args = parser.parse_args()
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
    for name, adjusted in (("shipped evaluation", shipped), ("luck evaluation", luck)):
        var = np.var(adjusted, ddof=1)
        low, high = ratio_interval(raw, adjusted)
        lines.append(f"| {name} | {var:.4f} | {var_raw / var:.2f}× ({low:.2f}–{high:.2f}) |")
    print("\n".join(lines))
    if not args.no_record:
        write_section(RESULTS, SECTION, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
