"""The bots' ladder against its targets (issue 33): « expert » ≥ 65 % of match points against
« fort » (search, budget 8) with the lower 95 % bound above 60 %, ≥ 90 % against « normal »
(greedy), adjacent levels ≥ 100 Elo apart with non-overlapping 95 % intervals.

Run: ``.venv/bin/python benchmarks/bench_ladder.py [--deals 250] [--seed 0] [--workers 0 |
--scheduler ADDRESS]``. The pairings of :func:`akvo.lab.ladder.ladder_pairs` play the same
deals, interleaved deal by deal, so that Ctrl+C (or ``--minutes``) stops with every pairing
at about the same number of deals; the report says how many finished. Writes
benchmarks/results/ladder.md (the same table as ``akvo ladder --out``, then the targets).
"""

from __future__ import annotations

import argparse
import itertools
import os
import signal
import sys
import threading
import time
from pathlib import Path

from recorded import stamp, write

from akvo.bots import BOTS
from akvo.lab.ladder import LadderReport, ladder

RESULTS = Path(__file__).parent / "results" / "ladder.md"


def targets(report: LadderReport) -> list[str]:
    """The issue's targets, each with its measured figure and whether it holds."""
    lines = ["", "## Targets", ""]
    by_pair = {(p.first, p.second): p for p in report.pairings}
    for other, goal, bound in (("search", 0.65, 0.60), ("greedy", 0.90, None)):
        pairing = by_pair.get(("expert", other))
        if pairing is None or not pairing.deal_points:
            continue
        points = pairing.points
        held = points.estimate >= goal and (bound is None or points.low > bound)
        need = f"≥ {goal:.0%}" + (f", lower bound > {bound:.0%}" if bound else "")
        lines.append(
            f"- « expert » against « {BOTS[other]} »: {points.estimate:.1%} of match points "
            f"(95 % {points.low:.1%} … {points.high:.1%}) over {len(pairing.deal_points)} deals "
            f"= {pairing.matches} matches; target {need}: {'met' if held else 'NOT met'}"
        )
    names = list(report.elo)
    for weaker, stronger in itertools.pairwise(names):
        low, high = report.elo[weaker], report.elo[stronger]
        gap = high.estimate - low.estimate
        apart = high.low > low.high
        held = gap >= 100 and apart
        lines.append(
            f"- « {BOTS[stronger]} » − « {BOTS[weaker]} »: {gap:+.0f} Elo, intervals "
            f"{'apart' if apart else 'overlapping'}; target ≥ 100 apart: "
            f"{'met' if held else 'NOT met'}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=250, help="deals per pairing (250)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=0, help="0: this process (default)")
    parser.add_argument("--scheduler", default=None)
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long")
    args = parser.parse_args()
    if args.minutes is not None:  # Ctrl+C after the time: the deals finished are counted
        timer = threading.Timer(args.minutes * 60, os.kill, (os.getpid(), signal.SIGINT))
        timer.daemon = True
        timer.start()
    begin = time.perf_counter()
    report = ladder(
        args.deals,
        args.seed,
        workers=None if args.scheduler else args.workers,
        scheduler=args.scheduler,
        progress=sys.stderr.isatty(),
    )
    seconds = time.perf_counter() - begin
    where = f"--scheduler {args.scheduler}" if args.scheduler else f"--workers {args.workers}"
    command = f"python benchmarks/bench_ladder.py --deals {args.deals} --seed {args.seed} {where}"
    if args.minutes is not None:
        command += f" --minutes {args.minutes:g}"
    text = report.to_markdown(command, seconds) + "\n".join(targets(report)) + "\n"
    text += (
        "\nThe full run (250 deals = 500 matches per pairing): "
        "`akvo ladder --matches 500 --workers 2 --out benchmarks/results/ladder.md` "
        "(or `python benchmarks/bench_ladder.py --deals 250 --workers 2`; "
        "`--scheduler ADDRESS` for a cluster).\n"
        f"\n{stamp('bench_ladder.py', f' ({where})')}."
    )
    write(RESULTS, [text])


if __name__ == "__main__":
    main()
