"""Verdicts against a truth at 16× the budget (issue 34: on 200 positions, verdicts agree
≥ 95 % with the truth, and no « gaffe » is flagged whose interval crosses its threshold),
written to ``benchmarks/results/coach.md``.

Positions: every few non-forced decisions of both sides of random-vs-greedy matches (so
that real mistakes occur), the move actually played reviewed
(:func:`akvo.coach.review.review_decision`) at the default budget and at 16× it, the same
seed. A gaffe « crosses its threshold » when its loss's 95 % interval starts below the
gaffe threshold (by construction never at the review's own budget) or when the truth's
loss is below that threshold.

    nice -n 10 .venv/bin/python benchmarks/bench_coach_truth.py --positions 200 --minutes 40
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recorded import stamp
from sections import show_and_record

RESULTS = Path(__file__).resolve().parent / "results" / "coach.md"
SECTION = "## Verdicts against a truth at 16× the budget (`bench_coach_truth.py`)"
FACTOR = 16


def sample(positions: int, every: int) -> list[tuple[object, str, int]]:
    """(state, action played, index) of every ``every``-th non-forced decision."""
    from akvo.bots.greedy import GreedyBot
    from akvo.match.bots import UniformBot, play_match
    from akvo.match.state import replay

    out: list[tuple[object, str, int]] = []
    seed = 3000
    while len(out) < positions:
        pair = (UniformBot(seed), GreedyBot(0)) if seed % 2 else (GreedyBot(0), UniformBot(seed))
        record = play_match(seed, bots=pair, log=False).record()
        state = replay({**record, "actions": []}, log=False)
        count = 0
        for index, action in enumerate(record["actions"]):
            if state.player >= 0 and len(state.legal) > 1:
                if count % every == 0 and len(out) < positions:
                    out.append((state.copy(), action, index))
                count += 1
            state.apply_action(action)
        seed += 1
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--minutes", type=float, default=40.0)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    from akvo import compiled
    from akvo.coach.budget import DEFAULT_BUDGET
    from akvo.coach.rating import UNSURE, VERDICTS
    from akvo.coach.review import review_decision

    gaffe = dict(VERDICTS)["gaffe"]
    started = time.perf_counter()
    rows = []
    for state, action, index in sample(args.positions, args.every):
        if time.perf_counter() - started > 60 * args.minutes:
            break
        t = time.perf_counter()
        first = review_decision(state, action, index, DEFAULT_BUDGET, 0)  # type: ignore[arg-type]
        seconds = time.perf_counter() - t
        truth = review_decision(state, action, index, FACTOR * DEFAULT_BUDGET, 0)  # type: ignore[arg-type]
        rows.append((first, truth, seconds))
        print(len(rows), first.verdict, truth.verdict, f"{seconds:.2f}", file=sys.stderr)
    agree = sum(a.verdict == b.verdict for a, b, _ in rows)
    either = [(a, b) for a, b, _ in rows if a.verdict is not None or b.verdict is not None]
    agree_flagged = sum(a.verdict == b.verdict for a, b in either)
    unsure = sum(a.verdict != b.verdict and UNSURE in (a.verdict, b.verdict) for a, b, _ in rows)
    gaffes = [(a, b) for a, b, _ in rows if a.verdict == "gaffe"]
    crossing = sum(a.loss_interval[1] < gaffe for a, _ in gaffes)
    truth_below = sum(b.loss_interval[0] < gaffe for _, b in gaffes)
    orders = sum(a.values.method == "orders" for a, _, _ in rows)
    lines = [
        SECTION,
        "",
        stamp("bench_coach_truth.py", f" (`--positions {args.positions}`)") + ".",
        "",
        f"{len(rows)} positions ({orders} at the orders), random vs greedy matches (seeds "
        f"3000…), the move played reviewed at budget {DEFAULT_BUDGET} and at {FACTOR}× "
        f"(seed 0); {time.perf_counter() - started:.0f} s; engine: {compiled.ENGINE}.",
        "",
        "| measure | value | target |",
        "| --- | ---: | --- |",
        f"| same verdict as the truth, every position | {agree} of {len(rows)} "
        f"({100 * agree / max(len(rows), 1):.1f} %) | ≥ 95 % |",
        f"| same verdict, positions either flags | {agree_flagged} of {len(either)} "
        f"({100 * agree_flagged / max(len(either), 1):.1f} %) | |",
        f"| disagreements where one side is « incertain » | {unsure} of {len(rows) - agree} | |",
        f"| « gaffe » flagged at the default budget | {len(gaffes)} | |",
        f"| of which the interval crosses the threshold | {crossing} | 0 |",
        f"| of which the truth's loss is below the threshold | {truth_below} | |",
    ]
    return show_and_record(RESULTS, SECTION, lines, record=not args.no_record)


if __name__ == "__main__":
    sys.exit(main())
