"""The online tables' HTTP API in the book server (issue 23): JSON over HTTP, pushes as
server-sent events. The rules of who may act live in :mod:`akvo.online`; this module only
routes, guards and labels.

=======  ==========================================  =============================================
method   route (under the base URL)                  answer
=======  ==========================================  =============================================
POST     ``akvo/api/tables``                         201: table id, seats with tokens and links
GET      ``akvo/api/tables/{id}?token=T``            the seat's view
POST     ``akvo/api/tables/{id}/actions``            ``{"token", "action"}`` → the new view
GET      ``akvo/api/tables/{id}/events?token=T``     ``text/event-stream``: the view on every change
GET      ``akvo/api/tables/{id}/record?token=T``     a finished match's record (replay, analysis)
GET      ``akvo/api/tables/{id}/replay``             a FINISHED match's engine record, no token
GET      ``akvo/api/tables/{id}/qr?token=T``         the seat's link as a QR code (SVG)
POST     ``akvo/api/tables/{id}/hand-over``          ``{"token", "seat", "bot"}`` → the new view
POST     ``akvo/api/tables/{id}/take-back``          ``{"token"}``: one's seat back at the next turn
POST     ``akvo/api/tables/mine``                    ``{"tokens": [[id, T], …]}`` → each seat's turn
GET      ``akvo/api/tables/options``                 teams, bots, clocks, rules (creation page)
POST     ``akvo/api/tables/{id}/profile``            ``{"token", "key"}``: play under a profile
POST     ``akvo/api/profiles``                       ``{"name"}`` → 201: a profile, its secret key
POST     ``akvo/api/profiles/me``                    ``{"key"}`` → that profile's rating and karma
POST     ``akvo/api/profiles/mistakes``              ``{"key", "mistakes"?}`` → its « Vos erreurs »
GET      ``akvo/api/standings``                      the rated profiles (rating ± 2 RD, karma)
=======  ==========================================  =============================================

A token may also come as ``Authorization: Bearer T``. Refusals are JSON ``{"error": code,
"message": French}`` with 400 (bad input, an unknown field), 403 (no such seat, a spectator
acting), 404, 409 (not now), 410 (the table expired), 413 (body over :data:`MAX_BODY`
bytes, :data:`MISTAKES_BODY` for a set of mistakes), 415 (not JSON), 429 (too many
requests from one client: a token bucket per address) or 503 (the store failed); a
refused request changes nothing. Tokens never reach a log line (paths only, long segments
masked); a profile's key travels in bodies only.
"""

from __future__ import annotations

import asyncio
import io
import ipaddress
import json
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from tornado import ioloop, iostream, web
from traitlets import Bool, Float, Int, Unicode
from traitlets.config import Configurable

from akvo.bots import REGISTRY
from akvo.coach.exercises import MAX_FILE_CHARS
from akvo.match import MatchState
from akvo.online import TableRefusal
from akvo.online.clock import MODE_LABELS, UNITS
from akvo.online.profiles import bot_ratings
from akvo.online.ratings import Rating
from akvo.online.seating import refuse
from akvo.online.service import IDLE_LIMIT, TableService
from akvo.online.store import Store, TableStore
from akvo.rules import PRESET_TEAMS
from akvo_site.guard import redacted_path, request_summary
from akvo_widgets.board import svg as board_drawing
from akvo_widgets.board.svg import Frame, board_svg
from akvo_widgets.text.formatting import french
from akvo_widgets.text.labels import LATERAL_LABELS, SHIP_TOKEN_LABELS, action_label, orders_label
from akvo_widgets.text.readings import READINGS
from akvo_widgets.text.team_errors import team_error_french

from .coach import TableCoach

log = logging.getLogger("akvo.tables")

#: The largest request body accepted (a creation request is about 300 bytes).
MAX_BODY: Final = 4096
#: A longer body is cut at once (the connection closes); a shorter one too long for
#: :data:`MAX_BODY` is read and discarded, then refused with 413.
DISCARD_LIMIT: Final = 65536
#: A set of « Vos erreurs » travels whole: an exercises file's characters, escaped in JSON.
MISTAKES_BODY: Final = 2 * MAX_FILE_CHARS + MAX_BODY
THROTTLED: Final = "Trop de demandes à la fois\u00a0: patientez un instant."
#: Seconds between two comments on an idle event stream (proxies close silent ones).
HEARTBEAT: Final = 20.0
API: Final = "akvo/api/tables"
PAGE: Final = "akvo/table"
CREATE_PAGE: Final = "akvo/en-ligne"
MINE_PAGE: Final = "akvo/mes-tables"
STANDINGS_PAGE: Final = "akvo/classement"
#: The bots' ladder (``akvo ladder``), whose Elo rates the bots as opponents.
LADDER: Final = Path(board_drawing.__file__).resolve().parents[1] / "design" / "ladder.json"
STATIC: Final = "akvo/tables-static"
STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
#: The live board's style sheet (``akvo_widgets/board/board.css``), for the pages' board.
BOARD_CSS: Final = "akvo/tables-board"
BOARD_DIR: Final = Path(board_drawing.__file__).resolve().parent
_ID: Final = r"([A-Za-z0-9_-]{1,64})"
#: HTTP status of each refusal code of akvo.online (400 otherwise).
STATUS: Final = {
    "forbidden": 403,
    "spectator": 403,
    "not_found": 404,
    "broken": 409,
    "not_your_turn": 409,
    "illegal": 409,
    "finished": 409,
    "playing": 409,
    "bot_seat": 409,
    "not_offered": 409,
    "seat_taken": 409,
    "not_handed": 409,
    "name_taken": 409,
    "expired": 410,
    "store": 503,
}
#: Seats one « Mes tables » request may ask about.
MINE_LIMIT: Final = 50


class OnlineTables(Configurable):  # type: ignore[misc]
    """Settings of the online tables (``"OnlineTables"`` in ``voila.json``)."""

    database = Unicode(
        "tables.sqlite",
        help="The SQLite file of the tables (relative to the server's working directory), "
        "or a PostgreSQL address (``postgresql://…``) shared by several servers.",
    ).tag(config=True)
    idle_limit = Float(
        IDLE_LIMIT / 3600,
        help="Hours without a move after which an unfinished table expires (kept as a "
        "record, no longer played nor loaded at start).",
    ).tag(config=True)
    keep_records = Int(
        0, help="Ended tables kept in the store, the newest first (0: keep them all)."
    ).tag(config=True)
    takeover_bot = Unicode(
        "normal", help="The bot level that takes a seat nobody handed over in time."
    ).tag(config=True)
    tick = Float(1.0, help="Seconds between two looks at the clocks, presence and expiry.").tag(
        config=True
    )
    node = Unicode(
        "",
        help="A prefix of every table id this server creates, so that a proxy in front of "
        "several servers sends each table's requests to the one that holds it.",
    ).tag(config=True)
    rate = Float(10.0, help="Requests per second one client may make, on average.").tag(config=True)
    burst = Int(60, help="Requests one client may make at once.").tag(config=True)
    create_rate = Float(0.2, help="Tables per second one client may create.").tag(config=True)
    create_burst = Int(10, help="Tables one client may create at once.").tag(config=True)
    max_streams = Int(30, help="Event streams one client may hold open.").tag(config=True)
    trust_forwarded = Bool(
        False,
        help="Take the client's address from X-Forwarded-For when the request comes from "
        "a loopback proxy (the multi-server deployment).",
    ).tag(config=True)


class FrenchLabels:
    """The book's French labels of engine actions and order tokens."""

    def action(self, state: MatchState, action: str) -> str:
        return action_label(state, action)

    def token(self, unit: str, token: str) -> str:
        return SHIP_TOKEN_LABELS[token] if unit == "navire" else LATERAL_LABELS[token]

    def orders(self, orders: str) -> str:
        return french(orders_label(orders))

    def board(self, state: MatchState, viewer: int | None) -> str:
        """The live board's picture (:mod:`akvo_widgets.board.svg`): the viewer's own orders
        on its units, its beach at the bottom (side B sees the board turned half a turn)."""
        return board_svg(state, viewer, frame=Frame(flipped=viewer == 1))


class Throttle:
    """A token bucket per client: ``rate`` requests a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._buckets: dict[str, tuple[float, float]] = {}

    def wait(self, client: str, now: float | None = None) -> float:
        """0 if ``client`` may make a request now (and counts it), else the seconds to wait."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens >= 1:
            self._buckets[client] = (tokens - 1, now)
            return 0.0
        self._buckets[client] = (tokens, now)
        if len(self._buckets) > 10_000:
            self._forget_full(now)
        return (1 - tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        for key, (tokens, last) in list(self._buckets.items()):
            if tokens + (now - last) * self.rate >= self.burst:
                del self._buckets[key]


class TablesApp:
    """What the handlers share: the service, the settings, the throttles, open streams."""

    def __init__(self, settings: OnlineTables, base_url: str, root: Path) -> None:
        self.settings = settings
        self.base_url = base_url
        self.store = open_store(settings.database, root)
        self.service = TableService(
            self.store,
            FrenchLabels(),
            coach=TableCoach(),
            node=settings.node,
            idle_limit=settings.idle_limit * 3600,
            keep_records=settings.keep_records or None,
            takeover_bot=settings.takeover_bot,
            bot_ratings=ladder_ratings(),
        )
        loaded = self.service.load()
        log.info("online tables: %d open, %d broken", loaded, len(self.service.broken))
        self.requests = Throttle(settings.rate, settings.burst)
        self.creations = Throttle(settings.create_rate, settings.create_burst)
        self.streams: dict[str, int] = {}
        self.ticker = ioloop.PeriodicCallback(self.tick, settings.tick * 1000)
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # built before the server's loop runs: start on it
            ioloop.IOLoop.current().add_callback(self.start_ticking)
        else:
            self.start_ticking()

    def start_ticking(self) -> None:
        if not self.ticker.is_running():
            self.ticker.start()

    def tick(self) -> None:
        """The clocks, presence, takeovers and expiry (:meth:`TableService.tick`); on the
        first tick the service learns its loop and, on a shared store, starts hearing
        the other servers."""
        self.service.attach(asyncio.get_running_loop())
        if self.store.shared:
            self.service.follow()
        try:
            self.service.tick()
        except Exception:  # the store, say: logged, the next tick tries again
            log.exception("online tables: tick failed")

    def close(self) -> None:
        self.ticker.stop()
        self.service.close()
        self.store.close()


def ladder_ratings(path: Path = LADDER) -> dict[str, Rating]:
    """The bots' ratings from the ladder's file (none if it is missing or unreadable:
    then nobody is rated against a side of bots)."""
    try:
        return bot_ratings(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, AttributeError, TypeError) as error:
        log.warning("no bot ratings (%s): %s", path.name, error)
        return {}


def open_store(database: str, root: Path) -> Store:
    """The SQLite file ``database`` (relative to ``root``), or PostgreSQL at that address."""
    if database.startswith(("postgresql://", "postgres://")) or "dbname=" in database:
        from akvo.online.store_pg import PostgresStore

        return PostgresStore(database)
    path = Path(database)
    return TableStore(path if path.is_absolute() else root / path)


def table_handlers(settings: OnlineTables, base_url: str, root: Path) -> list[Any]:
    """The routes of the online tables, for the book server's ``init_handlers``."""
    app = TablesApp(settings, base_url, root)
    options = {"app": app}
    prefix = base_url.rstrip("/") + "/"
    return [
        (f"{prefix}{API}/options", OptionsHandler, options),
        (f"{prefix}{API}/mine", MineHandler, options),
        (f"{prefix}{API}", CreateHandler, options),
        (f"{prefix}{API}/{_ID}", ViewHandler, options),
        (f"{prefix}{API}/{_ID}/actions", ActionHandler, options),
        (f"{prefix}{API}/{_ID}/hand-over", HandOverHandler, options),
        (f"{prefix}{API}/{_ID}/take-back", TakeBackHandler, options),
        (f"{prefix}{API}/{_ID}/events", EventsHandler, options),
        (f"{prefix}{API}/{_ID}/record", RecordHandler, options),
        (f"{prefix}{API}/{_ID}/replay", ReplayHandler, options),
        (f"{prefix}{API}/{_ID}/qr", QrHandler, options),
        (f"{prefix}{API}/{_ID}/profile", JoinHandler, options),
        (f"{prefix}akvo/api/profiles", ProfilesHandler, options),
        (f"{prefix}akvo/api/profiles/me", OwnProfileHandler, options),
        (f"{prefix}akvo/api/profiles/mistakes", MistakesHandler, options),
        (f"{prefix}akvo/api/standings", StandingsHandler, options),
        (f"{prefix}{STANDINGS_PAGE}", PageHandler, {**options, "page": STANDINGS}),
        (f"{prefix}{PAGE}/{_ID}", PageHandler, {**options, "page": SEAT_PAGE}),
        (f"{prefix}{MINE_PAGE}", PageHandler, {**options, "page": MY_TABLES_PAGE}),
        (f"{prefix}{CREATE_PAGE}", PageHandler, {**options, "page": NEW_TABLE_PAGE}),
        (f"{prefix}{STATIC}/(.*)", StaticHandler, {"path": str(STATIC_DIR)}),
        (f"{prefix}{BOARD_CSS}/(board\\.css)", StaticHandler, {"path": str(BOARD_DIR)}),
    ]


class _Guarded(web.RequestHandler):
    """Shared by the API and page handlers: the client's address, the throttle, security
    headers, French JSON errors, an access log without tokens."""

    def initialize(self, app: TablesApp, **_: Any) -> None:
        self.app = app

    def check_xsrf_cookie(self) -> None:
        """No cookies here: a seat is its token, sent by the client in each request, and
        POST bodies must be ``application/json`` (which a cross-site form cannot send)."""
        return None

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")

    def client(self) -> str:
        address = self.request.remote_ip or ""
        forwarded = self.request.headers.get("X-Forwarded-For")
        if forwarded and self.app.settings.trust_forwarded and _loopback(address):
            address = forwarded.split(",")[-1].strip()[:64]
        return address

    def prepare(self) -> None:
        # The server's loop, where bots decide from now on (a handler runs on it).
        self.app.service.attach(asyncio.get_running_loop())
        self.app.start_ticking()
        wait = self.app.requests.wait(self.client())
        if wait:
            self.set_header("Retry-After", str(max(1, round(wait))))
            self.refuse(429, "throttled", THROTTLED)

    def refuse(self, status: int, code: str, message: str) -> None:
        self.clear_header("Content-Type")
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps({"error": code, "message": message}, ensure_ascii=False))

    def refused(self, refusal: TableRefusal) -> None:
        message = refusal.message
        if refusal.code == "teams" and refusal.cause is not None:
            message = f"{message} {team_error_french(refusal.cause)}"  # type: ignore[arg-type]
        self.refuse(STATUS.get(refusal.code, 400), refusal.code, message)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        if status_code == 405:
            message = "Cette adresse ne répond pas à cette méthode."
        else:
            message = "Le serveur n’a pas pu répondre à cette demande."
        self.refuse(status_code, "error", message)

    def token(self) -> str | None:
        header = self.request.headers.get("Authorization", "")
        if header.startswith("Bearer "):
            return header[7:].strip()
        return self.get_query_argument("token", None)

    def seat_link(self, table_id: str, token: str) -> str:
        request = self.request
        return page_link(request.protocol, request.host, self.app.base_url, table_id, token)

    def answer(self, data: Any, status: int = 200) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(data, ensure_ascii=False, separators=(",", ":")))

    def _request_summary(self) -> str:
        """What Tornado's own warnings name a request by (no query, no token)."""
        return request_summary(self)

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        """An unexpected error, logged without the request's query and headers."""
        if isinstance(value, web.HTTPError):
            log.warning("%d %s", value.status_code, request_summary(self))
        else:
            log.error("error on %s", request_summary(self), exc_info=(typ, value, tb))

    def _log(self) -> None:
        """Tornado's access log line, with the path only (a query may hold a token) and
        any path segment long enough to be a token masked."""
        status = self.get_status()
        level = log.info if status < 400 else log.warning
        took = 1000.0 * self.request.request_time()
        path = redacted_path(self.request.path)
        level("%d %s %s %.1fms", status, self.request.method, path, took)


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


@web.stream_request_body
class _JsonBody(_Guarded):
    """A POST handler reading a small JSON object: size, type and shape checked.

    The body is streamed, so the connection's limit is this handler's, not the server's
    (100 MB by default). A refusal (throttled, too long, not JSON) is sent once the body has
    been read, so that the client reads the answer instead of a reset connection; only a
    body past :data:`DISCARD_LIMIT` is cut at once. Subclasses implement :meth:`handle`
    (which may return an awaitable: the answer then waits for it) and may raise both limits.
    """

    max_body = MAX_BODY
    discard_limit = DISCARD_LIMIT

    def prepare(self) -> None:
        self._body = bytearray()
        self._refusal: tuple[int, str, str] | None = None
        self._retry = 0.0
        length = self.request.headers.get("Content-Length", "0")
        size = int(length) if length.isdigit() else self.discard_limit + 1
        too_long = (413, "too_large", f"Demande trop longue (au plus {self.max_body} octets).")
        if size > self.discard_limit:
            self.refuse(*too_long)
            return
        self.request.connection.set_max_body_size(max(size, self.max_body))  # type: ignore[union-attr]
        kind = self.request.headers.get("Content-Type", "").split(";")[0].strip().lower()
        self._retry = self.app.requests.wait(self.client())
        if self._retry:
            self._refusal = (429, "throttled", THROTTLED)
        elif size > self.max_body:
            self._refusal = too_long
        elif kind != "application/json":
            self._refusal = (415, "not_json", "La demande doit être envoyée en JSON.")

    def data_received(self, chunk: bytes) -> None:
        if self._refusal is None:
            self._body += chunk

    async def post(self, *args: str) -> None:
        if self._refusal is not None:
            if self._retry:
                self.set_header("Retry-After", str(max(1, round(self._retry))))
            self.refuse(*self._refusal)
            return
        try:
            pending = self.handle(self.body(), *args)
            if pending is not None:
                await pending
        except TableRefusal as refusal:
            self.refused(refusal)

    def handle(self, body: dict[str, Any], *args: str) -> Awaitable[None] | None:
        raise NotImplementedError

    def body(self) -> dict[str, Any]:
        try:
            data = json.loads(bytes(self._body).decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise refuse("request", "La demande n’est pas du JSON valide.") from None
        if not isinstance(data, dict):
            raise refuse("request", "La demande doit être un objet JSON.")
        return data


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


class CreateHandler(_JsonBody):
    """``POST akvo/api/tables``: a new table, 201 with its seats' tokens and links."""

    def handle(self, body: dict[str, Any], *args: str) -> None:
        wait = self.app.creations.wait(self.client())
        if wait:
            self.set_header("Retry-After", str(max(1, round(wait))))
            message = "Trop de tables créées à la fois\u00a0: patientez un peu."
            self.refuse(429, "throttled", message)
            return
        made = self.app.service.create(body)
        table_id = made["table"]
        for seat in made["seats"]:
            token = seat["token"]
            seat["link"] = None if token is None else self.seat_link(table_id, token)
        made["spectator"]["link"] = self.seat_link(table_id, made["spectator"]["token"])
        self.set_header("Location", self.app.base_url.rstrip("/") + f"/{API}/{table_id}")
        self.answer(made, 201)


def page_link(protocol: str, host: str, base_url: str, table_id: str, token: str) -> str:
    """A seat's page; the token in the fragment, which browsers never send to a server."""
    return f"{protocol}://{host}{base_url.rstrip('/')}/{PAGE}/{table_id}#{token}"


class ViewHandler(_Guarded):
    """``GET akvo/api/tables/{id}?token=T``: the seat's view."""

    def get(self, table_id: str) -> None:
        try:
            text = self.app.service.view_json(table_id, self.token())
        except TableRefusal as refusal:
            self.refused(refusal)
            return
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(text)


class ActionHandler(_JsonBody):
    """``POST akvo/api/tables/{id}/actions`` with ``{"token": T, "action": "…"}`` (any other
    field: 400)."""

    def handle(self, body: dict[str, Any], *args: str) -> None:
        self.answer(self.app.service.act_request(args[0], body, self.token()))


def _only(body: dict[str, Any], keys: frozenset[str]) -> None:
    """Refuse a body with a field outside ``keys`` (a typo is not ignored)."""
    unknown = sorted(str(k)[:20] for k in body if k not in keys)
    if unknown:
        raise refuse("request", f"Champ inconnu dans la demande\u00a0: « {unknown[0]} ».")


class HandOverHandler(_JsonBody):
    """``POST akvo/api/tables/{id}/hand-over`` with ``{"token", "seat", "bot"}``: one's own
    seat, or one offered (out of time, away), to a bot of the ladder."""

    def handle(self, body: dict[str, Any], *args: str) -> None:
        _only(body, frozenset(("token", "seat", "bot")))
        token = body.get("token", self.token())
        service = self.app.service
        self.answer(service.hand_over(args[0], token, body.get("seat"), body.get("bot")))


class TakeBackHandler(_JsonBody):
    """``POST akvo/api/tables/{id}/take-back`` with ``{"token"}``: one's seat back from the
    bot playing it, at the next turn."""

    def handle(self, body: dict[str, Any], *args: str) -> None:
        _only(body, frozenset(("token",)))
        self.answer(self.app.service.take_back(args[0], body.get("token", self.token())))


class MineHandler(_JsonBody):
    """``POST akvo/api/tables/mine`` with ``{"tokens": [[table, token], …]}`` (the seats
    a browser holds): for each, what that seat itself may read — the table's status, turn,
    whether it is its decision, what it waits for — or the refusal's code. A token only
    ever reads its own seat."""

    def handle(self, body: dict[str, Any], *args: str) -> None:
        _only(body, frozenset(("tokens",)))
        pairs = body.get("tokens")
        if (
            not isinstance(pairs, list)
            or len(pairs) > MINE_LIMIT
            or not all(isinstance(p, list) and len(p) == 2 for p in pairs)
        ):
            raise refuse(
                "request",
                f"«\u00a0tokens\u00a0» est une liste d’au plus {MINE_LIMIT} paires [table, jeton].",
            )
        self.answer({"tables": [self._one(table_id, token) for table_id, token in pairs]})

    def _one(self, table_id: object, token: object) -> dict[str, Any]:
        shown = table_id if isinstance(table_id, str) and len(table_id) <= 64 else None
        try:
            view = self.app.service.view(table_id, token)
        except TableRefusal as refusal:
            return {"table": shown, "error": refusal.code}
        return seat_summary(view)


def seat_summary(view: dict[str, Any]) -> dict[str, Any]:
    """What « Mes tables » shows of a seat's own view (nothing another seat could not see)."""
    you = view["you"]
    return {
        "table": view["table"],
        "seat": you.get("name"),
        "role": you["role"],
        "teams": [t["name"] for t in view["teams"]],
        "players": view["players"],
        "status": view["status"],
        "result": view["result"],
        "turn": view["turn"],
        "yours": view["decision"]["yours"] and not view["decision"]["sent"],
        "waiting": view["decision"]["waiting"],
        "clock": None if view["clock"] is None else view["clock"]["label"],
    }


class RecordHandler(_Guarded):
    """``GET akvo/api/tables/{id}/record?token=T``: a finished match's record."""

    def get(self, table_id: str) -> None:
        try:
            self.answer(self.app.service.record(table_id, self.token()))
        except TableRefusal as refusal:
            self.refused(refusal)


class ReplayHandler(_Guarded):
    """``GET akvo/api/tables/{id}/replay``: a finished match's engine record, as « Revoir
    un match » loads it (``?table={id}``); 409 while the match is played."""

    def get(self, table_id: str) -> None:
        try:
            self.answer(self.app.service.public_record(table_id))
        except TableRefusal as refusal:
            self.refused(refusal)


class JoinHandler(_JsonBody):
    """``POST akvo/api/tables/{id}/profile`` with ``{"token", "key"}``: the seat plays
    under the profile of that key (rated when the table ends) → the seat's view."""

    def handle(self, body: dict[str, Any], *args: str) -> None:
        self.answer(self.app.service.join(args[0], body, self.token()))


class ProfilesHandler(_JsonBody):
    """``POST akvo/api/profiles`` with ``{"name"}``: 201, the profile's id, name and secret
    key (shown once, kept by the browser)."""

    def handle(self, body: dict[str, Any], *args: str) -> None:
        wait = self.app.creations.wait(self.client())
        if wait:
            self.set_header("Retry-After", str(max(1, round(wait))))
            self.refuse(429, "throttled", "Trop de profils créés à la fois\u00a0: patientez.")
            return
        self.answer(self.app.service.create_profile(body), 201)


class StandingsHandler(_Guarded):
    """``GET akvo/api/standings``: the rated profiles, best first (low end of 95 %)."""

    def get(self) -> None:
        self.answer({"profiles": self.app.service.standings()})


class OwnProfileHandler(_JsonBody):
    """``POST akvo/api/profiles/me`` with ``{"key"}``: that profile's standing (the key
    in the body, never in an address)."""

    def handle(self, body: dict[str, Any], *args: str) -> None:
        _only(body, frozenset(("key",)))
        self.answer(self.app.service.own_profile(body.get("key")))


class MistakesHandler(_JsonBody):
    """``POST akvo/api/profiles/mistakes`` with ``{"key", "mistakes"?}``: the profile's
    « Vos erreurs » merged with the set sent (the text of an exercises file), kept and
    answered as ``{"mistakes": text}``; checked and merged off the event loop."""

    max_body = MISTAKES_BODY
    discard_limit = MISTAKES_BODY + DISCARD_LIMIT

    async def handle(self, body: dict[str, Any], *args: str) -> None:
        self.answer(await self.app.service.keep_mistakes(body))


class QrHandler(_Guarded):
    """``GET akvo/api/tables/{id}/qr?token=T``: that seat's link as a QR code (SVG)."""

    def get(self, table_id: str) -> None:
        import segno

        token = self.token() or ""
        try:
            self.app.service.view(table_id, token)
        except TableRefusal as refusal:
            self.refused(refusal)
            return
        link = self.seat_link(table_id, token)
        picture = io.BytesIO()
        segno.make(link, error="m").save(picture, kind="svg", scale=4, border=2, xmldecl=False)
        self.set_header("Content-Type", "image/svg+xml")
        self.finish(picture.getvalue())


class OptionsHandler(_Guarded):
    """``GET akvo/api/tables/options``: what a creation request may choose, in French."""

    def get(self) -> None:
        ladder = sorted((s for s in REGISTRY.values() if s.rank is not None), key=_rank)
        self.answer(
            {
                "teams": [
                    {"key": t.key, "name": t.name, "strategy": t.strategy}
                    for t in PRESET_TEAMS.values()
                ],
                "bots": [{"key": spec.label, "label": spec.label} for spec in ladder],
                "takeover_bot": self.app.settings.takeover_bot,
                "clocks": [
                    {
                        "mode": label,
                        "unit": UNITS[mode][0],
                        "min": UNITS[mode][1],
                        "max": UNITS[mode][2],
                    }
                    for mode, label in MODE_LABELS.items()
                ],
                "players": [2, 4, 6],
                "rules": {
                    name: [{"value": value, "label": label} for label, value in readings]
                    for name, readings in READINGS.items()
                },
            }
        )


def _rank(spec: Any) -> int:
    return int(spec.rank)


class EventsHandler(_Guarded):
    """``GET akvo/api/tables/{id}/events?token=T``: server-sent events, one ``data:`` line
    per change of the seat's view (the first at once); a comment every :data:`HEARTBEAT`
    seconds keeps proxies from closing an idle stream."""

    async def get(self, table_id: str) -> None:
        client = self.client()
        if self.app.streams.get(client, 0) >= self.app.settings.max_streams:
            self.refuse(429, "throttled", "Trop de connexions ouvertes depuis cet appareil.")
            return
        views: asyncio.Queue[str] = asyncio.Queue()
        try:
            unsubscribe = self.app.service.subscribe(table_id, self.token(), views.put_nowait)
        except TableRefusal as refusal:
            self.refused(refusal)
            return
        self.app.streams[client] = self.app.streams.get(client, 0) + 1
        self._closed = asyncio.Event()
        self.set_header("Content-Type", "text/event-stream; charset=utf-8")
        self.set_header("X-Accel-Buffering", "no")
        try:
            await self._stream(views)
        except iostream.StreamClosedError:
            pass
        finally:
            unsubscribe()
            self.app.streams[client] -= 1
            if not self.app.streams[client]:
                del self.app.streams[client]

    async def _stream(self, views: asyncio.Queue[str]) -> None:
        stream = getattr(self.request.connection, "stream", None)
        if stream is not None:  # small writes: no Nagle delay before the client's ACK
            stream.set_nodelay(True)
        while not self._closed.is_set():
            try:
                text = await asyncio.wait_for(views.get(), HEARTBEAT)
            except TimeoutError:
                self.write(": en attente\n\n")
            else:
                while not views.empty():  # a view is whole: only the latest matters
                    text = views.get_nowait()
                self.write(f"data: {text}\n\n")
            await self.flush()

    def on_connection_close(self) -> None:
        closed = getattr(self, "_closed", None)
        if closed is not None:
            closed.set()


@dataclass(frozen=True)
class Page:
    """A static page: its title, the file of its ``<main>``, its script."""

    title: str
    main: str
    script: str

    def html(self, base: str) -> str:
        shell = (STATIC_DIR / "shell.html").read_text(encoding="utf-8")
        main = (STATIC_DIR / self.main).read_text(encoding="utf-8")
        filled = shell.replace("{{title}}", self.title).replace("{{script}}", self.script)
        return filled.replace("{{main}}", main).replace("{{base}}", base)


SEAT_PAGE: Final = Page("Table en ligne — Akvolition", "table.main.html", "tables.js")
NEW_TABLE_PAGE: Final = Page(
    "Ouvrir une table en ligne — Akvolition", "create.main.html", "create.js"
)
MY_TABLES_PAGE: Final = Page("Mes tables — Akvolition", "mine.main.html", "mine.js")
STANDINGS: Final = Page("Classement — Akvolition", "standings.main.html", "standings.js")


class PageHandler(_Guarded):
    """The seat page and the creation page: static HTML whose script shows what the view
    gives and sends the action chosen from the legal list (no rule in it)."""

    def initialize(self, app: TablesApp, page: Page | None = None, **_: Any) -> None:
        super().initialize(app)
        assert page is not None
        self.page = page

    def get(self, table_id: str | None = None) -> None:
        base = self.app.base_url.rstrip("/") + "/"
        html = self.page.html(base)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        )
        self.finish(html)


class StaticHandler(web.StaticFileHandler):
    """The pages' script and style sheet."""

    def set_extra_headers(self, path: str) -> None:
        self.set_header("X-Content-Type-Options", "nosniff")
