"""The coach's latency targets (issue 19.6), recorded in ``benchmarks/results/coach.md``.

- exact values at a decision (:func:`akvo.coach.decision_values`, what each button shows):
  p95 ≤ 50 ms, over every decision node of greedy matches;
- first win-chance estimates for every option of a decision (what the match page's worker
  reports first: :meth:`akvo.coach.WinChances.refine_for` of
  :data:`akvo_widgets.play.coach.FIRST_SECONDS`, one rollout per option per step): ≤ 2 s;
- a whole match reviewed (:func:`akvo.coach.review`, both sides, default budget) with 2
  Dask workers: ≤ 60 s; with ``--speedup`` also with 1 worker, the speed-up beside this
  machine's ceiling, measured in the same run (:func:`ceiling`: the same CPU-bound job, the
  rollouts' own work, done twice in one process and once in each of two processes at the
  same time; on a shared machine it says how much of a second core there was to have).

Default run (short): ``.venv/bin/python benchmarks/bench_coach.py``; the whole set:
``.venv/bin/python benchmarks/bench_coach.py --matches 5 --speedup`` on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recorded import stamp, write

from akvo.bots.greedy import GreedyBot
from akvo.coach import WinChances, decision_values, review
from akvo.match import play_match, replay
from akvo.match.state import MatchState
from akvo_widgets.play.coach import FIRST_SECONDS

RESULTS = Path(__file__).resolve().parent / "results" / "coach.md"


def decision_nodes(seed: int) -> list[MatchState]:
    record = play_match(seed, bots=(GreedyBot(seed), GreedyBot(seed + 1))).record()
    state = replay({**record, "actions": []})
    nodes = []
    for action in record["actions"]:
        if state.player >= 0 and len(state.legal) > 1:
            nodes.append(state.copy())
        state = state.child(action)
    return nodes


#: Greedy matches per job of :func:`ceiling` (about half a second of one core).
CEILING_MATCHES = 200


def greedy_matches(first: int, count: int = CEILING_MATCHES) -> int:
    """``count`` whole matches between « normal » bots, unlogged: what a rollout does."""
    moves = 0
    for seed in range(first, first + count):
        state = play_match(seed, bots=(GreedyBot(seed), GreedyBot(seed + 1)), log=False)
        moves += len(state.history)
    return moves


def ceiling(repeats: int = 3) -> float:
    """The speed-up two processes reach on this machine now for the rollouts' kind of work:
    two jobs one after the other in one process, then one in each of two processes at the
    same time (best of ``repeats`` each, the processes started and warm before the clock)."""
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(greedy_matches, [0, 0], [2, 2]))  # both started, the engine imported
        alone, together = [], []
        for repeat in range(repeats):
            start = time.perf_counter()
            for job in range(2):
                pool.submit(greedy_matches, 1000 * repeat + 100 * job).result()
            alone.append(time.perf_counter() - start)
            start = time.perf_counter()
            list(pool.map(greedy_matches, [1000 * repeat, 1000 * repeat + 100]))
            together.append(time.perf_counter() - start)
    return min(alone) / min(together)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--estimates", type=int, default=20, help="decisions sampled")
    parser.add_argument("--speedup", action="store_true", help="also analyse with 1 worker")
    args = parser.parse_args()
    nodes = [n for seed in range(args.matches) for n in decision_nodes(100 + seed)]
    values_ms = []
    for node in nodes:
        start = time.perf_counter()
        decision_values(node)
        values_ms.append((time.perf_counter() - start) * 1000)
    WinChances(nodes[0], seed=0).refine(1)  # scipy and the caches warm
    sample = nodes[:: max(1, len(nodes) // args.estimates)][: args.estimates]
    first_s = []
    for node in sample:
        start = time.perf_counter()
        WinChances(node, seed=0).refine_for(FIRST_SECONDS, step=1)
        first_s.append(time.perf_counter() - start)
    record = play_match(100, bots=(GreedyBot(100), GreedyBot(101))).record()
    runs = {}
    ceilings = []
    for workers in (2, 1) if args.speedup else (2,):
        if args.speedup:
            ceilings.append(ceiling())  # before each run: the load may change between them
        start = time.perf_counter()
        analysis = review(record, workers=workers, progress=False)
        runs[workers] = time.perf_counter() - start
    decisions = len(analysis.decisions)
    p95v, p95f = np.percentile(values_ms, 95), np.percentile(first_s, 95)
    lines = [
        "# Coach: exact values, first win chances, post-match analysis",
        "",
        stamp(
            "bench_coach.py", f" (`--matches {args.matches}`{' --speedup' if args.speedup else ''})"
        )
        + ".",
        "",
        "| measure | n | p50 | p95 | max | target |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
        f"| decision_values per decision (ms) | {len(values_ms)} | "
        f"{np.percentile(values_ms, 50):.2f} | {p95v:.2f} | {max(values_ms):.1f} | p95 ≤ 50 ms |",
        f"| first estimates, every option (s) | {len(first_s)} | "
        f"{np.percentile(first_s, 50):.2f} | {p95f:.2f} | {max(first_s):.2f} | ≤ 2 s |",
        "",
        f"Whole match analysed (greedy vs greedy, seed 100, both sides, {decisions} decisions, "
        f"default budget {analysis.budget}):",
        "",
        "| workers | seconds | target |",
        "| ---: | ---: | --- |",
    ]
    lines += [f"| {w} | {s:.1f} | {'≤ 60 s' if w == 2 else ''} |" for w, s in runs.items()]
    if 1 in runs:
        speedup = runs[1] / runs[2]
        low, high = min(ceilings), max(ceilings)
        lines += [
            "",
            f"Speed-up of 2 workers over 1: {speedup:.2f}x, beside this machine's ceiling "
            f"measured in the same run: {low:.2f}x–{high:.2f}x (the same CPU-bound job, "
            f"greedy matches, twice in one process against once in each of two at the same "
            f"time, measured before each analysis; {os.cpu_count()} cores, so at most "
            f"{min(2, os.cpu_count() or 1)}x): {speedup / high:.0%} of the ceiling.",
        ]
    write(RESULTS, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
