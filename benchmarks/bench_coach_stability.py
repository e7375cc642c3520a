"""The review's stability, the ladder's ratings, luck's variance reduction, review times.

- ``--stability N [--first K]``: N matches (random vs greedy, greedy vs greedy,
  alternately; from match K of the series), each reviewed
  (:func:`akvo.coach.review.review`, both sides, default budget) with seeds 0 and 1:
  agreement of the verdicts on the decisions either run flags, and each side's rating;
- ``--ladder K [--levels NAME …]``: K matches of each ladder level (or of those named)
  against « normal » (seats alternated), the level's side reviewed: its mean rating
  (calibrates :data:`akvo.coach.rating.BANDS`);
- ``--luck N``: N greedy-vs-greedy matches: variance of the raw result and of the
  luck-adjusted one (:mod:`akvo.coach.luck`);
- ``--orders-stability N``: the same agreement on the orders alone (the only decisions
  whose values depend on the seed);
- ``--timing``: one match reviewed on 1 and on 2 Dask workers.

Each mode prints Markdown lines (and JSON lines to ``--jsonl``) for
``benchmarks/results/coach.md``. One process unless ``--timing``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
import warnings
from typing import Any

warnings.simplefilter("ignore")

from akvo.bots import LADDER, make_bot  # noqa: E402
from akvo.bots.greedy import GreedyBot  # noqa: E402
from akvo.bots.registry import load_registry  # noqa: E402
from akvo.coach.budget import DEFAULT_BUDGET  # noqa: E402
from akvo.coach.luck import match_luck  # noqa: E402
from akvo.coach.rating import VERDICTS  # noqa: E402
from akvo.coach.review import review, review_chunk  # noqa: E402
from akvo.match.bots import UniformBot, play_match  # noqa: E402
from akvo.match.phases import ORDERS  # noqa: E402

REAL = {name for name, _ in VERDICTS}


def _emit(sink: Any, row: dict[str, Any]) -> None:
    if sink is not None:
        sink.write(json.dumps(row) + "\n")
        sink.flush()


def stability(matches: int, sink: Any, start: int = 0) -> None:
    agree = union = 0
    ratings: dict[str, list[float]] = {"random": [], "greedy": []}
    for i in range(start, start + matches):
        kind = "random-greedy" if i % 2 == 0 else "greedy-greedy"
        bot = UniformBot(100 + i) if kind == "random-greedy" else GreedyBot(100 + i)
        final = play_match(1000 + i, bots=(bot, GreedyBot(200 + i)), log=False)
        record = final.record()
        t = time.time()
        first = review(record, seed=0, progress=False)
        # Seed 1: outside the orders the valuation has no seed (exact expectations; the
        # test_outside_the_orders_verdicts_do_not_depend_on_the_seed checks it), so only
        # the orders are reviewed again; the other rows are the same by construction.
        orders = [row.coup - 1 for row in first.decisions if row.values.method == "orders"]
        again = {row.coup: row for row in review_chunk(record, orders, DEFAULT_BUDGET, 1)}
        second = [again.get(row.coup, row) for row in first.decisions]
        runs = [first]
        flagged = [
            {row.coup: row.verdict for row in rows if row.verdict in REAL}
            for rows in (first.decisions, second)
        ]
        both = set(flagged[0]) | set(flagged[1])
        same = sum(flagged[0].get(c) == flagged[1].get(c) for c in both)
        agree += same
        union += len(both)
        rates = [r.mean_loss.estimate for r in runs[0].ratings()]
        ratings["random" if kind == "random-greedy" else "greedy"].append(rates[0])
        ratings["greedy"].append(rates[1])
        row = {
            "match": i,
            "kind": kind,
            "flagged": len(both),
            "agree": same,
            "rating_a": rates[0],
            "rating_b": rates[1],
            "seconds": time.time() - t,
            "orders_flagged": sum(1 for c in both if c - 1 in orders),
        }
        _emit(sink, row)
        print(row, file=sys.stderr)
    print(f"| matches | {matches} |")
    print(f"| decisions flagged by either run | {union} |")
    print(f"| same verdict in both runs | {agree} ({100 * agree / max(union, 1):.1f} %) |")
    for who, values in ratings.items():
        if values:
            mean = statistics.mean(values)
            sd = statistics.stdev(values) if len(values) > 1 else 0.0
            half = 1.96 * sd / math.sqrt(len(values))
            print(f"| rating of {who} (mean loss, points) | {100 * mean:.2f} ± {100 * half:.2f} |")


def orders_stability(matches: int, sink: Any) -> None:
    """The seed-dependent decisions only (the orders), reviewed under seeds 0 and 1."""
    agree = union = total = 0
    for i in range(matches):
        kind = "random-greedy" if i % 2 == 0 else "greedy-greedy"
        first = UniformBot(100 + i) if kind == "random-greedy" else GreedyBot(100 + i)
        final = play_match(1000 + i, bots=(first, GreedyBot(200 + i)), log=False)
        record = final.record()
        orders = [i for i, node in enumerate(_nodes(record)) if node == (ORDERS, True)]
        runs = [review_chunk(record, orders, DEFAULT_BUDGET, seed) for seed in (0, 1)]
        flagged = [{r.coup: r.verdict for r in rows if r.verdict in REAL} for rows in runs]
        both = set(flagged[0]) | set(flagged[1])
        same = sum(flagged[0].get(c) == flagged[1].get(c) for c in both)
        agree, union, total = agree + same, union + len(both), total + len(orders)
        _emit(
            sink,
            {"match": i, "kind": kind, "orders": len(orders), "flagged": len(both), "agree": same},
        )
        print(i, kind, len(orders), len(both), same, file=sys.stderr)
    print(f"| matches | {matches} |")
    print(f"| orders decisions reviewed twice | {total} |")
    print(f"| flagged by either run | {union} |")
    print(f"| same verdict in both runs | {agree} ({100 * agree / max(union, 1):.1f} %) |")


def _nodes(record: dict[str, Any]) -> list[tuple[int, bool]]:
    """(phase, whether a non-forced decision) before each action of the record."""
    from akvo.match.state import replay

    state = replay({**record, "actions": []}, log=False)
    out = []
    for action in record["actions"]:
        out.append((state.phase, state.player >= 0 and len(state.legal) > 1))
        state.apply_action(action)
    return out


def ladder(matches: int, sink: Any, only: list[str] | None = None) -> None:
    registry = load_registry()
    ranked = (s for s in registry.values() if s.rank is not None and (not only or s.name in only))
    for spec in sorted(ranked, key=lambda s: s.rank or 0):
        values = []
        for k in range(matches):
            bot = make_bot(spec.name, seed=300 + k, **dict(spec.ladder_options))
            other = GreedyBot(400 + k)
            pair = (bot, other) if k % 2 == 0 else (other, bot)
            final = play_match(2000 + k, bots=pair, log=False)
            side = "A" if k % 2 == 0 else "B"
            done = review(final.record(), side=side, progress=False)
            value = done.ratings()[0].mean_loss.estimate
            values.append(value)
            _emit(sink, {"level": spec.name, "match": k, "rating": value})
            print(spec.name, k, value, file=sys.stderr)
        mean = statistics.mean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
        print(f"| {spec.label} | {len(values)} | {100 * mean:.2f} ± {100 * half:.2f} |")


def luck(matches: int, sink: Any) -> None:
    raw, adjusted = [], []
    t = time.time()
    for i in range(matches):
        final = play_match(5000 + i, bots=(GreedyBot(i), GreedyBot(10_000 + i)), log=False)
        found = match_luck(final.record())
        result, luck_adjusted = found.result_for(0), found.adjusted(0)
        assert result is not None and luck_adjusted is not None  # the match is over
        raw.append(result)
        adjusted.append(luck_adjusted)
    var_raw, var_adj = statistics.variance(raw), statistics.variance(adjusted)
    _emit(sink, {"matches": matches, "var_raw": var_raw, "var_adjusted": var_adj})
    print(f"| matches (greedy vs greedy, 1 core) | {matches} ({time.time() - t:.0f} s) |")
    print(f"| variance of the raw result | {var_raw:.4f} |")
    print(f"| variance of the luck-adjusted result | {var_adj:.4f} |")
    print(f"| reduction | {var_raw / var_adj:.2f}× |")


def timing() -> None:
    final = play_match(100, bots=(GreedyBot(1), GreedyBot(2)), log=False)
    record = final.record()
    for workers in (0, 1, 2):
        t = time.time()
        done = review(record, workers=workers, progress=False)
        label = "here" if workers == 0 else f"{workers} Dask workers"
        print(f"| {label} | {len(done.decisions)} | {time.time() - t:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stability", type=int, default=0)
    parser.add_argument(
        "--first", type=int, default=0, help="--stability: the first match's number (0)"
    )
    parser.add_argument("--orders-stability", type=int, default=0)
    parser.add_argument("--ladder", type=int, default=0)
    parser.add_argument(
        "--levels", nargs="*", choices=LADDER, default=None, help="--ladder: these levels only"
    )
    parser.add_argument("--luck", type=int, default=0)
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--jsonl", default=None)
    args = parser.parse_args()
    sink = open(args.jsonl, "a") if args.jsonl else None  # noqa: SIM115
    if args.stability:
        stability(args.stability, sink, args.first)
    if args.orders_stability:
        orders_stability(args.orders_stability, sink)
    if args.ladder:
        ladder(args.ladder, sink, args.levels)
    if args.luck:
        luck(args.luck, sink)
    if args.timing:
        timing()


if __name__ == "__main__":
    main()
