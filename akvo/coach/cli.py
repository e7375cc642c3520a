"""``akvo analyse``: the post-match analysis on the command line.

    akvo analyse match.json --side B --budget 2 --workers 2 --seed 1 --out analyse.tsv

Prints the table of :meth:`akvo.coach.review.Review.to_text` (tab-separated, header
``coup camp choix meilleur p_choix p_meilleur perte verdict``, the options in French),
then each side's rating of play and its luck; ``--out FILE`` writes it to a file instead
(``.json``: every decision with every option's value, reason and interval, the ratings
and the luck of every roll) and prints the ratings and the luck. The verdicts are those
of :func:`akvo.coach.review.review` with the same budget and seed. A
tqdm bar on stderr shows the progress in a terminal. Bad options and bad files print one
line and exit with status 2 (:func:`akvo.cli.main` does that for every command, and checks
``--out`` and ``--scheduler`` before any rollout); an analysis that cannot be written at the
end is saved in the temporary folder instead.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from akvo.arguments import add_cluster_arguments
from akvo.coach.budget import DEFAULT_BUDGET, MAX_BUDGET
from akvo.outputs import write_or_keep

OUT_SUFFIXES = (".tsv", ".txt", ".json")


def _number(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is outside {low}–{high}")
        return value

    return parse


def _side(text: str) -> str:
    if text.upper() not in ("A", "B"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a side: A or B")
    return text.upper()


def _out(text: str) -> Path:
    path = Path(text)
    if path.suffix not in OUT_SUFFIXES:
        raise argparse.ArgumentTypeError(f"{text!r} must end in {', '.join(OUT_SUFFIXES)}")
    return path


def load_record(path: str) -> dict[str, Any]:
    """A match record from a JSON file, checked for size and shape before the engine reads
    it (:class:`~akvo.errors.RecordError` names what is wrong; an unreadable file gets
    :class:`~akvo.coach.errors.CoachError`)."""
    from akvo.coach.errors import CoachError
    from akvo.errors import RecordError, excerpt
    from akvo.match.records import MAX_JSON_CHARS, parse_json

    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_JSON_CHARS:
            raise RecordError(f"{excerpt(path)} is too large for a match record ({size} bytes)")
        data = file.read_bytes()
    except OSError as error:
        raise CoachError(f"cannot read {excerpt(path)}: {error.strerror or error}") from None
    record = parse_json(data)
    if not isinstance(record, dict):
        raise RecordError(f"a match record is a JSON object, got {type(record).__name__}")
    return record


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``analyse`` command to the ``akvo`` command line's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "analyse",
        help="rate every decision of a recorded match by its estimated win chance",
        description=(
            "For every decision of the analysed side(s): the chance of winning after the "
            "option chosen and after the best one (akvo.coach.valuation: exact dice "
            "lookahead with the learned evaluation, the expert's payoff matrix at the "
            "orders; 95%% intervals), the loss and a verdict only where its interval clears "
            "the threshold (imprécision ≥ 5, erreur ≥ 10, gaffe ≥ 20 points of win chance; "
            "else « incertain »); then each side's rating of play and its luck."
        ),
    )
    parser.add_argument(
        "match", metavar="MATCH.json", help="a match record (the play pages save one)"
    )
    parser.add_argument("--side", type=_side, default=None, help="A or B (default: both)")
    parser.add_argument(
        "--budget",
        type=_number(1, MAX_BUDGET),
        default=DEFAULT_BUDGET,
        help=f"valuation budget: chance nodes expanded, rollouts at the orders (default "
        f"{DEFAULT_BUDGET})",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the orders' rollouts (default 0)"
    )
    add_cluster_arguments(parser)
    parser.add_argument(
        "--out", type=_out, default=None, help="write the table (.tsv/.txt) or everything (.json)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> None:
    """Run ``akvo analyse`` with parsed arguments."""
    from akvo.coach.review import review

    record = load_record(args.match)
    analysis = review(
        record,
        side=args.side,
        budget=args.budget,
        seed=args.seed,
        workers=args.workers,
        scheduler=args.scheduler,
        progress=False if args.no_progress else None,
    )
    if args.out is None:
        out.write(analysis.to_text())
        return
    text = analysis.to_json() if args.out.suffix == ".json" else analysis.to_text()
    for rating in analysis.ratings():
        print(rating.sentence(), file=out)
    for side in analysis.sides:
        print(analysis.luck.sentence(side), file=out)
    write_or_keep(args.out, text, "the analysis")
    print(f"# {len(analysis.decisions)} décisions écrites dans {args.out}", file=out)
