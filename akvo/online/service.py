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
- Presence and clocks: a seat is present while it holds an event stream (:meth:`subscribe`),
  away otherwise, since when it is kept. :meth:`tick` (the server calls it every second or
  so; tests with their own ``now``) offers the seats whose time ran out (or, « en direct »,
  whose player has been away a decision's time) to the others, who may hand them to a bot
  (:meth:`hand_over`); an offered seat nobody hands over, or any due seat when every
  player is away, goes to :attr:`takeover_bot` after one more allowance of its clock. The
  player takes the seat back at the next turn (:meth:`take_back`). :meth:`tick` also
  expires the tables idle longer than ``idle_limit`` and prunes ended ones beyond
  ``keep_records``.
- Several servers (a :class:`~akvo.online.store.Store` with ``shared``): before an action
  the service reads the rows other servers added; two servers appending the same row
  number are refused by the store's unique (table, seq) key, the loser reads the winner's
  row and checks its action again. :meth:`follow` listens to the store's notifications
  and pushes other servers' changes to this server's subscribers.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import queue
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from akvo.bots import REGISTRY, Bot, make_bot
from akvo.errors import AkvoError
from akvo.match.state import MatchState
from akvo.online import mistakes
from akvo.online import profiles as pseudonyms
from akvo.online.clock import LIVE, SeatClocks
from akvo.online.ratings import Rating, rate_table
from akvo.online.seating import BOT_NAMES, TableRefusal, TableSetup, parse_request, refuse
from akvo.online.store import Store, StoredProfile, StoredTable
from akvo.online.table import PLAYER, SEAT_BACK, SEAT_BOT, SPECTATOR, Table
from akvo.online.views import Coach, Labels, PlainLabels, seat_view, seat_view_json

log = logging.getLogger("akvo.online")

#: Bots decided in a worker thread: those whose speed class (:mod:`akvo.bots.registry`) is
#: not « instant » (they take up to a second a decision).
SLOW_BOTS: Final = frozenset(n for n, spec in REGISTRY.items() if spec.speed != "instant")
#: Finished tables kept in memory (others are rebuilt from the store when asked for).
FINISHED_IN_MEMORY: Final = 64
#: The keys an action's body may hold (anything else is refused: a typo is not ignored).
ACTION_KEYS: Final = frozenset(("token", "action"))
#: Unfinished tables expire after this long without a move (seconds; 30 days).
IDLE_LIMIT: Final = 30 * 24 * 3600.0
#: How long a server's mark of its seats' presence lasts in a shared store (seconds): it
#: renews them at every tick; a dead server's seats go away after this.
PRESENCE_TTL: Final = 30.0
#: How many times a profile's mistakes are read and merged again when other requests keep
#: replacing them meanwhile.
MISTAKES_TRIES: Final = 3
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
    expired: bool = False
    #: Seat bots by (seat, engine name), and their decisions made in a worker thread,
    #: by (seat, moves of the match).
    seat_bots: dict[tuple[int, str], Bot] = field(default_factory=dict)
    decided: dict[tuple[int, int], str] = field(default_factory=dict)
    bot_running: bool = False
    clocks: SeatClocks | None = None
    #: Open event streams per seat, the moment each seat went away (or joined), the
    #: seats offered to a bot (since when) and the moment of the last change.
    streams: list[int] = field(default_factory=list)
    since: list[float] = field(default_factory=list)
    offered: dict[int, float] = field(default_factory=dict)
    changed: float = 0.0
    #: Seats whose player opened the table at least once (an event stream or a move).
    joined: list[bool] = field(default_factory=list)
    #: Other servers' latest presence marks per seat (a shared store), read at each tick.
    elsewhere: dict[int, float] = field(default_factory=dict)
    #: The profile each seat is played under (seat index → profile id), and what the
    #: views show of them (:func:`akvo.online.profiles.public`).
    profiles: dict[int, str] = field(default_factory=dict)
    shown: list[dict[str, Any] | None] = field(default_factory=list)


class _Pending(Exception):
    """A slow seat bot must decide ``state`` for ``seat`` off the event loop first."""

    def __init__(self, seat: int, bot: Bot, state: MatchState) -> None:
        super().__init__(seat)
        self.seat, self.bot, self.state = seat, bot, state


class TableService:
    """Open tables, their store and their pushes (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        labels: Labels | None = None,
        *,
        coach: Coach | None = None,
        node: str = "",
        bot_threads: int = 1,
        now: Callable[[], float] = time.time,
        takeover_bot: str = "greedy",
        idle_limit: float = IDLE_LIMIT,
        keep_records: int | None = None,
        bot_ratings: Mapping[str, Rating] | None = None,
        luck_adjusted: bool = True,
    ) -> None:
        self.store = store
        #: The bots' ratings, by engine name, as opponents of rated players (a side of
        #: bots without one is no opponent: nobody is rated against it).
        self.bot_ratings = dict(bot_ratings or {})
        #: Whether finished tables rate their players by the luck-adjusted result.
        self.luck_adjusted = luck_adjusted
        #: The clock of presence, seat clocks and expiry (tests give their own).
        self.now = now
        #: The bot a seat goes to when nobody chose one (engine name).
        self.takeover_bot = BOT_NAMES.get(takeover_bot, takeover_bot)
        self.idle_limit = idle_limit
        self.keep_records = keep_records
        self._remote: queue.SimpleQueue[tuple[str, int]] = queue.SimpleQueue()
        self._stop_listening: Callable[[], None] | None = None
        #: Row numbers another server took first (the action was checked again).
        self.conflicts = 0
        #: This server's name in a shared store's presence marks.
        self.server = node or secrets.token_hex(6)
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
        """Let the bots whose decision it is play: on the loop if one is attached, else now,
        one move after the other (not recursively: a table of bots plays to its end)."""
        if entry.bot_busy or entry.table.finished:
            return
        if self._loop is not None:
            if entry.table.bot_side() is not None:
                self._schedule_bot(entry)
            elif entry.table.bot_seats():
                entry.bot_busy = True
                self._loop.call_soon(self._seat_bot_step, entry)
            return
        if entry.bot_running:
            return  # the loop below plays on
        entry.bot_running = True
        try:
            while not entry.table.finished and not entry.bot_busy:
                rows = len(entry.table.rows)
                if entry.table.bot_side() is not None:
                    self._schedule_bot(entry)
                elif entry.table.bot_seats():
                    self._seat_bot_move(entry)
                if len(entry.table.rows) == rows:
                    return
        finally:
            entry.bot_running = False

    def close(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()
        self._executor.shutdown(wait=False, cancel_futures=True)

    # --- loading ----------------------------------------------------------------------------
    def load(self) -> int:
        """Rebuild every open table from the store; returns how many loaded (the broken
        ones are in :attr:`broken`, with their French reason)."""
        loaded = 0
        expired = self.store.expire_idle(self.idle_limit)
        if expired:
            log.info("%d idle tables expired", len(expired))
        for stored in self.store.open_tables():
            if self._rebuild(stored) is not None:
                loaded += 1
        for entry in list(self._open.values()):
            self._after_change(entry)
        self._rate_left_unrated()
        return loaded

    def _rate_left_unrated(self) -> None:
        """Rate the finished tables a stopped server left unrated (it stopped between a
        table's end and its rating; rating twice is impossible: :meth:`Store.rate`)."""
        for table_id in self.store.unrated_ids():
            try:
                entry = self._entry(table_id)
            except TableRefusal:
                continue  # a broken table: logged when rebuilt, never rated
            self._rate(entry)

    def _rebuild(self, stored: StoredTable) -> _Open | None:
        try:
            setup = TableSetup.from_dict(json.loads(stored.setup))
            table = Table(stored.id, setup)
            credentials = Credentials.from_dict(json.loads(stored.credentials), len(table.seats))
            clocks = self._clocks(table, stored.created or self.now())
            for number, (seq, seat, action) in enumerate(stored.rows):
                if seq != number or not isinstance(seat, int):
                    raise refuse("row", f"La ligne {number} du journal est hors de son ordre.")
                try:
                    acted = table.row_decider(seat, action)
                    table.replay_row(seat, action)
                except TableRefusal as refusal:
                    raise refuse(
                        "row", f"Ligne {number} du journal refusée\u00a0: {refusal}"
                    ) from None
                if clocks is not None and number < len(stored.times):
                    # The clocks as they were: each row at the moment it was logged.
                    clocks.update(
                        table.awaited_seats(), table.state.turn, stored.times[number], acted
                    )
        except (AkvoError, ValueError, TypeError) as error:
            reason = str(error) if isinstance(error, TableRefusal) else "table illisible"
            log.warning("table %s is broken: %s", stored.id, reason)
            self.broken[stored.id] = reason
            return None
        entry = self._new_entry(table, credentials, clocks)
        entry.recorded, entry.expired = stored.finished, stored.expired
        self._read_profiles(entry)
        self._show_live(entry)
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
        entry = self._new_entry(table, credentials)
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

    def _clocks(self, table: Table, created: float) -> SeatClocks | None:
        """A new table's seat clocks, started at ``created`` on its first decisions."""
        if table.setup.clock is None:
            return None
        clocks = SeatClocks(table.setup.clock, len(table.seats), created)
        clocks.update(table.awaited_seats(), table.state.turn, created)
        return clocks

    def _new_entry(
        self, table: Table, credentials: Credentials, clocks: SeatClocks | None = None
    ) -> _Open:
        now = self.now()
        seats = len(table.seats)
        if clocks is None:
            clocks = self._clocks(table, now)
        return _Open(
            table,
            credentials,
            {},
            {},
            {},
            clocks=clocks,
            streams=[0] * seats,
            since=[now] * seats,
            changed=now,
            joined=[
                any(
                    s == seat and by == PLAYER
                    for (s, _), by in zip(table.rows, table.authors, strict=True)
                )
                for seat in range(seats)
            ],
        )

    # --- reading ----------------------------------------------------------------------------
    def _entry(self, table_id: object) -> _Open:
        if not isinstance(table_id, str):
            raise refuse("not_found", "Table inconnue.")
        entry = self._open.get(table_id)
        if entry is not None:
            if self.store.shared and not entry.table.finished and self._catch_up(entry):
                self._after_change(entry)  # rows another server added
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

    def public_record(self, table_id: object) -> dict[str, Any]:
        """The engine's match record of a FINISHED table, for anyone with its id (the
        replay page): every order in it was revealed when played. An unfinished table's
        is refused (409), whatever the caller holds: its hidden orders never leave."""
        if not isinstance(table_id, str):
            raise refuse("not_found", "Table inconnue.")
        entry = self._open.get(table_id)
        if entry is not None and entry.table.finished:
            return entry.table.state.record()
        text = self.store.record(table_id)  # set when the table finished, on any server
        if text is None:
            if entry is None and self.store.load(table_id) is None:
                raise refuse("not_found", "Table inconnue.")
            raise refuse("playing", "Ce match n’est pas fini\u00a0: il se revoit une fois terminé.")
        match: dict[str, Any] = json.loads(text)["match"]
        return match

    # --- acting -----------------------------------------------------------------------------
    def act(self, table_id: object, token: object, action: object) -> dict[str, Any]:
        """Seat ``token`` plays ``action``: checked, committed, applied, pushed; returns the
        seat's new view. A refusal changes nothing."""
        entry, seat = self._seat(table_id, token)
        self._commit(entry, seat, action, lambda t: t.check(seat, action))
        entry.table.propose(seat, action)
        entry.offered.pop(seat, None)
        entry.joined[seat] = True
        self._after_change(entry, acted=seat)
        return seat_view(entry.table, seat, self.labels, coach=self.coach)

    def act_request(self, table_id: object, body: object, token: object = None) -> dict[str, Any]:
        """:meth:`act` from an action's JSON body ``{"token"?, "action"}`` (``token``: the
        one the request carried elsewhere); a body with any other key is refused."""
        body = _body(body, ACTION_KEYS)
        return self.act(table_id, body.get("token", token), body.get("action"))

    def _commit(
        self, entry: _Open, seat: int, action: object, check: Callable[[Table], object]
    ) -> None:
        """Log ``action`` as the table's next row once ``check(table)`` accepts it. With a
        shared store, the rows other servers added are read first, and a row number taken
        meanwhile by another server means: read its row, check again."""
        table = entry.table
        moved = False
        try:
            for _ in range(8):
                if self.store.shared:
                    moved |= self._catch_up(entry)
                if entry.expired:
                    raise refuse(
                        "expired", "Cette table a expiré faute de coups\u00a0; elle reste lisible."
                    )
                check(table)
                try:
                    self.store.append(table.id, len(table.rows), seat, str(action))
                    return
                except Exception as error:  # the store or the disk: nothing was applied
                    if self.store.shared and _is_conflict(error):
                        self.conflicts += 1
                        continue  # another server took this row number: read it, check again
                    log.error("could not log an action of table %s: %s", table.id, error)
                    raise refuse(
                        "store", "Le serveur n’a pas pu enregistrer ce coup\u00a0; réessayez."
                    ) from None
            raise refuse("store", "La table change trop vite\u00a0; réessayez.")
        except TableRefusal:
            if moved:  # refused, but other servers' rows were read: push them
                self._after_change(entry)
            raise

    def _catch_up(self, entry: _Open) -> bool:
        """Apply the rows other servers added to a table; whether there were any."""
        table = entry.table
        rows = self.store.rows_since(table.id, len(table.rows))
        for seq, seat, action in rows:
            if seq != len(table.rows):
                break
            table.replay_row(seat, action)
        return bool(rows)

    def _after_change(self, entry: _Open, acted: int = -1) -> None:
        table = entry.table
        now = self.now()
        entry.changed = now
        if table.finished and not entry.recorded:
            entry.recorded = True
            self.store.finish(table.id, _record(table))
            self._remember_finished(table.id)
            self._rate(entry)
        if entry.clocks is not None:
            entry.clocks.update(table.awaited_seats(), table.state.turn, now, acted)
        self._show_live(entry)
        self._push(entry)
        self._wake_bot(entry)

    def _present(self, entry: _Open, seat: int, now: float) -> bool:
        """Whether the seat holds an event stream, here or (a shared store) elsewhere."""
        return entry.streams[seat] > 0 or entry.elsewhere.get(seat, 0.0) > now

    def _show_live(self, entry: _Open) -> None:
        """Copy presence, deadlines and offers where the views read them."""
        live, clocks = entry.table.live, entry.clocks
        now = self.now()
        live.present = [self._present(entry, s, now) for s in range(len(entry.streams))]
        live.deadlines = [
            None if clocks is None else clocks.deadline(s) for s in range(len(entry.streams))
        ]
        live.offered = tuple(sorted(entry.offered))
        live.expired = entry.expired
        live.profiles = entry.shown

    # --- profiles and ratings ---------------------------------------------------------------
    def create_profile(self, request: object) -> dict[str, Any]:
        """A new profile from ``{"name"}``: its id, name and secret key (shown once; the
        store keeps the key's hash only)."""
        body = _body(request, pseudonyms.CREATE_KEYS)
        name = pseudonyms.profile_name(body.get("name"))
        key, profile_id = new_token(), secrets.token_urlsafe(9)
        try:
            self.store.create_profile(profile_id, name, token_hash(key))
        except Exception as error:
            if _is_conflict(error):
                raise refuse(
                    "name_taken",
                    f"Le nom «\u00a0{name}\u00a0» est déjà pris\u00a0; un autre\u00a0?",
                ) from None
            log.error("could not store a new profile: %s", error)
            raise refuse("store", "Le serveur n’a pas pu enregistrer le profil.") from None
        return {"profile": profile_id, "name": name, "key": key}

    def own_profile(self, key: object) -> dict[str, Any]:
        """The profile of secret ``key``: its id and what anyone may read of it."""
        found = self._profile_of(key)
        return {"profile": found.id, **pseudonyms.public(found.name, found.standing)}

    def _profile_of(self, key: object) -> StoredProfile:
        if not isinstance(key, str) or not 0 < len(key) <= 200:
            raise refuse("forbidden", "Clé de profil invalide.")
        found = self.store.profile_by_key(token_hash(key))
        if found is None:
            raise refuse("forbidden", "Clé de profil invalide\u00a0: aucun profil ne l’a.")
        return found

    async def keep_mistakes(self, request: object) -> dict[str, Any]:
        """``{"key", "mistakes"?}``: the profile's « Vos erreurs » merged with the set sent
        (:func:`akvo.online.mistakes.merged_text`, checked and merged off the event loop),
        kept and answered as ``{"mistakes": text}``. A set another request replaced
        meanwhile is read and merged again."""
        body = _body(request, mistakes.REQUEST_KEYS)
        found = self._profile_of(body.get("key"))
        loop = asyncio.get_running_loop()
        for _ in range(MISTAKES_TRIES):
            stored, version = self.store.mistakes(found.id) or ("", 0)
            text = await loop.run_in_executor(
                None, mistakes.merged_text, stored, body.get("mistakes")
            )
            try:
                if text == stored or self.store.keep_mistakes(found.id, text, version):
                    return {"mistakes": text}
            except Exception as error:  # the store: nothing kept, logged (never the key)
                log.error("could not keep the mistakes of profile %s: %s", found.id, error)
                break
        raise refuse("store", "Le serveur n’a pas pu garder vos erreurs.")

    def join(self, table_id: object, request: object, token: object = None) -> dict[str, Any]:
        """Seat ``token`` plays under the profile of ``key`` (``{"token"?, "key"}``) from
        now on, until the table ends; once per seat, before the table finishes. Returns
        the seat's view."""
        body = _body(request, pseudonyms.JOIN_KEYS)
        entry, seat = self._seat(table_id, body.get("token", token))
        if seat == SPECTATOR:
            raise refuse("spectator", "Un spectateur regarde sans jouer.")
        found = self._profile_of(body.get("key"))
        if entry.table.finished:
            raise refuse("finished", "Le match est fini\u00a0: il n’y a plus de place à prendre.")
        if seat in entry.profiles or found.id in entry.profiles.values():
            raise refuse("seat_taken", "Cette place, ou ce profil, joue déjà sous un nom ici.")
        try:
            self.store.bind_seat(entry.table.id, seat, found.id)
        except Exception as error:
            if _is_conflict(error):  # another server bound it meanwhile
                raise refuse("seat_taken", "Cette place joue déjà sous un nom.") from None
            log.error("could not bind a profile at table %s: %s", entry.table.id, error)
            raise refuse("store", "Le serveur n’a pas pu enregistrer le profil.") from None
        self._read_profiles(entry)
        self._show_live(entry)
        self._push(entry)
        return seat_view(entry.table, seat, self.labels, coach=self.coach)

    def standings(self, limit: int = 100) -> list[dict[str, Any]]:
        """The rated profiles, best first by the low end of their 95 % interval."""
        return [pseudonyms.public(p.name, p.standing) for p in self.store.profiles(None, limit)]

    def _read_profiles(self, entry: _Open) -> None:
        """The table's seats' profiles and standings, from the store."""
        entry.profiles = self.store.seat_profiles(entry.table.id)
        found = {}
        if entry.profiles:
            found = {p.id: p for p in self.store.profiles(list(set(entry.profiles.values())))}
        entry.shown = [
            None
            if entry.profiles.get(s) not in found
            else pseudonyms.public(found[entry.profiles[s]].name, found[entry.profiles[s]].standing)
            for s in range(len(entry.table.seats))
        ]

    def _rate(self, entry: _Open) -> None:
        """Rate a finished table's profiles once (any server): by the luck-adjusted result,
        measured off the event loop when one is attached, else by 1 / ½ / 0."""
        table = entry.table
        profiles = self.store.seat_profiles(table.id)
        if not profiles:
            return
        record = table.state.record()

        def apply(scores: tuple[float, float] | None) -> None:
            rated = pseudonyms.rated_table(table, profiles, self.bot_ratings, scores)
            try:
                self.store.rate(table.id, lambda before: rate_table(before, rated))
            except Exception as error:  # the store: the table stays unrated, logged
                log.error("could not rate table %s: %s", table.id, error)
                return
            self._read_profiles(entry)
            self._show_live(entry)
            self._push(entry)

        if not self.luck_adjusted:
            apply(None)
            return
        loop = self._loop
        if loop is None:
            apply(pseudonyms.luck_scores(record))
            return
        future = loop.run_in_executor(self._executor, pseudonyms.luck_scores, record)

        def done(measured: asyncio.Future[tuple[float, float] | None]) -> None:
            failed = measured.cancelled() or measured.exception() is not None
            apply(None if failed else measured.result())

        future.add_done_callback(done)

    # --- who plays a seat -------------------------------------------------------------------
    def hand_over(
        self, table_id: object, token: object, seat: object, bot: object
    ) -> dict[str, Any]:
        """Seat ``token`` hands ``seat`` (its index or ``A2``…) to ``bot`` (a name of
        :data:`akvo.bots.BOTS`, engine or French): its own seat at any time, another one
        when it is offered (out of time, or its player away) or nobody ever opened it.
        Returns the caller's view."""
        entry, by = self._seat(table_id, token)
        if by == SPECTATOR:
            raise refuse("spectator", "Un spectateur regarde sans jouer.")
        table = entry.table
        index = _seat_index(table, seat)
        if not isinstance(bot, str) or bot not in BOT_NAMES:
            shown = ", ".join(BOT_NAMES)
            raise refuse("bots", f"Bot inconnu\u00a0; au choix\u00a0: {shown}.")
        empty = not entry.joined[index]  # a seat nobody ever opened: anyone may fill it
        if index != by and index not in entry.offered and not empty:
            raise refuse(
                "not_offered",
                f"La place de {table.seats[index].called} n’est pas libre\u00a0: son joueur "
                "est là et son temps court encore.",
            )
        self._control(entry, index, f"{SEAT_BOT} {BOT_NAMES[bot]}")
        return seat_view(table, by, self.labels, coach=self.coach)

    def take_back(self, table_id: object, token: object) -> dict[str, Any]:
        """Seat ``token`` asks for its seat back from the bot playing it: it returns at the
        next turn. Returns the seat's view."""
        entry, seat = self._seat(table_id, token)
        if seat == SPECTATOR:
            raise refuse("spectator", "Un spectateur regarde sans jouer.")
        self._control(entry, seat, SEAT_BACK)
        return seat_view(entry.table, seat, self.labels, coach=self.coach)

    def _control(self, entry: _Open, seat: int, action: str) -> None:
        self._commit(entry, seat, action, lambda t: t.check_control(seat, action))
        entry.table.control(seat, action)
        entry.offered.pop(seat, None)
        log.info("table %s: seat %d %s", entry.table.id, seat, action)
        self._after_change(entry)

    # --- time -------------------------------------------------------------------------------
    def tick(self) -> None:
        """Offer the seats out of time, hand over those nobody answered for, expire idle
        tables and prune old records (the server calls it every second or so)."""
        now = self.now()
        self.drain()
        for entry in list(self._open.values()):
            if not entry.table.finished and not entry.expired:
                try:
                    self._tick_table(entry, now)
                except TableRefusal as refusal:  # the store, say: the next tick tries again
                    log.error("table %s: takeover not done: %s", entry.table.id, refusal)
        for table_id in self.store.expire_idle(self.idle_limit):
            gone = self._open.pop(table_id, None)
            if gone is not None:
                gone.expired = True
        if self.keep_records is not None:
            self.store.prune(self.keep_records)

    def _tick_table(self, entry: _Open, now: float) -> None:
        table, clocks = entry.table, entry.clocks
        if self.store.shared:
            here = [s for s, n in enumerate(entry.streams) if n]
            self.store.mark_present(table.id, here, self.server, now + PRESENCE_TTL)
            elsewhere = self.store.present_elsewhere(table.id, self.server)
            changed = elsewhere != entry.elsewhere
            entry.elsewhere = elsewhere
            if changed:
                self._show_live(entry)
                self._push(entry)
        if clocks is None:
            return
        people = [s.index for s in table.seats if table.controller(s.index) is None]
        due = set(clocks.out_of_time(now))
        if clocks.clock.mode == LIVE:
            due |= {
                s
                for s in table.awaited_seats()
                if not self._present(entry, s, now)
                and now - max(entry.since[s], entry.elsewhere.get(s, 0.0)) >= clocks.clock.seconds
            }
        due &= set(people)
        offered = {s: entry.offered.get(s, now) for s in sorted(due)}
        changed = offered.keys() != entry.offered.keys()
        entry.offered = offered
        everyone_away = not any(self._present(entry, s, now) for s in people)
        for seat, since in offered.items():
            if everyone_away or now - since >= clocks.clock.seconds:
                self._control(entry, seat, f"{SEAT_BOT} {self.takeover_bot}")
                return  # one change per tick and table: the next tick sees the new state
        if changed:
            self._show_live(entry)
            self._push(entry)

    # --- several servers --------------------------------------------------------------------
    def follow(self) -> None:
        """Listen to the rows other servers append (a shared store): their tables' new
        rows are applied and pushed here, on the attached loop, else at :meth:`drain`."""
        if self._stop_listening is None:
            self._stop_listening = self.store.listen(self._heard)

    def _heard(self, table_id: str, seq: int) -> None:
        self._remote.put((table_id, seq))
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(self.drain)

    def drain(self, wait: float = 0.0) -> int:
        """Apply the rows other servers announced (waiting up to ``wait`` seconds for the
        first); how many tables changed."""
        changed = 0
        block = wait > 0
        while True:
            try:
                table_id, seq = self._remote.get(block, wait if block else None)
            except queue.Empty:
                return changed
            block = False
            entry = self._open.get(table_id)
            if entry is None or len(entry.table.rows) > seq:
                continue
            try:
                moved = self._catch_up(entry)
            except TableRefusal as refusal:
                log.error("table %s: a row of another server refused: %s", table_id, refusal)
                continue
            if moved:
                changed += 1
                self._after_change(entry)

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
            index = table.side_seats(side)[0].index
            self._commit(entry, index, action, lambda t: t.check_bot(side, action))
        except TableRefusal as refusal:
            log.error("bot move of table %s not played: %s", table.id, refusal)
            return  # not logged, not played: the next change or a restart tries again
        table.play_bot(side, action)
        self._after_change(entry)

    # --- bots of single seats ---------------------------------------------------------------
    def _seat_decide(self, entry: _Open) -> Callable[[int, MatchState], str]:
        """``decide(seat, state)`` of the bots of single seats: at once, or from a worker
        thread's answer (a slow bot with a loop attached raises :class:`_Pending` first)."""
        table = entry.table

        def decide(seat: int, state: MatchState) -> str:
            name = table.controller(seat)
            assert name is not None
            bot = entry.seat_bots.get((seat, name))
            if bot is None:
                seed = table.setup.seed * 8 + 2 + seat
                bot = entry.seat_bots[seat, name] = make_bot(name, seed=seed)
            key = (seat, len(state.history))
            if key in entry.decided:
                return entry.decided.pop(key)
            if self._loop is not None and name in SLOW_BOTS:
                raise _Pending(seat, bot, state)
            return bot(state)

        return decide

    def _seat_bot_step(self, entry: _Open) -> None:
        entry.bot_busy = False
        self._seat_bot_move(entry)

    def _seat_bot_move(self, entry: _Open) -> None:
        """One move of a seat's bot, if one may move (slow bots: decided in a worker
        thread, then this runs again)."""
        table = entry.table
        try:
            move = table.seat_bot_move(self._seat_decide(entry))
        except _Pending as pending:
            loop = self._loop
            assert loop is not None
            entry.bot_busy = True
            seat, moves = pending.seat, len(pending.state.history)
            future = loop.run_in_executor(self._executor, pending.bot, pending.state)

            def done(answer: asyncio.Future[str]) -> None:
                entry.bot_busy = False
                if answer.cancelled():
                    return
                if answer.exception() is not None:
                    log.error("seat bot of table %s failed: %r", table.id, answer.exception())
                    return
                entry.decided = {k: v for k, v in entry.decided.items() if k[1] >= moves}
                entry.decided[seat, moves] = answer.result()
                self._wake_bot(entry)

            future.add_done_callback(done)
            return
        if move is None:
            return
        seat, action = move
        bot = table.controller(seat)
        try:
            self._commit(entry, seat, action, lambda t: t.check(seat, action, bot=True))
        except TableRefusal as refusal:
            log.error("seat bot move of table %s not played: %s", table.id, refusal)
            return
        table.propose(seat, action, bot=bot)
        self._after_change(entry, acted=seat)

    # --- pushes -----------------------------------------------------------------------------
    def subscribe(self, table_id: object, token: object, push: Push) -> Callable[[], None]:
        """Call ``push(view_json)`` now and on every change of the seat's view; returns the
        function that unsubscribes."""
        entry, seat = self._seat(table_id, token)
        self._presence(entry, seat, +1)  # the others see this seat come (before its own push)
        pushes = entry.subscribers.setdefault(seat, [])
        pushes.append(push)
        text = seat_view_json(entry.table, seat, self.labels, self.coach)
        entry.last[seat] = text
        push(text)

        def unsubscribe() -> None:
            if push in pushes:
                pushes.remove(push)
                self._presence(entry, seat, -1)

        return unsubscribe

    def _presence(self, entry: _Open, seat: int, change: int) -> None:
        """A seat's event stream opened (+1) or closed (−1): present while it holds one."""
        if seat == SPECTATOR:
            return
        before = entry.streams[seat] > 0
        entry.streams[seat] += change
        entry.joined[seat] = True
        if before != (entry.streams[seat] > 0):
            entry.since[seat] = self.now()
            self._show_live(entry)
            self._push(entry)

    def presence(self, table_id: str) -> list[dict[str, Any]]:
        """Each seat: present or away, since when (UNIX time), who plays it now."""
        entry = self._entry(table_id)
        table = entry.table
        return [
            {
                "seat": s.name,
                "presence": "present" if self._present(entry, s.index, self.now()) else "away",
                "since": entry.since[s.index],
                "bot": table.controller(s.index),
                "offered": s.index in entry.offered,
            }
            for s in table.seats
        ]

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
        "by": list(table.authors),
        "match": table.state.record(),
    }


def _body(request: object, keys: frozenset[str]) -> dict[str, Any]:
    """A request's JSON object, refused if it holds a key outside ``keys``."""
    if not isinstance(request, dict):
        raise refuse("request", "La demande doit être un objet JSON.")
    unknown = sorted(str(k)[:20] for k in request if k not in keys)
    if unknown:
        raise refuse("request", f"Champ inconnu dans la demande\u00a0: « {unknown[0]} ».")
    return request


def _seat_index(table: Table, seat: object) -> int:
    """A seat given by index or by name (``A2``)."""
    names = {s.name: s.index for s in table.seats}
    if isinstance(seat, str) and seat in names:
        return names[seat]
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(table.seats):
        return seat
    raise refuse("seat", "Place inconnue («\u00a0A1\u00a0», «\u00a0B2\u00a0»…).")


def _is_conflict(error: Exception) -> bool:
    """Whether a store's error is a taken row number (the unique (table, seq) key)."""
    return type(error).__name__ in ("UniqueViolation", "IntegrityError")
