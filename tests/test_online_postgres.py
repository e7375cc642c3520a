"""Several servers on one PostgreSQL database (issue 37, item 6): every server serves every
table, an action through one is seen and pushed (LISTEN/NOTIFY) by the other, and
concurrent actions through two servers lose or duplicate no acknowledged action.

A throwaway cluster is started in a temporary folder, on a Unix socket only (no TCP), by
Debian's ``initdb`` and ``pg_ctl`` (as the ``postgres`` user when run as root, which
PostgreSQL refuses). Without PostgreSQL or psycopg the tests skip, saying why, unless
``AKVO_REQUIRE_POSTGRES=1`` (CI), where they fail."""

from __future__ import annotations

import glob
import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from akvo.online import TableRefusal
from akvo.online.service import TableService
from tests.tables_play import PRESETS, require_postgres

pytestmark = pytest.mark.server


def _run(command: list[str], user: str | None) -> None:
    if user is not None:
        command = ["runuser", "-u", user, "--", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{command[-4:]} failed: {done.stderr.strip()}"


@pytest.fixture(scope="module")
def dsn() -> Iterator[str]:
    """A fresh cluster's connection string, stopped and deleted after the module."""
    require_postgres()
    bin_dir = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1]).parent
    root = Path(tempfile.mkdtemp(prefix="akvo-pg-"))  # pytest's own is closed to postgres
    data = root / "data"
    user = "postgres" if os.geteuid() == 0 else None
    if user is not None:
        shutil.chown(root, user)
        root.chmod(0o700)
    _run([str(bin_dir / "initdb"), "-D", str(data), "--auth=trust", "-U", "postgres"], user)
    options = f"-k {root} -c listen_addresses='' -c fsync=off"
    log = root / "postgres.log"  # the server's output, not our pipes (they would stay open)
    _run(
        [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start"],
        user,
    )
    try:
        yield f"host={root} dbname=postgres user=postgres"
    finally:
        _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], user)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def two_servers(dsn: str) -> Iterator[tuple[TableService, TableService]]:
    from akvo.online.store_pg import PostgresStore

    channel = f"akvo_test_{random.randrange(1 << 30)}"
    services = [
        TableService(PostgresStore(dsn, channel=channel), node=node) for node in ("n1-", "n2-")
    ]
    yield services[0], services[1]
    for service in services:
        service.close()
        service.store.close()


def _tokens(made: dict[str, object]) -> list[str]:
    return [seat["token"] for seat in made["seats"]]  # type: ignore[attr-defined,index]


def test_an_action_through_one_server_is_seen_and_pushed_by_the_other(
    two_servers: tuple[TableService, TableService],
) -> None:
    one, two = two_servers
    made = one.create({"teams": PRESETS, "seed": 11})
    table_id, tokens = str(made["table"]), _tokens(made)
    two.follow()
    pushes: list[dict[str, object]] = []
    two.subscribe(table_id, tokens[1], lambda text: pushes.append(json.loads(text)))
    assert pushes[-1]["programmed"] == {"A": False, "B": False}
    one.act(table_id, tokens[0], "orders AATT AT-B")
    assert two.drain(wait=5) == 1  # NOTIFY heard, the row applied and pushed
    assert pushes[-1]["programmed"] == {"A": True, "B": False}
    two.act(table_id, tokens[1], "orders TTAA AA")  # B on the other server
    assert one.view(table_id, tokens[0])["orders"]["B"] == "TTAA AA"  # revealed on both
    assert one.table(table_id).rows == two.table(table_id).rows
    assert one.store.count_rows(table_id) == 2


def test_concurrent_actions_are_neither_lost_nor_duplicated(
    two_servers: tuple[TableService, TableService],
) -> None:
    """Two servers, each in its own thread, play two of four seats of the same tables as
    fast as they can: every acknowledged action is in the log once, in order."""
    one, two = two_servers
    tables = [one.create({"teams": PRESETS, "players": 4, "seed": s}) for s in range(3)]
    acked: dict[tuple[str, int], list[str]] = {}
    refused = [0, 0]

    def play(service: TableService, seats: tuple[int, int], number: int) -> None:
        rng = random.Random(number)
        for _ in range(150):
            made = rng.choice(tables)
            table_id, tokens = str(made["table"]), _tokens(made)
            seat = rng.choice(seats)
            try:
                legal = service.view(table_id, tokens[seat])["legal"]
                if not legal:
                    continue
                action = rng.choice(legal)["action"]
                service.act(table_id, tokens[seat], action)
            except TableRefusal:
                refused[number] += 1  # the other server moved the table meanwhile
                continue
            acked.setdefault((table_id, seat), []).append(action)

    threads = [
        threading.Thread(target=play, args=(one, (0, 2), 0)),
        threading.Thread(target=play, args=(two, (1, 3), 1)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert sum(len(a) for a in acked.values()) > 100
    for made in tables:
        table_id = str(made["table"])
        stored = one.store.load(table_id)
        assert stored is not None
        assert [seq for seq, _, _ in stored.rows] == list(range(len(stored.rows)))
        for seat in range(4):
            logged = [action for _, s, action in stored.rows if s == seat]
            assert logged == acked.get((table_id, seat), []), (table_id, seat)
    fresh = TableService(type(one.store)(one.store.dsn))  # type: ignore[call-arg,attr-defined]
    try:
        for made in tables:  # a third server replays every table to the same position
            table_id = str(made["table"])
            assert fresh.table(table_id).rows == two.table(table_id).rows
    finally:
        fresh.store.close()


def test_a_row_number_taken_meanwhile_is_read_and_the_action_checked_again(
    two_servers: tuple[TableService, TableService],
) -> None:
    """Server one does not see server two's row before appending (as when both append at
    once): the database refuses the row number, server one reads the row and checks its
    own action again on the new position."""
    one, two = two_servers
    made = one.create({"teams": PRESETS, "seed": 12})
    table_id, tokens = str(made["table"]), _tokens(made)
    one.view(table_id, tokens[0])
    two.act(table_id, tokens[1], "orders TTAA AA")
    store = one.store
    reads: list[int] = []
    real = store.rows_since

    def stale(table: str, seq: int) -> list[tuple[int, int, str]]:
        reads.append(seq)  # the view's read and the action's read miss server two's row
        return [] if len(reads) <= 2 else real(table, seq)

    store.rows_since = stale  # type: ignore[method-assign]
    one.act(table_id, tokens[0], "orders AATT AT-B")
    assert reads == [0, 0, 0] and one.conflicts == 1  # refused row 0, read it, row 1
    assert [(s, a) for _, s, a in real(table_id, 0)] == [
        (1, "orders TTAA AA"),
        (0, "orders AATT AT-B"),
    ]
    assert one.table(table_id).rows == two.table(table_id).rows


def test_a_table_with_a_bot_plays_to_its_end_through_both_servers(
    two_servers: tuple[TableService, TableService],
) -> None:
    """Both servers hold the table and hear each other: the bot's moves are logged once
    whichever server plays them, and both end on the same log."""
    one, two = two_servers
    one.follow()
    two.follow()
    made = one.create({"teams": PRESETS, "players": 4, "seed": 21, "bots": {"B2": "normal"}})
    table_id, tokens = str(made["table"]), _tokens(made)
    rng = random.Random(4)
    for turn in range(2000):
        service = (one, two)[turn % 2]
        service.drain()
        table = service.table(table_id)
        if table.finished:
            break
        seats = table.deciding_seats()
        if not seats:
            service.drain(wait=1)
            continue
        seat = rng.choice(seats)
        try:
            service.act(table_id, tokens[seat], rng.choice(table.actions(seat)))
        except TableRefusal:
            continue
    one.drain(wait=0.5)
    two.drain(wait=0.5)
    assert one.table(table_id).finished and two.table(table_id).finished
    stored = one.store.load(table_id)
    assert stored is not None and stored.finished
    assert [(s, a) for _, s, a in stored.rows] == one.table(table_id).rows
    assert one.table(table_id).rows == two.table(table_id).rows
    assert "greedy" in one.table(table_id).authors


def test_presence_is_shared_between_servers(dsn: str) -> None:
    """A seat whose event stream is on server two is present for server one (marks in the
    database renewed at every tick), and goes away there once two stops renewing it."""
    from akvo.online.service import PRESENCE_TTL
    from akvo.online.store_pg import PostgresStore

    now = [1_000_000.0]
    clock = lambda: now[0]  # noqa: E731 - a clock the test moves
    channel = f"akvo_test_{random.randrange(1 << 30)}"
    one, two = (
        TableService(PostgresStore(dsn, now=clock, channel=channel), node=n, now=clock)
        for n in ("n1-", "n2-")
    )
    try:
        made = one.create({"teams": PRESETS, "seed": 5, "clock": {"mode": "live", "minutes": 1}})
        table_id, tokens = str(made["table"]), _tokens(made)
        one.subscribe(table_id, tokens[0], lambda _: None)
        stop = two.subscribe(table_id, tokens[1], lambda _: None)
        two.tick()
        one.tick()
        assert [p["presence"] for p in one.presence(table_id)] == ["present", "present"]
        assert one.view(table_id, tokens[0])["seats"][1]["presence"] == "present"
        stop()
        two.tick()
        now[0] += PRESENCE_TTL + 1
        one.tick()
        assert [p["presence"] for p in one.presence(table_id)] == ["present", "away"]
        one.act(table_id, tokens[0], "orders AAAA AA")
        now[0] += 61
        one.tick()  # B is out of time and away; A is here: B's seat is offered, not taken
        table = one.table(table_id)
        assert one.presence(table_id)[1]["offered"] and table.controller(1) is None
        one.hand_over(table_id, tokens[0], "B1", "normal")
        assert table.controller(1) == "greedy"
        two.drain()
        assert two.table(table_id).controller(1) == "greedy"
    finally:
        for service in (one, two):
            service.close()
            service.store.close()


def test_the_postgres_log_is_append_only_and_ended_tables_are_pruned(dsn: str) -> None:
    import psycopg

    from akvo.online.store_pg import PostgresStore

    with psycopg.connect(dsn, autocommit=True) as admin:  # a database of its own
        admin.execute("CREATE DATABASE akvo_prune")
    now = [2_000_000.0]
    store = PostgresStore(dsn.replace("dbname=postgres", "dbname=akvo_prune"), now=lambda: now[0])
    service = TableService(store, now=lambda: now[0], idle_limit=3600, keep_records=2)
    try:
        made = [service.create({"teams": PRESETS, "seed": s}) for s in range(5)]
        for m in made:
            service.act(m["table"], m["seats"][0]["token"], "orders AAAA AA")
        now[0] += 3601
        fresh = service.create({"teams": PRESETS, "seed": 9})
        service.act(fresh["table"], fresh["seats"][0]["token"], "orders AAAA AA")
        service.tick()  # five expired, the three oldest of them pruned
        assert [t.id for t in store.open_tables()] == [fresh["table"]]
        kept = [m["table"] for m in made if store.load(m["table"]) is not None]
        assert len(kept) == 2 and all(store.count_rows(t) == 1 for t in kept)
        with pytest.raises(Exception, match="append-only"):
            store._db.execute("DELETE FROM akvo_actions WHERE table_id = %s", (fresh["table"],))
        with pytest.raises(Exception, match="append-only"):
            store._db.execute(
                "UPDATE akvo_actions SET action = 'x' WHERE table_id = %s", (kept[0],)
            )
        assert store.count_rows(fresh["table"]) == 1
    finally:
        service.close()
        store.close()
