"""Argument types shared by the command lines (``akvo``, its lab and training subcommands):
argparse calls them on the raw text, and their errors become its usage message."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import AkvoError
from akvo.switches import rules_help


def rules_argument(text: str) -> RulesConfig:
    """``--rules weather=coin,…``: the engine names a bad pair."""
    try:
        return RulesConfig.from_text(text)
    except AkvoError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_rules_argument(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """``--rules VARIANTS`` (default: the default rules), read by :func:`rules_argument`; its
    help lists every switch of the registry unless the command says what the rules are for."""
    parser.add_argument(
        "--rules",
        type=rules_argument,
        default=DEFAULT_RULES,
        metavar="VARIANTS",
        help=help or rules_help(),
    )


def count_argument(minimum: int) -> Callable[[str], int]:
    """An integer option of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below the minimum {minimum}")
        return value

    return parse


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers N`` (local Dask workers) or ``--scheduler ADDRESS`` (an existing cluster),
    one or the other, for the commands that run matches on Dask."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=count_argument(0),
        default=None,
        help="local Dask workers (default: one per core; 0: no Dask, this process)",
    )
    where.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask scheduler")
