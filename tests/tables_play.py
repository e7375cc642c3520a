"""Helpers of the online-table tests: tables from a request, random play by seats, the
HTTP API served in-process."""

from __future__ import annotations

import asyncio
import glob
import os
import random
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from tornado import web
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets

from akvo.bots import make_bot
from akvo.online import Table, parse_request
from akvo_site.cluster import haproxy_path
from akvo_site.tables.api import OnlineTables, table_handlers

PRESETS = ["perrockiss", "fish-tank"]
#: The tables' HTTP API, as the server mounts it.
API = "/akvo/api/tables"

T = TypeVar("T")


def require_postgres(*, haproxy: bool = False) -> None:
    """Skip a test that needs PostgreSQL (and HAProxy when asked) on a machine without them,
    or fail it under ``AKVO_REQUIRE_POSTGRES=1`` (CI installs both: a skip there would hide a
    test that cannot run)."""
    missing = None
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing = "psycopg is not installed (pip install 'akvo[online]')"
    if missing is None and not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        missing = "PostgreSQL is not installed (apt-get install postgresql)"
    if missing is None and haproxy and haproxy_path() is None:
        missing = "HAProxy is not installed (apt-get install haproxy)"
    if missing is None:
        return
    if os.environ.get("AKVO_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"AKVO_REQUIRE_POSTGRES=1 but {missing}")
    pytest.skip(missing)


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: in the whole suite the main thread already
    shows a running loop (Playwright's sync API leaves one), where ``asyncio.run`` refuses."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def create_over_http(http: Any, **request: Any) -> dict[str, Any]:
    """A table created through the HTTP API (``http``: an httpx client on the server) from
    the presets and ``request``'s fields; its answer (seats, tokens, links), checked to be
    201."""
    answer = http.post(API, json={"teams": PRESETS, **request})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


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


class InProcessServer:
    """The tables' HTTP API alone (no Voilà) on a free loopback port, in a thread of its own:
    fast enough for the fast lane. ``settings`` are :class:`OnlineTables` traits."""

    def __init__(self, root: Path, **settings: Any) -> None:
        self.root = root
        self.settings = {"database": str(root / "tables.sqlite"), **settings}
        self.url = ""
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> InProcessServer:
        self._thread.start()
        if not self._ready.wait(30):
            raise RuntimeError("the in-process tables server did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._stop)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()

    async def _start(self) -> None:
        handlers = table_handlers(OnlineTables(**self.settings), "/", self.root)
        self.app = handlers[0][2]["app"]
        sockets = bind_sockets(0, "127.0.0.1")
        self._server = HTTPServer(web.Application(handlers))
        self._server.add_sockets(sockets)
        self.url = f"http://127.0.0.1:{sockets[0].getsockname()[1]}"

    def _stop(self) -> None:
        self._server.stop()
        self.app.close()
        self._loop.stop()
