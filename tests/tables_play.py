"""Helpers of the online-table tests: tables from a request, random play by seats."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from akvo.bots import make_bot
from akvo.online import Table, parse_request

PRESETS = ["perrockiss", "fish-tank"]


def new_table(players: int = 2, seed: int = 7, **request: Any) -> Table:
    return Table(
        "t", parse_request({"teams": PRESETS, "players": players, "seed": seed, **request})
    )


def play_bots(table: Table) -> None:
    """Let the table's bots decide until a person must."""
    bot = make_bot("greedy", 1)
    while (side := table.bot_side()) is not None:
        table.play_bot(side, bot(table.bot_state()))


def random_move(table: Table, rng: random.Random) -> tuple[int, str]:
    """One random legal move of a random seat that may act (bots first); the move."""
    play_bots(table)
    seat = rng.choice(table.deciding_seats())
    action = rng.choice(table.actions(seat))
    table.propose(seat, action)
    play_bots(table)
    return seat, action


def play_until(table: Table, done: Callable[[Table], bool], rng: random.Random) -> bool:
    """Random moves until ``done(table)`` or the end of the match; True if ``done``."""
    play_bots(table)
    while not done(table):
        if table.finished:
            return False
        random_move(table, rng)
    return True
