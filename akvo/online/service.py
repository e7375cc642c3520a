"""The table service: open tables in memory, their store, seat tokens, bots and pushes.

No web framework here: the HTTP layer calls :meth:`TableService.create`,
:meth:`~TableService.view`, :meth:`~TableService.act` and :meth:`~TableService.subscribe`,
and turns a :class:`~akvo.online.seating.TableRefusal` into a status code by its ``code``.

- Tokens: each seat (and the spectator link) gets ``secrets.token_urlsafe(32)`` (256 bits);
  only its SHA-256 is kept, and a token is compared with every stored hash by
  ``hmac.compare_digest`` (constant time, whichever seat it matches).
- An action is checked, logged and committed (:meth:`TableStore.append`), then applied:
  acknowledged means on disk. A refused action changes nothing and logs nothing.
- Pushes: after every change each subscribed seat gets its view (JSON text) if it changed.
- Bots play as soon as it is their decision, after the pushes of the action that made it
  so. With an event loop attached (:meth:`TableService.attach`, the web server's), they
  decide on it, the slow one (``search``) in a worker thread on a copy, off the loop;
  without one (scripts, tests) they decide at once, in the caller. The loop is attached
  explicitly, never guessed from the calling thread: a thread may show a "running" loop
  that is not serving it (Playwright's sync API leaves one in the main thread).
- On start, :meth:`TableService.load` rebuilds every open table by replaying its log; a
  table whose setup or log the checks or the engine refuse is *broken* (its requests get a
  French refusal), and the others load as usual.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from akvo.bots import REGISTRY, Bot, make_bot
from akvo.errors import AkvoError
from akvo.online.seating import TableRefusal, TableSetup, parse_request, refuse
from akvo.online.store import StoredTable, TableStore
from akvo.online.table import SPECTATOR, Table
from akvo.online.views import Coach, Labels, PlainLabels, seat_view, seat_view_json

log = logging.getLogger("akvo.online")

#: Bots decided in a worker thread: those whose speed class (:mod:`akvo.bots.registry`) is
#: not « instant » (they take up to a second a decision).
SLOW_BOTS: Final = frozenset(n for n, spec in REGISTRY.items() if spec.speed != "instant")
#: Finished tables kept in memory (others are rebuilt from the store when asked for).
FINISHED_IN_MEMORY: Final = 64
_HEX = frozenset("0123456789abcdef")

Push = Callable[[str], None]


def new_token() -> str:
    """A seat's secret: 32 random bytes, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class Credentials:
    """The SHA-256 of each seat's token (``None`` for a bot's seat) and of the spectator's."""

    seats: tuple[str | None, ...]
    spectator: str

    def to_dict(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "spectator": self.spectator}

    @classmethod
    def from_dict(cls, data: object, seats: int) -> Credentials:
        if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
            raise refuse("setup", "Les accès enregistrés de la table sont illisibles.")
        hashes = data["seats"]
        if len(hashes) != seats or not all(h is None or _is_hash(h) for h in hashes):
            raise refuse("setup", "Les accès enregistrés de la table sont illisibles.")
        if not _is_hash(data.get("spectator")):
            raise refuse("setup", "Les accès enregistrés de la table sont illisibles.")
        return cls(tuple(hashes), data["spectator"])

    def seat_of(self, token: object) -> int | None:
        """The seat index of ``token`` (:data:`SPECTATOR` for the spectator's), or None.

        Every stored hash is compared, so the time taken does not tell which matched."""
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            return None
        given = token_hash(token)
        found = None
        for index, stored in enumerate(self.seats):
            if stored is not None and hmac.compare_digest(given, stored):
                found = index
        if hmac.compare_digest(given, self.spectator):
            found = SPECTATOR
        return found


def _is_hash(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX


@dataclass
class _Open:
    """A table in memory and its live bits."""

    table: Table
    credentials: Credentials
    subscribers: dict[int, list[Push]]
    last: dict[int, str]
    bots: dict[int, Bot]
    bot_busy: bool = False
    recorded: bool = False


class TableService:
    """Open tables, their store and their pushes (see the module docstring)."""

    def __init__(
        self,
        store: TableStore,
        labels: Labels | None = None,
        *,
        coach: Coach | None = None,
        node: str = "",
        bot_threads: int = 1,
    ) -> None:
        self.store = store
        self.labels = labels or PlainLabels()
        #: The coach whose advice the players' views carry (tables created with it on).
        self.coach = coach
        #: A prefix of every table id this service creates (routing between servers).
        self.node = node
        self._open: dict[str, _Open] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()
        self.broken: dict[str, str] = {}
        self._executor = ThreadPoolExecutor(bot_threads, thread_name_prefix="akvo-bot")
        self._loop: asyncio.AbstractEventLoop | None = None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Let bots decide on ``loop``, the one whose thread calls this service from now on;
        the tables waiting for a bot get their move scheduled there."""
        if self._loop is loop:
            return
        self._loop = loop
        for entry in list(self._open.values()):
            loop.call_soon_threadsafe(self._wake_bot, entry)

    def _wake_bot(self, entry: _Open) -> None:
        if entry.table.bot_side() is not None and not entry.bot_busy:
            self._schedule_bot(entry)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    # --- loading ----------------------------------------------------------------------------
    def load(self) -> int:
        """Rebuild every open table from the store; returns how many loaded (the broken
        ones are in :attr:`broken`, with their French reason)."""
        loaded = 0
        for stored in self.store.open_tables():
            if self._rebuild(stored) is not None:
                loaded += 1
        for entry in list(self._open.values()):
            self._after_change(entry)
        return loaded

    def _rebuild(self, stored: StoredTable) -> _Open | None:
        try:
            setup = TableSetup.from_dict(json.loads(stored.setup))
            table = Table(stored.id, setup)
            credentials = Credentials.from_dict(json.loads(stored.credentials), len(table.seats))
            for number, (seq, seat, action) in enumerate(stored.rows):
                if seq != number or not isinstance(seat, int):
                    raise refuse("row", f"La ligne {number} du journal est hors de son ordre.")
                try:
                    table.replay_row(seat, action)
                except TableRefusal as refusal:
                    raise refuse(
                        "row", f"Ligne {number} du journal refusée\u00a0: {refusal}"
                    ) from None
        except (AkvoError, ValueError, TypeError) as error:
            reason = str(error) if isinstance(error, TableRefusal) else "table illisible"
            log.warning("table %s is broken: %s", stored.id, reason)
            self.broken[stored.id] = reason
            return None
        entry = _Open(table, credentials, {}, {}, {}, recorded=stored.finished)
        self._open[stored.id] = entry
        if table.finished:
            self._remember_finished(stored.id)
        return entry

    # --- creating ---------------------------------------------------------------------------
    def create(self, request: object) -> dict[str, Any]:
        """A new table from a creation request: its id, each seat with its token (bots'
        seats have none) and the spectator's token."""
        setup = parse_request(request)
        table_id = f"{self.node}{secrets.token_urlsafe(12)}"
        table = Table(table_id, setup)
        tokens = [None if seat.bot else new_token() for seat in table.seats]
        spectator = new_token()
        credentials = Credentials(
            tuple(None if t is None else token_hash(t) for t in tokens), token_hash(spectator)
        )
        try:
            self.store.create(table_id, setup.to_dict(), credentials.to_dict())
        except Exception as error:  # sqlite3.Error or the disk
            log.error("could not store a new table: %s", error)
            raise refuse(
                "store", "Le serveur n’a pas pu enregistrer la table\u00a0; réessayez."
            ) from None
        entry = _Open(table, credentials, {}, {}, {})
        self._open[table_id] = entry
        self._after_change(entry)
        return {
            "table": table_id,
            "players": setup.players,
            "seed": setup.seed if isinstance(request, dict) and "seed" in request else None,
            "seats": [
                {**seat.to_dict(), "token": token}
                for seat, token in zip(table.seats, tokens, strict=True)
            ],
            "spectator": {"token": spectator},
        }

    # --- reading ----------------------------------------------------------------------------
    def _entry(self, table_id: object) -> _Open:
        if not isinstance(table_id, str):
            raise refuse("not_found", "Table inconnue.")
        entry = self._open.get(table_id)
        if entry is not None:
            return entry
        if table_id in self.broken:
            raise refuse("broken", "Cette table est endommagée et ne peut plus être jouée.")
        stored = self.store.load(table_id)
        if stored is None:
            raise refuse("not_found", "Table inconnue.")
        entry = self._rebuild(stored)
        if entry is None:
            raise refuse("broken", "Cette table est endommagée et ne peut plus être jouée.")
        return entry

    def _seat(self, table_id: object, token: object) -> tuple[_Open, int]:
        entry = self._entry(table_id)
        seat = entry.credentials.seat_of(token)
        if seat is None:
            raise refuse(
                "forbidden", "Lien invalide\u00a0: ce jeton n’ouvre aucune place de cette table."
            )
        return entry, seat

    def table(self, table_id: str) -> Table:
        """The table itself (tests, benchmarks; the HTTP layer goes through tokens)."""
        return self._entry(table_id).table

    def view(self, table_id: object, token: object) -> dict[str, Any]:
        entry, seat = self._seat(table_id, token)
        return seat_view(entry.table, seat, self.labels, coach=self.coach)

    def view_json(self, table_id: object, token: object) -> str:
        """:meth:`view` as the JSON text a push of the same view carries."""
        entry, seat = self._seat(table_id, token)
        return seat_view_json(entry.table, seat, self.labels, self.coach)

    def record(self, table_id: object, token: object) -> dict[str, Any]:
        """A finished table's record: the engine's match record, the seed and the log."""
        entry, _ = self._seat(table_id, token)
        if not entry.table.finished:
            raise refuse(
                "playing", "Le match n’est pas fini\u00a0: son enregistrement viendra à la fin."
            )
        return _record(entry.table)

    # --- acting -----------------------------------------------------------------------------
    def act(self, table_id: object, token: object, action: object) -> dict[str, Any]:
        """Seat ``token`` plays ``action``: checked, committed, applied, pushed; returns the
        seat's new view. A refusal changes nothing."""
        entry, seat = self._seat(table_id, token)
        table = entry.table
        text = table.check(seat, action)
        self._commit(entry, seat, text)
        table.propose(seat, text)
        self._after_change(entry)
        return seat_view(table, seat, self.labels, coach=self.coach)

    def _commit(self, entry: _Open, seat: int, action: str) -> None:
        table = entry.table
        try:
            self.store.append(table.id, len(table.rows), seat, action)
        except Exception as error:  # sqlite3.Error or the disk: nothing was applied
            log.error("could not log an action of table %s: %s", table.id, error)
            raise refuse(
                "store", "Le serveur n’a pas pu enregistrer ce coup\u00a0; réessayez."
            ) from None

    def _after_change(self, entry: _Open) -> None:
        table = entry.table
        if table.finished and not entry.recorded:
            entry.recorded = True
            self.store.finish(table.id, _record(table))
            self._remember_finished(table.id)
        self._push(entry)
        self._wake_bot(entry)

    def _remember_finished(self, table_id: str) -> None:
        self._finished[table_id] = None
        self._finished.move_to_end(table_id)
        while len(self._finished) > FINISHED_IN_MEMORY:
            old, _ = self._finished.popitem(last=False)
            entry = self._open.get(old)
            if entry is not None and not any(entry.subscribers.values()):
                del self._open[old]

    # --- bots -------------------------------------------------------------------------------
    def _bot(self, entry: _Open, side: int) -> Bot:
        bot = entry.bots.get(side)
        if bot is None:
            name = entry.table.setup.bots[side]
            assert name is not None
            bot = entry.bots[side] = make_bot(name, seed=entry.table.setup.seed * 2 + side)
        return bot

    def _schedule_bot(self, entry: _Open) -> None:
        loop = self._loop
        side = entry.table.bot_side()
        assert side is not None
        name = entry.table.setup.bots[side]
        if loop is None:  # a caller without an event loop (scripts, tests): play now
            self._bot_move(entry, side, self._bot(entry, side)(entry.table.bot_state()))
            return
        entry.bot_busy = True
        if name in SLOW_BOTS:
            bot, state = self._bot(entry, side), entry.table.bot_state()
            moves = len(entry.table.state.history)
            future = loop.run_in_executor(self._executor, bot, state)
            future.add_done_callback(lambda done: self._bot_done(entry, side, moves, done))
        else:
            loop.call_soon(self._bot_inline, entry, side)

    def _bot_inline(self, entry: _Open, side: int) -> None:
        entry.bot_busy = False
        if entry.table.bot_side() == side:
            self._bot_move(entry, side, self._bot(entry, side)(entry.table.bot_state()))

    def _bot_done(self, entry: _Open, side: int, moves: int, done: asyncio.Future[str]) -> None:
        entry.bot_busy = False
        if done.cancelled():
            return
        table = entry.table
        if table.bot_side() != side or len(table.state.history) != moves:
            if table.bot_side() is not None:  # the position moved on meanwhile: decide again
                self._schedule_bot(entry)
            return
        error = done.exception()
        if error is not None:
            log.error("bot of table %s failed: %r", table.id, error)
            return
        self._bot_move(entry, side, done.result())

    def _bot_move(self, entry: _Open, side: int, action: str) -> None:
        table = entry.table
        try:
            table.check_bot(side, action)
            self._commit(entry, table.side_seats(side)[0].index, action)
        except TableRefusal as refusal:
            log.error("bot move of table %s not played: %s", table.id, refusal)
            return  # not logged, not played: the next change or a restart tries again
        table.play_bot(side, action)
        self._after_change(entry)

    # --- pushes -----------------------------------------------------------------------------
    def subscribe(self, table_id: object, token: object, push: Push) -> Callable[[], None]:
        """Call ``push(view_json)`` now and on every change of the seat's view; returns the
        function that unsubscribes."""
        entry, seat = self._seat(table_id, token)
        pushes = entry.subscribers.setdefault(seat, [])
        pushes.append(push)
        text = seat_view_json(entry.table, seat, self.labels, self.coach)
        entry.last[seat] = text
        push(text)

        def unsubscribe() -> None:
            if push in pushes:
                pushes.remove(push)

        return unsubscribe

    def _push(self, entry: _Open) -> None:
        for seat, pushes in entry.subscribers.items():
            if not pushes:
                continue
            text = seat_view_json(entry.table, seat, self.labels, self.coach)
            if entry.last.get(seat) == text:
                continue
            entry.last[seat] = text
            for push in list(pushes):
                try:
                    push(text)
                except Exception as error:  # a subscriber's failure is its own
                    log.warning("push to table %s failed: %r", entry.table.id, error)

    def open_count(self) -> int:
        return sum(1 for e in self._open.values() if not e.table.finished)


def _record(table: Table) -> dict[str, Any]:
    return {
        "table": table.id,
        "setup": table.setup.to_dict(),
        "rows": [[seat, action] for seat, action in table.rows],
        "match": table.state.record(),
    }
