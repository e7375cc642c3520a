"""The tables' store on PostgreSQL, for several servers sharing one database.

The same append-only log per table as the SQLite store (:mod:`akvo.online.store`), so that
every server can serve every table: it loads a table on demand from the log, and before
each action reads the rows other servers added (:meth:`PostgresStore.rows_since`). Two
servers appending the same row number meet the primary key (table, seq): one commits,
the other gets ``UniqueViolation`` and checks its action again on the new position, so an
acknowledged action is never lost nor logged twice.

Each append notifies the channel (``pg_notify`` in the same transaction: sent on commit
only) with ``"<seq> <table id>"``; :meth:`PostgresStore.listen` hears every server's rows
on a connection of its own, in a thread, and hands them to the service, which pushes them
to its own subscribers.

Needs ``psycopg`` (3), from the ``online`` extra, and a PostgreSQL server (Debian's
``postgresql``); ``dsn`` is a libpq connection string (``host=/run/postgresql
dbname=akvo``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final

from akvo.extras import optional
from akvo.online.ratings import Rating
from akvo.online.store import (
    COLUMNS,
    PROFILE_COLUMNS,
    Listener,
    Rate,
    StoredProfile,
    StoredTable,
    rated_rows,
    rating_row,
    stored_profile,
    stored_table,
)

if TYPE_CHECKING:
    import psycopg

#: The channel every server's rows are announced on.
CHANNEL: Final = "akvo_tables"

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS akvo_tables (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    setup TEXT NOT NULL,
    credentials TEXT NOT NULL,
    finished DOUBLE PRECISION,
    expired DOUBLE PRECISION,
    record TEXT
);
CREATE TABLE IF NOT EXISTS akvo_actions (
    table_id TEXT NOT NULL REFERENCES akvo_tables(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX IF NOT EXISTS akvo_open_tables ON akvo_tables (finished, expired);
CREATE TABLE IF NOT EXISTS akvo_presence (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    server TEXT NOT NULL,
    until DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat, server)
);
CREATE TABLE IF NOT EXISTS akvo_profiles (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    key_hash TEXT NOT NULL UNIQUE,
    created DOUBLE PRECISION NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    tables INTEGER NOT NULL DEFAULT 0,
    leaves INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS akvo_seat_profiles (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    profile TEXT NOT NULL REFERENCES akvo_profiles(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS akvo_rated_tables (table_id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS akvo_profile_mistakes (
    profile TEXT PRIMARY KEY REFERENCES akvo_profiles(id),
    version INTEGER NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    exercises TEXT NOT NULL
);
CREATE OR REPLACE FUNCTION akvo_actions_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' OR EXISTS (
        SELECT 1 FROM akvo_tables
        WHERE id = OLD.table_id AND finished IS NULL AND expired IS NULL
    ) THEN
        RAISE EXCEPTION 'the action log is append-only';
    END IF;
    RETURN OLD;
END $$;
CREATE OR REPLACE TRIGGER akvo_actions_guard BEFORE UPDATE OR DELETE ON akvo_actions
FOR EACH ROW EXECUTE FUNCTION akvo_actions_guard();
"""


class PostgresStore:
    """The tables on a PostgreSQL database (see the module docstring). ``now``: the clock
    of the rows' times (tests give their own)."""

    shared = True

    def __init__(
        self, dsn: str, now: Callable[[], float] = time.time, channel: str = CHANNEL
    ) -> None:
        self._psycopg = optional("psycopg")
        self.dsn = dsn
        self.channel = channel
        self._now = now
        self._lock = threading.Lock()
        self._db: psycopg.Connection[Any] = self._psycopg.connect(dsn, autocommit=True)
        with self._lock, self._db.transaction():
            # Servers starting together: one creates the schema, the others wait for it.
            self._db.execute("SELECT pg_advisory_xact_lock(hashtext('akvo_tables_schema'))")
            self._db.execute(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def _all(self, query: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(query, args).fetchall()  # type: ignore[arg-type]

    def create(self, table_id: str, setup: dict[str, Any], credentials: dict[str, Any]) -> None:
        """Store a new table (committed on return)."""
        with self._lock:
            self._db.execute(
                "INSERT INTO akvo_tables (id, created, setup, credentials) VALUES (%s, %s, %s, %s)",
                (table_id, self._now(), _json(setup), _json(credentials)),
            )

    def append(self, table_id: str, seq: int, seat: int, action: str) -> None:
        """Log row ``seq`` of a table and announce it; committed on return. A row number
        another server took first raises ``psycopg.errors.UniqueViolation``."""
        with self._lock, self._db.transaction():
            self._db.execute(
                "INSERT INTO akvo_actions (table_id, seq, seat, action, at) "
                "VALUES (%s, %s, %s, %s, %s)",
                (table_id, seq, seat, action, self._now()),
            )
            self._db.execute("SELECT pg_notify(%s, %s)", (self.channel, f"{seq} {table_id}"))

    def finish(self, table_id: str, record: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE akvo_tables SET finished = %s, record = %s "
                "WHERE id = %s AND finished IS NULL",
                (self._now(), _json(record), table_id),
            )

    def load(self, table_id: str) -> StoredTable | None:
        found = self._all(f"SELECT {COLUMNS} FROM akvo_tables WHERE id = %s", (table_id,))
        return self._stored(found[0]) if found else None

    def rows_since(self, table_id: str, seq: int) -> list[tuple[int, int, str]]:
        rows = self._all(
            "SELECT seq, seat, action FROM akvo_actions WHERE table_id = %s AND seq >= %s "
            "ORDER BY seq",
            (table_id, seq),
        )
        return [(int(q), int(s), str(a)) for q, s, a in rows]

    def open_tables(self) -> Iterator[StoredTable]:
        found = self._all(
            f"SELECT {COLUMNS} FROM akvo_tables WHERE finished IS NULL AND expired IS NULL "
            "ORDER BY created"
        )
        for row in found:
            yield self._stored(row)

    def finished_ids(self, limit: int = 100) -> list[str]:
        found = self._all(
            "SELECT id FROM akvo_tables WHERE finished IS NOT NULL ORDER BY finished DESC LIMIT %s",
            (limit,),
        )
        return [str(row[0]) for row in found]

    def unrated_ids(self, limit: int = 100) -> list[str]:
        found = self._all(
            "SELECT id FROM akvo_tables WHERE finished IS NOT NULL"
            " AND id IN (SELECT table_id FROM akvo_seat_profiles)"
            " AND id NOT IN (SELECT table_id FROM akvo_rated_tables) ORDER BY finished LIMIT %s",
            (limit,),
        )
        return [str(row[0]) for row in found]

    def record(self, table_id: str) -> str | None:
        found = self._all("SELECT record FROM akvo_tables WHERE id = %s", (table_id,))
        return None if not found or found[0][0] is None else str(found[0][0])

    def count_rows(self, table_id: str) -> int:
        found = self._all("SELECT COUNT(*) FROM akvo_actions WHERE table_id = %s", (table_id,))
        return int(found[0][0])

    def expire_idle(self, idle: float) -> list[str]:
        """Mark expired the open tables without a new row for ``idle`` seconds."""
        found = self._all(
            "UPDATE akvo_tables t SET expired = %s WHERE finished IS NULL AND expired IS NULL "
            "AND COALESCE((SELECT MAX(at) FROM akvo_actions WHERE table_id = t.id), created) "
            "< %s RETURNING id",
            (self._now(), self._now() - idle),
        )
        return [str(row[0]) for row in found]

    def prune(self, keep: int) -> int:
        """Delete the oldest ended tables beyond the ``keep`` most recent, and the presence
        marks lapsed an hour ago."""
        with self._lock, self._db.transaction():
            old = self._db.execute(
                "SELECT id FROM akvo_tables WHERE finished IS NOT NULL OR expired IS NOT NULL "
                "ORDER BY COALESCE(finished, expired) DESC OFFSET %s",
                (keep,),
            ).fetchall()
            ids = [row[0] for row in old]
            self._db.execute("DELETE FROM akvo_actions WHERE table_id = ANY(%s)", (ids,))
            for table in ("akvo_seat_profiles", "akvo_rated_tables"):  # the profiles stay
                self._db.execute(f"DELETE FROM {table} WHERE table_id = ANY(%s)", (ids,))
            self._db.execute("DELETE FROM akvo_tables WHERE id = ANY(%s)", (ids,))
            # Presence marks lapsed an hour ago tell nothing more (nor those of gone tables).
            self._db.execute("DELETE FROM akvo_presence WHERE until < %s", (self._now() - 3600,))
        return len(ids)

    def size(self) -> int:
        found = self._all(
            "SELECT pg_total_relation_size('akvo_tables') + pg_total_relation_size('akvo_actions')"
        )
        return int(found[0][0])

    def mark_present(self, table_id: str, seats: list[int], server: str, until: float) -> None:
        """This server holds event streams of these seats: present until ``until`` (each
        server renews its seats at every tick; a dead server's lapse by themselves)."""
        with self._lock, self._db.transaction():
            for seat in seats:
                self._db.execute(
                    "INSERT INTO akvo_presence (table_id, seat, server, until) "
                    "VALUES (%s, %s, %s, %s) ON CONFLICT (table_id, seat, server) "
                    "DO UPDATE SET until = EXCLUDED.until",
                    (table_id, seat, server, until),
                )

    def present_elsewhere(self, table_id: str, server: str) -> dict[int, float]:
        """Each seat's latest presence mark by the other servers (present while in the
        future; since when it is away once past)."""
        found = self._all(
            "SELECT seat, MAX(until) FROM akvo_presence WHERE table_id = %s AND server <> %s "
            "GROUP BY seat",
            (table_id, server),
        )
        return {int(seat): float(until) for seat, until in found}

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(table_id, seq)`` (in a thread of its own) for every row any
        server appends from now on; returns the function that stops listening."""
        connection = self._psycopg.connect(self.dsn, autocommit=True)
        connection.execute(f'LISTEN "{self.channel}"')
        stopped = threading.Event()

        def hear() -> None:
            while not stopped.is_set():
                for note in connection.notifies(timeout=0.2):
                    seq, _, table_id = note.payload.partition(" ")
                    if seq.isdigit() and table_id:
                        listener(table_id, int(seq))

        thread = threading.Thread(target=hear, name="akvo-tables-listen", daemon=True)
        thread.start()

        def stop() -> None:
            stopped.set()
            thread.join(2)
            connection.close()

        return stop

    # --- profiles (as :class:`akvo.online.store.TableStore`'s) ---------------------------------
    def create_profile(self, profile_id: str, name: str, key_hash: str) -> None:
        start = Rating()
        with self._lock:
            self._db.execute(
                "INSERT INTO akvo_profiles (id, name, folded, key_hash, created, rating, "
                "deviation, volatility) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (profile_id, name, name.casefold(), key_hash, self._now(), *rating_row(start)),
            )

    def profile_by_key(self, key_hash: str) -> StoredProfile | None:
        found = self._all(
            f"SELECT {PROFILE_COLUMNS} FROM akvo_profiles WHERE key_hash = %s", (key_hash,)
        )
        return stored_profile(found[0]) if found else None

    def profiles(self, ids: list[str] | None = None, limit: int = 100) -> list[StoredProfile]:
        if ids is not None:
            query = f"SELECT {PROFILE_COLUMNS} FROM akvo_profiles WHERE id = ANY(%s)"
            return [stored_profile(row) for row in self._all(query, (ids,))]
        found = self._all(
            f"SELECT {PROFILE_COLUMNS} FROM akvo_profiles WHERE tables > 0 "
            "ORDER BY rating - 2 * deviation DESC, name LIMIT %s",
            (limit,),
        )
        return [stored_profile(row) for row in found]

    def bind_seat(self, table_id: str, seat: int, profile_id: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO akvo_seat_profiles (table_id, seat, profile) VALUES (%s, %s, %s)",
                (table_id, seat, profile_id),
            )

    def seat_profiles(self, table_id: str) -> dict[int, str]:
        found = self._all(
            "SELECT seat, profile FROM akvo_seat_profiles WHERE table_id = %s", (table_id,)
        )
        return {int(seat): str(profile) for seat, profile in found}

    def rate(self, table_id: str, rate: Rate) -> bool:
        """Once per table across servers; the profiles are locked (FOR UPDATE) while their
        new standings are computed, so two tables finishing at once both count."""
        with self._lock, self._db.transaction():
            done = self._db.execute(
                "INSERT INTO akvo_rated_tables (table_id) VALUES (%s) ON CONFLICT DO NOTHING",
                (table_id,),
            ).rowcount
            if not done:
                return False
            found = self._db.execute(
                f"SELECT {PROFILE_COLUMNS} FROM akvo_profiles WHERE id IN "
                "(SELECT profile FROM akvo_seat_profiles WHERE table_id = %s) "
                "ORDER BY id FOR UPDATE",
                (table_id,),
            ).fetchall()
            with self._db.cursor() as cursor:
                cursor.executemany(
                    "UPDATE akvo_profiles SET rating = %s, deviation = %s, volatility = %s, "
                    "tables = %s, leaves = %s WHERE id = %s",
                    rated_rows(found, rate),
                )
        return True

    def mistakes(self, profile_id: str) -> tuple[str, int] | None:
        found = self._all(
            "SELECT exercises, version FROM akvo_profile_mistakes WHERE profile = %s",
            (profile_id,),
        )
        return (str(found[0][0]), int(found[0][1])) if found else None

    def keep_mistakes(self, profile_id: str, text: str, version: int) -> bool:
        """As :meth:`akvo.online.store.TableStore.keep_mistakes`: one statement, so two
        servers replacing the same version cannot both succeed."""
        if version == 0:
            query = (
                "INSERT INTO akvo_profile_mistakes (exercises, updated, profile, version) "
                "VALUES (%s, %s, %s, 1) ON CONFLICT DO NOTHING"
            )
        else:
            query = (
                "UPDATE akvo_profile_mistakes SET exercises = %s, updated = %s, "
                "version = version + 1 WHERE profile = %s AND version = %s"
            )
        args = (text, self._now(), profile_id) + ((version,) if version else ())
        with self._lock:
            return bool(self._db.execute(query, args).rowcount)

    def _stored(self, found: tuple[Any, ...]) -> StoredTable:
        rows = self._all(
            "SELECT seq, seat, action, at FROM akvo_actions WHERE table_id = %s ORDER BY seq",
            (found[0],),
        )
        return stored_table(found, rows)


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)
