"""Bot reply time per decision (p50, p95): targets greedy p95 ≤ 50 ms, « expert » p95 ≤ 1 s
and a whole « expert » against « expert » match ≤ 2 min, on one core.

Run: ``.venv/bin/python benchmarks/bench_bots.py [--matches N] [--search-nodes N]
[--expert-matches N]``. Decision nodes are collected from matches played by two greedy bots
(Perrockiss against Fish Tank, default rules); each bot of the registry whose speed class is
« instant » answers every collected node once, timed with ``perf_counter``; the others (at
their default options) answer a sample, orders decisions reported apart. Then whole matches
of « expert » against « expert » are timed. Writes benchmarks/results/bots.md.
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
from typing import Any

from akvo.bots import REGISTRY, make_bot
from akvo.bots.expert import DEFAULT_BUDGET as EXPERT_BUDGET
from akvo.bots.search import DEFAULT_BUDGET
from akvo.bots.values import clear_worths
from akvo.match import MatchState, decisions, new_match, play_match
from akvo.match.phases import ORDERS

RESULTS = Path(__file__).parent / "results" / "bots.md"


def decision_nodes(matches: int) -> list[MatchState]:
    """A copy of every decision node of ``matches`` greedy-vs-greedy matches."""
    nodes: list[MatchState] = []
    for seed in range(matches):
        bots = (make_bot("greedy", 2 * seed), make_bot("greedy", 2 * seed + 1))
        nodes += [node.copy() for node in decisions(new_match(), seed, bots)]
    return nodes


def timings(name: str, nodes: list[MatchState]) -> tuple[list[float], list[float]]:
    """Each node's reply time in ms: wall clock, and this process's CPU time (what one
    core costs, whatever else shares the machine)."""
    clear_worths()  # no position seen before: only the exact shot values stay cached
    bot = make_bot(name, 1)
    wall, cpu = [], []
    for node in nodes:
        begin, begin_cpu = time.perf_counter(), time.process_time()
        bot(node)
        wall.append((time.perf_counter() - begin) * 1000)
        cpu.append((time.process_time() - begin_cpu) * 1000)
    return wall, cpu


def expert_matches(count: int) -> list[str]:
    """Whole matches of « expert » against « expert » (default budget), timed."""
    seconds, cpu = [], []
    for seed in range(count):
        begin, begin_cpu = time.perf_counter(), time.process_time()
        play_match(seed, bots=(make_bot("expert", 2 * seed), make_bot("expert", 2 * seed + 1)))
        seconds.append(time.perf_counter() - begin)
        cpu.append(time.process_time() - begin_cpu)
    shown = ", ".join(f"{s:.0f}" for s in seconds)
    shown_cpu = ", ".join(f"{s:.0f}" for s in cpu)
    return [
        "",
        f"Whole matches « expert » against « expert » (budget {EXPERT_BUDGET}): {shown} s "
        f"wall clock, {shown_cpu} s of CPU (max {max(cpu):.0f} s of one core; target ≤ 120 s).",
    ]


def quantiles(values: tuple[list[float], list[float]]) -> tuple[float, ...]:
    """p50, p95 and max of the wall-clock times, p50 and p95 of the CPU times."""
    wall, cpu = values
    cuts = statistics.quantiles(wall, n=100, method="inclusive")
    cuts_cpu = statistics.quantiles(cpu, n=100, method="inclusive")
    return statistics.median(wall), cuts[94], max(wall), statistics.median(cpu), cuts_cpu[94]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--search-nodes", type=int, default=60)
    parser.add_argument("--expert-matches", type=int, default=2)
    args = parser.parse_args()
    nodes = decision_nodes(args.matches)
    timings("greedy", nodes[:200])  # warm the shot caches
    rows = []
    orders = [n for n in nodes if n.phase == ORDERS]
    rng = random.Random(0)
    sample = rng.sample(orders, min(len(orders), args.search_nodes // 3))
    others = rng.sample([n for n in nodes if n.phase != ORDERS], args.search_nodes)
    for name, spec in REGISTRY.items():
        if spec.speed == "instant":
            rows.append((name, "every decision", len(nodes), *quantiles(timings(name, nodes))))
            if name == "greedy":
                rows.append((name, "orders only", len(orders), *quantiles(timings(name, orders))))
        else:
            rows.append((name, "orders only", len(sample), *quantiles(timings(name, sample))))
            rows.append((name, "other decisions", len(others), *quantiles(timings(name, others))))
    lines = report(rows, args.matches)
    lines += expert_matches(args.expert_matches)
    print("\n".join(lines))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")


def report(rows: list[tuple[Any, ...]], matches: int) -> list[str]:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()[0]
    lines = [
        "# Bots: reply time per decision",
        "",
        f"Recorded {now} by `benchmarks/bench_bots.py` on {platform.machine()} with "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; load average {load:.1f} "
        "at the end (the machine is shared: treat the wall-clock times as a ceiling; the CPU "
        "times are what the bot costs one core, and the targets are read on them).",
        "",
        f"Decision nodes: every node met in {matches} matches of two greedy bots (Perrockiss "
        "against Fish Tank, default rules); each bot answers each node once (exact shot "
        "values cached, position cache emptied first). "
        f"The bots that are not « instant » at their default options (search: budget "
        f"{DEFAULT_BUDGET}; expert: budget {EXPERT_BUDGET}) answer a sample of the nodes.",
        "",
        "| bot | decisions | nodes | p50 (ms) | p95 (ms) | max (ms) | CPU p50 (ms) "
        "| CPU p95 (ms) | target |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, which, count, p50, p95, top, cpu50, cpu95 in rows:
        target = "p95 ≤ 50 ms" if name == "greedy" and which == "every decision" else ""
        target = "p95 ≤ 1000 ms" if name == "expert" else target
        lines.append(
            f"| {name} | {which} | {count} | {p50:.3f} | {p95:.3f} | {top:.1f} | {cpu50:.3f} "
            f"| {cpu95:.3f} | {target} |"
        )
    return lines


if __name__ == "__main__":
    main()
