"""Load benchmark: many readers arriving together on one book server (loopback only).

Each reader is a raw HTTP + websocket client doing what a browser's page does with the
server, without drawing anything: GET the page (Voilà runs it in a kernel and streams the
HTML; the time to the end of that response is the reader's *first render* on the server
side — a browser adds ~0.3–0.5 s of JavaScript), connect to the kernel websocket with the v1
protocol, ask for the kernel info (what the widget manager does first), stay connected for
``--stay`` seconds, then leave: close the websocket and send the page-exit beacon, as a
browser tab does when it is closed. Readers who vanish without the beacon (a phone put
away) are measured at the end: their kernels must be gone within 3 minutes.

The server runs with ``book/voila.json`` (pools sized for bursts); the run starts once its
pools are warm (``/akvo/ready``), and so does each step (readers arriving on a server at
rest). Bounded: at most ``max(--readers)`` clients, each step stopped after
``--step-timeout`` s, the vanished-readers check after 240 s, and steps not started after
``--max-minutes``. Results go to ``benchmarks/results/load.md``.
Usage: ``.venv/bin/python benchmarks/bench_load.py`` (steps 1 5 10 20 50 100, ~15–25 min on
an idle machine); bursts on one chapter, twice (the pools follow the readers: the second
burst finds the grown pool): ``--page des.ipynb --readers 20 20 --results
benchmarks/results/load-chapter.md``; bursts spread over the book: ``--page spread``;
``--quick`` (1 and 5 readers, small pools, a short culling timeout; printed, not recorded)
is a smoke test. 200 readers live at once:
``--readers 200 --stay 60 --server-option=--BookServer.max_readers=200``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from akvo_site.app import (
    READY_ROUTE,
    SMALL_POOLS,
    RunningServer,
    serve_in_background,
    wait_for_pools,
)
from akvo_site.guard import V1_PROTOCOL

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench_site import machine  # noqa: E402

from tests.akvo_site.test_site_security import message, v1_frame  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "load.md"
#: ``--page spread``: reader i opens the i-th page of the book (home page and chapters).
SPREAD = "spread"
RENDER_P95_TARGET = 5.0
SLOW_RENDER = 1.0  # s: the readers listed by page below the table
LEFT_AFTER_TARGET = 180.0
VANISHED_WAIT = 240.0  # s: the longest the vanished-readers check waits
POOL_WAIT = 600.0  # s: the longest a step waits for the pools to be warm again
QUIET_SHARE = 0.15  # a step starts once the CPU is at most this busy (over 2 s)...
QUIET_WAIT = 120.0  # s: ...or after this long
#: --quick: small pools and kernels of vanished readers culled after ~10 s.
QUICK_OPTIONS = (
    *SMALL_POOLS,
    "--MappingKernelManager.cull_idle_timeout=10",
    "--MappingKernelManager.cull_interval=2",
)


@dataclass
class Step:
    readers: int
    renders: list[float] = field(default_factory=list)
    #: The page of each render, in the same order (which pages kept their readers waiting).
    pages: list[str] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    peak_kernels: int = 0
    server_mb: float = 0.0
    kernel_mb: list[float] = field(default_factory=list)
    kernels_after: int = 0
    seconds_to_clear: float = 0.0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def _proc_value(pid: int, file: str, key: str) -> float:
    try:
        for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def kernels_of(server: RunningServer) -> list[int]:
    """Process ids of the server's kernels (its children)."""
    children: list[int] = []
    for task in Path(f"/proc/{server.pid}/task").iterdir():
        try:
            children += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return children


def memory(server: RunningServer) -> tuple[float, list[float]]:
    """Server RSS (MB) and each kernel's PSS (MB: its own pages + its share of shared ones)."""
    server_mb = _proc_value(server.pid, "status", "VmRSS:")
    kernels = [_proc_value(pid, "smaps_rollup", "Pss:") for pid in kernels_of(server)]
    return server_mb, [k for k in kernels if k > 0]


async def reader(
    server: RunningServer, page: str, stay: float, step: Step, *, beacon: bool = True
) -> None:
    client = AsyncHTTPClient()
    start = time.perf_counter()
    try:
        response = await client.fetch(
            f"{server.url}/voila/render/{page}", request_timeout=120, raise_error=False
        )
    except (OSError, TimeoutError) as problem:
        step.error(type(problem).__name__)
        return
    if response.code != 200:
        step.error(f"HTTP {response.code}")
        return
    step.renders.append(time.perf_counter() - start)
    step.pages.append(page)
    html = response.body.decode()
    marker = '"kernelId": "'
    kernel = html[html.index(marker) + len(marker) :].split('"', 1)[0]
    ws = server.url.replace("http://", "ws://")
    url = f"{ws}/api/kernels/{kernel}/channels?session_id={uuid.uuid4()}"
    # The page's cookies go back with its websocket and beacon, as a browser sends them
    # (behind the proxy, its sticky cookie names the server that holds the kernel).
    cookies = "; ".join(
        c.split(";", 1)[0] for c in response.headers.get_list("Set-Cookie") if "=" in c
    )
    headers = {"Cookie": cookies} if cookies else {}
    try:
        connection = await websocket_connect(
            # A browser waits longer than tornado's 20 s for a busy server's upgrade.
            HTTPRequest(url, headers=headers, connect_timeout=60, request_timeout=60),
            subprotocols=[V1_PROTOCOL],
        )
        session = uuid.uuid4().hex
        await connection.write_message(
            v1_frame(message("kernel_info_request", {}, session)), binary=True
        )
        while True:
            frame = await asyncio.wait_for(connection.read_message(), 60)
            if frame is None:
                raise ConnectionError("websocket closed")
            if b'"kernel_info_reply"' in (frame if isinstance(frame, bytes) else frame.encode()):
                break
        await asyncio.sleep(stay)
        connection.close()
    except (OSError, TimeoutError, HTTPClientError, ConnectionError) as problem:
        step.error(f"{type(problem).__name__} {getattr(problem, 'code', '')}".strip())
    if beacon:
        await client.fetch(
            f"{server.url}/voila/api/shutdown/{kernel}",
            method="POST",
            body=b"",
            headers=headers,
            raise_error=False,
        )


async def watch(server: RunningServer, step: Step, done: asyncio.Event) -> None:
    """Count the kernels every 0.5 s; measure the memory once, when every reader has their
    page (they stay a few seconds more): reading a kernel's PSS costs ~25 ms of CPU, 3 s for
    a hundred kernels, which measured every 0.5 s took a core from the burst it measured."""
    measured = False
    while not done.is_set():
        step.peak_kernels = max(step.peak_kernels, len(kernels_of(server)))
        if not measured and len(step.renders) + sum(step.errors.values()) >= step.readers:
            measured = True
            step.server_mb, step.kernel_mb = await asyncio.to_thread(memory, server)
        await asyncio.sleep(0.5)


async def run_step(
    server: RunningServer, readers: int, page: str, stay: float, timeout: float, pool: int
) -> Step:
    step = Step(readers)
    done = asyncio.Event()
    watcher = asyncio.create_task(watch(server, step, done))
    pages = spread_pages() if page == SPREAD else [page]
    tasks = [reader(server, pages[i % len(pages)], stay, step) for i in range(readers)]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout)
    except TimeoutError:
        step.error("step timeout")
    done.set()
    await watcher
    start = time.monotonic()
    while len(kernels_of(server)) > pooled(server, pool) and time.monotonic() - start < 60:
        await asyncio.sleep(1)
    step.kernels_after = max(0, len(kernels_of(server)) - pooled(server, pool))
    step.seconds_to_clear = time.monotonic() - start
    return step


def pooled(server: RunningServer, at_start: int) -> int:
    """The kernels the pools want now (they grow with the readers, site_pools), at least
    as many as at the start."""
    try:
        with urllib.request.urlopen(f"{server.url}/{READY_ROUTE}", timeout=10) as answer:
            state = json.loads(answer.read())
    except urllib.error.HTTPError as answer:  # 503: still filling, same body
        state = json.loads(answer.read() or b"{}")
    except (urllib.error.URLError, OSError):
        state = {}
    return max(at_start, int(state.get("wanted", 0)))


async def vanished_readers(server: RunningServer, page: str, count: int, pool: int) -> Step:
    """Readers who close the websocket without the beacon; time until their kernels go."""
    step = Step(count)
    await asyncio.gather(*(reader(server, page, 1.0, step, beacon=False) for _ in range(count)))
    left_at = time.monotonic()
    step.peak_kernels = len(kernels_of(server))
    while len(kernels_of(server)) > pooled(server, pool) and (
        time.monotonic() - left_at < VANISHED_WAIT
    ):
        await asyncio.sleep(2)
    step.kernels_after = max(0, len(kernels_of(server)) - pooled(server, pool))
    step.seconds_to_clear = time.monotonic() - left_at
    return step


def spread_pages() -> list[str]:
    from akvo_widgets import chapters

    return [chapters.HOME, *(c.file for c in chapters.CHAPTERS)]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def busy_share(seconds: float = 2.0) -> float:
    """Share of the machine's CPU time spent working over ``seconds`` (/proc/stat)."""

    def times() -> list[int]:
        with open("/proc/stat") as stat:
            return [int(x) for x in stat.readline().split()[1:]]

    before = times()
    time.sleep(seconds)
    after = times()
    spent = [b - a for a, b in zip(before, after, strict=True)]
    idle = spent[3] + spent[4]  # idle + iowait
    return 1.0 - idle / max(1, sum(spent))


def warm_pools(server: RunningServer) -> int:
    """Wait (bounded) until the pools are warm and the machine is quiet again (the kernels
    that just filled them done with their own start-up work); the pooled kernels wanted."""
    try:
        wanted = int(wait_for_pools(server.url, POOL_WAIT)["wanted"])
    except TimeoutError as late:
        print("pools not warm:", late, flush=True)
        return 0
    wait_until_quiet()
    return wanted


def wait_until_quiet() -> None:
    """Wait (at most ``QUIET_WAIT`` s) until the machine's CPU is at most ``QUIET_SHARE``
    busy: kernels that just started, or just stopped, done with their work."""
    deadline = time.monotonic() + QUIET_WAIT
    while (busy := busy_share()) > QUIET_SHARE and time.monotonic() < deadline:
        print(f"waiting for a quiet machine ({busy:.0%} busy)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readers", type=int, nargs="+", default=[1, 5, 10, 20, 50, 100])
    parser.add_argument(
        "--page",
        default="index.ipynb",
        help=f"the page every reader opens, or {SPREAD!r}: reader i opens the book's i-th page",
    )
    parser.add_argument("--results", type=Path, default=RESULTS, help="where to record")
    parser.add_argument("--stay", type=float, default=5.0, help="seconds each reader stays")
    parser.add_argument("--step-timeout", type=float, default=300.0)
    parser.add_argument("--vanished", type=int, default=10, help="readers leaving silently")
    parser.add_argument("--max-minutes", type=float, default=40.0, help="no step starts after")
    parser.add_argument("--quick", action="store_true", help="smoke test, not recorded")
    parser.add_argument(
        "--server-option",
        action="append",
        default=[],
        help="extra server option, e.g. --server-option=--BookServer.max_readers=200",
    )
    args = parser.parse_args()
    if args.quick:
        args.readers, args.stay, args.vanished = [1, 5], 1.0, 2
    AsyncHTTPClient.configure(None, max_clients=max(args.readers) + args.vanished)

    config = json.loads((ROOT / "book" / "voila.json").read_text())
    log = ROOT / "test-artifacts" / "bench-load-voila.log"
    log.parent.mkdir(exist_ok=True)
    steps: list[Step] = []
    started = time.monotonic()
    options = (*(QUICK_OPTIONS if args.quick else ()), *args.server_option)
    with serve_in_background(ROOT / "book", log, *options, timeout=120) as server:
        pool = warm_pools(server)
        idle_mb, pool_kernels = memory(server)
        print(f"pools warm after {time.monotonic() - started:.0f} s: {pool} kernels", flush=True)
        for count in args.readers:
            if time.monotonic() - started > args.max_minutes * 60:
                print(f"{count} readers: not run (--max-minutes)", flush=True)
                continue
            warm_pools(server)
            step = asyncio.run(
                run_step(server, count, args.page, args.stay, args.step_timeout, pool)
            )
            steps.append(step)
            print(count, "readers:", step, flush=True)
        vanished = None
        if args.vanished:  # --vanished 0: the bursts only
            warm_pools(server)
            page = spread_pages()[0] if args.page == SPREAD else args.page
            vanished = asyncio.run(vanished_readers(server, page, args.vanished, pool))
            print("vanished:", vanished, flush=True)
    text = report(steps, vanished, args, config, pool, idle_mb, pool_kernels)
    if not args.quick:
        args.results.write_text(text)
    print(text)


def report(
    steps: list[Step],
    vanished: Step | None,
    args: argparse.Namespace,
    config: dict[str, dict[str, object]],
    pool: int,
    idle_mb: float,
    pool_kernels: list[float],
) -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    book = config["BookServer"]
    culling = config["MappingKernelManager"]
    lines = [
        "# Load benchmark (`benchmarks/bench_load.py`)",
        "",
        f"- Date: {now}",
        f"- Machine: {machine()}; load average at the end "
        f"{' / '.join(f'{x:.1f}' for x in os.getloadavg())} (1/5/15 min: other work shares "
        "the cores)",
        f"- Server: one `python -m akvo_site` with `book/voila.json`: "
        f"max_readers={book['max_readers']}, pre-heated pools of {pool} kernels in all "
        f"(per page: {config['VoilaKernelManager']['kernel_pools_config']}), culling of "
        f"unconnected kernels idle {culling['cull_idle_timeout']} s "
        f"(checked every {culling['cull_interval']} s)"
        + (f"; options {' '.join(args.server_option)}." if args.server_option else "."),
        "- Readers: raw HTTP + websocket clients on loopback, all arriving at once on "
        + (
            "the book's pages in turn (reader i on the i-th of the home page and the chapters)"
            if args.page == SPREAD
            else f"`{args.page}`"
        )
        + "; each GETs the page (first render = end of the HTML response, "
        f"server side), connects to its kernel (v1), asks for the kernel info, stays "
        f"{args.stay:.0f} s, then leaves (closes the websocket, sends the page-exit beacon).",
        f"- Idle server: {idle_mb:.0f} MB RSS; {len(pool_kernels)} pooled kernels of "
        f"{statistics.mean(pool_kernels) if pool_kernels else 0:.0f} MB PSS each.",
        "",
        f"Targets: 50 readers together all served with first render p95 ≤ "
        f"{RENDER_P95_TARGET:.0f} s and no error; 200 readers live at once without running "
        f"out of memory (the cap answers the readers past it with the 503 page); no kernel "
        f"left {LEFT_AFTER_TARGET / 60:.0f} minutes after its reader is gone.",
        "",
        "| readers | served | first render p50 (s) | p95 (s) | max (s) | errors | "
        "peak kernels | server RSS (MB) | kernel PSS mean (MB) | kernels left 60 s after |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in steps:
        r = s.renders or [float("nan")]
        errors = ", ".join(f"{k}: {v}" for k, v in s.errors.items()) or "none"
        kmb = statistics.mean(s.kernel_mb) if s.kernel_mb else 0.0
        lines.append(
            f"| {s.readers} | {len(s.renders)} | {pct(r, 0.5):.2f} | {pct(r, 0.95):.2f} | "
            f"{max(r):.2f} | {errors} | {s.peak_kernels} | {s.server_mb:.0f} | {kmb:.0f} | "
            f"{s.kernels_after} |"
        )
    for s in steps:
        slow: dict[str, list[float]] = {}
        for seconds, page in zip(s.renders, s.pages, strict=True):
            if seconds > SLOW_RENDER:
                slow.setdefault(page, []).append(seconds)
        if slow:
            shown = "; ".join(
                f"{page}: {len(w)} ({min(w):.2f}–{max(w):.2f} s)"
                for page, w in sorted(slow.items(), key=lambda item: -max(item[1]))
            )
            lines += [
                "",
                f"Readers of {s.readers} who waited over {SLOW_RENDER:.0f} s, by page: {shown}.",
            ]
    if vanished is not None:
        ok = vanished.kernels_after == 0 and vanished.seconds_to_clear <= LEFT_AFTER_TARGET
        lines += [
            "",
            f"Readers who vanish without the beacon ({vanished.readers}, websocket closed): "
            f"{vanished.kernels_after} of their kernels left after "
            f"{vanished.seconds_to_clear:.0f} s (target: none after "
            f"{LEFT_AFTER_TARGET:.0f} s) — {'met' if ok else 'NOT met'}.",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
