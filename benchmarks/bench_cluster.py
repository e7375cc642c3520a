"""Capacity benchmark: readers served per second by one book server and by two behind
HAProxy (issue 20.4), beside this machine's ceiling for two processes.

A reader is ``bench_load.reader`` (GET the page, open its kernel's websocket with the
page's cookies — the proxy's sticky one included — ask for the kernel info, stay
``--stay`` s, leave with the beacon). ``--readers`` readers arrive together on the home
page of a deployment (``akvo_site.cluster``: 1 or 2 servers behind the proxy)
with **no pre-heated kernel** (pools of 0, no spares: what a server sustains once a burst has
drained its pools; ``bench_load.py`` measures the pools themselves), and the rate is the
readers served over the time until the last one had its page. Both deployments run in one
run, alternating (``--rounds``), and so does the ceiling: a CPU-bound Python loop counted
for 5 s in one process, then in two processes at once (on 2 cores at rest about 2×; less
when other work shares the cores). Results go to ``benchmarks/results/cluster.md``.

Usage: ``.venv/bin/python benchmarks/bench_cluster.py`` (12 readers, 1 round: ~3 min).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench_load import Step, reader, wait_until_quiet  # noqa: E402
from bench_site import machine  # noqa: E402
from tornado.httpclient import AsyncHTTPClient  # noqa: E402

from akvo_site.app import RunningServer  # noqa: E402
from akvo_site.cluster import cluster_in_background  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "cluster.md"
BOOK = ROOT / "book"
#: No pre-heated kernel and no spare (akvo_site/kernels/spares.py): every reader's kernel starts.
NO_POOLS = (
    '--VoilaKernelManager.kernel_pools_config={"default": {"pool_size": 0}}',
    "--BookPools.spares=0",
)
SPIN = """import time
n, end = 0, time.perf_counter() + {s}
while time.perf_counter() < end:
    n += 1
print(n)"""


def ceiling() -> float:
    """Two CPU-bound processes at once over one alone (the one measured before and after the
    two), on a quiet machine: the last deployment's kernels and servers done exiting (a
    ceiling measured while they exit came out at 1.69 and 2.38)."""
    wait_until_quiet()
    one = spin(1)
    two = spin(2)
    return two / ((one + spin(1)) / 2)


def spin(processes: int, seconds: float = 5.0) -> float:
    """Loop iterations per second of ``processes`` CPU-bound processes running at once."""
    code = SPIN.format(s=seconds)
    started = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        for _ in range(processes)
    ]
    return sum(int(p.communicate()[0]) for p in started) / seconds


def pin(pid: int, core: int) -> None:
    """Every thread of process ``pid`` on ``core`` only; the kernels it starts afterwards
    inherit it (a child takes the affinity of the thread that forks it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), {core})


def served_per_second(
    servers: int, readers: int, stay: float, logs: Path, pinned: bool = False
) -> tuple[float, Step]:
    """Readers served per second by ``servers`` behind the proxy; ``pinned``: server ``i``
    and its kernels on core ``i - 1`` alone, as if each server had a machine of one core
    (the proxy and the readers' client stay free)."""
    options = (*NO_POOLS, f"--BookServer.max_readers={readers + 10}")
    with cluster_in_background(BOOK, logs, servers, *options, timeout=300) as cluster:
        if pinned:
            for core, server in enumerate(cluster.servers):
                pin(server.pid, core % (os.cpu_count() or 1))
        step = Step(readers)
        proxy = RunningServer(cluster.url, cluster.servers[0].pid)

        async def burst() -> float:
            start = time.perf_counter()
            readers_ = [reader(proxy, "index.ipynb", stay, step) for _ in range(readers)]
            await asyncio.gather(*readers_)
            return time.perf_counter() - start

        asyncio.run(burst())
        last = max(step.renders) if step.renders else float("inf")
        return len(step.renders) / last, step


#: The two deployments measured: the servers sharing every core, and each server (with its
#: kernels) on a core of its own, the stand-in for a machine of its own.
MODES = {"shared": False, "one core each": True}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readers", type=int, default=12)
    parser.add_argument("--stay", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    AsyncHTTPClient.configure(None, max_clients=2 * args.readers)
    rates: dict[tuple[str, int], list[float]] = {}
    errors: dict[tuple[str, int], list[dict[str, int]]] = {}
    ceilings = []
    with tempfile.TemporaryDirectory(prefix="akvo-bench-cluster-") as root:
        for round_ in range(args.rounds):
            ceilings.append(ceiling())
            for mode, pinned in MODES.items():
                for servers in (1, 2) if round_ % 2 == 0 else (2, 1):
                    logs = Path(root) / f"r{round_}-{'pinned' if pinned else 'shared'}-s{servers}"
                    wait_until_quiet()
                    rate, step = served_per_second(servers, args.readers, args.stay, logs, pinned)
                    rates.setdefault((mode, servers), []).append(rate)
                    errors.setdefault((mode, servers), []).append(step.errors)
                    print(
                        f"round {round_ + 1}, {mode}: {servers} server(s): {rate:.2f} readers/s "
                        f"{step.errors or 'no error'}; two-process ceiling {ceilings[-1]:.2f}",
                        flush=True,
                    )
    RESULTS.write_text(report(args, rates, errors, ceilings), encoding="utf-8")
    print(RESULTS.read_text(encoding="utf-8"))
    print(f"written to {RESULTS.relative_to(ROOT)}")


HEADER = (
    "| deployment | round | 1 server (readers/s) | 2 servers (readers/s) | 2 vs 1 "
    "| ceiling for two processes | errors (1 / 2) |\n|---|---|---|---|---|---|---|"
)


def report(
    args: argparse.Namespace,
    rates: dict[tuple[str, int], list[float]],
    errors: dict[tuple[str, int], list[dict[str, int]]],
    ceilings: list[float],
) -> str:
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    rows = []
    for mode in MODES:
        for r in range(args.rounds):
            one, two = rates[mode, 1][r], rates[mode, 2][r]
            failed = f"{errors[mode, 1][r] or 'none'} / {errors[mode, 2][r] or 'none'}"
            rows.append(
                f"| {mode} | {r + 1} | {one:.2f} | {two:.2f} | {two / one:.2f} "
                f"| {ceilings[r]:.2f} | {failed} |"
            )
    median = {key: statistics.median(values) for key, values in rates.items()}
    ceiling = statistics.median(ceilings)
    shared = median["shared", 2] / median["shared", 1]
    pinned = median["one core each", 2] / median["one core each", 1]
    options = f"--readers {args.readers} --stay {args.stay:g} --rounds {args.rounds}"
    cores = os.cpu_count() or 1
    cpu = cores / median["shared", 1]
    return f"""# Several servers behind HAProxy (`benchmarks/bench_cluster.py`)

- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC
- Machine: {machine()}; load average at the end {load} (1/5/15 min: other work shares the cores)
- Command: `.venv/bin/python benchmarks/bench_cluster.py {options}`
- Deployment: `akvo_site.cluster` (`deploy/haproxy.cfg`, Debian HAProxy), book
  servers with **no pre-heated kernel** and no spare: each reader's kernel starts on
  demand, the rate a server sustains once a burst has drained its pools
  (`bench_load.py` measures the pools themselves); reader cap above the burst.
- Two ways to run them: **shared**, every server and its kernels on every core (a kernel
  start is a process of its own, so one server already keeps both cores busy: a second
  server on the same machine can only share them); **one core each**, server `i` and its
  kernels on core `i − 1` alone (`sched_setaffinity`; the proxy and the readers' client
  stay free): the stand-in for one machine per server, the deployment the README's recipe
  is for.
- Readers: {args.readers} raw HTTP + websocket clients arriving together on `index.ipynb`
  through the proxy (page, kernel websocket with the sticky cookie, kernel info,
  {args.stay:g} s, beacon); rate = readers served / time until the last had its page.
- Ceiling: a CPU-bound Python loop, 5 s in two processes at once over 5 s in one (the mean of
  one run before and one after), each round on a quiet machine.

{HEADER}
{chr(10).join(rows)}

- **One core each** (a machine per server): 2 servers {median["one core each", 2]:.2f}
  readers/s against 1 server {median["one core each", 1]:.2f}/s: **{pinned:.2f}×**, beside
  the two-process ceiling of this machine measured in the same run, {ceiling:.2f}×.
- **Shared** (two servers on one machine): {median["shared", 2]:.2f} against
  {median["shared", 1]:.2f} readers/s, {shared:.2f}×: a second server on the same cores adds
  nothing, as expected.
- **Capacity of one server on this machine (2 cores): {median["shared", 1]:.2f} readers
  served per second** when every reader's kernel starts (about {cpu:.1f} s of the machine's
  CPU per reader, its {cores} cores over the rate).
"""


if __name__ == "__main__":
    main()
