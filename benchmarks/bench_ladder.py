"""The bot ladder: search beats greedy, greedy beats random — with 95 % intervals.

Run: ``.venv/bin/python benchmarks/bench_ladder.py [--matches N] [--search-matches M]``
(``--matches 10 --search-matches 2 --no-record``: a quick check that it runs).
Each pairing is played half with the stronger bot as side A and half as side B (different
seeds), Perrockiss against Fish Tank, default rules, on a LocalCluster of 2 workers. A bot's
*points* are 1 per win and ½ per draw; it beats the other when the 95 % interval of its mean
points lies above ½. Writes benchmarks/results/ladder.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from recorded import stamp, write

from akvo.bots.search import DEFAULT_BUDGET, DEFAULT_HORIZON
from akvo.lab import Interval, dask_client, mean_interval, proportion, simulate

RESULTS = Path(__file__).parent / "results" / "ladder.md"
TEAMS = ("perrockiss", "fish-tank")


def pairing(strong: str, weak: str, n: int, client: object) -> tuple[int, int, int, float]:
    """(wins, draws, losses of ``strong``, seconds) over ``n`` matches, both sides."""
    begin = time.perf_counter()
    half = n // 2
    as_a = simulate(*TEAMS, (strong, weak), None, half, seed=1, client=client, progress=False)
    as_b = simulate(*TEAMS, (weak, strong), None, n - half, seed=2, client=client, progress=False)
    wins = as_a.column("winner").count("A") + as_b.column("winner").count("B")
    draws = as_a.column("winner").count("draw") + as_b.column("winner").count("draw")
    return wins, draws, n - wins - draws, time.perf_counter() - begin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=400, help="greedy vs random")
    parser.add_argument("--search-matches", type=int, default=200, help="search vs greedy")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--no-record", dest="record", action="store_false", help="do not write the results"
    )
    args = parser.parse_args()
    rows = []
    with dask_client(args.workers) as client:
        for strong, weak, n in (
            ("greedy", "random", args.matches),
            ("search", "greedy", args.search_matches),
        ):
            wins, draws, losses, seconds = pairing(strong, weak, n, client)
            points = mean_interval([1.0] * wins + [0.5] * draws + [0.0] * losses)
            rows.append(
                (strong, weak, n, wins, draws, losses, points, proportion(wins, n), seconds)
            )
    lines = report(rows, args.workers)
    if args.record:
        write(RESULTS, lines)
    else:
        print("\n".join(lines))


def report(
    rows: list[tuple[str, str, int, int, int, int, Interval, Interval, float]], workers: int
) -> list[str]:
    lines = [
        "# Bot ladder",
        "",
        f"{stamp('bench_ladder.py', f' ({workers} Dask workers)')}.",
        "",
        "Perrockiss against Fish Tank, default rules; each pairing half with the stronger bot "
        f"as A, half as B. Search bot: budget {DEFAULT_BUDGET} rollouts per candidate, horizon "
        f"{DEFAULT_HORIZON} turn(s). Points: win 1, draw ½ (95 % Student interval); P(win): "
        "95 % Wilson interval (scipy).",
        "",
        "| pairing | matches | wins / draws / losses | mean points [95 %] | P(win) [95 %] "
        "| beats? | time (s) |",
        "| --- | ---: | --- | --- | --- | --- | ---: |",
    ]
    for strong, weak, n, wins, draws, losses, points, p_win, seconds in rows:
        verdict = "yes" if points.low > 0.5 else "not shown"
        lines.append(
            f"| {strong} vs {weak} | {n} | {wins} / {draws} / {losses} | {points.estimate:.3f} "
            f"[{points.low:.3f}, {points.high:.3f}] | {p_win.estimate:.3f} [{p_win.low:.3f}, "
            f"{p_win.high:.3f}] | {verdict} | {seconds:.0f} |"
        )
    return lines


if __name__ == "__main__":
    main()
