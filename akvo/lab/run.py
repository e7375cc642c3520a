"""Run many matches: in this process, on a LocalCluster, or on any Dask cluster.

Each match is seeded from the master seed and its index (:func:`akvo.lab.play.match_seed`),
so one seed gives identical results whatever the number of workers or the chunking. Work is
sent in chunks of matches; results come back as chunks finish (progress: tqdm in a terminal
and/or a callback); Ctrl+C — or a callback returning ``False`` — stops the run, cancels what
is pending and returns the matches that finished (``Results.complete`` is then False).

dask.distributed is imported only when a cluster is used.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypedDict, Unpack

from akvo.bots import BOTS
from akvo.config import RulesConfig
from akvo.errors import TeamError, choose_among, did_you_mean, excerpt
from akvo.extras import optional
from akvo.lab.options import parse_rules
from akvo.lab.play import MatchSpec, play_chunk
from akvo.lab.results import LabError, MatchResult, Results
from akvo.lab.stats import Comparison, paired
from akvo.rules import PRESET_TEAMS
from akvo.teams import Team, parse_team, preset_team

Progress = Callable[[int, int], bool | None]


def team_of(team: Team | str) -> Team:
    """A preset key (``"perrockiss"``) or a team list (R27) → :class:`Team`."""
    if isinstance(team, Team):
        return team
    if not isinstance(team, str):
        raise LabError(f"a team is a preset key or a team list, got {type(team).__name__}")
    if team in PRESET_TEAMS:
        return preset_team(team)
    try:
        return parse_team(team)
    except TeamError:
        hint = did_you_mean(team, PRESET_TEAMS)
        if hint:
            raise LabError(f"unknown team {excerpt(team)}{hint}") from None
        if team.strip() and not any(c in team for c in " /+\n"):  # a name, not a list
            raise LabError(
                f"unknown team {excerpt(team)}; preset teams: {', '.join(PRESET_TEAMS)}, "
                "or a team list such as LEGS/VUNF/JACK/ZBIM/PYTH/DROX+QW (R27)"
            ) from None
        raise


def _spec(
    team_a: Team | str,
    team_b: Team | str,
    bots: Sequence[str],
    rules: RulesConfig | str | dict[str, str] | None,
    seed: int,
    budget: int | None,
) -> MatchSpec:
    if isinstance(bots, str) or len(bots) != 2:
        raise LabError("bots must name two bots, side A's then side B's, e.g. ('greedy', 'random')")
    for name in bots:
        if name not in BOTS:
            hint = did_you_mean(name, BOTS)
            raise LabError(f"unknown bot {excerpt(name)}{choose_among(hint, ', '.join(BOTS))}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise LabError(f"seed must be an integer, got {seed!r}")
    options: tuple[tuple[str, Any], ...] = ()
    if budget is not None:
        if not isinstance(budget, int) or budget < 1:
            raise LabError(f"budget must be a positive number of rollouts, got {budget!r}")
        options = (("budget", budget),)
    return MatchSpec(
        team_of(team_a), team_of(team_b), (bots[0], bots[1]), parse_rules(rules), seed, options
    )


def _meta(spec: MatchSpec, team_a: Team | str, team_b: Team | str, n: int) -> dict[str, Any]:
    def name(team: Team | str) -> str:
        return team if isinstance(team, str) else (team.name or str(team))

    return {
        "teams": [name(team_a), name(team_b)],
        "team_lists": [str(spec.team_a), str(spec.team_b)],
        "bots": list(spec.bots),
        "rules": spec.rules.to_dict(),
        "seed": spec.seed,
        "n": n,
        "bot_options": dict(spec.bot_options),
    }


#: Chunk sizes shrink as a run goes (guided self-scheduling): each chunk is this fraction of
#: what remains per worker, between :data:`SMALLEST_CHUNK` and :data:`LARGEST_CHUNK` matches.
#: Big chunks first keep Dask's per-task cost small; the last chunks are eight matches, so
#: the worker that finishes first waits only for a short one (the idle tail at the end of a
#: run). Eight, not fewer: a compiled greedy match takes ~2 ms, and Dask's own cost per task
#: (scheduler, client, worker) is about as much; with two-match chunks it took a quarter of
#: a core in bench_lab (results/lab.md).
CHUNK_SHARE = 1 / 8
SMALLEST_CHUNK = 8
LARGEST_CHUNK = 200


def _chunks(n: int, workers: int, chunk: int | None) -> list[tuple[int, int]]:
    """``(start, stop)`` ranges covering ``0 … n - 1``: of size ``chunk`` if given, else
    shrinking towards the end of the run."""
    bounds: list[tuple[int, int]] = []
    start = 0
    while start < n:
        left = n - start
        guided = math.ceil(left * CHUNK_SHARE / max(1, workers))
        size = chunk or max(SMALLEST_CHUNK, min(LARGEST_CHUNK, guided))
        bounds.append((start, min(n, start + size)))
        start += size
    return bounds


#: Dask's own periodic work, trimmed on the LocalCluster the lab starts (its workers are
#: single-threaded and busy with CPU-bound matches; every wake-up of a worker's event loop
#: takes the GIL from the match being played, and the cluster's event loop shares the cores
#: with the workers). Measured on 2 cores: the defaults cost 15–18 % of a core, these
#: 4–10 % (benchmarks/results/lab.md). Pass a ``client`` for any other configuration.
LEAN_CONFIG = {
    "distributed.worker.profile.enabled": False,  # a stack sample every 10 ms per worker
    "distributed.admin.tick.interval": "1s",  # event-loop lag check, every 20 ms by default
    "distributed.admin.system-monitor.interval": "5s",  # dashboard figures, every 0.5 s
    "distributed.worker.memory.monitor-interval": "1s",  # memory limit check, every 0.1 s
}


class Where(TypedDict, total=False):
    """Where a lab run plays: the keywords of :func:`dask_client`, which :func:`simulate`,
    :func:`compare` and :func:`akvo.lab.tournament.tournament` take and pass on."""

    workers: int | None
    client: Any
    scheduler: str | None
    processes: bool


@contextlib.contextmanager
def dask_client(
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    processes: bool = True,
) -> Iterator[Any]:
    """The Dask client to use: the one given, one connected to ``scheduler``, or a new
    LocalCluster of ``workers`` single-threaded workers (default: one per core), closed
    at the end. ``workers=0`` (and no client or scheduler) yields ``None``: no Dask."""
    if client is not None:
        yield client
        return
    if scheduler is None and workers == 0:
        yield None
        return
    dist = _distributed()
    if scheduler is not None:
        check_scheduler(scheduler)
        try:
            remote = dist.Client(scheduler, timeout=SCHEDULER_TIMEOUT)
        except Exception as error:  # greeted like a scheduler, then failed: any reason
            raise LabError(f"scheduler unreachable: {scheduler} ({error})") from None
        with remote:
            yield remote
        return
    count = workers if workers is not None else (os.cpu_count() or 1)
    # Processes talk over TCP on the loopback only; threads share this process (inproc).
    where = {"host": "127.0.0.1"} if processes else {}
    with _dask().config.set(LEAN_CONFIG):  # read as the cluster and its workers start
        cluster = dist.LocalCluster(
            n_workers=count,
            threads_per_worker=1,
            processes=processes,
            dashboard_address="127.0.0.1:0",  # its HTTP endpoints: loopback, any free port
            silence_logs=logging.CRITICAL,  # a closing cluster logs harmless heartbeat errors
            **where,
        )
    with cluster, dist.Client(cluster) as local:
        yield local


#: Seconds the lab waits for a Dask scheduler before naming it unreachable (Dask's own
#: default is 30 s, after which the error read like any other network failure).
SCHEDULER_TIMEOUT = 5.0
#: The port of a scheduler address that names none (Dask's default).
SCHEDULER_PORT = 8786


def check_scheduler(address: str, timeout: float = SCHEDULER_TIMEOUT) -> None:
    """Raise :class:`LabError` « scheduler unreachable: ADDRESS (reason) » unless a TCP
    connection to the scheduler opens within ``timeout`` seconds and, over plain TCP, the
    server greets it as a Dask scheduler does (another service on that port would
    otherwise leave Dask reading its reply as a message): called before any work starts.
    Addresses of other transports (``inproc://``, ``ucx://``) are left to Dask."""
    if not isinstance(address, str) or not address.strip():
        raise LabError(f"a scheduler address is a text such as tcp://host:8786, got {address!r}")
    scheme, separator, rest = address.strip().partition("://")
    if not separator:
        scheme, rest = "tcp", address.strip()
    if scheme not in ("tcp", "tls"):
        return
    host, colon, port = rest.rstrip("/").rpartition(":")
    if not colon or "]" in port:  # no port, or the tail of a bare IPv6 address
        host, port = rest.rstrip("/"), str(SCHEDULER_PORT)
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise LabError(f"scheduler address {address!r} has no valid port (tcp://host:8786)")
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout) as s:
            greeting = _first_bytes(s, 8) if scheme == "tcp" else b"\0" * 8
    except TimeoutError:
        raise LabError(f"scheduler unreachable: {address} (no answer in {timeout:g} s)") from None
    except OSError as error:
        raise LabError(f"scheduler unreachable: {address} ({error.strerror or error})") from None
    if len(greeting) < 8 or int.from_bytes(greeting, "little") > 2**20:
        raise LabError(
            f"scheduler unreachable: {address} (something answers there, but not a Dask scheduler)"
        )


def _first_bytes(connection: socket.socket, count: int) -> bytes:
    """Up to ``count`` bytes a server sends first (a Dask scheduler greets every new
    connection with one message, led by its size as 8 bytes little-endian); ``b""`` if it
    closes or says nothing before the socket's timeout."""
    data = b""
    try:
        while len(data) < count:
            chunk = connection.recv(count - len(data))
            if not chunk:
                break
            data += chunk
    except TimeoutError:
        pass
    return data


def _dask() -> Any:
    """dask, imported on first use (for its configuration; the extra ``[lab]``)."""
    return optional("dask")


def _distributed() -> Any:
    """dask.distributed, imported on first use (it ships no type information)."""
    return optional("distributed")


def _worker_count(client: Any) -> int:
    if client is None:
        return 1
    return max(1, len(client.scheduler_info().get("workers", {})))


def _run(
    spec: MatchSpec,
    n: int,
    client: Any,
    chunk: int | None,
    progress: bool,
    on_progress: Progress | None,
) -> tuple[list[MatchResult], bool]:
    tasks = [(spec, start, stop) for start, stop in _chunks(n, _worker_count(client), chunk)]
    played, complete = play_tasks(tasks, client, progress, on_progress)
    done = sorted((row for rows in played if rows for row in rows), key=lambda row: row.index)
    return done, complete


def play_tasks(
    tasks: Sequence[tuple[MatchSpec, int, int]],
    client: Any,
    progress: bool,
    on_progress: Progress | None,
) -> tuple[list[list[MatchResult] | None], bool]:
    """Play each chunk ``(spec, start, stop)`` in this process (``client`` None) or on Dask,
    reporting as chunks finish: a tqdm bar if ``progress``, ``on_progress(done, total)``
    after each. A callback returning ``False`` or Ctrl+C stops the run and cancels what is
    pending. Returns each task's matches (``None`` if it was not played) and whether the
    run went to its end."""
    total = sum(stop - start for _, start, stop in tasks)
    played: list[list[MatchResult] | None] = [None] * len(tasks)
    bar = _bar(total) if progress else None
    done = 0

    def report(index: int, rows: list[MatchResult]) -> bool:
        nonlocal done
        played[index] = rows
        done += len(rows)
        if bar is not None:
            bar.update(len(rows))
        return not (on_progress is not None and on_progress(done, total) is False)

    futures: list[Any] = []
    complete = True
    try:
        if client is None:
            for index, (spec, start, stop) in enumerate(tasks):
                if not report(index, play_chunk(spec, start, stop)):
                    complete = False
                    break
        else:
            futures = [
                client.submit(play_chunk, spec, start, stop, pure=False)
                for spec, start, stop in tasks
            ]
            index_of = {future.key: index for index, future in enumerate(futures)}
            for future in _distributed().as_completed(futures):
                if not report(index_of[future.key], future.result()):
                    complete = False
                    break
    except KeyboardInterrupt:
        complete = False
    finally:
        if bar is not None:
            bar.close()
        pending = [f for f in futures if not f.done()]
        if pending:
            client.cancel(pending)
    return played, complete and done == total


def _bar(total: int) -> Any:
    return optional("tqdm").tqdm(total=total, unit="match", file=sys.stderr, leave=False)


def simulate(
    team_a: Team | str = "perrockiss",
    team_b: Team | str = "fish-tank",
    bots: Sequence[str] = ("greedy", "greedy"),
    rules: RulesConfig | str | dict[str, str] | None = None,
    n: int = 1000,
    seed: int = 0,
    *,
    budget: int | None = None,
    chunk: int | None = None,
    progress: bool | None = None,
    on_progress: Progress | None = None,
    **where: Unpack[Where],
) -> Results:
    """Play ``n`` matches of ``team_a`` (side A) against ``team_b`` with two bots.

    - ``bots``: side A's and side B's bot names (:data:`akvo.bots.BOTS`); ``budget`` for a
      search bot; ``rules``: a RulesConfig, ``"weather=coin,prodige=all"`` or a dict;
    - where: ``client`` (a ``distributed.Client``), ``scheduler`` (its address), or a new
      LocalCluster of ``workers`` processes (default: one per core; threads if
      ``processes=False``); ``workers=0`` plays in this process without Dask;
    - ``progress``: a tqdm bar on stderr (default: when stderr is a terminal);
      ``on_progress(done, total)`` after each chunk; returning ``False`` stops the run.

    Results are identical for one ``seed`` whatever the workers and ``chunk`` size.
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise LabError(f"n must be a positive number of matches, got {n!r}")
    spec = _spec(team_a, team_b, bots, rules, seed, budget)
    show = sys.stderr.isatty() if progress is None else progress
    with dask_client(**where) as dask:
        rows, complete = _run(spec, n, dask, chunk, show, on_progress)
    return Results(tuple(rows), _meta(spec, team_a, team_b, n), complete)


def spec_of(results: Results) -> MatchSpec:
    """The configuration a simulation's ``meta`` records (to play one of its matches again)."""
    meta = results.meta
    try:
        return MatchSpec(
            parse_team(meta["team_lists"][0], name=meta["teams"][0]),
            parse_team(meta["team_lists"][1], name=meta["teams"][1]),
            (meta["bots"][0], meta["bots"][1]),
            parse_rules(meta["rules"]),
            int(meta["seed"]),
            tuple(sorted(meta.get("bot_options", {}).items())),
        )
    except (KeyError, IndexError, TypeError, ValueError) as error:
        raise LabError(f"these results do not record their configuration: {error}") from None


def replay_match(results: Results, index: int) -> Any:
    """Match ``index`` of these results played again from its seed: a
    :class:`~akvo.match.MatchState` whose ``record()`` a replay viewer can show."""
    from akvo.lab.play import match_state

    if index not in {row.index for row in results}:
        raise LabError(f"match {index} is not in these results")
    return match_state(spec_of(results), index)


def compare(
    team_a: Team | str = "perrockiss",
    team_b: Team | str = "fish-tank",
    bots: Sequence[str] = ("greedy", "greedy"),
    rules: RulesConfig | str | dict[str, str] | None = None,
    n: int = 1000,
    seed: int = 0,
    *,
    other_rules: RulesConfig | str | dict[str, str] | None = None,
    other_bots: Sequence[str] | None = None,
    budget: int | None = None,
    chunk: int | None = None,
    progress: bool | None = None,
    **where: Unpack[Where],
) -> tuple[Results, Results, Comparison]:
    """Two simulations on the same seeds (common random numbers) — the rules changed to
    ``other_rules`` and/or the bots to ``other_bots`` — and their paired comparison."""
    if other_rules is None and other_bots is None:
        raise LabError("a comparison needs other_rules or other_bots")
    second_rules = other_rules if other_rules is not None else rules
    second_bots = other_bots if other_bots is not None else bots
    options = dict(n=n, seed=seed, budget=budget, chunk=chunk, progress=progress, workers=0)
    with dask_client(**where) as dask:
        options["client"] = dask
        if dask is not None:
            options.pop("workers")
        first = simulate(team_a, team_b, bots, rules, **options)  # type: ignore[arg-type]
        second = simulate(team_a, team_b, second_bots, second_rules, **options)  # type: ignore[arg-type]
    count = min(len(first), len(second))
    first = Results(first.rows[:count], first.meta, first.complete)
    second = Results(second.rows[:count], second.meta, second.complete)
    return first, second, paired(first, second)
