"""``akvo train``: train the learned evaluation by self-play (:mod:`akvo.eval.train`).

    akvo train --matches 20000 --workers 2 --seed 1 --out akvo/eval/weights/default.npz
    akvo train --rules weather=coin --matches 20000 --out weights-coin.npz   # a variant
    akvo train --luck --matches 2000 --epochs 4 --out akvo/eval/weights/luck.npz

``--luck`` fine-tunes the shipped evaluation into the luck evaluation instead
(:mod:`akvo.eval.luck`: greedy matches, the variance of the luck-adjusted result).

Prints the learning curve (held-out log-loss and accuracy per epoch) as tab-separated
lines and the time taken; ``--out`` receives the weights, stamped with the rules and the
feature version. The same seed gives the same weights file, whatever the workers.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from akvo.arguments import count_argument, rules_argument
from akvo.config import RulesConfig
from akvo.eval.model import weights_path
from akvo.lab.options import rules_text


def _out_type(text: str) -> Path:
    path = Path(text)
    if path.suffix != ".npz":
        raise argparse.ArgumentTypeError(f"{text!r} must end in .npz")
    return path


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``train`` command to the ``akvo`` command line's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "train", help="train the learned evaluation by self-play (weights file, learning curve)"
    )
    parser.add_argument("--matches", type=count_argument(2), default=2000, help="self-play matches")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument(
        "--rules",
        type=rules_argument,
        default=RulesConfig(),
        metavar="VARIANTS",
        help="rules variants to train for, e.g. weather=coin,prodige=all",
    )
    parser.add_argument("--epochs", type=count_argument(1), default=20, help="passes over the data")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=count_argument(0),
        default=1,
        help="local Dask workers (default 1; 0: no Dask, this process)",
    )
    where.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask scheduler")
    parser.add_argument(
        "--out", type=_out_type, default=Path("eval-weights.npz"), help="the weights (.npz)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--luck",
        action="store_true",
        help="fit the luck evaluation (akvo.eval.luck) from the shipped weights instead",
    )
    return parser


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> None:
    """Run ``akvo train`` with parsed arguments."""
    from akvo.eval.train import baseline_log_loss, train

    if args.luck:
        run_luck(args, out)
        return
    print(
        f"# akvo train --matches {args.matches} --seed {args.seed} --epochs {args.epochs} "
        f"--rules {rules_text(args.rules) or 'default'}",
        file=out,
    )
    fit, data, seconds = train(
        args.matches,
        args.seed,
        args.rules,
        workers=args.workers,
        scheduler=args.scheduler,
        progress=False if args.no_progress else None,
        epochs=args.epochs,
    )
    print(
        f"# {len(data)} positions; always predicting the mean scores log-loss "
        f"{baseline_log_loss(data.value):.4f}",
        file=out,
    )
    print("epoch\ttrain log-loss\theld-out log-loss\theld-out accuracy\tscore MAE", file=out)
    for row in fit.curve:
        print(
            f"{int(row['epoch'])}\t{row['train_log_loss']:.4f}\t{row['held_log_loss']:.4f}\t"
            f"{row['held_accuracy']:.4f}\t{row['held_score_mae']:.3f}",
            file=out,
        )
    fit.weights.save(args.out)
    print(f"# weights written to {args.out} in {seconds:.0f} s", file=out)
    print(f"# to ship them for these rules, copy them to {weights_path(args.rules)}", file=out)


def run_luck(args: argparse.Namespace, out: TextIO = sys.stdout) -> None:
    """``akvo train --luck``: the luck evaluation, fine-tuned from the shipped weights."""
    import time

    from akvo.eval.luck import LUCK_WEIGHTS, fit_luck, luck_data
    from akvo.eval.model import default_evaluation

    started = time.perf_counter()
    print(
        f"# akvo train --luck --matches {args.matches} --seed {args.seed} --epochs {args.epochs}",
        file=out,
    )
    data = luck_data(
        args.matches, args.seed, args.rules, workers=args.workers, scheduler=args.scheduler
    )
    meta = {"matches": args.matches, "seed": args.seed, "command": "akvo train --luck"}
    fit = fit_luck(
        data,
        default_evaluation(args.rules).weights,
        args.seed,
        epochs=args.epochs,
        meta=meta,
        progress=not args.no_progress,
    )
    print("epoch\tvariance ratio (training matches)", file=out)
    for row in fit.curve:
        print(f"{int(row['epoch'])}\t{row['ratio']:.3f}", file=out)
    fit.weights.save(args.out)
    print(
        f"# luck weights written to {args.out} in {time.perf_counter() - started:.0f} s", file=out
    )
    print(f"# the coach's luck reads {LUCK_WEIGHTS} (default rules)", file=out)
