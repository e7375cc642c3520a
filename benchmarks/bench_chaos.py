"""Chaos benchmark of the online tables on PostgreSQL (issue 37): several book servers behind
HAProxy on one database, tables played to their end while streams drop and a server dies.

Everything runs on loopback: a private PostgreSQL (:func:`akvo_site.cluster.private_postgres`,
Debian's ``postgresql``, Unix socket only), ``--servers`` book servers (``python -m
akvo_site``, no kernel pools) sharing it, and HAProxy with the repository's
``deploy/haproxy.cfg`` (:func:`akvo_site.cluster.haproxy_config`, one shared database: any
server serves any table). Scripted seats play ``--tables`` tables through the proxy as the
seat page's script does (``akvo.online.client``: create, event stream, the view's legal
actions, ``POST …/actions``; a partner's offer accepted, else at random, after ``--think``
× 0.5–1.5 s), spread over ``--client-processes`` forked processes (one asyncio process
held a core at 200 tables), each seat with its own HTTP client; some tables have a bot in
a seat or a side, which the servers play. Meanwhile:

- every ``--drop-every`` seconds a random seat's event stream is cut; it reconnects after
  0–0.5 s, through the proxy (maybe to another server). *Resync*: from that reconnection
  to the first view pushed (a server catches a table up from the log before it answers);
  a first view older than the last one seen (a shorter public log) is an error;
- once ``--kill-at`` actions are acknowledged, server 2 is SIGKILLed (and restarted on its
  port ``--restart-after`` seconds later unless ``--no-restart``). *Route-around*: from the
  kill until a sweep of requests to every table (through the proxy) all succeed.

At the end, for every table: the log read from PostgreSQL holds every action a client was
acknowledged exactly once and in order (extra rows only from requests whose answer was
lost with the server); every seat's and the spectator's view from every live server, and
the last view each seat was pushed, equal a fresh replay of the log (a new
:class:`~akvo.online.service.TableService` on the database), presence aside; every table is
finished. ``tests/akvo_site/tables/test_chaos_small.py`` runs a small version in CI.

Usage: ``nice -n 10 .venv/bin/python benchmarks/bench_chaos.py --tables 200 --think 3``
(the target run); ``--tables 40`` on a shared machine. Results go to
``benchmarks/results/chaos.md`` (``--quick``: 6 tables, ``--no-record``: printed only).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from akvo.online.client import ApiRefusal, SeatClient, choose, create_table  # noqa: E402
from akvo.online.table import PLAYER  # noqa: E402
from akvo_site.app import HOME_PAGE, free_port, server_command, wait_until_serving  # noqa: E402
from akvo_site.cluster import (  # noqa: E402
    Cluster,
    haproxy_config,
    haproxy_path,
    private_postgres,
    server_options,
)

RESULTS = ROOT / "benchmarks" / "results" / "chaos.md"
BOOK = ROOT / "book"
PRESETS = ["perrockiss", "fish-tank"]
RESYNC_P95_TARGET = 2.0  # s
ROUTE_AROUND_TARGET = 10.0  # s
#: A third of the streams reconnect after the kill, to two servers: resyncs meanwhile are
#: also shown apart.
AFTER_KILL = 60.0  # s
#: The book servers: no kernel started ahead (the tables are what is tested), the throttle
#: opened wide (every client here is 127.0.0.1).
SERVER_OPTIONS = (
    '--VoilaKernelManager.kernel_pools_config={"default": {"pool_size": 0}}',
    "--BookPools.spares=0",
    "--OnlineTables.rate=1000000",
    "--OnlineTables.burst=1000000",
    "--OnlineTables.create_rate=1000000",
    "--OnlineTables.create_burst=1000000",
    "--OnlineTables.max_streams=1000000",
)
#: The tables' mix, in turn: players and bots (a side's or one seat's, played by the servers).
KINDS: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 4, "bots": {"B2": "hasard"}},
    {"players": 2, "bots": {"B": "hasard"}},
    {"players": 6},
    {"players": 2},
    {"players": 4},
)


@dataclass
class Plan:
    tables: int = 40
    servers: int = 3
    victim: int = 2  # the server SIGKILLed (1-based)
    kill_at: int = 0  # acknowledged actions before the kill (0: 40 per table)
    restart_after: float | None = 5.0
    drop_every: float = 0.25  # s between two cut streams (over every seat)
    think: float = 0.0
    coach: bool = False
    deadline: float = 900.0  # s of play before giving up on unfinished tables
    seed: int = 0
    kinds: tuple[dict[str, Any], ...] = KINDS
    client_processes: int = 2  # the scripted seats spread over this many processes

    @property
    def kill_threshold(self) -> int:
        return self.kill_at or 40 * self.tables


@dataclass
class Stats:
    resync: list[float] = field(default_factory=list)  # after a cut stream
    resync_at: list[float] = field(default_factory=list)  # when each came (perf_counter)
    reconnect: list[float] = field(default_factory=list)  # after a stream lost with a server
    lag: list[float] = field(default_factory=list)  # the client processes' loops, late by
    drops: int = 0
    refused: int = 0
    unknown: int = 0  # action requests whose answer never came (the server died)
    polled: int = 0  # a seat waited 5 s without a push and read its view instead
    stale_polls: int = 0  # ... and found a view newer than its last push
    missed: list[str] = field(default_factory=list)  # ... its stream connected all along
    retries: list[str] = field(default_factory=list)  # ... its view unchanged, still its turn
    errors: list[str] = field(default_factory=list)
    killed_at: float | None = None
    route_around: float | None = None
    probe_failures: int = 0
    marked_down: float | None = None  # s from the kill until HAProxy's checks mark it DOWN
    sweeps: int = 0
    restarted_in: float | None = None
    played: float = 0.0

    def merge(self, part: Stats) -> None:
        """A client process's figures added to these (the kill's are this process's)."""
        self.resync += part.resync
        self.resync_at += part.resync_at
        self.reconnect += part.reconnect
        self.lag += part.lag
        self.drops += part.drops
        self.refused += part.refused
        self.unknown += part.unknown
        self.polled += part.polled
        self.stale_polls += part.stale_polls
        self.missed += part.missed
        self.retries += part.retries
        self.errors += part.errors
        self.played = max(self.played, part.played)


# --- processes ---------------------------------------------------------------------------------


@contextmanager
def process_group(command: list[str], log: Path, cwd: Path | None = None) -> Iterator[Any]:
    """``command`` in a process group of its own (so nothing it starts outlives it):
    SIGTERM to the group when the block ends, SIGKILL after 10 s."""
    with log.open("ab") as output:
        process = subprocess.Popen(
            command, cwd=cwd, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        yield process
    finally:
        stop_group(process)


def stop_group(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        if process.poll() is not None:
            with suppress(ProcessLookupError):  # the leader is gone: its group's stragglers
                os.killpg(process.pid, signal.SIGKILL)
            return
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue


class Servers:
    """The book servers on fixed loopback ports (a restart takes the same port back)."""

    def __init__(self, stack: ExitStack, logs: Path, dsn: str, count: int) -> None:
        self.stack, self.logs, self.dsn = stack, logs, dsn
        self.ports = [free_port() for _ in range(count)]
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    def url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index - 1]}"

    def start(self, index: int) -> None:
        options = (*server_options(index, database=self.dsn), *SERVER_OPTIONS)
        command = server_command(self.ports[index - 1], *options)
        log = self.logs / f"voila-n{index}.log"
        self.processes[index] = self.stack.enter_context(process_group(command, log, BOOK))

    def wait(self, index: int, timeout: float = 180.0) -> None:
        log = self.logs / f"voila-n{index}.log"
        page = f"{self.url(index)}/voila/render/{HOME_PAGE}"
        wait_until_serving(page, self.processes[index], log, timeout, f"server n{index}")

    def kill(self, index: int) -> None:
        os.killpg(self.processes[index].pid, signal.SIGKILL)
        self.processes[index].wait(10)

    def live(self) -> list[int]:
        return [i for i, p in self.processes.items() if p.poll() is None]


# --- the clients -------------------------------------------------------------------------------


def _log_length(view: dict[str, Any]) -> int:
    return len(view.get("log") or [])


class Seat:
    """One seat's client: its event stream (cut and reconnected) and its script."""

    def __init__(self, client: SeatClient, name: str) -> None:
        self.client, self.name = client, name
        self.view: dict[str, Any] = {}
        self.text = ""
        self.changed = asyncio.Event()
        self.acked: list[str] = []
        self.unknown = 0
        self.done = False
        self.stopped = False  # the run is over (its deadline): both loops end
        self.connection: asyncio.Task[None] | None = None
        self.cutting = False
        #: When the current stream's first view came (None while reconnecting).
        self.connected_since: float | None = None
        self.refusal = ""  # the last 409's message

    def take(self, text: str) -> None:
        self.text, self.view = text, json.loads(text)
        self.changed.set()

    async def stream(self, stats: Stats) -> None:
        """Keep an event stream open until the match ends: reconnect after a cut (timed as
        a resync) or after losing the server (timed as a reconnection)."""
        reason: str | None = None
        while not (self.done or self.stopped):
            started = time.perf_counter()
            self.connection = asyncio.create_task(self._connection(stats, reason, started))
            try:
                await self.connection
                reason = "lost"
            except asyncio.CancelledError:
                self.connected_since = None
                this = asyncio.current_task()
                if not self.cutting or (this is not None and this.cancelling()):
                    raise  # this seat's task itself is cancelled (the end, or Ctrl+C)
                self.cutting, reason = False, "cut"
                stats.drops += 1
                await asyncio.sleep(random.uniform(0.0, 0.5))
                continue
            except (httpx.HTTPError, ApiRefusal):
                reason = "lost"
            self.connected_since = None
            await asyncio.sleep(0.2)

    async def _connection(self, stats: Stats, reason: str | None, started: float) -> None:
        before = _log_length(self.view) if self.view else 0
        first = True
        async for text in self.client.pushes():
            if first:
                first = False
                self.connected_since = time.perf_counter()
                waited = time.perf_counter() - started
                if reason == "cut":
                    stats.resync.append(waited)
                    stats.resync_at.append(self.connected_since)
                elif reason == "lost":
                    stats.reconnect.append(waited)
                self.take(text)
                if _log_length(self.view) < before:
                    stats.errors.append(f"{self.name}: a reconnection showed an older view")
            else:
                self.take(text)
            if self.view.get("status") != "playing":
                self.done = True
                return

    def cut(self) -> None:
        if self.connection is not None and not self.connection.done():
            self.cutting = True
            self.connection.cancel()

    async def play(self, rng: random.Random, think: float, stats: Stats) -> None:
        """Act on every view that gives this seat a decision, until the match ends."""
        while not (self.done or self.stopped):
            waiting = time.perf_counter()
            try:
                await asyncio.wait_for(self.changed.wait(), 5.0)
            except TimeoutError:
                await self._poll(stats, waiting)  # no push for 5 s: read the view (a reload)
                continue
            self.changed.clear()
            if self.view.get("status") != "playing":
                self.done = True
                break
            action = choose(self.view, rng)
            if action is None:
                continue
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            self.refusal = ""
            try:
                await self.client.act(action)
            except asyncio.CancelledError:
                self.unknown += 1  # stopped at the deadline: the server may have logged it
                raise
            except ApiRefusal as refusal:
                if refusal.status == 409:
                    stats.refused += 1
                    self.refusal = refusal.message
                elif refusal.status >= 500:
                    self.unknown += 1  # the proxy's answer: the server died on it
                    stats.unknown += 1
                    self.refusal = f"no answer: {refusal}"
                else:
                    stats.errors.append(f"{self.name}: {refusal}")
                continue
            except httpx.HTTPError as error:
                self.unknown += 1
                stats.unknown += 1
                self.refusal = f"no answer: {error!r}"
                continue
            self.acked.append(action)
        if self.connection is not None:
            self.connection.cancel()

    async def _poll(self, stats: Stats, waiting: float) -> None:
        """The seat's view read back after 5 s without a push. If it is newer than the last
        push (presence aside: a server sees the others' presence late) and still no push
        comes within 5 s though the stream was connected all along, a push was missed (a
        shorter wait counted pushes from a server seconds behind on a saturated machine)."""
        stats.polled += 1
        try:
            text = json.dumps(await self.client.view(), ensure_ascii=False)
        except (ApiRefusal, httpx.HTTPError):
            return
        polled = _without_presence(text)
        if not self.text:  # the stream has not brought a first view yet
            self.take(text)
            return
        if polled == _without_presence(self.text):
            if polled.get("legal") and polled.get("status") == "playing":
                # A decision refused on this very view (409), or whose answer was lost
                # with a server, and nothing moved since: a player would click again; the
                # script chooses again.
                stats.retries.append(f"{self.name} after « {self.refusal} »")
                self.changed.set()
            return
        stats.stale_polls += 1
        for _ in range(20):
            if self.changed.is_set():
                break
            await asyncio.sleep(0.25)
        connected = self.connected_since is not None and self.connected_since < waiting
        if connected and not self.changed.is_set():  # 10 s connected, and no push came
            stats.missed.append(f"{self.name} (turn {polled['turn']}, {polled['phase']})")
        if not self.changed.is_set():
            self.take(text)


@dataclass
class SeatResult:
    """What the checks need of one scripted seat, sent back by its client process."""

    name: str
    token: str
    acked: list[str]  # its acknowledged actions, in order
    unknown: int  # its action requests whose answer never came
    text: str  # the last view pushed to it (JSON)
    done: bool


@dataclass
class TableRun:
    id: str
    made: dict[str, Any]
    seats: list[SeatResult]
    spectator: str

    @property
    def finished(self) -> bool:
        return all(seat.done for seat in self.seats)


async def create_tables(proxy: str, plan: Plan) -> list[dict[str, Any]]:
    """Every table of the plan, created through the proxy (the kinds in turn)."""
    async with httpx.AsyncClient(timeout=30) as http:
        made = []
        for number in range(plan.tables):
            request = {"teams": PRESETS, "seed": number, "coach": plan.coach}
            kind = plan.kinds[number % len(plan.kinds)]
            made.append(await create_table(http, proxy, {**request, **kind}))
        return made


async def play_shard(
    proxy: str,
    tables: list[dict[str, Any]],
    plan: Plan,
    shards: int,
    started: float,
    progress: Any,
) -> tuple[list[TableRun], Stats]:
    """One client process's part: play ``tables`` (each seat with its own HTTP client:
    one shared pool scans all its connections on every request, which made the clients
    the bottleneck at 80 tables) and cut one of their streams every ``drop_every ×
    shards`` seconds (every ``drop_every`` over all the processes); ``progress(acked,
    finished)`` twice a second. ``started`` is the parent's ``time.perf_counter()``
    (monotonic, the same clock in every process)."""
    stats = Stats()
    rng = random.Random(f"{plan.seed}/{tables[0]['table'] if tables else ''}")
    tls = ssl.create_default_context()  # unused on plain HTTP, built once, not per client
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    clients: list[httpx.AsyncClient] = []
    live: list[tuple[dict[str, Any], list[Seat]]] = []
    for made in tables:
        seats = []
        for s in made["seats"]:
            if s["token"]:
                http = httpx.AsyncClient(limits=limits, timeout=30, verify=tls)
                clients.append(http)
                client = SeatClient(http, proxy, made["table"], s["token"])
                seats.append(Seat(client, f"{made['table']}/{s['name']}"))
        live.append((made, seats))
    seats = [seat for _, table_seats in live for seat in table_seats]
    tasks = [asyncio.create_task(seat.stream(stats)) for seat in seats]
    tasks += [
        asyncio.create_task(seat.play(random.Random(rng.random()), plan.think, stats))
        for seat in seats
    ]
    tasks.append(asyncio.create_task(_cut_streams(seats, plan.drop_every * shards, rng)))
    tasks.append(asyncio.create_task(_time_lag(stats)))

    def finished() -> int:
        return sum(all(seat.done for seat in table_seats) for _, table_seats in live)

    try:
        while finished() < len(live):
            if time.perf_counter() - started > plan.deadline:
                stats.errors.append(
                    f"{len(live) - finished()} tables unfinished after {plan.deadline:.0f} s"
                )
                break
            progress(sum(len(seat.acked) for seat in seats), finished())
            await asyncio.sleep(0.5)
        stats.played = time.perf_counter() - started
        progress(sum(len(seat.acked) for seat in seats), finished())
    finally:
        await _stop(seats, tasks, stats)
        for http in clients:
            await http.aclose()
    runs = [
        TableRun(
            made["table"],
            made,
            [
                SeatResult(s.name, s.client.token, s.acked, s.unknown, s.text, s.done)
                for s in table_seats
            ],
            made["spectator"]["token"],
        )
        for made, table_seats in live
    ]
    return runs, stats


async def _stop(seats: list[Seat], tasks: list[asyncio.Task[None]], stats: Stats) -> None:
    """End every task. A loop may miss one cancellation (Python 3.11's ``wait_for`` drops
    it when its wait ends at the same moment): the seats' loops also stop on their flag,
    and what is left is cancelled again."""
    for seat in seats:
        seat.stopped = True
    pending = set(tasks)
    for _ in range(3):
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=10)
        if not pending:
            return
    stats.errors.append(f"{len(pending)} client tasks did not stop")


async def _cut_streams(seats: list[Seat], every: float, rng: random.Random) -> None:
    while True:
        await asyncio.sleep(every)
        live = [seat for seat in seats if not seat.done]
        if live:
            rng.choice(live).cut()


async def _time_lag(stats: Stats, every: float = 0.1) -> None:
    """How late this process's loop wakes up (a sleep's overshoot): a resync slower than
    this came from the proxy and the servers, not from the client's own backlog."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(every)
        stats.lag.append(time.perf_counter() - asked - every)


def _shard_process(
    connection: Connection,
    proxy: str,
    tables: list[dict[str, Any]],
    plan: Plan,
    shards: int,
    started: float,
) -> None:
    """A client process (forked): plays its tables, reporting progress and, at the end,
    its tables' results and its statistics through ``connection``."""

    def progress(acked: int, finished: int) -> None:
        connection.send(("progress", acked, finished))

    try:
        runs, stats = asyncio.run(play_shard(proxy, tables, plan, shards, started, progress))
        connection.send(("done", runs, stats))
    except BaseException as error:  # the parent reports it; SIGTERM unwinds as usual
        connection.send(("failed", repr(error)))
        raise
    finally:
        connection.close()


@dataclass
class Shard:
    """The parent's side of one client process."""

    process: Any
    connection: Connection
    acked: int = 0
    finished: int = 0
    result: tuple[list[TableRun], Stats] | None = None
    failure: str | None = None

    def read(self) -> None:
        """Every message waiting (the loop's reader callback)."""
        while self.connection.poll():
            try:
                message = self.connection.recv()
            except EOFError:
                self.failure = self.failure or "its process ended without its results"
                asyncio.get_running_loop().remove_reader(self.connection.fileno())
                return
            if message[0] == "progress":
                self.acked, self.finished = message[1], message[2]
            elif message[0] == "done":
                self.result = (message[1], message[2])
            else:
                self.failure = message[1]

    @property
    def over(self) -> bool:
        return self.result is not None or self.failure is not None


def run_clients(proxy: str, servers: Servers, plan: Plan, stats: Stats) -> list[TableRun]:
    """Create every table, then play them in ``plan.client_processes`` client processes
    (table i in process i mod n, forked before any loop runs here) while this one kills the
    victim once enough actions are acknowledged and times the route-around; returns the
    tables, the processes' statistics merged into ``stats``."""
    made = asyncio.run(create_tables(proxy, plan))
    count = max(1, min(plan.client_processes, len(made)))
    context = multiprocessing.get_context("fork")
    started = time.perf_counter()
    shards: list[Shard] = []
    try:
        for index in range(count):
            ours, theirs = context.Pipe(duplex=False)
            process = context.Process(
                target=_shard_process,
                args=(theirs, proxy, made[index::count], plan, count, started),
                daemon=True,
            )
            process.start()
            theirs.close()
            shards.append(Shard(process, ours))
        asyncio.run(_supervise(proxy, servers, plan, stats, made, shards, started))
    finally:
        for shard in shards:
            if shard.process.is_alive() and not shard.over:
                shard.process.terminate()
            shard.process.join(30)
            shard.connection.close()
    runs: list[TableRun] = []
    for index, shard in enumerate(shards):
        if shard.result is None:
            stats.errors.append(f"client process {index + 1}: {shard.failure or 'no result'}")
            continue
        shard_runs, part = shard.result
        runs += shard_runs
        stats.merge(part)
    return runs


async def _supervise(
    proxy: str,
    servers: Servers,
    plan: Plan,
    stats: Stats,
    made: list[dict[str, Any]],
    shards: list[Shard],
    started: float,
) -> None:
    """Read the client processes' messages until each has sent its results; the kill once
    they have acknowledged ``plan.kill_threshold`` actions in all."""
    loop = asyncio.get_running_loop()
    for shard in shards:
        loop.add_reader(shard.connection.fileno(), shard.read)
    killer: asyncio.Task[None] | None = None
    shown = started
    try:
        while not all(shard.over for shard in shards):
            if time.perf_counter() - started > plan.deadline + 120:
                stats.errors.append("the client processes did not end after the deadline")
                break
            await asyncio.sleep(0.1)
            acked = sum(shard.acked for shard in shards)
            if killer is None and acked >= plan.kill_threshold:
                killer = asyncio.create_task(_kill_victim(proxy, servers, plan, stats, made))
            if time.perf_counter() - shown > 30:  # a line of progress now and then
                shown = time.perf_counter()
                print(
                    f"{shown - started:.0f} s: {acked} actions acknowledged, "
                    f"{sum(s.finished for s in shards)}/{len(made)} tables finished",
                    file=sys.stderr,
                    flush=True,
                )
        if killer is None:
            stats.errors.append("no server was killed: every table finished before --kill-at")
        else:
            await asyncio.wait_for(killer, 120)
    finally:
        for shard in shards:
            with suppress(ValueError, OSError):
                loop.remove_reader(shard.connection.fileno())


async def _kill_victim(
    proxy: str, servers: Servers, plan: Plan, stats: Stats, tables: list[dict[str, Any]]
) -> None:
    """SIGKILL the victim; time the proxy's route-around and HAProxy's health checks;
    restart the victim."""
    stats.killed_at = time.perf_counter()
    servers.kill(plan.victim)
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        await asyncio.gather(
            _route_around(http, proxy, stats, tables),
            _marked_down(servers.logs / "haproxy.sock", f"n{plan.victim}", stats),
        )
    if plan.restart_after is not None:
        await asyncio.sleep(plan.restart_after)
        began = time.perf_counter()
        servers.start(plan.victim)
        await asyncio.to_thread(servers.wait, plan.victim)
        stats.restarted_in = time.perf_counter() - began


async def _route_around(
    http: httpx.AsyncClient,
    proxy: str,
    stats: Stats,
    tables: list[dict[str, Any]],
    limit: float = 60.0,
) -> None:
    """Sweeps of one request per table, all at once (the spectator's view, through the
    proxy), until one sweep succeeds entirely; the time from the kill to the end of that
    sweep. (16 at a time measured the saturated servers' queue at 200 tables: 16 s.)"""
    assert stats.killed_at is not None
    gate = asyncio.Semaphore(len(tables))

    async def probe(made: dict[str, Any]) -> bool:
        async with gate:
            try:
                answer = await http.get(
                    f"{proxy}/akvo/api/tables/{made['table']}",
                    params={"token": made["spectator"]["token"]},
                    timeout=10,
                )
            except httpx.HTTPError:
                return False
            return answer.status_code == 200

    while time.perf_counter() - stats.killed_at < limit:
        stats.sweeps += 1
        results = await asyncio.gather(*(probe(made) for made in tables))
        stats.probe_failures += results.count(False)
        if all(results):
            stats.route_around = time.perf_counter() - stats.killed_at
            return
        await asyncio.sleep(0.1)
    stats.errors.append(f"the proxy did not route around the dead server within {limit:.0f} s")


async def _marked_down(socket: Path, name: str, stats: Stats, limit: float = 30.0) -> None:
    """When HAProxy's health checks take the dead server out (its admin socket's
    ``show stat``): requests meanwhile relied on retries and redispatch."""
    assert stats.killed_at is not None
    admin = Cluster("", [], socket, socket).admin
    while time.perf_counter() - stats.killed_at < limit:
        lines = (await asyncio.to_thread(admin, "show stat")).splitlines()
        if any(line.startswith(f"readers,{name},") and ",DOWN" in line for line in lines):
            stats.marked_down = time.perf_counter() - stats.killed_at
            return
        await asyncio.sleep(0.2)


# --- the checks --------------------------------------------------------------------------------


def _without_presence(text: str) -> dict[str, Any]:
    """A view with its live presence marks taken out (they follow the streams, not the log)."""
    view: dict[str, Any] = json.loads(text)
    for seat in view.get("seats", []):
        seat.pop("presence", None)
    return view


def check(dsn: str, servers: Servers, runs: list[TableRun], stats: Stats) -> dict[str, Any]:
    """Lost or duplicated acknowledged actions, views that differ from a fresh replay of the
    log, unfinished tables."""
    from akvo.online.service import TableService
    from akvo.online.store_pg import PostgresStore
    from akvo_site.tables.api import FrenchLabels
    from akvo_site.tables.coach import TableCoach

    fresh = TableService(PostgresStore(dsn), FrenchLabels(), coach=TableCoach())
    lost: list[str] = []
    duplicated: list[str] = []
    differ: list[str] = []
    unfinished: list[str] = []
    compared = rows = acked = 0
    try:
        with httpx.Client(timeout=60) as http:
            for run in runs:
                table = fresh.table(run.id)
                rows += len(table.rows)
                if not table.finished:
                    unfinished.append(run.id)
                for seat in run.seats:
                    index = next(s["seat"] for s in run.made["seats"] if s["token"] == seat.token)
                    logged = [
                        action
                        for (row_seat, action), author in zip(
                            table.rows, table.authors, strict=True
                        )
                        if row_seat == index and author == PLAYER
                    ]
                    acked += len(seat.acked)
                    if not _subsequence(seat.acked, logged):
                        lost.append(seat.name)
                    elif len(logged) - len(seat.acked) > seat.unknown:
                        duplicated.append(seat.name)
                tokens: list[tuple[str, str, SeatResult | None]] = [
                    (s.name, s.token, s) for s in run.seats
                ]
                tokens.append((f"{run.id}/spectator", run.spectator, None))
                for name, token, watcher in tokens:
                    truth = _without_presence(fresh.view_json(run.id, token))
                    if watcher is not None:
                        compared += 1
                        if _without_presence(watcher.text) != truth:
                            differ.append(f"{name} (its last push)")
                    for index in servers.live():
                        answer = http.get(
                            f"{servers.url(index)}/akvo/api/tables/{run.id}",
                            params={"token": token},
                        )
                        compared += 1
                        if answer.status_code != 200 or _without_presence(answer.text) != truth:
                            differ.append(f"{name} (server n{index})")
    finally:
        fresh.close()
        fresh.store.close()  # type: ignore[attr-defined]
    return {
        "lost": lost,
        "duplicated": duplicated,
        "differ": differ,
        "unfinished": unfinished,
        "compared": compared,
        "rows": rows,
        "acked": acked,
    }


def _subsequence(part: list[str], whole: list[str]) -> bool:
    items = iter(whole)
    return all(any(item == wanted for item in items) for wanted in part)


def problems(checked: dict[str, Any], stats: Stats) -> list[str]:
    """What makes the run fail (empty: every assertion holds)."""
    found = [*stats.errors]
    for key in ("lost", "duplicated", "differ", "unfinished"):
        if checked[key]:
            found.append(f"{key}: {len(checked[key])} ({', '.join(checked[key][:5])})")
    if stats.killed_at is None:
        found.append("no server was killed")
    elif stats.route_around is None:
        found.append("the proxy never routed around the dead server")
    return found


# --- the run -----------------------------------------------------------------------------------


@dataclass
class Deployment:
    """The running recipe: the proxy's URL, the book servers, the database's address."""

    url: str
    servers: Servers
    dsn: str


@contextmanager
def deployment(folder: Path, count: int) -> Iterator[Deployment]:
    """A private PostgreSQL, ``count`` book servers sharing it and HAProxy in front, logs in
    ``folder``; every process (each in a group of its own) stopped when the block ends."""
    haproxy = haproxy_path()
    if haproxy is None:
        raise RuntimeError("HAProxy is not installed: apt-get install haproxy")
    logs = folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    # PostgreSQL's folder of its own under /tmp: as root it runs as the postgres user, who
    # cannot enter ``folder`` (a temporary folder is closed to others).
    database = Path(tempfile.mkdtemp(prefix="akvo-chaos-pg-"))
    with ExitStack() as stack:
        stack.callback(shutil.rmtree, database, ignore_errors=True)
        dsn = stack.enter_context(private_postgres(database))
        servers = Servers(stack, logs, dsn, count)
        for index in range(1, count + 1):
            servers.start(index)
        for index in range(1, count + 1):
            servers.wait(index)
        port = free_port()
        config = logs / "haproxy.cfg"
        text = haproxy_config(
            f"127.0.0.1:{port}", servers.ports, logs / "haproxy.sock", shared_tables=True
        )
        config.write_text(text, encoding="utf-8")
        subprocess.run([haproxy, "-c", "-q", "-f", str(config)], check=True)
        proxy = stack.enter_context(
            process_group([haproxy, "-db", "-f", str(config)], logs / "haproxy.log")
        )
        url = f"http://127.0.0.1:{port}"
        wait_until_serving(f"{url}/voila/render/{HOME_PAGE}", proxy, logs / "haproxy.log", 30)
        yield Deployment(url, servers, dsn)


def chaos(plan: Plan, folder: Path) -> tuple[Stats, dict[str, Any]]:
    """The whole run in ``folder`` (logs); every process stopped after."""
    stats = Stats()
    with deployment(folder, plan.servers) as deployed:
        runs = run_clients(deployed.url, deployed.servers, plan, stats)
        checked = check(deployed.dsn, deployed.servers, runs, stats)
        checked["seats"] = sum(len(run.seats) for run in runs)
    return stats, checked


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if values else 0.0


RETRIES = """
« Chose again »: a seat that had no push for 5 s read its view back, found it equal to its
last push and still listing decisions, and chose again. After «  » its last action had been
*accepted*: some legal actions change nothing a seat sees (its own standing proposal sent
again, `propose TT` while it stands, or the same `part` again), so no push follows (a view
is pushed only when its text changes); 20 tables played at random through one
`TableService` gave 129 such accepted no-ops, and no position where a seat's view stayed
the same while its allowed actions changed. After « no answer » the request's server died.
After a 409 the action reached the table when it was not allowed (the seat's view was stale
by its think time and the push's delay, or a partner's offer changed), and the table came
back to a position this seat sees the same (an offer withdrawn and made again: offers are
not in the log); the refusal was right when it was made.
"""


def _outside_kill(stats: Stats) -> list[float]:
    """The resyncs that did not come in the :data:`AFTER_KILL` seconds after the kill."""
    start = stats.killed_at
    if start is None:
        return stats.resync
    return [
        waited
        for waited, at in zip(stats.resync, stats.resync_at, strict=True)
        if not start <= at <= start + AFTER_KILL
    ]


def report(plan: Plan, stats: Stats, checked: dict[str, Any], command: str, load0: str) -> str:
    from bench_site import machine

    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    found = problems(checked, stats)
    resync95 = pct(stats.resync, 0.95)
    met = (
        not found
        and resync95 <= RESYNC_P95_TARGET
        and stats.route_around is not None
        and stats.route_around <= ROUTE_AROUND_TARGET
    )

    def ms(values: list[float]) -> str:
        if not values:
            return "none"
        return (
            f"{len(values)}: "
            + " / ".join(f"{1000 * pct(values, q):.0f}" for q in (0.5, 0.95, 1.0))
            + " ms"
        )

    restart = (
        "not restarted"
        if stats.restarted_in is None
        else f"restarted {plan.restart_after:g} s later, serving in {stats.restarted_in:.1f} s"
    )
    rows = [
        ("tables / seats played by scripts", f"{plan.tables} / {checked['seats']}"),
        ("actions acknowledged / rows in the logs", f"{checked['acked']} / {checked['rows']}"),
        ("play time (creation to the last table's end)", f"{stats.played:.0f} s"),
        (
            "refused 409 (the position moved) / answers lost with the server",
            f"{stats.refused} / {stats.unknown}",
        ),
        (
            "acknowledged actions lost / duplicated",
            f"{len(checked['lost'])} / {len(checked['duplicated'])}",
        ),
        (
            "views compared with a fresh replay (live servers, last pushes) / differing",
            f"{checked['compared']} / {len(checked['differ'])}",
        ),
        ("tables unfinished", str(len(checked["unfinished"]))),
        ("streams cut", str(stats.drops)),
        ("cut stream → first view after reconnecting: count, p50 / p95 / max", ms(stats.resync)),
        (
            "stream lost with the server → first view again: count, p50 / p95 / max",
            ms(stats.reconnect),
        ),
        (
            f"the same, outside the {AFTER_KILL:.0f} s after the SIGKILL (its reconnections)",
            ms(_outside_kill(stats)),
        ),
        ("client processes' loops late by (every 0.1 s): count, p50 / p95 / max", ms(stats.lag)),
        (
            "seats that waited 5 s without a push / found a newer view / a push missed "
            "though connected",
            f"{stats.polled} / {stats.stale_polls} / {len(stats.missed)}",
        ),
        (
            "seats still on the view of a refused decision after 5 s (chose again)",
            str(len(stats.retries)),
        ),
        (
            "SIGKILL → every table answers through the proxy",
            "never"
            if stats.route_around is None
            else f"{stats.route_around:.2f} s ({stats.sweeps} sweeps of every table, "
            f"{stats.probe_failures} failed requests)",
        ),
        (
            "SIGKILL → HAProxy's health checks mark the server DOWN (2 s × 3 checks)",
            "never" if stats.marked_down is None else f"{stats.marked_down:.1f} s",
        ),
        (f"server n{plan.victim} after the kill", restart),
    ]
    table = "\n".join(f"| {name} | {value} |" for name, value in rows)
    errors = "".join(f"\n- {problem}" for problem in found[:10])
    errors += "".join(f"\n- a push missed: {seat}" for seat in stats.missed[:10])
    errors += "".join(f"\n- chose again: {seat}" for seat in stats.retries[:5])
    if stats.retries:
        errors += "\n" + RETRIES
    return f"""# Chaos on PostgreSQL (`benchmarks/bench_chaos.py`)

- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC
- Machine: {machine()}
- Load average (1/5/15 min; other helpers share the cores): before {load0}, at the end {load}
- Command: `{command}`
- Setup: {plan.servers} book servers (`python -m akvo_site`, no kernel pools) on one private
  PostgreSQL (Unix socket), behind HAProxy (`deploy/haproxy.cfg`, one shared database), all on
  loopback; scripted seats in {plan.client_processes} asyncio process(es) (httpx, a client
  per seat, event streams), through the proxy;
  tables in turn: 2 players, 4 with a « hasard » bot in seat B2, 2 with a « hasard » side B,
  6 players, 2, 4; coach {"on" if plan.coach else "off"}, think {plan.think:g} × 0.5–1.5 s
  before each action; a stream cut
  every {plan.drop_every:g} s; server n{plan.victim} SIGKILLed after {plan.kill_threshold}
  acknowledged actions.

Targets (issue 37): 0 lost or duplicated acknowledged actions, 0 seats whose view differs from
the log, every table finishes; resync p95 ≤ {RESYNC_P95_TARGET:g} s; route-around
≤ {ROUTE_AROUND_TARGET:g} s.

| measure | value |
|---|---|
{table}

**Against the targets:** {"met" if met else "NOT met"}.{errors}
{_scaled(plan)}"""


def _scaled(plan: Plan) -> str:
    """The target run's command, when this one played fewer tables."""
    if plan.tables >= 200:
        return ""
    return (
        f"\nThe target is 200 tables; this run played {plan.tables} (a shared, loaded machine: "
        "about 300 rows per match). The full run: "
        "`nice -n 10 .venv/bin/python benchmarks/bench_chaos.py --tables 200 --think 3` "
        "(about 20 min with 4 client processes).\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--kill-at", type=int, default=0, help="acks before the kill (0: 40/table)")
    parser.add_argument("--restart-after", type=float, default=5.0)
    parser.add_argument("--no-restart", action="store_true")
    parser.add_argument("--drop-every", type=float, default=0.25)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--coach", action="store_true", help="the coach on every table")
    parser.add_argument("--deadline", type=float, default=1800.0)
    parser.add_argument(
        "--client-processes",
        type=int,
        default=0,
        help="processes of scripted seats (0: 1 per 50 tables)",
    )
    parser.add_argument("--quick", action="store_true", help="6 tables, printed, not recorded")
    parser.add_argument("--no-record", action="store_true", help="printed, not recorded")
    args = parser.parse_args()
    plan = Plan(
        tables=6 if args.quick else args.tables,
        servers=args.servers,
        kill_at=args.kill_at,
        restart_after=None if args.no_restart else args.restart_after,
        drop_every=args.drop_every,
        think=args.think,
        coach=args.coach,
        deadline=args.deadline,
        client_processes=args.client_processes or max(1, round(args.tables / 50)),
    )
    # SIGTERM (``timeout``, a background job whose SIGINT is ignored) unwinds the blocks
    # that stop the servers, the proxy and PostgreSQL.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    load0 = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="akvo-chaos-") as folder:
        stats, checked = chaos(plan, Path(folder))
    command = "nice -n 10 .venv/bin/python benchmarks/bench_chaos.py " + " ".join(sys.argv[1:])
    text = report(plan, stats, checked, command.strip(), load0)
    print(text)
    if not (args.quick or args.no_record):
        RESULTS.write_text(text, encoding="utf-8")
        print(f"written to {RESULTS.relative_to(ROOT)}")
    if problems(checked, stats):
        sys.exit(1)


if __name__ == "__main__":
    main()
