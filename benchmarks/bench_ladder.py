"""The bot ladder: search beats greedy, greedy beats random — with 95 % intervals, and
the bots' Bradley–Terry ratings (Elo scale) with their intervals.

Run: ``.venv/bin/python benchmarks/bench_ladder.py [--matches N] [--search-matches M]
[--budgets 2,8]`` (``--matches 10 --search-matches 2 --no-record``: a quick check).
Each pairing is played half with the stronger bot as side A and half as side B (different
seeds), Perrockiss against Fish Tank, default rules, on a LocalCluster of 2 workers. A bot's
*points* are 1 per win and ½ per draw; it beats the other when the 95 % interval of its mean
points lies above ½. The search bot plays at each budget (rollouts per candidate) against
greedy and random; the ratings (:func:`akvo.lab.ratings.bradley_terry`, random anchored at
0) come from every pairing's points. Writes benchmarks/results/ladder.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from recorded import stamp, write

from akvo.bots.search import DEFAULT_BUDGET, DEFAULT_HORIZON
from akvo.lab import Interval, dask_client, mean_interval, proportion, simulate
from akvo.lab.ratings import bradley_terry

RESULTS = Path(__file__).parent / "results" / "ladder.md"
TEAMS = ("perrockiss", "fish-tank")


def _bot(name: str) -> tuple[str, int | None]:
    """``search@8`` → ``("search", 8)``; ``greedy`` → ``("greedy", None)``."""
    bot, _, budget = name.partition("@")
    return bot, int(budget) if budget else None


def pairing(strong: str, weak: str, n: int, client: object) -> tuple[int, int, int, float]:
    """(wins, draws, losses of ``strong``, seconds) over ``n`` matches, both sides."""
    begin = time.perf_counter()
    half = n // 2
    (one, budget), (two, other) = _bot(strong), _bot(weak)
    budget = budget or other
    options = {"client": client, "progress": False, "budget": budget}
    as_a = simulate(*TEAMS, (one, two), None, half, seed=1, **options)  # type: ignore[arg-type]
    as_b = simulate(*TEAMS, (two, one), None, n - half, seed=2, **options)  # type: ignore[arg-type]
    wins = as_a.column("winner").count("A") + as_b.column("winner").count("B")
    draws = as_a.column("winner").count("draw") + as_b.column("winner").count("draw")
    return wins, draws, n - wins - draws, time.perf_counter() - begin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=400, help="greedy vs random")
    parser.add_argument("--search-matches", type=int, default=200, help="search vs greedy")
    parser.add_argument("--budgets", default="2,8", help="search bot budgets")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--no-record", dest="record", action="store_false", help="do not write the results"
    )
    args = parser.parse_args()
    rows = []
    with dask_client(args.workers) as client:
        budgets = [int(b) for b in args.budgets.split(",")]
        plan = [("greedy", "random", args.matches)]
        for budget in budgets:
            plan += [
                (f"search@{budget}", "greedy", args.search_matches),
                (f"search@{budget}", "random", max(2, args.search_matches // 4)),
            ]
        for strong, weak, n in plan:
            wins, draws, losses, seconds = pairing(strong, weak, n, client)
            points = mean_interval([1.0] * wins + [0.5] * draws + [0.0] * losses)
            rows.append(
                (strong, weak, n, wins, draws, losses, points, proportion(wins, n), seconds)
            )
    lines = report(rows, args.workers) + ratings(rows)
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
        f"as A, half as B. Search bot: `search@B` plays B rollouts per candidate (the default "
        f"is {DEFAULT_BUDGET}), horizon {DEFAULT_HORIZON} turn(s). Points: win 1, draw ½ (95 % "
        "Student interval); P(win): 95 % Wilson interval (scipy).",
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


def ratings(
    rows: list[tuple[str, str, int, int, int, int, Interval, Interval, float]],
) -> list[str]:
    """The Bradley–Terry ratings of the bots from every pairing (Elo scale, random at 0)."""
    pairings = [(strong, weak, wins + draws / 2, n) for strong, weak, n, wins, draws, *_ in rows]
    fitted = bradley_terry(pairings, anchor="random")
    lines = [
        "",
        "## Ratings",
        "",
        "Bradley–Terry, fitted by maximum likelihood on every pairing's points (draws count "
        "½; half a point added each way per pairing so that a pairing always won keeps a "
        "finite rating), on the Elo scale (400 points: 10 to 1), random anchored at 0; 95 % "
        "intervals from the observed information (`akvo.lab.ratings.bradley_terry`).",
        "",
        "| bot | rating [95 %] |",
        "| --- | --- |",
    ]
    for bot, r in sorted(fitted.items(), key=lambda item: item[1].estimate):
        lines.append(f"| {bot} | {r.estimate:.0f} [{r.low:.0f}, {r.high:.0f}] |")
    return lines


if __name__ == "__main__":
    main()
