"""Online tables that are never finished (issue 37, item 4): they expire after an idle
time, stay as records, are not replayed at start, and the store's size stays bounded
(ended tables beyond a number kept are pruned; an open table's log cannot be deleted)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from akvo.online import TableRefusal
from akvo.online.service import TableService
from akvo.online.store import TableStore
from tests.tables_play import PRESETS

DAY = 24 * 3600.0


class FakeTime:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def _table(service: TableService, moves: int = 1) -> tuple[str, list[str]]:
    made = service.create({"teams": PRESETS, "seed": 3})
    tokens = [seat["token"] for seat in made["seats"]]
    table = service.table(made["table"])
    for _ in range(moves):
        seat = table.deciding_seats()[0]
        service.act(made["table"], tokens[seat], table.actions(seat)[0])
    return made["table"], tokens


def test_idle_tables_expire_as_records_and_are_not_replayed(tmp_path: Path) -> None:
    now = FakeTime()
    path = tmp_path / "tables.sqlite"
    service = TableService(TableStore(path, now=now), now=now, idle_limit=7 * DAY)
    idle, tokens = _table(service)
    now.t += 6 * DAY
    busy, _ = _table(service)
    service.tick()
    assert service.open_count() == 2
    now.t += 1 * DAY + 1  # idle: 7 days and 1 s without a move; busy: 1 day
    service.tick()
    assert service.open_count() == 1
    assert [t.id for t in service.store.open_tables()] == [busy]
    with pytest.raises(TableRefusal) as refused:
        service.act(idle, tokens[0], "orders AAAA AA")
    assert refused.value.code == "expired"
    assert service.view(idle, tokens[0])["status"] == "expired"  # still readable
    assert service.store.count_rows(idle) == 1  # kept as a record
    service.store.close()
    again = TableService(TableStore(path, now=now), now=now, idle_limit=7 * DAY)
    assert again.load() == 1 and again.open_count() == 1
    assert again.table(busy).rows == service.table(busy).rows


def test_a_table_idle_at_start_is_expired_before_it_is_replayed(tmp_path: Path) -> None:
    now = FakeTime()
    path = tmp_path / "tables.sqlite"
    service = TableService(TableStore(path, now=now), now=now)
    _table(service)
    service.store.close()
    now.t += 31 * DAY  # the default idle limit is 30 days
    again = TableService(TableStore(path, now=now), now=now)
    assert again.load() == 0 and not again.broken


def test_the_store_stays_bounded_and_open_logs_stay_append_only(tmp_path: Path) -> None:
    now = FakeTime()
    store = TableStore(tmp_path / "tables.sqlite", now=now)
    service = TableService(store, now=now, idle_limit=DAY, keep_records=10)
    sizes = []
    for _ in range(12):  # 12 × 25 tables written, 10 kept at the end of each day
        for _ in range(25):
            _table(service, moves=3)
        now.t += DAY + 1
        service.tick()
        sizes.append(store.size())
    ended = store._db.execute(
        "SELECT COUNT(*) FROM tables WHERE expired IS NOT NULL OR finished IS NOT NULL"
    ).fetchone()[0]
    assert ended == 10
    assert max(sizes) <= 1.25 * sizes[2], sizes  # 4 × the tables written, the same size
    open_id, _ = _table(service, moves=2)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("DELETE FROM actions WHERE table_id = ?", (open_id,))
