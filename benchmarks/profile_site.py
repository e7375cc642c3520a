"""Where one first render of a pre-heated page goes, in Chromium (a profile, not a target).

Serves the book (plus the bench pages of ``bench_site``) with one pre-heated kernel per
page, opens the home page in one browser context (its scripts cached, as for a reader moving
on), then opens each page given in that context, recording in the page itself
(``performance.now()``, ms since navigation start):

- the HTML response, ``DOMContentLoaded``, ``load`` (when Voilà's ``main`` starts);
- every script/style fetched: count, bytes, when the last one of each wave ended;
- the kernel websocket: when it opened, each message sent and received (type and time),
  in particular ``kernel_info`` and the widget states (``comm_info`` + ``request_states``);
- the widget models the page creates, by model name;
- long tasks (> 50 ms on the main thread) and, from a Chromium trace, the main thread's
  time in script compilation and evaluation, style and layout;
- the first render (:data:`bench_site.FIRST_RENDER`).

Usage: ``.venv/bin/python benchmarks/profile_site.py des.ipynb [--repeat 3] [OPTIONS…]``
(extra ``--Voila…`` options after ``--`` go to the server). Prints the timeline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_site import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    FIRST_RENDER,
    POOL_WAIT,
    WAIT_MS,
    book_with_bench_pages,
    pools_for,
)

from akvo_site.app import background_server, wait_for_pools

#: Installed before any page script: timestamps of websocket events and kernel messages
#: (Jupyter's v1 binary protocol: offsets, channel, header, …), and long tasks.
RECORDER = """(() => {
  const log = (window.__akvo = {ws: [], long: []});
  const text = new TextDecoder();
  const msgType = (data) => {
    if (typeof data === 'string') { try { return JSON.parse(data).msg_type
      || JSON.parse(data).header.msg_type; } catch (e) { return 'text'; } }
    const view = new DataView(data);
    const n = Number(view.getBigUint64(0, true));
    const off = (i) => Number(view.getBigUint64(8 * (i + 1), true));
    const end = (i) => (i + 1 < n ? off(i + 1) : data.byteLength);
    const part = (i) => text.decode(new Uint8Array(data, off(i), end(i) - off(i)));
    try {
      const header = JSON.parse(part(1));
      let type = header.msg_type;
      if (type === 'comm_msg' || type === 'comm_open') {
        const content = JSON.parse(part(4));
        const method = content.data && content.data.method;
        if (method) type += ':' + method;
      }
      return part(0) + '/' + type;
    } catch (e) { return 'binary'; }
  };
  const Native = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    log.ws.push(['new', performance.now(), String(url).split('?')[0].slice(-40)]);
    ws.addEventListener('open', () => log.ws.push(['open', performance.now()]));
    ws.addEventListener('message', (e) => log.ws.push(
      ['recv', performance.now(), msgType(e.data), e.data.byteLength || e.data.length]));
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      log.ws.push(['send', performance.now(), msgType(data)]);
      return send(data);
    };
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  try {
    new PerformanceObserver((list) => list.getEntries().forEach(
      (e) => log.long.push([e.startTime, e.duration]))).observe({type: 'longtask', buffered: true});
  } catch (e) {}
})();"""

SUMMARY = """async () => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource').map((r) => ({
    name: r.name.split('/').slice(-2).join('/'), type: r.initiatorType,
    start: r.startTime, end: r.responseEnd, size: r.transferSize, body: r.decodedBodySize}));
  const models = {};
  const manager = window.jupyterapp && window.jupyterapp.widgetManager;
  if (manager && manager._models) {
    for (const p of Object.values(manager._models)) {
      try { const m = await p; const name = m.get('_model_name');
        models[name] = (models[name] || 0) + 1; } catch (e) {}
    }
  }
  return {response: nav.responseEnd, dcl: nav.domContentLoadedEventEnd,
    load: nav.loadEventStart, res, models, ws: window.__akvo.ws, long: window.__akvo.long,
    rendered: window.__akvo_rendered};
}"""

#: Trace events on the renderer's main thread, grouped (Chromium's timeline names).
GROUPS = {
    "compile": ("v8.compile", "V8.CompileCode", "v8.parseOnBackground", "CompileScript"),
    "evaluate": (
        "EvaluateScript",
        "v8.run",
        "FunctionCall",
        "TimerFire",
        "EventDispatch",
        "FireAnimationFrame",
        "RunMicrotasks",
        "v8.callFunction",
    ),
    "style+layout": ("UpdateLayoutTree", "Layout", "RecalculateStyles", "ParseAuthorStyleSheet"),
    "paint": ("Paint", "PrePaint", "Layerize", "UpdateLayer", "CompositeLayers"),
    "parse HTML": ("ParseHTML",),
    "gc": ("MinorGC", "MajorGC", "V8.GC_SCAVENGER", "BlinkGC.AtomicPhase"),
}


def main_thread_times(events: list[dict[str, Any]], until_us: float) -> dict[str, float]:
    """Milliseconds of top-level work per group on the renderer main thread, until the render."""
    main = None
    for e in events:
        if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain":
            main = (e["pid"], e["tid"])
    nav = min((e["ts"] for e in events if e.get("name") == "navigationStart"), default=None)
    out: dict[str, float] = defaultdict(float)
    if main is None or nav is None:
        return {}
    lookup = {name: group for group, names in GROUPS.items() for name in names}
    # Only outermost complete events of interest (nested ones are inside their parent).
    spans = sorted(
        (e["ts"], e["ts"] + e.get("dur", 0), e["name"])
        for e in events
        if (e.get("pid"), e.get("tid")) == main
        and e.get("ph") == "X"
        and e["name"] in lookup
        and nav <= e["ts"] <= nav + until_us
    )
    end = 0.0
    busy = 0.0
    for start, stop, name in spans:
        if start >= end:
            out[lookup[name]] += (stop - start) / 1000
            busy += (stop - start) / 1000
            end = stop
    tasks = sum(
        e.get("dur", 0) / 1000
        for e in events
        if (e.get("pid"), e.get("tid")) == main
        and e.get("ph") == "X"
        and e["name"] in ("RunTask", "ThreadControllerImpl::RunTask")
        and nav <= e["ts"] <= nav + until_us
    )
    out["main thread busy (all tasks)"] = tasks
    return dict(out)


def top_events(events: list[dict[str, Any]], until_us: float) -> list[tuple[str, float]]:
    """Self time (ms) per event name on the renderer main thread, until the render."""
    main = next(
        (
            (e["pid"], e["tid"])
            for e in events
            if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"
        ),
        None,
    )
    nav = min((e["ts"] for e in events if e.get("name") == "navigationStart"), default=0)
    spans = sorted(
        (e["ts"], -e.get("dur", 0), e["name"])
        for e in events
        if (e.get("pid"), e.get("tid")) == main
        and e.get("ph") == "X"
        and nav <= e["ts"] <= nav + until_us
    )
    selfs: dict[str, float] = defaultdict(float)
    stack: list[list[Any]] = []  # [end, name, self]
    for start, neg, name in spans:
        while stack and stack[-1][0] <= start:
            _, n, own = stack.pop()
            selfs[n] += own
        dur = -neg
        if stack:
            stack[-1][2] -= dur
        stack.append([start + dur, name, dur])
    for _, n, own in stack:
        selfs[n] += own
    return sorted(((n, v / 1000) for n, v in selfs.items()), key=lambda kv: -kv[1])[:25]


def visit(context: Any, url: str, trace: bool) -> dict[str, Any]:
    page = context.new_page()
    page.add_init_script(RECORDER)
    cdp = context.new_cdp_session(page) if trace else None
    chunks: list[dict[str, Any]] = []
    if cdp is not None:
        cdp.on("Tracing.dataCollected", lambda p: chunks.extend(p["value"]))
        done: list[bool] = []
        cdp.on("Tracing.tracingComplete", lambda p: done.append(True))
        cdp.send(
            "Tracing.start",
            {
                "categories": "devtools.timeline,v8,v8.execute,blink.user_timing,"
                "disabled-by-default-devtools.timeline,loading",
                "transferMode": "ReportEvents",
            },
        )
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(
        f"() => {{ const ok = ({FIRST_RENDER})(); if (ok && !window.__akvo_rendered) "
        "window.__akvo_rendered = performance.now(); return ok; }",
        polling="raf",
        timeout=WAIT_MS,
    )
    wall = time.perf_counter() - start
    time.sleep(1.0)  # let the widget states finish arriving for the model count
    summary: dict[str, Any] = page.evaluate(SUMMARY)
    summary["wall"] = wall
    if cdp is not None:
        cdp.send("Tracing.end")
        deadline = time.monotonic() + 30
        while not done and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        summary["main"] = main_thread_times(chunks, summary["rendered"] * 1000)
        summary["top"] = top_events(chunks, summary["rendered"] * 1000)
    page.close()
    return summary


def waves(resources: list[dict[str, Any]], rendered: float) -> list[str]:
    """Resources fetched before the render, grouped by gaps: a wave starts after a pause."""
    rows = sorted((r for r in resources if r["start"] <= rendered), key=lambda r: r["start"])
    out: list[str] = []
    group: list[dict[str, Any]] = []
    for r in rows:
        if group and r["start"] > max(g["end"] for g in group):
            out.append(_wave(group))
            group = []
        group.append(r)
    if group:
        out.append(_wave(group))
    return out


def _wave(group: list[dict[str, Any]]) -> str:
    body = sum(g["body"] for g in group) / 1e3
    names = ", ".join(sorted({g["name"].split("/")[0] for g in group}))[:90]
    return (
        f"{min(g['start'] for g in group):6.0f}–{max(g['end'] for g in group):6.0f} ms: "
        f"{len(group):3d} files, {body:6.0f} KB ({names})"
    )


def report(file: str, runs: list[dict[str, Any]]) -> None:
    last = runs[-1]
    print(
        f"\n=== {file}: first render {[round(r['rendered']) for r in runs]} ms (in page), "
        f"wall {[round(r['wall'] * 1000) for r in runs]} ms"
    )
    print(
        f"HTML {last['response']:.0f} ms, DOMContentLoaded {last['dcl']:.0f}, load (Voilà "
        f"main starts) {last['load']:.0f}"
    )
    before = [r for r in last["res"] if r["start"] <= last["rendered"]]
    print(
        f"resources before the render: {len(before)}, "
        f"{sum(r['body'] for r in before) / 1e6:.2f} MB decoded, "
        f"{sum(r['size'] for r in before) / 1e6:.2f} MB transferred"
    )
    asked = [r for r in before if r["size"] > 0]
    print(
        f"  of which asked from the server (fetched or revalidated, not from the cache): "
        f"{len(asked)}"
    )
    for line in waves(last["res"], last["rendered"]):
        print("  wave", line)
    print("websocket:")
    interesting = ("new", "open", "send", "recv")
    for event in last["ws"]:
        if event[0] in interesting and "status" not in str(event[2:3]):
            print(f"  {event[1]:7.0f} ms {event[0]} {event[2] if len(event) > 2 else ''}")
    print(
        "widget models:", sum(last["models"].values()), dict(Counter(last["models"]).most_common())
    )
    long = [d for s, d in last["long"] if s <= last["rendered"]]
    print(
        f"long tasks before render: {len(long)}, {sum(long):.0f} ms (largest "
        f"{max(long, default=0):.0f})"
    )
    if last.get("main"):
        mains = {k: statistics.median(r["main"].get(k, 0) for r in runs) for k in last["main"]}
        print("top main-thread events (self ms):", [(n, round(v)) for n, v in last["top"][:15]])
        print(
            "main thread (median of runs, ms):",
            ", ".join(f"{k} {v:.0f}" for k, v in sorted(mains.items(), key=lambda kv: -kv[1])),
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--new-reader", action="store_true", help="fresh context per visit")
    parser.add_argument("--no-trace", action="store_true")
    parser.add_argument("--dump", help="write the last page's raw runs (JSON) here")
    args, extra = parser.parse_known_args()
    root = Path(__file__).resolve().parents[1]
    log = root / "test-artifacts" / "profile-voila.log"
    log.parent.mkdir(exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as scratch,
        background_server(
            book_with_bench_pages(Path(scratch)), log, *pools_for(args.pages), *extra
        ) as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        context = browser.new_context()
        wait_for_pools(base, POOL_WAIT)
        visit(context, f"{base}/voila/render/index.ipynb", trace=False)
        for file in args.pages:
            runs = []
            for _ in range(args.repeat):
                wait_for_pools(base, POOL_WAIT)
                if args.new_reader:
                    context.close()
                    context = browser.new_context()
                runs.append(visit(context, f"{base}/voila/render/{file}", not args.no_trace))
            report(file, runs)
            if args.dump:
                Path(args.dump).write_text(json.dumps(runs, default=str))
        browser.close()


if __name__ == "__main__":
    main()
