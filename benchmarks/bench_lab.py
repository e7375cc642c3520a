"""The lab's throughput: matches per second per core for each bot, the speed-up from one
to two Dask workers beside the machine's own ceiling, and 10,000 greedy-vs-greedy matches
with their summary.

Run on an idle machine: ``.venv/bin/python benchmarks/bench_lab.py`` (about 5 minutes);
``--quick`` runs every step with a few matches (a smoke test, about 30 s; not recorded unless
``--record``). Writes benchmarks/results/lab.md. Targets: greedy ≥ 1/3 of the random bot's
matches per second; 2 workers ≥ 1.8 × one; 10,000 greedy-vs-greedy matches with their
summary < 2 min (2 cores).

One-core rates are timed in CPU time (``time.process_time``) in this process, after a
warm-up run (the exact shot values and the greedy bot's position cache are then warm, as
in any long simulation). Scaling is measured in alternating pairs (this 2-vCPU machine's
speed drifts from minute to minute): in each pair, 1 then 2 plain OS processes without Dask
(the ceiling: what the hardware gives two processes playing the same chunks) and 1 then 2
Dask workers on a new LocalCluster, the order reversed every other pair. Steady-state rates
are wall-clock throughput after each process has played a warm-up run; "everything counted"
rates run from the cluster's start; the big run is timed from the cluster's start to the
printed summary. Dask's own CPU (scheduler, nannies, client, the workers' event loops) is
read from each thread's CPU time, which other users of the machine do not change much.
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import platform
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]  # a dependency of dask.distributed

from akvo.lab import dask_client, simulate
from akvo.lab.play import play_chunk, play_one
from akvo.lab.run import _chunks, _spec

RESULTS = Path(__file__).parent / "results" / "lab.md"
TEAMS = ("perrockiss", "fish-tank")


def rate(bots: tuple[str, str], n: int, warm: int) -> float:
    """Matches per second of CPU time in this process (one core), after ``warm`` matches."""
    simulate(*TEAMS, bots, None, warm, seed=99, workers=0, progress=False)
    begin = time.process_time()
    simulate(*TEAMS, bots, None, n, seed=1, workers=0, progress=False)
    return n / (time.process_time() - begin)


def _plain_player(
    k: int, workers: int, warm: int, ready: Any, chunks: Any, out: Any
) -> None:  # pragma: no cover - runs in a child process
    """Process ``k`` of ``workers``: plays its share of the warm-up (seed 98), waits for the
    others, then plays chunks of seed 1 taken from a shared queue (the timed part)."""
    warm_spec = _spec(*TEAMS, ("greedy", "greedy"), None, 98, None)
    for index in range(k, warm * workers, workers):
        play_one(warm_spec, index)
    spec = _spec(*TEAMS, ("greedy", "greedy"), None, 1, None)
    ready.wait()
    played, begin = 0, time.process_time()
    while (bounds := chunks.get()) is not None:
        played += len(play_chunk(spec, *bounds))
    out.put((played, time.process_time() - begin))


def plain_rate(workers: int, n: int, warm: int) -> tuple[float, float]:
    """Matches per second of ``n`` greedy-vs-greedy matches on ``workers`` plain OS
    processes (no Dask) after each has played ``warm`` matches: the machine's own ceiling
    for the Dask run. The processes take the same chunks as Dask's workers from a shared
    queue (a static split would leave one process idle whenever the other runs slower).
    Returns (matches/s, CPU ms per match)."""
    context = multiprocessing.get_context("spawn")  # as Dask's workers
    ready, chunks, out = context.Barrier(workers + 1), context.Queue(), context.Queue()
    for bounds in _chunks(n, workers, None):
        chunks.put(bounds)
    for _ in range(workers):
        chunks.put(None)
    players = [
        context.Process(target=_plain_player, args=(k, workers, warm, ready, chunks, out))
        for k in range(workers)
    ]
    for player in players:
        player.start()
    ready.wait()
    begin = time.perf_counter()
    counts = [out.get() for _ in players]
    seconds = time.perf_counter() - begin
    for player in players:
        player.join()
    assert sum(played for played, _ in counts) == n
    return n / seconds, 1000 * sum(cpu for _, cpu in counts) / n


@dataclass
class DaskRun:
    """One greedy-vs-greedy run on a new LocalCluster: its steady-state rate (after each
    worker's warm-up), its rate with everything counted (start-up, warm-up), the cluster's
    start-up, Dask's own CPU during the timed part (% of one core) and the CPU per match of
    the threads playing them (ms)."""

    rate: float
    rate_all: float
    start_up: float
    own_cpu: float
    match_cpu: float


def dask_rate(workers: int, n: int, warm: int) -> DaskRun:
    """A greedy-vs-greedy run of ``n`` matches on ``workers`` Dask worker processes after
    each has played ``warm`` matches."""
    begin = time.perf_counter()
    with dask_client(workers) as client:
        started = time.perf_counter() - begin
        simulate(*TEAMS, ("greedy", "greedy"), None, warm * workers, seed=98, client=client,
                 chunk=max(1, warm // 4), progress=False)  # fmt: skip
        own, playing = _cpu(client)
        timed = time.perf_counter()
        simulate(*TEAMS, ("greedy", "greedy"), None, n, seed=1, client=client, progress=False)
        end = time.perf_counter()
        own_after, playing_after = _cpu(client)
    return DaskRun(
        n / (end - timed),
        (n + warm * workers) / (end - begin),
        started,
        100 * (own_after - own) / (end - timed),
        1000 * (playing_after - playing) / n,
    )


def _cpu(client: Any) -> tuple[float, float]:
    """CPU seconds so far (Dask's own: this process — client, scheduler, nannies — and every
    thread of each worker but the one playing matches; the threads playing matches)."""
    threads = client.run(_playing_thread)
    own, playing = sum(psutil.Process().cpu_times()[:2]), 0.0
    for pid, native_id in threads.values():
        for thread in psutil.Process(pid).threads():
            if thread.id == native_id:
                playing += thread.user_time + thread.system_time
            else:
                own += thread.user_time + thread.system_time
    return float(own), playing


def _playing_thread() -> tuple[int, int]:  # pragma: no cover - runs on a worker
    """(this worker's process id, the native id of the thread that runs its tasks)."""
    for thread in threading.enumerate():
        if "Dask-Default-Threads" in thread.name:
            return os.getpid(), thread.native_id or 0
    return os.getpid(), 0


def big_run(n: int, workers: int) -> tuple[float, dict[str, str]]:
    """Wall time of ``n`` greedy-vs-greedy matches and their summary, cluster start included."""
    begin = time.perf_counter()
    results = simulate(*TEAMS, ("greedy", "greedy"), None, n, seed=1, workers=workers)
    summary = results.summary()
    seconds = time.perf_counter() - begin
    facts = {
        "p_a": f"{summary.p_a.estimate:.4f} [{summary.p_a.low:.4f}, {summary.p_a.high:.4f}]",
        "p_draw": f"{summary.p_draw.estimate:.4f}",
        "first_edge": f"{summary.first_edge.estimate:.3f} [{summary.first_edge.low:.3f}, "
        f"{summary.first_edge.high:.3f}]",
    }
    return seconds, facts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--random", type=int, default=2000)
    parser.add_argument("--greedy", type=int, default=600)
    parser.add_argument("--search", type=int, default=4)
    parser.add_argument("--scaling", type=int, default=3000, help="matches per scaling run")
    parser.add_argument("--warm", type=int, default=200, help="warm-up matches (one core)")
    parser.add_argument("--warm-worker", type=int, default=100, help="warm-up per process")
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3, help="alternating one-core repeats")
    parser.add_argument("--pairs", type=int, default=7, help="alternating scaling pairs")
    parser.add_argument("--quick", action="store_true", help="a few matches of each step")
    parser.add_argument("--record", action="store_true", help="record a --quick run too")
    args = parser.parse_args()
    if args.quick:
        args.random, args.greedy, args.search = 60, 20, 1
        args.scaling, args.warm, args.warm_worker, args.big = 40, 10, 4, 100
        args.repeats, args.pairs = 1, 1
    started = time.perf_counter()
    # This 2-vCPU machine's speed drifts from minute to minute: each comparison is measured
    # in alternating repeats, and the medians are reported with every repeat.
    randoms, greedies = [], []
    for _ in range(args.repeats):
        randoms.append(rate(("random", "random"), args.random, args.warm))
        greedies.append(rate(("greedy", "greedy"), args.greedy, args.warm))
    rates = {
        "random": statistics.median(randoms),
        "greedy": statistics.median(greedies),
        "search": rate(("search", "greedy"), args.search, 1),
    }
    ratios = [g / r for g, r in zip(greedies, randoms, strict=True)]
    scaling = Scaling()
    for pair in range(args.pairs):
        scaling.pair(args.scaling, args.warm_worker, reverse=pair % 2 == 1)
    big_seconds, facts = big_run(args.big, 2) if args.big else (float("nan"), {})
    lines = report(args, rates, ratios, scaling, big_seconds, facts)
    lines.append(f"The whole benchmark took {time.perf_counter() - started:.0f} s.")
    print("\n".join(lines))
    if args.record or not args.quick:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text("\n".join(lines) + "\n" + _notes(), encoding="utf-8")


#: The line after which benchmarks/results/lab.md holds notes written by hand (the
#: investigations behind the numbers), kept when the benchmark records a new run.
NOTES = "<!-- notes written by hand: kept when bench_lab.py records a new run -->"


def _notes() -> str:
    old = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    return old[old.index(NOTES) :] if NOTES in old else ""


@dataclass
class Scaling:
    """The alternating pairs of the scaling comparison: plain processes and Dask workers,
    one then two, in the same minutes (the order reversed every other pair, against the
    machine's drift)."""

    plain: list[tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=list)
    dask: list[tuple[DaskRun, DaskRun]] = field(default_factory=list)

    def pair(self, n: int, warm: int, *, reverse: bool) -> None:
        steps = ["plain 1", "plain 2", "dask 1", "dask 2"]
        done: dict[str, Any] = {}
        for step in reversed(steps) if reverse else steps:
            kind, count = step.split()
            run = plain_rate if kind == "plain" else dask_rate
            done[step] = run(int(count), n, warm)
        self.plain.append((done["plain 1"], done["plain 2"]))
        self.dask.append((done["dask 1"], done["dask 2"]))
        print(
            f"pair {len(self.dask)}: plain {self.plain_speedups()[-1]:.2f} ×, "
            f"Dask {self.dask_speedups()[-1]:.2f} ×",
            file=sys.stderr,
            flush=True,
        )

    def plain_speedups(self) -> list[float]:
        return [two[0] / one[0] for one, two in self.plain]

    def dask_speedups(self) -> list[float]:
        return [two.rate / one.rate for one, two in self.dask]

    def dask_speedups_all(self) -> list[float]:
        return [two.rate_all / one.rate_all for one, two in self.dask]

    def median(self, workers: int, what: str) -> float:
        runs = [pair[workers - 1] for pair in self.dask]
        return float(statistics.median(getattr(run, what) for run in runs))


def _each(values: list[float]) -> str:
    return " · ".join(f"{value:.2f}" for value in values) or "—"


def report(
    args: argparse.Namespace,
    rates: dict[str, float],
    ratios: list[float],
    scaling: Scaling,
    big_seconds: float,
    facts: dict[str, str],
) -> list[str]:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()[0]
    ratio = statistics.median(ratios)
    plain = scaling.plain_speedups()
    dask = scaling.dask_speedups()
    dask_all = scaling.dask_speedups_all()
    plain_one = statistics.median(one[0] for one, _ in scaling.plain)
    plain_two = statistics.median(two[0] for _, two in scaling.plain)
    plain_cpu = [statistics.median(pair[k][1] for pair in scaling.plain) for k in (0, 1)]
    pairs = len(dask)
    return [
        "# The lab: matches per second, Dask scaling, 10,000 matches",
        "",
        f"Recorded {now} by `benchmarks/bench_lab.py` on {platform.machine()} with "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; load average {load:.1f} "
        "at the end of the run. The machine is shared by several developers: a load above 2 "
        "means other processes took part of both cores, so every rate here is a floor.",
        "",
        "Perrockiss against Fish Tank, default rules; `akvo.lab.simulate` (each match seeded "
        "from the master seed and its index; no French event log: a simulation's table does "
        "not need it). One-core rates in CPU time after "
        f"{args.warm} warm-up matches. Scaling: {pairs} alternating pairs, each measuring in "
        "the same minutes 1 and 2 plain OS processes (no Dask: each process plays its share "
        "of the seeds; the machine's own ceiling) and 1 and 2 Dask worker processes on a new "
        f"LocalCluster; steady state = wall-clock throughput of {args.scaling} matches after "
        f"each process's {args.warm_worker} warm-up matches (start-up not counted); "
        "everything counted = from the cluster's start to the last result, warm-up included. "
        "The big run counts everything, from the cluster's start to the summary.",
        "",
        "| measure | value | target |",
        "| --- | ---: | --- |",
        f"| random vs random, matches/s on one core ({args.random} matches) "
        f"| {rates['random']:.0f} | |",
        f"| greedy vs greedy, matches/s on one core ({args.greedy} matches) "
        f"| {rates['greedy']:.1f} | ≥ 1/3 of random |",
        f"| greedy / random (median of {len(ratios)} alternating repeats: {_each(ratios)}) "
        f"| {ratio:.2f} | ≥ 0.33 |",
        f"| search (default budget) vs greedy, matches/s on one core ({args.search} matches) "
        f"| {rates['search']:.2f} | |",
        f"| greedy vs greedy on 1 / 2 plain processes, matches/s (median) "
        f"| {plain_one:.1f} / {plain_two:.1f} | |",
        f"| **ceiling**: speed-up 1 → 2 plain processes (median of {pairs} pairs: "
        f"{_each(plain)}) | {statistics.median(plain):.2f} × | |",
        f"| greedy vs greedy on 1 / 2 Dask workers, matches/s, steady state (median) "
        f"| {scaling.median(1, 'rate'):.1f} / {scaling.median(2, 'rate'):.1f} | |",
        f"| **speed-up 1 → 2 Dask workers**, steady state (same run; median of {pairs} pairs: "
        f"{_each(dask)}) | {statistics.median(dask):.2f} × | ≥ 1.8 × |",
        f"| Dask / ceiling (median of the pairs' ratios: "
        f"{_each([d / p for d, p in zip(dask, plain, strict=True)])}) "
        f"| {statistics.median(d / p for d, p in zip(dask, plain, strict=True)):.2f} | |",
        f"| speed-up 1 → 2 Dask workers, everything counted (median of {pairs} pairs: "
        f"{_each(dask_all)}) | {statistics.median(dask_all):.2f} × | |",
        f"| LocalCluster start-up, 1 / 2 workers (s, median) "
        f"| {scaling.median(1, 'start_up'):.1f} / {scaling.median(2, 'start_up'):.1f} | |",
        "| Dask's own CPU during the steady state, 1 / 2 workers (% of one core: scheduler, "
        "nannies, client, the workers' event loops) "
        f"| {scaling.median(1, 'own_cpu'):.1f} / {scaling.median(2, 'own_cpu'):.1f} | |",
        "| CPU per match of the processes / threads playing matches, 1 / 2 plain processes, "
        f"1 / 2 Dask workers (ms, median) | {plain_cpu[0]:.2f} / {plain_cpu[1]:.2f}, "
        f"{scaling.median(1, 'match_cpu'):.2f} / {scaling.median(2, 'match_cpu'):.2f} | |",
        f"| {args.big:,} greedy-vs-greedy matches + summary, 2 workers, cluster start included "
        f"(s) | {big_seconds:.1f} | < 120 s |",
        "",
        f"Summary of the big run: P(A wins) {facts.get('p_a', '—')} (95 % Wilson), "
        f"P(draw) {facts.get('p_draw', '—')}, first-activation edge (points per turn) "
        f"{facts.get('first_edge', '—')}.",
        "",
        "Where the time goes: the engine and the greedy bot are compiled with mypyc "
        "(`akvo.compiled`); the bot's activation choice (best worth of each unit, and the "
        "Ultimes' exact gains over the turn), targets, runes and orders read shot worths "
        "from a flat per-rules table indexed by the small ints that decide a shot "
        "(`benchmarks/results/match.md`, « The bots, pure and compiled »).",
        "",
    ]


if __name__ == "__main__":
    main()
