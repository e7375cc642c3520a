"""``akvo ladder``: the bots' ladder on the command line (:mod:`akvo.lab.ladder`).

    akvo ladder --matches 200 --workers 1 --seed 0 --out benchmarks/results/ladder.md

``--matches`` counts the matches of each pairing (two per deal: the bots swap seats on
the same dice). Prints the levels' Bradley–Terry Elo and each pairing's points and win
rate, with 95 % intervals, and each level's exploitability at the orders (the win-chance
points a best response that knows its strategy gains, on ``--exploitability`` positions,
:mod:`akvo.lab.exploitability`), tab-separated; writes the same as Markdown (``.md``) or JSON
(``.json``, :meth:`~akvo.lab.ladder.LadderReport.to_dict`) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from akvo.arguments import add_cluster_arguments, count_argument


def _matches(text: str) -> int:
    value = count_argument(2)(text)
    if value % 2:
        raise argparse.ArgumentTypeError(
            f"{value}: the matches of a pairing come in deals of two (an even number ≥ 2)"
        )
    return value


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``ladder`` command to the ``akvo`` command line's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "ladder",
        help="play the bots' ladder (seat-swapped deals) and rate the levels (Elo, 95%% intervals)",
    )
    parser.add_argument(
        "-n", "--matches", type=_matches, default=200, help="matches per pairing (even; 200)"
    )
    add_cluster_arguments(parser)
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument(
        "--exploitability",
        type=count_argument(0),
        default=24,
        metavar="POSITIONS",
        help="orders positions to measure each level's exploitability on (24; 0: none)",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="the report as Markdown (.md) or JSON (.json)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> None:
    """Run ``akvo ladder`` with parsed arguments."""
    from akvo.lab.ladder import ladder
    from akvo.lab.results import LabError

    if args.out is not None and args.out.suffix not in (".md", ".json"):
        raise LabError(f"--out {str(args.out)!r} must end in .md or .json")
    command = f"akvo ladder --matches {args.matches} --seed {args.seed}"
    command += f" --exploitability {args.exploitability}"
    command += f" --scheduler {args.scheduler}" if args.scheduler else ""
    command += f" --workers {args.workers}" if args.workers is not None else ""
    print(f"# {command}", file=out)
    begin = time.perf_counter()
    report = ladder(
        args.matches // 2,
        args.seed,
        workers=args.workers,
        scheduler=args.scheduler,
        progress=not args.no_progress and sys.stderr.isatty(),
        exploitability=args.exploitability,
    )
    if not report.complete:
        print("# interrupted: the report counts the deals that finished", file=out)
    print(report.to_text(), file=out)
    if args.out is not None:
        if args.out.suffix == ".json":
            data = {"command": command, **report.to_dict()}
            text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        else:
            text = report.to_markdown(command, time.perf_counter() - begin)
        args.out.write_text(text, encoding="utf-8")
        print(f"# report written to {args.out}", file=out)
