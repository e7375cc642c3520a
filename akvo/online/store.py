"""The tables' store: one SQLite file (WAL), an append-only action log per table.

A table is its setup and the list of actions accepted (:attr:`akvo.online.table.Table.rows`);
chance comes from the table's seed, so replaying the log through the engine rebuilds the
table exactly. :meth:`TableStore.append` returns only once the row is committed
(``synchronous=FULL``: durable through a crash of the process or of the machine), and the
service acknowledges an action only after it. Triggers refuse any change or deletion of a
logged action. Finished tables stay, with the engine's match record, for replay and
analysis. An unfinished table idle too long is *expired* (:meth:`TableStore.expire_idle`):
kept as a record, no longer replayed at start. :meth:`TableStore.prune` deletes the oldest
ended (finished or expired) tables beyond a number kept, so the file's size stays bounded
(freed pages are reused); an open table's log can never be deleted. A profile may keep
one set of « Vos erreurs » (:meth:`TableStore.keep_mistakes`: the service caps its size),
replaced only by a writer who read its current version.

:class:`Store` is what the service needs of a store: this SQLite one (one server) or
:class:`akvo.online.store_pg.PostgresStore` (several servers on one database).

Everything read back is checked: a row that does not hold what the schema says, or an
action the engine refuses, makes that table *broken* (a reason in French), never a crash.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from akvo.online.ratings import Profile, Rating

#: A store's listener: called with (table id, seq) of every row appended by any server.
Listener = Callable[[str, int], None]

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    setup TEXT NOT NULL,
    credentials TEXT NOT NULL,
    finished REAL,
    record TEXT
) STRICT;
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS actions_no_update BEFORE UPDATE ON actions
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
CREATE INDEX IF NOT EXISTS open_tables ON tables(finished);
CREATE TABLE IF NOT EXISTS profiles (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    key_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    tables INTEGER NOT NULL DEFAULT 0,
    leaves INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE TABLE IF NOT EXISTS seat_profiles (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    profile TEXT NOT NULL REFERENCES profiles(id),
    PRIMARY KEY (table_id, seat)
) STRICT;
CREATE TABLE IF NOT EXISTS rated_tables (table_id TEXT PRIMARY KEY) STRICT;
CREATE TABLE IF NOT EXISTS profile_mistakes (
    profile TEXT PRIMARY KEY REFERENCES profiles(id),
    version INTEGER NOT NULL,
    updated REAL NOT NULL,
    exercises TEXT NOT NULL
) STRICT;
"""
#: Run after :data:`SCHEMA` on every open (older files lack the column and had a trigger
#: refusing every deletion): only an ended table's log may be deleted, by :meth:`prune`.
MIGRATION = """
DROP TRIGGER IF EXISTS actions_no_delete;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
WHEN (SELECT finished IS NULL AND expired IS NULL FROM tables WHERE id = OLD.table_id)
BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
"""
#: The columns of ``tables`` a :class:`StoredTable` is read from (both stores).
COLUMNS = "id, setup, credentials, finished, expired, created"


@dataclass(frozen=True, slots=True)
class StoredTable:
    """One table as stored: its setup and credentials (JSON text, checked by the
    service) and its action log in order."""

    id: str
    setup: str
    credentials: str
    rows: list[tuple[int, int, str]]
    finished: bool
    expired: bool = False
    #: When the table was created and when each row was logged (UNIX time, the store's
    #: clock): the seat clocks are rebuilt from them after a restart.
    created: float = 0.0
    times: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class StoredProfile:
    """A pseudonymous profile as stored: its public id and name, its standing (never its
    key: only the key's SHA-256 is kept, and only the store reads it)."""

    id: str
    name: str
    standing: Profile


#: A rating update: the standings of a finished table's profiles before it → after it.
Rate = Callable[[dict[str, Profile]], dict[str, Profile]]


class Store(Protocol):
    """What :class:`akvo.online.service.TableService` needs of a store."""

    #: True when other servers write to the same store (the service then reads a table's
    #: new rows before each action, and listens for theirs).
    shared: bool

    def close(self) -> None: ...
    def create(self, table_id: str, setup: dict[str, Any], credentials: dict[str, Any]) -> None: ...
    def append(self, table_id: str, seq: int, seat: int, action: str) -> None: ...
    def finish(self, table_id: str, record: dict[str, Any]) -> None: ...
    def load(self, table_id: str) -> StoredTable | None: ...
    def rows_since(self, table_id: str, seq: int) -> list[tuple[int, int, str]]: ...
    def open_tables(self) -> Iterator[StoredTable]: ...
    def finished_ids(self, limit: int = 100) -> list[str]: ...
    def unrated_ids(self, limit: int = 100) -> list[str]: ...
    def record(self, table_id: str) -> str | None: ...
    def count_rows(self, table_id: str) -> int: ...
    def expire_idle(self, idle: float) -> list[str]: ...
    def prune(self, keep: int) -> int: ...
    def listen(self, listener: Listener) -> Callable[[], None]: ...
    def mark_present(self, table_id: str, seats: list[int], server: str, until: float) -> None: ...
    def present_elsewhere(self, table_id: str, server: str) -> dict[int, float]: ...
    def create_profile(self, profile_id: str, name: str, key_hash: str) -> None: ...
    def profile_by_key(self, key_hash: str) -> StoredProfile | None: ...
    def profiles(self, ids: list[str] | None = None, limit: int = 100) -> list[StoredProfile]: ...
    def bind_seat(self, table_id: str, seat: int, profile_id: str) -> None: ...
    def seat_profiles(self, table_id: str) -> dict[int, str]: ...
    def rate(self, table_id: str, rate: Rate) -> bool: ...
    def mistakes(self, profile_id: str) -> tuple[str, int] | None: ...
    def keep_mistakes(self, profile_id: str, text: str, version: int) -> bool: ...


class TableStore:
    """The SQLite file of the tables (see the module docstring). ``now``: the clock of
    the rows' times (tests give their own)."""

    shared = False

    def __init__(self, path: str | Path, now: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._now = now
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "expired" not in columns:
            self._db.execute("ALTER TABLE tables ADD COLUMN expired REAL")
        self._db.executescript(MIGRATION)

    def close(self) -> None:
        self._db.close()

    def create(self, table_id: str, setup: dict[str, Any], credentials: dict[str, Any]) -> None:
        """Store a new table (committed on return)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO tables (id, created, setup, credentials) VALUES (?, ?, ?, ?)",
                (table_id, self._now(), _json(setup), _json(credentials)),
            )

    def append(self, table_id: str, seq: int, seat: int, action: str) -> None:
        """Log action number ``seq`` (0-based) of a table; committed on return. A second
        row with the same number is refused (sqlite3.IntegrityError)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO actions (table_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (table_id, seq, seat, action, self._now()),
            )

    def finish(self, table_id: str, record: dict[str, Any]) -> None:
        """Mark a table finished, keeping the engine's match record for analysis."""
        with self._transaction():
            self._db.execute(
                "UPDATE tables SET finished = ?, record = ? WHERE id = ? AND finished IS NULL",
                (self._now(), _json(record), table_id),
            )

    def load(self, table_id: str) -> StoredTable | None:
        found = self._db.execute(
            f"SELECT {COLUMNS} FROM tables WHERE id = ?",
            (table_id,),
        ).fetchone()
        return None if found is None else self._stored(found)

    def rows_since(self, table_id: str, seq: int) -> list[tuple[int, int, str]]:
        """A table's rows from number ``seq`` on (none: one server writes this file)."""
        cursor = self._db.execute(
            "SELECT seq, seat, action FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
            (table_id, seq),
        )
        return list(cursor.fetchall())

    def open_tables(self) -> Iterator[StoredTable]:
        """Every table neither finished nor expired, oldest first."""
        cursor = self._db.execute(
            f"SELECT {COLUMNS} FROM tables WHERE finished IS NULL AND expired IS NULL "
            "ORDER BY created"
        )
        for found in cursor.fetchall():
            yield self._stored(found)

    def finished_ids(self, limit: int = 100) -> list[str]:
        """The most recently finished tables' ids."""
        cursor = self._db.execute(
            "SELECT id FROM tables WHERE finished IS NOT NULL ORDER BY finished DESC LIMIT ?",
            (limit,),
        )
        return [str(row[0]) for row in cursor.fetchall()]

    def unrated_ids(self, limit: int = 100) -> list[str]:
        """Finished tables with seats played under profiles but not rated: a server stopped
        between a table's end and its rating (the service rates them when it starts)."""
        cursor = self._db.execute(
            "SELECT id FROM tables WHERE finished IS NOT NULL"
            " AND id IN (SELECT table_id FROM seat_profiles)"
            " AND id NOT IN (SELECT table_id FROM rated_tables) ORDER BY finished LIMIT ?",
            (limit,),
        )
        return [str(row[0]) for row in cursor.fetchall()]

    def record(self, table_id: str) -> str | None:
        """The stored match record (JSON text) of a finished table."""
        found = self._db.execute("SELECT record FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if found is None or found[0] is None else str(found[0])

    def count_rows(self, table_id: str) -> int:
        found = self._db.execute(
            "SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)
        ).fetchone()
        return int(found[0])

    def expire_idle(self, idle: float) -> list[str]:
        """Mark expired every open table without a new row for ``idle`` seconds (kept as
        a record, no longer replayed at start); their ids."""
        before = self._now() - idle
        with self._transaction():
            found = self._db.execute(
                "UPDATE tables SET expired = ? WHERE finished IS NULL AND expired IS NULL AND "
                "COALESCE((SELECT MAX(at) FROM actions WHERE table_id = id), created) < ? "
                "RETURNING id",
                (self._now(), before),
            ).fetchall()
        return [str(row[0]) for row in found]

    def prune(self, keep: int) -> int:
        """Delete the oldest ended tables (finished or expired) beyond the ``keep`` most
        recent, logs, records and seat profiles (the profiles stay); how many were deleted."""
        with self._transaction():
            old = self._db.execute(
                "SELECT id FROM tables WHERE finished IS NOT NULL OR expired IS NOT NULL "
                "ORDER BY COALESCE(finished, expired) DESC LIMIT -1 OFFSET ?",
                (keep,),
            ).fetchall()
            for (table_id,) in old:
                self._db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
                self._db.execute("DELETE FROM seat_profiles WHERE table_id = ?", (table_id,))
                self._db.execute("DELETE FROM rated_tables WHERE table_id = ?", (table_id,))
                self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
        return len(old)

    def size(self) -> int:
        """The database's size in bytes (pages in use or free for reuse)."""
        pages = self._db.execute("PRAGMA page_count").fetchone()[0]
        return int(pages) * int(self._db.execute("PRAGMA page_size").fetchone()[0])

    def mark_present(self, table_id: str, seats: list[int], server: str, until: float) -> None:
        """Nothing to share: one server holds every event stream of this file's tables."""

    def present_elsewhere(self, table_id: str, server: str) -> dict[int, float]:
        return {}

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Nothing to hear: one server writes this file."""
        return lambda: None

    # --- profiles ---------------------------------------------------------------------------
    def create_profile(self, profile_id: str, name: str, key_hash: str) -> None:
        """A new profile at the starting rating; a name already taken (whatever its case:
        ``str.casefold``) raises sqlite3.IntegrityError."""
        start = Rating()
        with self._transaction():
            self._db.execute(
                "INSERT INTO profiles (id, name, folded, key_hash, created, rating, "
                "deviation, volatility) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (profile_id, name, name.casefold(), key_hash, self._now(), *rating_row(start)),
            )

    def profile_by_key(self, key_hash: str) -> StoredProfile | None:
        found = self._db.execute(
            f"SELECT {PROFILE_COLUMNS} FROM profiles WHERE key_hash = ?", (key_hash,)
        ).fetchone()
        return None if found is None else stored_profile(found)

    def profiles(self, ids: list[str] | None = None, limit: int = 100) -> list[StoredProfile]:
        """The profiles ``ids`` (any order), or the ``limit`` best rated (lowest bound of
        their 95 % interval first: a newcomer's wide interval does not top the list)."""
        if ids is not None:
            marks = ", ".join("?" * len(ids))
            query = f"SELECT {PROFILE_COLUMNS} FROM profiles WHERE id IN ({marks})"
            return [stored_profile(row) for row in self._db.execute(query, ids).fetchall()]
        found = self._db.execute(
            f"SELECT {PROFILE_COLUMNS} FROM profiles WHERE tables > 0 "
            "ORDER BY rating - 2 * deviation DESC, name LIMIT ?",
            (limit,),
        ).fetchall()
        return [stored_profile(row) for row in found]

    def bind_seat(self, table_id: str, seat: int, profile_id: str) -> None:
        """The seat is played under this profile (a seat already bound raises
        sqlite3.IntegrityError)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO seat_profiles (table_id, seat, profile) VALUES (?, ?, ?)",
                (table_id, seat, profile_id),
            )

    def seat_profiles(self, table_id: str) -> dict[int, str]:
        found = self._db.execute(
            "SELECT seat, profile FROM seat_profiles WHERE table_id = ?", (table_id,)
        ).fetchall()
        return {int(seat): str(profile) for seat, profile in found}

    def rate(self, table_id: str, rate: Rate) -> bool:
        """Apply a finished table's rating update once (whichever server asks first): the
        profiles of its seats are read, ``rate`` gives their new standings, written in the
        same transaction. False when the table was rated already."""
        with self._transaction():
            done = self._db.execute(
                "INSERT INTO rated_tables (table_id) VALUES (?) ON CONFLICT DO NOTHING",
                (table_id,),
            ).rowcount
            if not done:
                return False
            found = self._db.execute(
                f"SELECT {PROFILE_COLUMNS} FROM profiles WHERE id IN "
                "(SELECT profile FROM seat_profiles WHERE table_id = ?)",
                (table_id,),
            ).fetchall()
            self._db.executemany(
                "UPDATE profiles SET rating = ?, deviation = ?, volatility = ?, "
                "tables = ?, leaves = ? WHERE id = ?",
                rated_rows(found, rate),
            )
        return True

    def mistakes(self, profile_id: str) -> tuple[str, int] | None:
        """A profile's set of « Vos erreurs » (the JSON text of
        :func:`akvo.coach.exercises.export_json`) and its version, or None."""
        found = self._db.execute(
            "SELECT exercises, version FROM profile_mistakes WHERE profile = ?", (profile_id,)
        ).fetchone()
        return None if found is None else (str(found[0]), int(found[1]))

    def keep_mistakes(self, profile_id: str, text: str, version: int) -> bool:
        """Replace a profile's set by ``text`` if it is still at ``version`` (0: none
        kept yet); False when another request replaced it meanwhile (read it again)."""
        if version == 0:
            query = (
                "INSERT INTO profile_mistakes (exercises, updated, profile, version) "
                "VALUES (?, ?, ?, 1) ON CONFLICT DO NOTHING"
            )
        else:
            query = (
                "UPDATE profile_mistakes SET exercises = ?, updated = ?, version = version + 1 "
                "WHERE profile = ? AND version = ?"
            )
        args = (text, self._now(), profile_id) + ((version,) if version else ())
        with self._transaction():
            return bool(self._db.execute(query, args).rowcount)

    def _stored(self, found: tuple[Any, ...]) -> StoredTable:
        rows = self._db.execute(
            "SELECT seq, seat, action, at FROM actions WHERE table_id = ? ORDER BY seq",
            (found[0],),
        ).fetchall()
        return stored_table(found, [tuple(row) for row in rows])

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on error (the connection is in autocommit
    mode, so nothing is left half-written)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def stored_table(found: tuple[Any, ...], rows: list[tuple[Any, ...]]) -> StoredTable:
    """A :class:`StoredTable` from a row of ``tables`` (:data:`COLUMNS`) and its log's
    rows (seq, seat, action, at): the same for either store."""
    table_id, setup, credentials, finished, expired, created = found
    return StoredTable(
        str(table_id),
        str(setup),
        str(credentials),
        [(int(q), int(s), str(a)) for q, s, a, _ in rows],
        finished is not None,
        expired is not None,
        float(created),
        tuple(float(at) for *_, at in rows),
    )


#: The columns of ``profiles`` a :class:`StoredProfile` is read from (both stores).
PROFILE_COLUMNS = "id, name, rating, deviation, volatility, tables, leaves"


def stored_profile(found: tuple[Any, ...]) -> StoredProfile:
    profile_id, name, rating, deviation, volatility, tables, leaves = found
    standing = Profile(
        Rating(float(rating), float(deviation), float(volatility)), int(tables), int(leaves)
    )
    return StoredProfile(str(profile_id), str(name), standing)


def rated_rows(found: list[tuple[Any, ...]], rate: Rate) -> list[tuple[Any, ...]]:
    """The profiles' rows (:data:`PROFILE_COLUMNS`) before a table → the parameters of
    the update after it: rating, deviation, volatility, tables, leaves, id."""
    before = {p.id: p.standing for p in map(stored_profile, found)}
    return [
        (*rating_row(after.rating), after.tables, after.leaves, profile_id)
        for profile_id, after in rate(before).items()
    ]


def rating_row(rating: Rating) -> tuple[float, float, float]:
    return rating.rating, rating.deviation, rating.volatility


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)
