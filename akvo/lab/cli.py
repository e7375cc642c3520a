"""``akvo simulate`` and ``akvo tournament``: the lab on the command line.

    akvo simulate perrockiss fish-tank --bots greedy random -n 10000 --seed 1 \\
        --rules weather=coin,prodige=all --workers 2 --out results.csv
    akvo simulate perrockiss fish-tank -n 2000 --compare-rules weather=coin

    akvo tournament -n 1000 --workers 2 --out balance.csv     # the six presets
    akvo tournament perrockiss fish-tank "ABCDE FGHIJ …" -n 200 --effect-matches 50

Prints the summary as tab-separated lines (French labels, plain numbers with a dot, 95 %
intervals); ``--out`` writes the per-match table (``.csv`` or ``.json``). Bad options
print one line and exit with status 2 (:func:`akvo.cli.main` does that for every command);
``--out`` (its folder must exist) and ``--scheduler`` are checked there before any match is
played, and a table that cannot be written at the end is saved in the temporary folder.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from akvo.arguments import (
    add_cluster_arguments,
    add_rules_argument,
    count_argument,
    rules_argument,
)
from akvo.bots import BOTS, REGISTRY
from akvo.lab.options import rules_text
from akvo.lab.results import LabError
from akvo.lab.stats import METHODS
from akvo.outputs import write_or_keep


def _out_type(text: str) -> Path:
    path = Path(text)
    if path.suffix not in (".csv", ".json"):
        raise argparse.ArgumentTypeError(f"{text!r} must end in .csv or .json")
    return path


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``simulate`` command to the ``akvo`` command line's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "simulate", help="play many bot matches and summarise them with 95%% intervals"
    )
    parser.add_argument("team_a", help="side A: a preset key (perrockiss…) or a team list")
    parser.add_argument("team_b", help="side B: a preset key or a team list")
    parser.add_argument(
        "--bots",
        nargs=2,
        choices=tuple(BOTS),
        default=["greedy", "greedy"],
        metavar=("BOT_A", "BOT_B"),
        help=f"the two bots ({', '.join(BOTS)}); default greedy greedy",
    )
    parser.add_argument(
        "-n", "--matches", type=count_argument(1), default=1000, help="matches to play"
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    add_rules_argument(parser)
    parser.add_argument(
        "--compare-rules",
        type=rules_argument,
        default=None,
        metavar="VARIANTS",
        help="also play the same seeds under these variants and print the paired difference",
    )
    add_cluster_arguments(parser)
    parser.add_argument(
        "--budget",
        type=count_argument(1),
        default=None,
        help="rollouts of the bots that take a budget",
    )
    parser.add_argument("--method", choices=METHODS, default="wilson", help="interval method")
    parser.add_argument("--out", type=_out_type, default=None, help="per-match table (.csv/.json)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> None:
    """Run ``akvo simulate`` with parsed arguments."""
    from akvo.lab.run import compare, simulate, team_of

    teams = (args.team_a, args.team_b)
    for team in teams:
        team_of(team)  # a bad team fails before any output
    if args.budget is not None and not any("budget" in REGISTRY[b].option_names for b in args.bots):
        takers = ", ".join(n for n, spec in REGISTRY.items() if "budget" in spec.option_names)
        raise LabError(f"--budget is for the bots that take a budget ({takers}); neither bot does")
    common: dict[str, Any] = {
        "n": args.matches,
        "seed": args.seed,
        "workers": args.workers,
        "scheduler": args.scheduler,
        "budget": args.budget,
        "progress": False if args.no_progress else None,
    }
    rules = args.rules
    print(
        f"# akvo simulate {args.team_a} {args.team_b} --bots {args.bots[0]} {args.bots[1]}"
        f" -n {args.matches} --seed {args.seed} --rules {rules_text(rules) or 'default'}",
        file=out,
    )
    if args.compare_rules is not None:
        first, second, diff = compare(
            *teams, args.bots, rules, other_rules=args.compare_rules, **common
        )
        results = first
    else:
        results = simulate(*teams, args.bots, rules, **common)
    if not results.complete:
        print(f"# interrupted: {len(results)} of {args.matches} matches finished", file=out)
    summary = results.summary(args.method)
    print(summary.to_text(), file=out)
    if summary.caveat:
        print(f"# {summary.caveat}", file=out)
    print("# what the matches used (times in all, matches)", file=out)
    print(summary.uses_text(), file=out)
    if args.compare_rules is not None:
        print(f"# same seeds with --rules {rules_text(args.compare_rules) or 'default'}", file=out)
        print(second.summary(args.method).to_text(), file=out)
        print(
            "# paired difference of A's match points (win 1, draw 1/2); also adjusted for "
            "the dice luck weighted by what each roll put at stake (a control variate of mean 0)",
            file=out,
        )
        print(diff.to_text(), file=out)
    if args.out is not None:
        table = results.to_json() if args.out.suffix == ".json" else results.to_csv()
        write_or_keep(args.out, table, f"the {len(results)} matches")
        print(f"# {len(results)} matches written to {args.out}", file=out)


def add_tournament_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``tournament`` command (the balance report, :mod:`akvo.lab.tournament`)."""
    from akvo.lab.forbid import FORBIDDABLE

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "tournament",
        help="round robin of teams (both seats) with 95%% intervals, and what each rune "
        "and Ultime is worth",
    )
    parser.add_argument(
        "teams", nargs="*", help="preset keys or team lists (default: every preset team)"
    )
    parser.add_argument(
        "-n", "--matches", type=count_argument(1), default=100, help="per ordered pair"
    )
    parser.add_argument(
        "--effect-matches",
        type=count_argument(0),
        default=None,
        help="matches per pair replayed without each rune kind and Ultime (default n/10; 0: none)",
    )
    parser.add_argument(
        "--bot", choices=tuple(BOTS), default="greedy", help="the bot of both sides"
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    add_rules_argument(parser)
    parser.add_argument(
        "--items",
        default=",".join(FORBIDDABLE),
        help="the runes and Ultimes whose effect is measured (comma-separated)",
    )
    add_cluster_arguments(parser)
    parser.add_argument("--out", type=Path, default=None, help="the report as CSV")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def run_tournament(args: argparse.Namespace, out: TextIO = sys.stdout) -> None:
    """Run ``akvo tournament`` with parsed arguments."""
    from akvo.lab.forbid import check_forbidden
    from akvo.lab.run import team_of
    from akvo.lab.tournament import tournament

    for team in args.teams:
        team_of(team)  # a bad team fails before any output
    if args.out is not None and args.out.suffix != ".csv":
        raise LabError(f"--out {str(args.out)!r} must end in .csv")
    items = check_forbidden(i.strip() for i in args.items.split(",") if i.strip())
    report = tournament(
        args.teams or None,
        args.matches,
        args.effect_matches,
        args.seed,
        args.bot,
        args.rules,
        items,
        workers=args.workers,
        scheduler=args.scheduler,
        progress=False if args.no_progress else None,
    )
    print(
        f"# akvo tournament {' '.join(report.teams)} -n {args.matches} --effect-matches "
        f"{report.effect_matches} --bot {args.bot} --seed {args.seed} --rules "
        f"{rules_text(args.rules) or 'default'}",
        file=out,
    )
    if not report.complete:
        print("# interrupted: the report counts the matches that finished", file=out)
    print(report.to_text(), file=out)
    if args.out is not None:
        write_or_keep(args.out, report.to_csv(), "the report")
        print(f"# report written to {args.out}", file=out)
