"""The balance report's cost: the six presets round robin on a LocalCluster, cluster start
included (issue 21 target: 1,000 matches per ordered pair, 2 workers, ≤ 2 min).

Run: ``.venv/bin/python benchmarks/bench_tournament.py [--matches N] [--effect-matches M]``
(``--matches 20 --no-record``: a quick check). Greedy bots, default rules, seed 1. Timed
twice: the round robin alone (``--effect-matches 0``), then with each rune kind and
Ultime's effect (``M`` matches per pair replayed per item; default N/10). Writes
benchmarks/results/tournament.md with the report itself.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from recorded import stamp, write

from akvo.lab.tournament import BalanceReport, tournament

RESULTS = Path(__file__).parent / "results" / "tournament.md"


def timed(n: int, effect: int, workers: int) -> tuple[BalanceReport, float, float]:
    """The report, its seconds (cluster start included) and the load average after it."""
    begin = time.perf_counter()
    report = tournament(n=n, effect_matches=effect, seed=1, workers=workers, progress=False)
    return report, time.perf_counter() - begin, os.getloadavg()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=1000, help="per ordered pair")
    parser.add_argument("--effect-matches", type=int, default=None, help="default N/10")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-record", dest="record", action="store_false")
    args = parser.parse_args()
    effect = args.effect_matches if args.effect_matches is not None else args.matches // 10
    _plain, plain_s, plain_load = timed(args.matches, 0, args.workers)
    print(f"round robin: {plain_s:.0f} s, load {plain_load:.1f}", flush=True)
    full, full_s, full_load = timed(args.matches, effect, args.workers)
    pairs = len(full.pairs)
    items = len(full.effects)
    lines = [
        "# Balance report (akvo tournament)",
        "",
        f"{stamp('bench_tournament.py', f' ({args.workers} Dask workers, LocalCluster)')}.",
        "",
        "The six presets round robin (every ordered pair: both seats), greedy against "
        "greedy, default rules, seed 1; each time includes starting and closing the cluster.",
        "",
        "| run | matches | time (s) | load average after |",
        "| --- | ---: | ---: | ---: |",
        f"| round robin, {args.matches} per ordered pair ({pairs} pairs) | "
        f"{pairs * args.matches} | {plain_s:.0f} | {plain_load:.1f} |",
        f"| the same + {items} runes and Ultimes × {effect} matches per pair | "
        f"{pairs * (args.matches + items * effect)} | {full_s:.0f} | {full_load:.1f} |",
        "",
        f"Target (issue 21): ≤ 120 s for the round robin of 1,000 matches per ordered pair on "
        f"2 workers, cluster start included. Command: `akvo tournament -n {args.matches} "
        f"--effect-matches {effect} --workers {args.workers} --out balance.csv` (the "
        "default, `akvo tournament`, plays 100 per pair and 10 per item).",
        "",
        "## The report",
        "",
        "```",
        full.to_text(),
        "```",
    ]
    if args.record:
        write(RESULTS, lines)
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
