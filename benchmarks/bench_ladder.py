"""The bots' ladder against its targets (issue 33): « expert » ≥ 65 % of match points against
« fort » (search, budget 8) with the lower 95 % bound above 60 %, ≥ 90 % against « normal »
(greedy), adjacent levels ≥ 100 Elo apart with non-overlapping 95 % intervals.

Run: ``.venv/bin/python benchmarks/bench_ladder.py [--deals 250] [--seed 0] [--workers 0 |
--scheduler ADDRESS]``. The pairings of :func:`akvo.lab.ladder.ladder_pairs` play the same
deals, interleaved deal by deal, so that Ctrl+C (or ``--minutes``) stops with every pairing
at about the same number of deals; the report says how many finished. Then each level's
exploitability at the orders on ``--exploitability`` positions (:mod:`akvo.lab.exploitability`;
« expert »'s target: ≤ 3 win-chance points). Writes benchmarks/results/ladder.md (the same
table as ``akvo ladder --out``, then the targets); ``--json FILE`` keeps the report, and
``--report FILE`` writes ladder.md again from such a file without playing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

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
    gain = report.exploitability.get("expert")
    if gain is not None:
        lines.append(
            f"- « expert »'s exploitability at the orders: {gain.estimate:.1f} win-chance points "
            f"(95 % {gain.low:.1f} … {gain.high:.1f}); target ≤ 3: "
            f"{'met' if gain.estimate <= 3 else 'NOT met'}"
            + (" (the interval reaches above 3)" if gain.estimate <= 3 < gain.high else "")
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
    parser.add_argument(
        "--exploitability", type=int, default=24, help="orders positions (24; 0: not measured)"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the report as JSON")
    parser.add_argument("--report", type=Path, help="write ladder.md from a --json report")
    args = parser.parse_args()
    if args.report is not None:
        data = json.loads(args.report.read_text(encoding="utf-8"))
        record(LadderReport.from_dict(data), data["command"], data["seconds"], data)
        return
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
        exploitability=args.exploitability,
    )
    seconds = time.perf_counter() - begin
    where = f"--scheduler {args.scheduler}" if args.scheduler else f"--workers {args.workers}"
    command = f"python benchmarks/bench_ladder.py --deals {args.deals} --seed {args.seed} {where}"
    command += f" --exploitability {args.exploitability}"
    if args.minutes is not None:
        command += f" --minutes {args.minutes:g}"
    data = {"command": command, "seconds": seconds, **report.to_dict()}
    if args.json is not None:
        args.json.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
    record(report, command, seconds, data)


def record(report: LadderReport, command: str, seconds: float, data: dict[str, Any]) -> None:
    """Write benchmarks/results/ladder.md: the report, the targets, how to run it in full
    (``data``: the saved report, which may say how its exploitability was measured apart)."""
    text = report.to_markdown(command, seconds)
    if "exploitability_command" in data:
        text += f"\nExploitability measured apart: `{data['exploitability_command']}`.\n"
    text += "\n".join(targets(report)) + "\n"
    text += (
        "\nThe full run (250 deals = 500 matches per pairing): "
        "`akvo ladder --matches 500 --workers 2 --out benchmarks/results/ladder.md` "
        "(or `python benchmarks/bench_ladder.py --deals 250 --workers 2`; "
        "`--scheduler ADDRESS` for a cluster).\n"
        f"\n{stamp('bench_ladder.py')}."
    )
    write(RESULTS, [text])


if __name__ == "__main__":
    main()
