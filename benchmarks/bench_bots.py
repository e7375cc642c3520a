"""Bot reply time per decision (p50, p95): target for the greedy bot p95 ≤ 50 ms.

Run: ``.venv/bin/python benchmarks/bench_bots.py [--matches N]``. Decision nodes are collected
from matches played by two greedy bots (Perrockiss against Fish Tank, default rules); each
bot then answers every collected node once, timed with ``perf_counter``. The search bot
(default budget) answers a sample of the nodes, orders decisions reported apart (the only
ones it searches). Writes benchmarks/results/bots.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import time
from pathlib import Path

from akvo.bots import make_bot
from akvo.bots.search import DEFAULT_BUDGET
from akvo.bots.values import clear_worths
from akvo.match import MatchState, decisions, new_match
from akvo.match.phases import ORDERS

RESULTS = Path(__file__).parent / "results" / "bots.md"


def decision_nodes(matches: int) -> list[MatchState]:
    """A copy of every decision node of ``matches`` greedy-vs-greedy matches."""
    nodes: list[MatchState] = []
    for seed in range(matches):
        bots = (make_bot("greedy", 2 * seed), make_bot("greedy", 2 * seed + 1))
        nodes += [node.copy() for node in decisions(new_match(), seed, bots)]
    return nodes


def timings(name: str, nodes: list[MatchState]) -> list[float]:
    clear_worths()  # no position seen before: only the exact shot values stay cached
    bot = make_bot(name, 1)
    out = []
    for node in nodes:
        begin = time.perf_counter()
        bot(node)
        out.append((time.perf_counter() - begin) * 1000)
    return out


def quantiles(values: list[float]) -> tuple[float, float, float]:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return statistics.median(values), cuts[94], max(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--search-nodes", type=int, default=60)
    args = parser.parse_args()
    nodes = decision_nodes(args.matches)
    timings("greedy", nodes[:200])  # warm the shot caches
    rows = []
    for name in ("random", "greedy"):
        rows.append((name, "every decision", len(nodes), *quantiles(timings(name, nodes))))
    orders = [n for n in nodes if n.phase == ORDERS]
    rng = random.Random(0)
    sample = rng.sample(orders, min(len(orders), args.search_nodes // 3))
    others = rng.sample([n for n in nodes if n.phase != ORDERS], args.search_nodes)
    rows.append(("greedy", "orders only", len(orders), *quantiles(timings("greedy", orders))))
    rows.append(("search", "orders only", len(sample), *quantiles(timings("search", sample))))
    rows.append(("search", "other decisions", len(others), *quantiles(timings("search", others))))
    lines = report(rows, args.matches)
    print("\n".join(lines))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")


def report(rows: list[tuple[str, str, int, float, float, float]], matches: int) -> list[str]:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()[0]
    lines = [
        "# Bots: reply time per decision",
        "",
        f"Recorded {now} by `benchmarks/bench_bots.py` on {platform.machine()} with "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; load average {load:.1f} "
        "at the end (the machine is shared: treat the times as a ceiling).",
        "",
        f"Decision nodes: every node met in {matches} matches of two greedy bots (Perrockiss "
        "against Fish Tank, default rules); each bot answers each node once (exact shot "
        "values cached, position cache emptied first). "
        f"Search bot at its default budget ({DEFAULT_BUDGET} rollouts per candidate), on a "
        "sample of nodes.",
        "",
        "| bot | decisions | nodes | p50 (ms) | p95 (ms) | max (ms) | target |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, which, count, p50, p95, top in rows:
        target = "p95 ≤ 50 ms" if name == "greedy" and which == "every decision" else ""
        lines.append(
            f"| {name} | {which} | {count} | {p50:.3f} | {p95:.3f} | {top:.1f} | {target} |"
        )
    return lines


if __name__ == "__main__":
    main()
