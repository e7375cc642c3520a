"""Round-trip benchmark: where a control → number round trip goes, hop by hop.

``bench_site.py`` gives the book's control → number latency; this script splits one round
trip into its hops and compares configurations of the stack, all in one run, alternating:

1. **In the page** (the bare echo page of ``bench_site`` and one book page): Playwright
   presses an arrow key; the page timestamps the ``keydown`` event (``performance.now``),
   the websocket frames sent and received (a ``WebSocket`` subclass installed before the
   page's scripts), the DOM mutation of the number (``MutationObserver``) and the next
   animation frame after it (``requestAnimationFrame``, just before that frame's paint).
   Playwright's own measure (key press over CDP → polling every frame) is kept beside it.
2. **Server timestamps**: the server runs with its kernel-websocket connection traced
   (``--serve``, this file): when a browser frame comes in and has been sent to the kernel,
   when a kernel message comes in and has been written to the browser; with the kernel's
   own ``header.date`` of each reply, one change becomes a timeline on one clock
   (browser ``performance.timeOrigin + now`` and Python ``time.time`` read the same
   system clock).
3. **Floors**: a plain websocket echo between Chromium and a Tornado handler with
   ``TCP_NODELAY`` (browser ↔ server, nothing else); a comm round trip from Python over
   ZMQ with ``jupyter_client`` against the same kernel (shell ``comm_msg`` → IOPub reply),
   a bare comm and the echo widgets; the HMAC signing cost of one message.

Configurations (each its own server and kernels, measured in alternating rounds): ipywidgets'
echo on (the stack's default, the site before) and off (``JUPYTER_WIDGETS_ECHO=0``, what
``BookKernelManager`` now gives every kernel) and, with ``--ipykernel6 PYTHON`` (a Python
whose ipykernel is 6.29.x and that otherwise sees this environment), the same two with
ipykernel 6.

Results: ``benchmarks/results/roundtrip.md``. Usage:
``.venv/bin/python benchmarks/bench_roundtrip.py [--rounds 3] [--ipykernel6 PYTHON]``;
``--quick`` is a smoke test (few changes, not recorded).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_site import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    ECHO,
    KEYS_AND_WATCH,
    PROBES,
    ROOT,
    Probe,
    book_with_bench_pages,
    machine,
    percentile,
    pools_for,
    press_and_time,
)

from akvo_site.app import (
    free_port,
    server_command,
    stop_server,
    wait_for_pools,
    wait_until_serving,
)
from akvo_site.kernels.manager import WIDGET_ECHO_VARIABLE

RESULTS = ROOT / "benchmarks" / "results" / "roundtrip.md"
WAIT_MS = 60_000
BOOK_PROBE = PROBES[0]  # des.ipynb: the dice calculator
#: Pause between two changes, so that each one is a round trip of its own: ipywidgets'
#: front end holds a change back while the previous one is unanswered (status idle).
SETTLE = 0.06

#: Installed before the page's own scripts: timestamps of key presses, websocket frames
#: (kept raw, decoded only when collected) and mutations of the watched number
#: (:data:`bench_site.KEYS_AND_WATCH`).
PAGE_TRACE = (
    """(() => {
  const log = {keys: [], sends: [], recvs: [], marks: []};
  window.__rt = log;
  const Native = window.WebSocket;
  class Traced extends Native {
    constructor(...args) {
      super(...args);
      this.__traced = String(args[0]).includes('/channels');
      if (this.__traced) {
        this.addEventListener('message', (e) => log.recvs.push([performance.now(), e.data]));
      }
    }
    send(data) {
      if (this.__traced) log.sends.push([performance.now(), data]);
      return super.send(data);
    }
  }
  window.WebSocket = Traced;"""
    + KEYS_AND_WATCH
    + """
})();"""
)

#: Decodes the frames of one change (Jupyter's v1 websocket protocol) and returns its
#: timeline in milliseconds of the page's clock, plus the clock's origin (ms since epoch).
COLLECT = """async () => {
  const log = window.__rt;
  const decode = async (data) => {
    const buf = data instanceof Blob ? await data.arrayBuffer()
      : data.buffer ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
      : data;
    if (typeof buf === 'string') return {};
    const view = new DataView(buf);
    const n = Number(view.getBigUint64(0, true));
    const off = [...Array(n).keys()].map((i) => Number(view.getBigUint64(8 * (i + 1), true)));
    const text = (i) => new TextDecoder().decode(new Uint8Array(buf, off[i], off[i + 1] - off[i]));
    const header = JSON.parse(text(1)), parent = JSON.parse(text(2) || '{}');
    const content = JSON.parse(text(4));
    return {channel: text(0), type: header.msg_type, id: header.msg_id, parent: parent.msg_id,
            method: content.data ? content.data.method : undefined,
            state: content.execution_state};
  };
  const sends = [], recvs = [];
  for (const [t, d] of log.sends) sends.push({t, ...(await decode(d))});
  for (const [t, d] of log.recvs) recvs.push({t, ...(await decode(d))});
  const out = {origin: performance.timeOrigin, keys: log.keys, sends, recvs, marks: log.marks};
  log.keys = []; log.sends = []; log.recvs = []; log.marks = [];
  return out;
}"""


@dataclass
class Change:
    """One control change seen from the page, Playwright and the server (ms)."""

    playwright: float
    key_to_send: float  # keydown → comm_msg handed to the websocket
    send_to_recv: float  # → the frame that updates the number received (network+server+kernel)
    recv_to_mutation: float  # → the number's DOM mutation (decode, model, view)
    mutation_to_frame: float  # → the next animation frame (its paint follows)
    frames_in: int  # frames received from the kernel for this change (status, echo, updates)
    server: dict[str, float] = field(default_factory=dict)  # see server_split

    @property
    def key_to_mutation(self) -> float:
        return self.key_to_send + self.send_to_recv + self.recv_to_mutation

    @property
    def key_to_frame(self) -> float:
        return self.key_to_mutation + self.mutation_to_frame


# --- the traced server (run by this file with --serve) ----------------------------------


def serve_traced(argv: list[str]) -> None:
    """Run the book server with its kernel-websocket connections traced to $AKVO_TRACE."""
    from jupyter_server.services.kernels.connection.channels import (
        ZMQChannelsWebsocketConnection,
    )

    from akvo_site import app as site

    trace = open(os.environ["AKVO_TRACE"], "a", buffering=1)  # noqa: SIM115
    incoming = ZMQChannelsWebsocketConnection.handle_incoming_message
    outgoing = ZMQChannelsWebsocketConnection.handle_outgoing_message

    def traced_in(self: Any, message: Any) -> None:
        start = time.time()
        incoming(self, message)
        done = time.time()
        header = _v1_json(message, 1)
        trace.write(json.dumps({"in": header.get("msg_id"), "t0": start, "t1": done}) + "\n")

    def traced_out(self: Any, stream: Any, parts: list[Any]) -> None:
        start = time.time()
        outgoing(self, stream, parts)
        done = time.time()
        _, fed = self.session.feed_identities(parts)
        header, parent = json.loads(bytes(fed[1])), json.loads(bytes(fed[2]))
        data = json.loads(bytes(fed[4])).get("data") if header.get("msg_type") == "comm_msg" else {}
        trace.write(
            json.dumps(
                {
                    "out": header.get("msg_type"),
                    "method": data.get("method") if isinstance(data, dict) else None,
                    "parent": parent.get("msg_id"),
                    "date": header.get("date"),
                    "t0": start,
                    "t1": done,
                }
            )
            + "\n"
        )

    connection = ZMQChannelsWebsocketConnection
    connection.handle_incoming_message = traced_in  # type: ignore[method-assign,assignment]
    connection.handle_outgoing_message = traced_out  # type: ignore[method-assign,assignment]
    site.main(argv)


def _v1_json(frame: bytes, index: int) -> dict[str, Any]:
    count = int.from_bytes(frame[:8], "little")
    offsets = [int.from_bytes(frame[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    try:
        value = json.loads(frame[offsets[index] : offsets[index + 1]])
    except (ValueError, IndexError):
        return {}
    return value if isinstance(value, dict) else {}


@dataclass
class Config:
    """One configuration of the stack: widget echo on or off, which kernel Python."""

    name: str
    echo: bool
    kernel_python: str | None = None  # another Python for the kernels (e.g. ipykernel 6)

    @property
    def env(self) -> dict[str, str]:
        return {WIDGET_ECHO_VARIABLE: "1" if self.echo else "0"}


def kernel_spec_dir(scratch: Path, python: str) -> Path:
    """A ``JUPYTER_PATH`` folder whose ``python3`` kernel runs ``python``."""
    folder = scratch / f"spec-{abs(hash(python))}"
    spec = folder / "kernels" / "python3"
    spec.mkdir(parents=True, exist_ok=True)
    argv = [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec.joinpath("kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "Python 3", "language": "python"})
    )
    return folder


@dataclass
class TracedServer:
    url: str
    trace: Path


@contextmanager
def traced_server(
    book: Path, config: Config, scratch: Path, pools: tuple[str, ...]
) -> Iterator[TracedServer]:
    port = free_port()
    slug = "".join(ch if ch.isalnum() else "-" for ch in config.name)
    trace = scratch / f"trace-{slug}.jsonl"
    env = {**os.environ, "AKVO_TRACE": str(trace)}
    if config.kernel_python:
        paths = [str(kernel_spec_dir(scratch, config.kernel_python)), env.get("JUPYTER_PATH", "")]
        env["JUPYTER_PATH"] = os.pathsep.join(p for p in paths if p)
    command = server_command(
        port,
        f"--BookKernelManager.widget_echo={config.echo}",
        *pools,
        program=(str(Path(__file__).resolve()), "--serve"),
    )
    log = ROOT / "test-artifacts" / f"bench-roundtrip-{slug}.log"
    log.parent.mkdir(exist_ok=True)
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, cwd=book, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        wait_until_serving(f"{url}/voila/render/index.ipynb", process, log, 120)
        yield TracedServer(url, trace)
    finally:
        stop_server(process)


def read_trace(trace: Path) -> tuple[dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """Incoming frames by msg_id, kernel messages by parent msg_id."""
    incoming: dict[str, dict[str, Any]] = {}
    replies: dict[str, list[dict[str, Any]]] = {}
    if not trace.exists():
        return incoming, replies
    for line in trace.read_text().splitlines():
        entry = json.loads(line)
        if "in" in entry:
            incoming[entry["in"]] = entry
        else:
            replies.setdefault(entry["parent"], []).append(entry)
    return incoming, replies


def _epoch(date: str | None) -> float:
    if not date:
        return float("nan")
    return datetime.fromisoformat(date.replace("Z", "+00:00")).timestamp()


# --- in the page ---------------------------------------------------------------------------


def page_changes(
    browser: Browser, server: TracedServer, probe: Probe, count: int
) -> list[tuple[Change, dict[str, Any]]]:
    """``count`` changes of ``probe``'s control, each with its page timeline."""
    wait_for_pools(server.url, 600)
    page = browser.new_page()
    page.add_init_script(PAGE_TRACE)
    page.goto(f"{server.url}/voila/render/{probe.page}")
    handle = page.locator(f"{probe.slider} [role='slider']")
    number = page.locator(probe.number).first
    number.wait_for(state="visible", timeout=WAIT_MS)
    page.evaluate("(sel) => window.__watch(sel)", probe.number)
    handle.focus()
    for _ in range(probe.high - probe.low):
        handle.press("ArrowLeft")
    time.sleep(0.8)
    page.evaluate(COLLECT)
    value, step = probe.low, 1
    out: list[tuple[Change, dict[str, Any]]] = []
    for _ in range(3 * count):
        if len(out) >= count:
            break
        if not probe.low <= value + step <= probe.high:
            step = -step
        elapsed = press_and_time(page, handle, number, probe, step)
        value += step
        time.sleep(SETTLE)
        timeline = page.evaluate(COLLECT)
        change = _change(elapsed, timeline)
        if change is not None:
            out.append((change, timeline))
        else:
            print(f"{probe.page}: a change without a complete timeline", flush=True)
    page.close()
    return out


def _change(playwright_ms: float, tl: dict[str, Any]) -> Change | None:
    marks = [m for m in tl["marks"] if "frame" in m]
    if not tl["keys"] or not marks:
        return None
    key = tl["keys"][0]
    send = _sent(tl)
    recv = _update(tl, send)
    if send is None or recv is None:
        return None
    mark = marks[0]
    return Change(
        playwright=playwright_ms,
        key_to_send=send["t"] - key,
        send_to_recv=recv["t"] - send["t"],
        recv_to_mutation=mark["mutation"] - recv["t"],
        mutation_to_frame=mark["frame"] - mark["mutation"],
        frames_in=sum(1 for r in tl["recvs"] if r.get("parent") == send["id"]),
    )


def _sent(tl: dict[str, Any]) -> dict[str, Any] | None:
    """The change's comm_msg: the first one the page sent after the key press."""
    sends = [s for s in tl["sends"] if s.get("type") == "comm_msg" and s["t"] >= tl["keys"][0]]
    return sends[0] if sends else None


def _update(tl: dict[str, Any], send: dict[str, Any] | None) -> dict[str, Any] | None:
    """The kernel's answer that carries the number: its first ``update`` (not the echo).

    The probes' numbers are the first widget their Python handler changes (the echo's
    label, the calculators' result tables).
    """
    if send is None:
        return None
    updates = [
        r
        for r in tl["recvs"]
        if r.get("parent") == send["id"]
        and r.get("type") == "comm_msg"
        and r.get("method") == "update"
    ]
    return updates[0] if updates else None


def server_split(change: Change, tl: dict[str, Any], server: TracedServer) -> None:
    """Fill ``change.server`` from the server trace: one clock (epoch ms) for every hop."""
    incoming, replies = read_trace(server.trace)
    origin = tl["origin"]
    send = _sent(tl)
    received = _update(tl, send)
    if send is None or received is None:
        return
    entry, answers = incoming.get(send["id"]), replies.get(send["id"], [])
    updates = [a for a in answers if a["out"] == "comm_msg" and a.get("method") == "update"]
    busy = [a for a in answers if a["out"] == "status"]
    if entry is None or not updates or not busy:
        return
    reply = updates[0]
    ms = 1000.0
    created, started = _epoch(reply["date"]) * ms, _epoch(busy[0]["date"]) * ms
    change.server = {
        "1 browser send → server in": entry["t0"] * ms - (origin + send["t"]),
        "2 server in → sent to kernel": (entry["t1"] - entry["t0"]) * ms,
        "3 → kernel starts (status busy created)": started - entry["t1"] * ms,
        "4 kernel: busy → update created": created - started,
        "5 update created → server in": reply["t0"] * ms - created,
        "6 server in → written to browser": (reply["t1"] - reply["t0"]) * ms,
        "7 written → browser receives": origin + received["t"] - reply["t1"] * ms,
        "kernel messages before the update": float(
            sum(1 for a in answers if a["t0"] < reply["t0"])
        ),
    }


# --- floors --------------------------------------------------------------------------------


def websocket_floor(browser: Browser, count: int) -> list[float]:
    """Chromium ↔ a Tornado websocket echo handler with TCP_NODELAY, nothing else (ms)."""
    from tornado import httpserver, ioloop, web, websocket

    class Echo(websocket.WebSocketHandler):
        def open(self, *args: Any, **kwargs: Any) -> None:
            self.set_nodelay(True)

        def on_message(self, message: str | bytes) -> None:
            self.write_message(message, binary=isinstance(message, bytes))

    class Blank(web.RequestHandler):
        def get(self) -> None:
            self.write("<!doctype html><title>echo</title>")

    port = free_port()
    ready = threading.Event()
    holder: dict[str, Any] = {}

    def run() -> None:
        asyncio.set_event_loop(asyncio.new_event_loop())
        app = web.Application([("/", Blank), ("/echo", Echo)])
        holder["server"] = httpserver.HTTPServer(app)
        holder["server"].listen(port, "127.0.0.1")
        holder["loop"] = ioloop.IOLoop.current()
        ready.set()
        holder["loop"].start()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{port}/")
    times: list[float] = page.evaluate(
        """async (n) => {
          const ws = new WebSocket(`ws://${location.host}/echo`);
          ws.binaryType = 'arraybuffer';
          await new Promise((ok) => ws.addEventListener('open', ok));
          const payload = new Uint8Array(400), out = [];
          for (let i = 0; i < n + 5; i++) {
            const t = performance.now();
            const got = new Promise((ok) => ws.addEventListener('message', ok, {once: true}));
            ws.send(payload);
            await got;
            if (i >= 5) out.push(performance.now() - t);
            await new Promise((ok) => setTimeout(ok, 5));
          }
          ws.close();
          return out;
        }""",
        count,
    )
    page.close()
    holder["loop"].add_callback(holder["server"].stop)
    holder["loop"].add_callback(holder["loop"].stop)
    thread.join(10)
    return times


ECHO_WIDGETS = """
import ipywidgets as w
from comm import create_comm
slider, label = w.IntSlider(0, 0, 10), w.Label("0")
slider.observe(lambda change: setattr(label, "value", str(change["new"])), "value")
def _echo_target(comm, open_msg):
    comm.on_msg(lambda msg: comm.send(msg["content"]["data"]))
get_ipython().kernel.comm_manager.register_target("akvo_echo", _echo_target)
print(slider.model_id, label.model_id)
"""


class KernelFloor:
    """A kernel of one configuration, driven from Python over ZMQ with jupyter_client."""

    def __init__(self, config: Config, scratch: Path) -> None:
        from jupyter_client.kernelspec import KernelSpecManager
        from jupyter_client.manager import KernelManager

        specs = KernelSpecManager()
        if config.kernel_python:
            specs = KernelSpecManager(
                kernel_dirs=[str(kernel_spec_dir(scratch, config.kernel_python) / "kernels")]
            )
        self.manager = KernelManager(kernel_name="python3", kernel_spec_manager=specs)
        self.manager.start_kernel(env={**os.environ, **config.env})
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)
        reply = self.client.execute_interactive(ECHO_WIDGETS, output_hook=self._output, timeout=60)
        assert reply["content"]["status"] == "ok", reply
        self.comm_id = "akvo-echo-comm"
        self._send("comm_open", {"comm_id": self.comm_id, "target_name": "akvo_echo", "data": {}})
        self._until_idle()

    _printed = ""

    def _output(self, msg: dict[str, Any]) -> None:
        if msg["msg_type"] == "stream":
            self._printed += msg["content"]["text"]
            self.slider_id, self.label_id = self._printed.split()[:2]

    def _send(self, msg_type: str, content: dict[str, Any]) -> str:
        msg = self.client.session.msg(msg_type, content)
        self.client.shell_channel.send(msg)
        return str(msg["header"]["msg_id"])

    def _until_idle(self) -> None:
        while True:
            msg = self.client.get_iopub_msg(timeout=30)
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return

    def _round_trip(
        self, content: dict[str, Any], done: Callable[[dict[str, Any]], bool]
    ) -> tuple[float, float]:
        start = time.perf_counter()
        msg_id = self._send("comm_msg", content)
        reply = float("nan")
        while True:
            msg = self.client.get_iopub_msg(timeout=30)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "comm_msg" and done(msg):
                reply = (time.perf_counter() - start) * 1000
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return reply, (time.perf_counter() - start) * 1000

    def comm_echo(self) -> tuple[float, float]:
        """A bare comm: shell comm_msg → the kernel's comm_msg on IOPub (and → idle)."""
        data = {"method": "custom", "content": {"n": 1}}
        return self._round_trip({"comm_id": self.comm_id, "data": data}, lambda _: True)

    _value = 0

    def widget_echo(self) -> tuple[float, float]:
        """The echo widgets: slider update → the label's update on IOPub (and → idle)."""
        self._value = 1 - self._value
        data = {"method": "update", "state": {"value": self._value}, "buffer_paths": []}
        return self._round_trip(
            {"comm_id": self.slider_id, "data": data},
            lambda msg: msg["content"]["comm_id"] == self.label_id,
        )

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def signing_cost() -> float:
    """Microseconds to sign one widget update message (HMAC-SHA256, Jupyter's default)."""
    from jupyter_client.session import Session

    session = Session(key=os.urandom(32))
    msg = session.msg(
        "comm_msg",
        {"comm_id": "x" * 32, "data": {"method": "update", "state": {"value": 3}}},
    )
    parts = [
        session.pack(msg["header"]),
        session.pack(msg["parent_header"]),
        session.pack(msg["metadata"]),
        session.pack(msg["content"]),
    ]
    n = 20000
    start = time.perf_counter()
    for _ in range(n):
        mac = hmac.new(session.key, digestmod=hashlib.sha256)
        for part in parts:
            mac.update(part)
        mac.hexdigest()
    return (time.perf_counter() - start) / n * 1e6


# --- the run -------------------------------------------------------------------------------


def summary(values: list[float]) -> str:
    if not values:
        return "– | –"
    return f"{percentile(values, 0.5):.1f} | {percentile(values, 0.95):.1f}"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve_traced(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    parser.add_argument("--changes", type=int, default=30, help="changes per page per round")
    parser.add_argument("--floor", type=int, default=200, help="floor round trips per round")
    parser.add_argument("--ipykernel6", help="a Python whose ipykernel is 6.29.x")
    parser.add_argument("--quick", action="store_true", help="smoke test, not recorded")
    parser.add_argument("--no-echo-only", action="store_true", help="skip the echo configs")
    parser.add_argument(
        "--pages",
        nargs="+",
        default=[BOOK_PROBE.page],
        choices=[p.page for p in PROBES],
        help="the book pages measured beside the bare echo (bench_site's probes)",
    )
    parser.add_argument(
        "--output", type=Path, default=RESULTS, help="where the results go (Markdown)"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.changes, args.floor = 1, 8, 30
    configs = [Config("echo (before)", True), Config("no echo (now)", False)]
    if args.ipykernel6:
        configs += [
            Config("ipykernel 6, echo", True, args.ipykernel6),
            Config("ipykernel 6, no echo", False, args.ipykernel6),
        ]
    if args.no_echo_only:
        configs = [c for c in configs if not c.echo]
    probes = (ECHO, *(p for p in PROBES if p.page in args.pages))
    changes: dict[tuple[str, str], list[Change]] = {}
    ws_floor: list[float] = []
    comm: dict[str, list[tuple[float, float]]] = {}
    widget: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        scratch = Path(folder)
        book = book_with_bench_pages(scratch)
        pools = pools_for([p.page for p in probes])
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        with _servers(book, configs, scratch, pools) as servers:
            kernels = {c.name: KernelFloor(c, scratch) for c in configs}
            try:
                for round_ in range(args.rounds):
                    ws_floor += websocket_floor(browser, args.floor)
                    for config in configs if round_ % 2 == 0 else configs[::-1]:
                        kernel = kernels[config.name]
                        for _ in range(args.floor):
                            comm.setdefault(config.name, []).append(kernel.comm_echo())
                            widget.setdefault(config.name, []).append(kernel.widget_echo())
                        for probe in probes:
                            server = servers[config.name]
                            for change, timeline in page_changes(
                                browser, server, probe, args.changes
                            ):
                                server_split(change, timeline, server)
                                changes.setdefault((config.name, probe.page), []).append(change)
                        print(f"round {round_ + 1}: {config.name} done", flush=True)
            finally:
                for kernel in kernels.values():
                    kernel.close()
        browser.close()
    report = render_report(configs, probes, changes, ws_floor, comm, widget, signing_cost())
    if not args.quick:
        args.output.write_text(report)
    print(report)


@contextmanager
def _servers(
    book: Path, configs: list[Config], scratch: Path, pools: tuple[str, ...]
) -> Iterator[dict[str, TracedServer]]:
    from contextlib import ExitStack

    with ExitStack() as stack:
        yield {c.name: stack.enter_context(traced_server(book, c, scratch, pools)) for c in configs}


PHASES = (
    ("Playwright (press over CDP → text seen by polling every frame)", "playwright"),
    ("keydown → number mutated (in the page)", "key_to_mutation"),
    ("keydown → next frame after the mutation (in the page)", "key_to_frame"),
    ("· keydown → comm_msg sent", "key_to_send"),
    ("· sent → the number's update received", "send_to_recv"),
    ("· received → mutation (decode, model, view)", "recv_to_mutation"),
    ("· mutation → next frame", "mutation_to_frame"),
)


def render_report(
    configs: list[Config],
    probes: tuple[Probe, ...],
    changes: dict[tuple[str, str], list[Change]],
    ws_floor: list[float],
    comm: dict[str, list[tuple[float, float]]],
    widget: dict[str, list[tuple[float, float]]],
    sign_us: float,
) -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    names = [c.name for c in configs]
    lines = [
        "# Round-trip benchmark (`benchmarks/bench_roundtrip.py`)",
        "",
        f"- Date: {now}",
        f"- Machine: {machine()}; load average at the end "
        f"{' / '.join(f'{x:.1f}' for x in os.getloadavg())} (1/5/15 min)",
        "- Configurations, each its own server and kernels, measured in alternating rounds: "
        + ", ".join(f"`{n}`" for n in names)
        + ". All values in ms, p50 | p95.",
        "",
        "## Control → number, in the page and from Playwright",
        "",
    ]
    for probe in probes:
        title = "bare echo" if probe is ECHO else probe.page
        lines += [
            f"### {title} (`{probe.page}`)",
            "",
            "| Phase | " + " | ".join(f"{n} p50 | p95" for n in names) + " |",
            "|---|" + "---|---|" * len(names),
        ]
        for label, attribute in PHASES:
            cells = []
            for name in names:
                values = [getattr(c, attribute) for c in changes.get((name, probe.page), [])]
                cells.append(summary(values))
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        counts = [
            statistics.median([c.frames_in for c in changes.get((n, probe.page), [])] or [0])
            for n in names
        ]
        lines.append(
            "| kernel frames received per change (median) | "
            + " | ".join(f"{c:.0f} | " for c in counts)
            + " |"
        )
        keys = sorted({k for c in changes.get((names[0], probe.page), []) for k in c.server})
        for key in keys:
            cells = []
            for name in names:
                values = [
                    c.server[key]
                    for c in changes.get((name, probe.page), [])
                    if key in c.server and c.server[key] == c.server[key]
                ]
                cells.append(summary(values))
            lines.append(f"| server trace: {key} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += [
        "## Floors",
        "",
        "| Hop | " + " | ".join(f"{n} p50 | p95" for n in names) + " |",
        "|---|" + "---|---|" * len(names),
        "| websocket echo, Chromium ↔ Tornado (TCP_NODELAY), 400 B | "
        + " | ".join(summary(ws_floor) for _ in names)
        + " |",
    ]
    rows = (
        ("kernel comm echo from Python over ZMQ: comm_msg → reply", comm, 0),
        ("kernel comm echo: comm_msg → status idle", comm, 1),
        ("echo widgets from Python: slider update → label update", widget, 0),
        ("echo widgets: slider update → status idle", widget, 1),
    )
    for label, data, index in rows:
        cells = [summary([pair[index] for pair in data.get(n, [])]) for n in names]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"HMAC-SHA256 signing of one widget update message: {sign_us:.1f} µs (Python, "
        "the same work as `Session.sign`); each round trip signs about 5 messages "
        "(the browser's, the kernel's status busy, echo, update, status idle).",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
