"""Random-bot matches per second on one core (target: ≥ 200 complete matches/s).

Run: ``taskset -c 0 .venv/bin/python benchmarks/bench_match.py [--matches N] [--profile]``.
Each match is played by two seeded random bots with the engine's in-place ``apply_action``;
chance outcomes are sampled with ``MatchState.sample_chance`` from one seeded generator.
Writes benchmarks/results/match.md (not with ``--profile`` or ``--no-record``).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import os
import platform
import pstats
import random
import statistics
import time
from pathlib import Path

from akvo.match import MatchState, new_match, play_match

RESULTS = Path(__file__).parent / "results" / "match.md"


def play_by_copies(seed: int) -> MatchState:
    """The same random play, but every step makes a new state with ``child``."""
    rng = random.Random(seed)
    state = new_match()
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.child(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.child(legal[int(rng.random() * len(legal))])
    return state


def run(matches: int, start_seed: int = 0, copies: bool = False) -> tuple[float, int]:
    actions = 0
    play = play_by_copies if copies else play_match
    begin = time.perf_counter()
    for seed in range(start_seed, start_seed + matches):
        actions += len(play(seed).history)
    return time.perf_counter() - begin, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--no-record", dest="record", action="store_false", help="do not write the results"
    )
    args = parser.parse_args()
    if args.profile:
        cProfile.runctx(
            "run(matches)", globals(), {"matches": args.matches}, "/tmp/bench_match.prof"
        )
        pstats.Stats("/tmp/bench_match.prof").sort_stats("cumulative").print_stats(25)
        return
    run(50)  # warm the caches
    rates = []
    actions = 0
    for repeat in range(args.repeats):
        seconds, actions = run(args.matches, start_seed=repeat * args.matches)
        rates.append(args.matches / seconds)
    copies = args.matches // 5
    seconds, _ = run(copies, copies=True)
    copy_rate = copies / seconds
    lines = report(args.matches, args.repeats, rates, actions / args.matches, copies, copy_rate)
    print("\n".join(lines))
    if args.record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text("\n".join(lines) + "\n", encoding="utf-8")


def report(
    matches: int,
    repeats: int,
    rates: list[float],
    actions: float,
    copies: int,
    copy_rate: float,
) -> list[str]:
    """The results page (markdown)."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    pinned = len(os.sched_getaffinity(0)) == 1 if hasattr(os, "sched_getaffinity") else False
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return [
        "# Match engine: random-bot matches per second",
        "",
        f"Recorded {now} by `benchmarks/bench_match.py`"
        + (" (pinned to one core with `taskset -c 0`)" if pinned else "")
        + f", on {platform.machine()} with {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load average {load:.1f} at the end of the run (other "
        "processes may share the machine: treat the numbers as a floor).",
        "",
        "Each match: `akvo.match.play_match(seed)` — Perrockiss against Fish Tank, default rules",
        '(R8 bag, R13 "four", R19 standard, R22 restores_ultime), two seeded uniform random bots,',
        "chance sampled with `MatchState.sample_chance` from one seeded `random.Random`, the whole",
        "turn sequence including tie-break turns, French event log on. The state is changed in",
        "place (`apply_action`); no copies.",
        "",
        "| measure | value | target |",
        "| --- | ---: | --- |",
        f"| complete matches per second (median of {repeats} × {matches} matches) "
        f"| {statistics.median(rates):.0f} | ≥ 200 |",
        f"| slowest repeat / fastest repeat | {min(rates):.0f} / {max(rates):.0f} | |",
        f"| recorded actions per match (decisions + chance outcomes) | {actions:.0f} | |",
        f"| same play with a new state per step (`child`, {copies} matches) | {copy_rate:.0f} | |",
        "",
        "What keeps it fast: the state is flat lists of small ints in `__slots__`; legal actions",
        "are computed once per node and cached as a tuple of interned strings; one chance node",
        "per roll (`roll 3516`, 6^n ordered outcomes listed exactly on demand, sampled",
        "directly); nodes with a single legal action are played at once; runes are bit masks.",
    ]


if __name__ == "__main__":
    main()
