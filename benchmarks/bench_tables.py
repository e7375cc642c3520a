"""Load benchmark of the online tables (issue 23.7): many tables at once through the HTTP API.

The tables' HTTP API (``akvo_site.tables.api``, the same handlers as in the book server,
without Voilà) runs in a process of its own on loopback (``tests.tables_play.InProcessServer``,
the throttle opened wide: every client here shares one address). Scripted clients
(``akvo.online.client``: httpx, server-sent events) open ``--tables`` tables at once, half
for 2 players and half for 4, every seat listening to its event stream, and play them at
random (a partner's offer accepted), one action at a time per table after ``--think``
seconds, for ``--seconds``:

- latency: from sending an accepted action to each other seat's push of the view it
  changed, per (action, other seat) pair; a seat whose view the action did not change gets
  no push (no push within 1 s and its view read back equal to its last push), counted
  apart; a changed view not pushed within 5 s is a lost push;
- no lost action: at the end every table's action log in the server's SQLite file holds
  exactly the actions the clients saw acknowledged;
- memory per open table: the server's RSS once every table is open with its streams,
  minus the RSS after one warm-up table, over the number of tables; again at the end.

With ``--postgres`` (issue 37) the tables live in one private PostgreSQL shared by
``--servers`` book servers behind HAProxy (``bench_chaos.deployment``: the repository's
recipe on loopback), and each seat is pinned by the proxy's ``AKVO_SERVER`` cookie to a
server in turn (seat ``i`` to server ``i mod servers``): an action taken through one server
reaches the seats on the others by ``LISTEN/NOTIFY``. Those cross-server pushes are
measured apart; memory and CPU are the servers' sum.

Usage: ``.venv/bin/python benchmarks/bench_tables.py`` (50 tables, 60 s of play, ~1.5 min);
``--postgres`` for the servers on PostgreSQL; ``--quick`` (5 tables, 10 s) is a smoke
test, printed, not recorded. Results go to ``benchmarks/results/tables.md`` (the
PostgreSQL run in its own section).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench_load import pct  # noqa: E402

from akvo.online.client import ApiRefusal, SeatClient, choose, create_table  # noqa: E402
from akvo.online.store import Store, TableStore  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "tables.md"
PRESETS = ["perrockiss", "fish-tank"]
PUSH_P95_TARGET = 0.150  # s
TABLE_MEMORY_TARGET = 1.0  # MB
#: Where the PostgreSQL run's section starts in the results (the rest is the SQLite run's).
POSTGRES_SECTION = "\n## On PostgreSQL, several servers behind HAProxy"
PUSH_WAIT = 5.0  # s: a changed view not pushed within this is lost
NO_PUSH_CHECK = 1.0  # s: no push by then, the seat's view is read back (maybe unchanged)
#: Every client of the benchmark comes from 127.0.0.1: no throttle.
WIDE_OPEN = {
    "rate": 1e6,
    "burst": 10**6,
    "create_rate": 1e6,
    "create_burst": 10**6,
    "max_streams": 10**6,
}


def serve(root: Path) -> None:
    """The server process: the tables' API on a free port, its URL on stdout, until stdin
    closes."""
    from tests.tables_play import InProcessServer

    with InProcessServer(root, **WIDE_OPEN) as server:
        print(server.url, flush=True)
        sys.stdin.read()


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of processes ``pids`` so far."""
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def rss_mb(pids: list[int]) -> float:
    return sum(_rss_mb(pid) for pid in pids)


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    crossed: list[float] = field(default_factory=list)  # to a seat on another server
    acks: list[float] = field(default_factory=list)
    unchanged: int = 0
    lost_pushes: int = 0
    errors: list[str] = field(default_factory=list)
    refused: int = 0
    acked: dict[str, int] = field(default_factory=dict)
    finished: int = 0


@dataclass
class Seat:
    """One seat's client: its latest pushed view (text and parsed) and its push queue."""

    client: SeatClient
    server: int = 0  # the server the seat is pinned to (0: the only one)
    queue: asyncio.Queue[tuple[float, str]] = field(default_factory=asyncio.Queue)
    text: str = ""
    view: dict[str, Any] = field(default_factory=dict)

    def take(self, text: str) -> None:
        self.text, self.view = text, json.loads(text)

    def drain(self) -> None:
        while not self.queue.empty():
            self.take(self.queue.get_nowait()[1])


async def listen(seat: Seat) -> None:
    async for text in seat.client.pushes():
        seat.queue.put_nowait((time.perf_counter(), text))


class TableRun:
    """One table: its seats' streams and the script that plays it, one action at a time."""

    def __init__(self, clients: list[httpx.AsyncClient], url: str, made: dict[str, Any]) -> None:
        """Seat ``i`` talks through ``clients[i mod len(clients)]`` (each pinned to a server)."""
        self.id = str(made["table"])
        self.seats = [
            Seat(SeatClient(clients[i % len(clients)], url, self.id, s["token"]), i % len(clients))
            for i, s in enumerate(made["seats"])
        ]
        self.tasks = [asyncio.create_task(listen(seat)) for seat in self.seats]

    async def connected(self) -> None:
        """Until every seat has its first push (the view at once on connecting)."""
        for seat in self.seats:
            seat.take((await asyncio.wait_for(seat.queue.get(), 60))[1])

    async def play(self, rng: random.Random, think: float, until: float, stats: Stats) -> None:
        stats.acked[self.id] = 0
        while time.monotonic() < until:
            for seat in self.seats:
                seat.drain()
            if self.seats[0].view.get("status") != "playing":
                stats.finished += 1
                return
            deciding = [s for s in self.seats if s.view["legal"]]
            if not deciding:
                await self._wait_any()
                continue
            actor = rng.choice(deciding)
            action = choose(actor.view, rng)
            if action is None:
                continue
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            for seat in self.seats:
                seat.drain()
            if action not in {e["action"] for e in actor.view["legal"]}:
                continue  # the position moved while thinking
            sent = time.perf_counter()
            try:
                await actor.client.act(action)
            except ApiRefusal as refusal:
                if refusal.status != 409:
                    stats.errors.append(f"{self.id}: {refusal}")
                    return
                stats.refused += 1
                continue
            stats.acked[self.id] += 1
            stats.acks.append(time.perf_counter() - sent)
            others = [s for s in self.seats if s is not actor]
            await asyncio.gather(*(self._pushed(s, sent, stats, actor.server) for s in others))

    async def _pushed(self, seat: Seat, sent: float, stats: Stats, server: int = 0) -> None:
        """The seat's push after an action sent at ``sent``: its latency; or, if none came
        within :data:`NO_PUSH_CHECK`, the seat's view read back: unchanged (no push due),
        else the push must still come within :data:`PUSH_WAIT` or it is lost."""
        pushed = asyncio.ensure_future(seat.queue.get())
        done, _ = await asyncio.wait([pushed], timeout=NO_PUSH_CHECK)
        if not done and await seat.client.view() == seat.view and not pushed.done():
            pushed.cancel()
            stats.unchanged += 1
            return
        done, _ = await asyncio.wait([pushed], timeout=PUSH_WAIT - NO_PUSH_CHECK)
        if not done:
            pushed.cancel()
            stats.lost_pushes += 1
            return
        arrived, text = pushed.result()
        stats.latencies.append(arrived - sent)
        if seat.server != server:
            stats.crossed.append(arrived - sent)
        seat.take(text)

    async def _wait_any(self) -> None:
        waits = [asyncio.create_task(s.queue.get()) for s in self.seats]
        done, pending = await asyncio.wait(waits, timeout=PUSH_WAIT, return_when="FIRST_COMPLETED")
        for task in pending:
            task.cancel()
        for seat, task in zip(self.seats, waits, strict=True):
            if task in done:
                seat.take(task.result()[1])

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def bench(url: str, pids: list[int], args: argparse.Namespace) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    servers = args.servers if args.postgres else 1
    async with AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(
                httpx.AsyncClient(limits=limits, timeout=60, cookies=_pinned(server, args))
            )
            for server in range(servers)
        ]
        return await _bench(clients, url, pids, args)


def _pinned(server: int, args: argparse.Namespace) -> dict[str, str]:
    """The proxy's cookie that sends a client's requests to server ``server + 1``."""
    if not args.postgres:
        return {}
    from akvo_site.cluster import COOKIE, server_name

    return {COOKIE: server_name(server + 1)}


async def _bench(
    clients: list[httpx.AsyncClient], url: str, pids: list[int], args: argparse.Namespace
) -> dict[str, Any]:
    http = clients[0]
    if args.postgres:  # each client reaches the server its cookie names
        for number, client in enumerate(clients, start=1):
            answer = await client.get(f"{url}/akvo/api/tables/options")
            assert answer.headers.get("X-Akvo-Server") == f"n{number}", answer.headers
    warm = TableRun(clients, url, await create_table(http, url, request(2, 0)))
    await warm.connected()
    await warm.play(random.Random(0), 0.0, time.monotonic() + 3, Stats())
    await warm.close()
    baseline = rss_mb(pids)
    requests = [request(2 if i % 2 == 0 else 4, i) for i in range(args.tables)]
    made = await asyncio.gather(*(create_table(http, url, r) for r in requests))
    runs = [TableRun(clients, url, m) for m in made]
    await asyncio.gather(*(run.connected() for run in runs))
    opened = rss_mb(pids)
    stats = Stats()
    until = time.monotonic() + args.seconds
    started = time.perf_counter()
    cpu = cpu_seconds(pids), time.process_time()
    plays = [run.play(random.Random(i + 1), args.think, until, stats) for i, run in enumerate(runs)]
    await asyncio.gather(*plays)
    played = time.perf_counter() - started
    server_cpu = (cpu_seconds(pids) - cpu[0]) / played
    client_cpu = (time.process_time() - cpu[1]) / played
    ended = rss_mb(pids)
    for run in runs:
        await run.close()
    return {
        "stats": stats,
        "ids": [run.id for run in runs],
        "baseline": baseline,
        "opened": opened,
        "ended": ended,
        "played": played,
        "server_cpu": server_cpu,
        "client_cpu": client_cpu,
        "seats": sum(len(run.seats) for run in runs),
    }


def request(players: int, seed: int) -> dict[str, Any]:
    return {"teams": PRESETS, "players": players, "seed": seed}


def lost_actions(database: Path | str, acked: dict[str, int]) -> list[str]:
    """Tables whose stored action log (a SQLite file, or a PostgreSQL address) does not hold
    exactly the acknowledged actions."""
    if isinstance(database, str):
        from akvo.online.store_pg import PostgresStore

        store: Store = PostgresStore(database)
    else:
        store = TableStore(database)
    try:
        return [t for t, n in acked.items() if store.count_rows(t) != n]
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds per action")
    parser.add_argument("--quick", action="store_true", help="smoke test, not recorded")
    parser.add_argument(
        "--postgres", action="store_true", help="servers on PostgreSQL behind HAProxy"
    )
    parser.add_argument("--servers", type=int, default=3, help="with --postgres")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(Path(args.serve))
        return
    if args.quick:
        args.tables, args.seconds = 5, 10.0
    result = on_postgres(args) if args.postgres else on_sqlite(args)
    text = report(result, args)
    print(text)
    if not args.quick:
        write(text, args.postgres)
        print(f"written to {RESULTS.relative_to(ROOT)}")


def on_postgres(args: argparse.Namespace) -> dict[str, Any]:
    """The run on ``--servers`` servers sharing a private PostgreSQL behind HAProxy."""
    from bench_chaos import deployment

    # SIGTERM (``timeout``) unwinds the blocks that stop the servers, proxy and PostgreSQL.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    with (
        tempfile.TemporaryDirectory(prefix="akvo-bench-tables-") as root,
        deployment(Path(root), args.servers) as deployed,
    ):
        pids = [process.pid for process in deployed.servers.processes.values()]
        result = asyncio.run(bench(deployed.url, pids, args))
        result["lost"] = lost_actions(deployed.dsn, result["stats"].acked)
    return result


def write(text: str, postgres: bool) -> None:
    """The SQLite run's text, then the PostgreSQL run's section; a run replaces its own."""
    old = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    sqlite_part, _, postgres_part = old.partition(POSTGRES_SECTION)
    if postgres:
        postgres_part = text.split("\n", 1)[1]
    else:
        sqlite_part = text
    joined = sqlite_part.rstrip("\n") + "\n"
    if postgres_part:
        joined += POSTGRES_SECTION + "\n\n" + postgres_part.lstrip("\n")
    RESULTS.write_text(joined, encoding="utf-8")


def on_sqlite(args: argparse.Namespace) -> dict[str, Any]:
    """The run on one server and its SQLite file, in a process of its own."""
    with tempfile.TemporaryDirectory(prefix="akvo-bench-tables-") as root:
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            url = server.stdout.readline().strip()
            result = asyncio.run(bench(url, [server.pid], args))
        finally:
            assert server.stdin is not None
            server.stdin.close()
            server.wait(30)
        result["lost"] = lost_actions(Path(root) / "tables.sqlite", result["stats"].acked)
    return result


def _servers(args: argparse.Namespace) -> str:
    if args.postgres:
        return f"""{args.servers} book servers (`python -m akvo_site`, no kernel pools) on one
  private PostgreSQL (Unix socket), behind HAProxy (`deploy/haproxy.cfg`, one shared
  database), on loopback (`bench_chaos.deployment`); seat `i` of a table pinned to server
  `i mod {args.servers}` by the proxy's cookie, so most pushes cross servers by LISTEN/NOTIFY;
  the throttle opened wide, the coach on. Memory and CPU below are the servers' sum."""
    return """the tables' HTTP API (`akvo_site.tables.api`, as in the book server, without
  Voilà) in a process of its own on loopback, SQLite (WAL) in a temporary folder, the
  per-client throttle opened wide (every client here is 127.0.0.1), the coach on."""


def report(result: dict[str, Any], args: argparse.Namespace) -> str:
    from bench_site import machine

    stats: Stats = result["stats"]
    lat = stats.latencies
    acked = sum(stats.acked.values())
    tables = len(result["ids"])
    per_open = (result["opened"] - result["baseline"]) / tables
    per_end = (result["ended"] - result["baseline"]) / tables
    p50, p95, top = (1000 * pct(lat, q) for q in (0.5, 0.95, 1.0)) if lat else (0, 0, 0)
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    errors = len(stats.errors) + stats.lost_pushes
    crossed = stats.crossed
    x50, x95, xtop = (1000 * pct(crossed, q) for q in (0.5, 0.95, 1.0)) if crossed else (0, 0, 0)
    judged = x95 if args.postgres else p95
    met_push = judged <= 1000 * PUSH_P95_TARGET and errors == 0 and not result["lost"]
    command = "benchmarks/bench_tables.py" + (
        ""
        if (args.tables, args.seconds, args.think) == (50, 60.0, 0.5)
        else f" --tables {args.tables} --seconds {args.seconds:g} --think {args.think:g}"
    )
    if args.postgres:
        command += f" --postgres --servers {args.servers}"
    rate = acked / result["played"]
    per_action = 1000 * result["server_cpu"] * result["played"] / max(1, acked)
    ack50, ack95 = (1000 * pct(stats.acks, q) for q in (0.5, 0.95)) if stats.acks else (0, 0)
    memory = max(per_open, per_end)
    rows = [
        ("actions acknowledged", f"{acked} in {result['played']:.0f} s ({rate:.1f}/s)"),
        (
            "refused 409 (the position moved), matches finished",
            f"{stats.refused}, {stats.finished}",
        ),
        ("pushes to other seats", str(len(lat))),
        ("another seat's view left unchanged (no push due)", str(stats.unchanged)),
        ("action → other seat's push p50 / p95 / max", f"{p50:.0f} / {p95:.0f} / {top:.0f} ms"),
        *(
            [
                (
                    "… to a seat on another server (LISTEN/NOTIFY): count, p50 / p95 / max",
                    f"{len(crossed)}: {x50:.0f} / {x95:.0f} / {xtop:.0f} ms",
                )
            ]
            if args.postgres
            else []
        ),
        ("action sent → acknowledged p50 / p95", f"{ack50:.0f} / {ack95:.0f} ms"),
        (
            "CPU used while playing: server / clients (cores)",
            f"{result['server_cpu']:.2f} / {result['client_cpu']:.2f}",
        ),
        ("server CPU per acknowledged action", f"{per_action:.1f} ms"),
        ("errors, lost pushes", f"{len(stats.errors)}, {stats.lost_pushes}"),
        (
            f"tables whose {'PostgreSQL' if args.postgres else 'SQLite'} log differs from the "
            "acknowledged actions",
            str(len(result["lost"])),
        ),
        (
            f"server RSS after a warm-up table / {tables} tables open / at the end",
            f"{result['baseline']:.0f} / {result['opened']:.0f} / {result['ended']:.0f} MB",
        ),
        (
            "memory per open table (just opened / after the play)",
            f"{per_open:.2f} / {per_end:.2f} MB",
        ),
    ]
    table = "\n".join(f"| {name} | {value} |" for name, value in rows)
    verdict = (
        f"Push p95 {judged:.0f} ms{' (to another server)' if args.postgres else ''}, "
        f"{errors} errors, {len(result['lost'])} tables with a lost "
        f"action — {'met' if met_push else 'NOT met'}; memory per open table {memory:.2f} MB "
        f"— {'met' if memory <= TABLE_MEMORY_TARGET else 'NOT met'}."
    )
    return f"""# Online tables under load (`benchmarks/bench_tables.py`)

- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC
- Machine: {machine()}; load average at the end {load} (1/5/15 min: other work shares the cores)
- Command: `.venv/bin/python {command}`
- Server: {_servers(args)}
- Clients: one asyncio process, httpx; {tables} tables at once (half for 2 players, half for
  4: {result["seats"]} seats, each on its event stream), played at random, one action at a
  time per table after {args.think:g} s on average (0.5–1.5×), for {args.seconds:g} s.

Targets (issue 23{", 37: on PostgreSQL, to a seat on another server" if args.postgres else ""}):
accepted action → every other seat's push p95 ≤ 150 ms, no error, no lost action; server
memory per open table ≤ 1 MB.

| measure | value |
|---|---|
{table}

**Against the targets.** {verdict}

**Where the time goes.** The server spent {per_action:.1f} ms of CPU per acknowledged action
(its views for every seat, the coach's values, the store, HTTP): one core of its own would
serve ~{1000 / max(per_action, 0.1):.0f} actions/s against the {rate:.1f}/s played here. It used
{result["server_cpu"]:.2f} cores while the load average was {load.split(" / ")[0]} on
{os.cpu_count()} cores: a latency far above that CPU time is time spent waiting for a core.
{"".join(f"{chr(10)}- error: {e}" for e in stats.errors[:5])}
"""


if __name__ == "__main__":
    main()
