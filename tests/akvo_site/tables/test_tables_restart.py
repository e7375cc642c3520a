"""Nothing lost: the book server is killed (SIGKILL) in the middle of matches played by
scripts through the API, restarted on the same file, and every table resumes where it
was — no acknowledged action lost, no table gone backwards — and plays on to its end."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest

from akvo.match import replay
from akvo.online.client import ApiRefusal, SeatClient, SeatLog, create_table, play_seat
from akvo.online.store import TableStore
from akvo_site.app import serve_in_background
from tests.tables_play import PRESETS, run_async

ROOT = Path(__file__).resolve().parents[3]
#: No pre-heated kernel: a killed server would leave it behind for nothing.
NO_POOLS = '--VoilaKernelManager.kernel_pools_config={"default": {"pool_size": 0}}'
TABLES: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 2, "bots": {"B": "normal"}},
    {"players": 4, "bots": {"A": "facile"}},
    {"players": 6},
]


def _options(database: Path) -> tuple[str, ...]:
    return (
        NO_POOLS,
        "--BookPools.spares=0",  # no kernel started ahead: the tables are what is tested
        f"--OnlineTables.database={database}",
        "--OnlineTables.rate=1000",
        "--OnlineTables.burst=1000",
    )


async def _play_until_killed(
    url: str, pid: int, moves: int
) -> tuple[list[dict[str, Any]], list[list[SeatLog]]]:
    """Create the tables, play them with scripts, SIGKILL the server once every table has
    had ``moves`` actions acknowledged; what each script was acknowledged and saw."""
    async with httpx.AsyncClient(timeout=30) as http:
        made = [
            await create_table(http, url, {"teams": PRESETS, "seed": i, **t})
            for i, t in enumerate(TABLES)
        ]
        logs = [[SeatLog() for s in m["seats"] if s["token"]] for m in made]
        tasks = []
        for m, seat_logs in zip(made, logs, strict=True):
            seats = [
                SeatClient(http, url, m["table"], s["token"]) for s in m["seats"] if s["token"]
            ]
            for index, (seat, log) in enumerate(zip(seats, seat_logs, strict=True)):
                tasks.append(asyncio.create_task(_script(seat, index, log)))
        while min(sum(len(log.acted) for log in table) for table in logs) < moves:
            await asyncio.sleep(0.02)
        os.kill(pid, signal.SIGKILL)
        await asyncio.wait(tasks, timeout=30)
        return made, logs


async def _script(seat: SeatClient, seed: int, log: SeatLog) -> None:
    """play_seat, keeping what it saw in ``log`` when the server dies under it."""
    try:
        await play_seat(seat, seed, think=0.05, log=log)
    except (httpx.HTTPError, ApiRefusal):
        return


async def _finish(url: str, made: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Reconnect every seat and play each table to its end; the records."""
    async with httpx.AsyncClient(timeout=60) as http:
        seats = [
            [SeatClient(http, url, m["table"], s["token"]) for s in m["seats"] if s["token"]]
            for m in made
        ]
        await asyncio.wait_for(
            asyncio.gather(
                *(play_seat(seat, 100 + i) for table in seats for i, seat in enumerate(table))
            ),
            300,
        )
        return [await table[0].record() for table in seats]


@pytest.mark.server
def test_a_killed_server_loses_no_acknowledged_action(tmp_path: Path) -> None:
    database = tmp_path / "tables.sqlite"
    book = ROOT / "book"
    with serve_in_background(book, tmp_path / "first.log", *_options(database)) as first:
        made, logs = run_async(_play_until_killed(first.url, first.pid, moves=12))
    # Leaving the block reaps the killed process (a zombie until then: polling its pid
    # with signal 0 only waited out its deadline, 10 s of every run).

    # What the file holds: every action a script was told was accepted, in its order.
    store = TableStore(database)
    before: list[list[tuple[int, str]]] = []
    for m, seat_logs in zip(made, logs, strict=True):
        stored = store.load(m["table"])
        assert stored is not None and not stored.finished  # killed in the middle of it
        rows = [(seat, action) for _, seat, action in stored.rows]
        humans = [s["seat"] for s in m["seats"] if s["token"]]
        for seat, log in zip(humans, seat_logs, strict=True):
            mine = [action for s, action in rows if s == seat]
            acked = [action for _, action in log.acted]
            assert acked == mine[: len(acked)], f"table {m['table']} seat {seat}"
            assert len(mine) - len(acked) <= 1  # at most the one in flight at the kill
        assert sum(len(log.acted) for log in seat_logs) > 5
        before.append(rows)
    store.close()

    with serve_in_background(book, tmp_path / "second.log", *_options(database)) as second:
        with httpx.Client(base_url=second.url) as http:
            for m, seat_logs in zip(made, logs, strict=True):
                watcher = m["spectator"]["token"]
                view = http.get(f"/akvo/api/tables/{m['table']}", params={"token": watcher}).json()
                assert view["status"] == "playing"
                # Where it was: the public log the scripts last saw goes on unchanged.
                seen = [json.loads(text)["log"] for log in seat_logs for _, text in log.pushes[-1:]]
                for last in seen:
                    assert view["log"][: len(last)] == last
        records = run_async(_finish(second.url, made))

    for rows, record in zip(before, records, strict=True):
        logged = [tuple(row) for row in record["rows"]]
        assert logged[: len(rows)] == rows  # resumed from the very same log
        assert replay(record["match"]).is_terminal()
