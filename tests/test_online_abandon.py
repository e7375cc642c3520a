"""The abandon test (issue 37): 100 tables of 2 players on a short clock, one seat leaves
at a random moment and never comes back; every table finishes, with the takeover in its
log. Half the time the remaining player hands the seat over when offered; otherwise the
table does it by itself one allowance later. Time is a fake clock: no waiting."""

from __future__ import annotations

import json
import random

import pytest

from akvo.online.service import TableService
from akvo.online.store import TableStore
from akvo.online.table import SEAT_BOT, TABLE
from tests.tables_play import PRESETS

TABLES = 100
MINUTE = 60.0


class FakeTime:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def _abandoned_table(service: TableService, now: FakeTime, rng: random.Random) -> str:
    """Play one table to its end: both seats play at random until one leaves after a
    random number of moves; the other plays on, and answers the offer or not."""
    made = service.create(
        {"teams": PRESETS, "seed": rng.randrange(1 << 30), "clock": {"mode": "live", "minutes": 1}}
    )
    table_id = made["table"]
    tokens = [seat["token"] for seat in made["seats"]]
    stops = [service.subscribe(table_id, token, lambda _: None) for token in tokens]
    table = service.table(table_id)
    leaver, stayer = rng.sample((0, 1), 2)
    leave_at, answers = rng.randrange(40), rng.random() < 0.5
    for _ in range(5000):
        if table.finished:
            return table_id
        if len(table.rows) >= leave_at and stops[leaver] is not None:
            stops[leaver]()
            stops[leaver] = None  # type: ignore[call-overload]
        present = [s for s in table.deciding_seats() if stops[s] is not None]
        if present:
            seat = rng.choice(present)
            service.act(table_id, tokens[seat], rng.choice(table.actions(seat)))
            continue
        now.t += MINUTE / 2
        service.tick()
        view = service.view(table_id, tokens[stayer])
        if answers and view["decision"]["offered"]:
            service.hand_over(table_id, tokens[stayer], view["decision"]["offered"][0], "normal")
    raise AssertionError(f"table {table_id} did not finish")


@pytest.mark.slow
def test_every_abandoned_table_finishes_with_the_takeover_in_its_log() -> None:
    now = FakeTime()
    store = TableStore(":memory:", now=now)
    service = TableService(store, now=now)
    rng = random.Random(37)
    finished, taken_over = 0, 0
    for _ in range(TABLES):
        table_id = _abandoned_table(service, now, rng)
        record = json.loads(store.record(table_id) or "{}")
        finished += bool(record) and service.table(table_id).finished
        takeovers = [
            row
            for row, by in zip(record["rows"], record["by"], strict=True)
            if by == TABLE and row[1].startswith(SEAT_BOT)
        ]
        taken_over += len(takeovers) == 1
        assert len(store.finished_ids(1000)) == finished
    assert (finished, taken_over) == (TABLES, TABLES)
