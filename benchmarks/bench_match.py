"""Random-bot matches per second on one core (target: ≥ 200 complete matches/s).

Run: ``.venv/bin/python benchmarks/bench_match.py [--matches N] [--profile]``. Each match
is played by two seeded random bots with the engine's in-place ``apply_action``; chance
outcomes are sampled with ``MatchState.sample_chance`` from one seeded generator.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import statistics
import time

from akvo.match import MatchState, new_match, play_match


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
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.processor()})")
    print(f"{args.matches} random matches × {args.repeats} repeats, one core")
    print(
        f"matches/s: median {statistics.median(rates):.0f}, min {min(rates):.0f}, "
        f"max {max(rates):.0f}"
    )
    print(f"recorded actions per match (last repeat): {actions / args.matches:.0f}")
    seconds, _ = run(args.matches // 5, copies=True)
    print(f"with a copy per step (child): {args.matches // 5 / seconds:.0f} matches/s")


if __name__ == "__main__":
    main()
