"""Capacity benchmark: readers served per second by one book server and by two behind
HAProxy (issue 20.4), beside this machine's ceiling for two processes.

A reader is ``bench_load.reader`` (GET the page, open its kernel's websocket with the
page's cookies — the proxy's sticky one included — ask for the kernel info, stay
``--stay`` s, leave with the beacon). ``--readers`` readers arrive together on the home
page of a deployment (``akvo_widgets.site_cluster``: 1 or 2 servers behind the proxy)
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
from tornado.httpclient import AsyncHTTPClient  # noqa: E402

from akvo_widgets.site import RunningServer  # noqa: E402
from akvo_widgets.site_cluster import cluster_in_background  # noqa: E402
from benchmarks.bench_load import Step, reader  # noqa: E402
from benchmarks.bench_site import machine  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "cluster.md"
BOOK = ROOT / "book"
#: No pre-heated kernel and no spare (widgets/site_spares.py): every reader's kernel starts.
NO_POOLS = (
    '--VoilaKernelManager.kernel_pools_config={"default": {"pool_size": 0}}',
    "--BookPools.spares=0",
)
SPIN = """import time
n, end = 0, time.perf_counter() + {s}
while time.perf_counter() < end:
    n += 1
print(n)"""


def spin(processes: int, seconds: float = 5.0) -> float:
    """Loop iterations per second of ``processes`` CPU-bound processes running at once."""
    code = SPIN.format(s=seconds)
    started = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        for _ in range(processes)
    ]
    return sum(int(p.communicate()[0]) for p in started) / seconds


def served_per_second(servers: int, readers: int, stay: float, logs: Path) -> tuple[float, Step]:
    options = (*NO_POOLS, f"--BookServer.max_readers={readers + 10}")
    with cluster_in_background(BOOK, logs, servers, *options, timeout=300) as cluster:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readers", type=int, default=12)
    parser.add_argument("--stay", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    AsyncHTTPClient.configure(None, max_clients=2 * args.readers)
    rates: dict[int, list[float]] = {1: [], 2: []}
    errors: dict[int, list[dict[str, int]]] = {1: [], 2: []}
    ceilings = []
    with tempfile.TemporaryDirectory(prefix="akvo-bench-cluster-") as root:
        for round_ in range(args.rounds):
            one = spin(1)
            two = spin(2)
            ceilings.append(two / one)
            for servers in (1, 2) if round_ % 2 == 0 else (2, 1):
                logs = Path(root) / f"r{round_}-s{servers}"
                rate, step = served_per_second(servers, args.readers, args.stay, logs)
                rates[servers].append(rate)
                errors[servers].append(step.errors)
                print(
                    f"round {round_ + 1}: {servers} server(s): {rate:.2f} readers/s "
                    f"{step.errors or 'no error'}; two-process ceiling {two / one:.2f}",
                    flush=True,
                )
    one_rate, two_rate = (statistics.median(rates[n]) for n in (1, 2))
    ceiling = statistics.median(ceilings)
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    rows = "\n".join(
        f"| {r + 1} | {rates[1][r]:.2f} | {rates[2][r]:.2f} | {rates[2][r] / rates[1][r]:.2f} "
        f"| {ceilings[r]:.2f} | {errors[1][r] or 'none'} / {errors[2][r] or 'none'} |"
        for r in range(args.rounds)
    )
    options = f"--readers {args.readers} --stay {args.stay:g} --rounds {args.rounds}"
    deployment = (
        "book servers with **no pre-heated kernel** and no spare (each reader's kernel\n"
        "  starts on demand: the rate a server sustains once a burst has drained its\n"
        "  pools); a kernel start is a process of its own, so one server already spreads\n"
        "  its readers' work over every core: a second server on the same machine can\n"
        "  only share them (ceiling about 1×), a second machine adds its own"
    )
    bound = "kernel starts bound it: ~1 s of CPU per reader, over every core"
    header = (
        "| round | 1 server (readers/s) | 2 servers (readers/s) | 2 vs 1 "
        "| ceiling for two processes | errors (1 / 2) |"
    )
    text = f"""# Several servers behind HAProxy (`benchmarks/bench_cluster.py`)

- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC
- Machine: {machine()}; load average at the end {load} (1/5/15 min: other work shares the cores)
- Command: `.venv/bin/python benchmarks/bench_cluster.py {options}`
- Deployment: `akvo_widgets.site_cluster` (`deploy/haproxy.cfg`, Debian HAProxy 2.6),
  {deployment}; reader cap above the burst.
- Readers: {args.readers} raw HTTP + websocket clients arriving together on `index.ipynb`
  through the proxy (page, kernel websocket with the sticky cookie, kernel info, {args.stay:g} s,
  beacon); rate = readers served / time until the last had its page.
- Ceiling: a CPU-bound Python loop, 5 s in two processes at once over 5 s in one.

{header}
|---|---|---|---|---|---|
{rows}

**Capacity of one server: {one_rate:.2f} readers served per second** ({bound}).
Two servers: {two_rate:.2f}/s, {two_rate / one_rate:.2f}× one; two CPU-bound processes on
this machine, same run: {ceiling:.2f}× one.
"""
    print(text)
    RESULTS.write_text(text, encoding="utf-8")
    print(f"written to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
