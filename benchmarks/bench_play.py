"""Play benchmark: the bots' reply time per decision, and a click → updated board in Chromium.

1. Bot replies: whole matches where both sides are the same bot (seeded dice), timing every
   call ``bot(state)`` at a decision node with ``time.perf_counter``; the « fort » bot is
   timed on its first decisions only (it searches, by design, for much longer).
2. Click → board: serves the book on a free loopback port, opens « Jouer un match » against
   the « normal » bot and presses the first offered decision, again and again; each time it
   waits (polling every frame) until the page shows the new position (the status line's
   move count, redrawn with the board after the engine and the bot have played). Timed in
   the page, from the click event, so Playwright's own checks are not counted.

3. Kernel side of a click, without a browser: the CPU time of « Jouer un match »'s click
   handler (the engine, the dice, the bot's replies, the redraw, every widget's state
   serialised), and the messages and bytes it sends to the page — what the kernel adds to
   the click → board latency, measured apart from the machine's load and the browser.

Results go to ``benchmarks/results/play.md`` (targets: bot p95 ≤ 50 ms, click p95 ≤ 100 ms).
Usage: ``.venv/bin/python benchmarks/bench_play.py`` (``--kernel-only``: part 3 only,
printed, no browser, nothing written).
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

import ipywidgets
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from akvo.bots import BOTS, make_bot
from akvo.match import new_match
from akvo.match.phases import Phase
from akvo_widgets.play.game import MatchGame

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "play.md"
sys.path.insert(0, str(ROOT))
from bench_site import book_browser, percentile, report_head  # noqa: E402

PAGE = "jouer-un-match.ipynb"
MATCHES = 10
SEARCH_DECISIONS = 20
CLICKS = 100
WAIT_MS = 60_000
BOT_TARGET_MS = 50.0
CLICK_TARGET_MS = 100.0

CLICK_IN_PAGE = """
async () => {
  const line = () => document.querySelector(".akvo-play .akvo-play-status-line");
  const button = document.querySelector(".akvo-play-decisions .akvo-play-action");
  if (!button) return null;
  const before = line().dataset.moves;
  const start = performance.now();
  button.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  while (line().dataset.moves === before)
    await new Promise(requestAnimationFrame);
  return performance.now() - start;
}
"""


def bot_times(name: str, limit: int | None = None) -> list[float]:
    """Milliseconds per decision of bot ``name`` playing both sides of seeded matches."""
    out: list[float] = []
    for seed in range(MATCHES):
        rng = random.Random(seed)
        bots = (make_bot(name, seed=2 * seed), make_bot(name, seed=2 * seed + 1))
        state = new_match()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            start = time.perf_counter()
            action = bots[state.current_player](state)
            out.append((time.perf_counter() - start) * 1000)
            state.apply_action(action)
            if limit is not None and len(out) >= limit:
                return out
    return out


def kernel_clicks(count: int = 3 * CLICKS) -> tuple[list[float], float, float]:
    """CPU milliseconds per click of MatchGame's handler (first offered decision, against the
    « normal » bot), and the messages and bytes sent to the page per click (JSON)."""
    sent = [0, 0]
    original = ipywidgets.Widget._send

    def count_send(widget: object, msg: dict[str, object], buffers: object = None) -> None:
        sent[0] += 1
        sent[1] += len(json.dumps(msg, default=str))

    game = MatchGame(seed=5, opponent="greedy")
    ipywidgets.Widget._send = count_send
    times: list[float] = []
    try:
        for _ in range(count):
            if game.state.is_terminal():
                game.start()
            orders = game.state.phase == Phase.ORDERS
            button = game.composer.confirm if orders else game.action_buttons.pool[0]
            start = time.process_time()
            button.click()
            times.append((time.process_time() - start) * 1000)
    finally:
        ipywidgets.Widget._send = original
    return times, sent[0] / count, sent[1] / count


def kernel_lines(times: list[float], messages: float, size: float) -> list[str]:
    return [
        "",
        f"## Kernel side of a click, no browser ({len(times)} clicks)",
        "",
        "CPU time of the click handler of « Jouer un match » against the « normal » bot "
        "(engine, dice, the bot's replies, the redraw of board, buttons, log and status, each "
        "widget's state serialised), and what it sends to the page per click.",
        "",
        "| clicks | p50 CPU (ms) | p95 CPU (ms) | max CPU (ms) | messages/click | bytes/click |",
        "|---|---|---|---|---|---|",
        f"| {len(times)} | {statistics.median(times):.1f} | {percentile(times, 0.95):.1f} "
        f"| {max(times):.1f} | {messages:.1f} | {size:,.0f} |",
    ]


def open_game(page: Page, url: str) -> None:
    """Open the page until the game shows (an overloaded machine may make Voilà's pre-heated
    kernel lose a cell's output; a reload takes a fresh kernel)."""
    for _attempt in range(3):
        page.goto(url, timeout=120_000)
        try:
            page.locator(".akvo-play-orders-confirm").wait_for(timeout=WAIT_MS // 2)
            return
        except PlaywrightTimeout:
            continue
    page.locator(".akvo-play-orders-confirm").wait_for(timeout=WAIT_MS)


def clicks(page: Page) -> list[float]:
    opponent = page.locator(".akvo-play-opponent select")
    opponent.select_option(label=f"Bot « {BOTS['greedy']} »")
    out: list[float] = []
    while len(out) < CLICKS:
        if page.locator(".akvo-play-result p").count():
            page.locator(".akvo-play-new").first.click()
            page.locator(".akvo-play-orders-confirm").wait_for(timeout=WAIT_MS)
        elapsed = page.evaluate(CLICK_IN_PAGE)
        if elapsed is not None:
            out.append(float(elapsed))
        time.sleep(0.02)
    return out[1:]  # the first one warms the page up


def row(label: str, times: list[float], target: float) -> str:
    p95 = percentile(times, 0.95)
    ok = "yes" if p95 <= target else "NO"
    return (
        f"| {label} | {len(times)} | {statistics.median(times):.1f} | {p95:.1f} "
        f"| {max(times):.1f} | {ok} |"
    )


def main() -> None:
    kernel = kernel_lines(*kernel_clicks())
    if "--kernel-only" in sys.argv:
        print("\n".join(kernel))
        return
    bots = {name: bot_times(name) for name in BOTS if name != "search"}
    if "search" in BOTS:
        bots["search"] = bot_times("search", SEARCH_DECISIONS)
    with book_browser("play") as (base, browser):
        page = browser.new_page()
        open_game(page, f"{base}/voila/render/{PAGE}")
        lags = clicks(page)
    lines = [
        *report_head("Play benchmark (`benchmarks/bench_play.py`)"),
        "",
        "## Bot reply time per decision",
        "",
        f"Target: p95 ≤ {BOT_TARGET_MS:.0f} ms for the « normal » bot. Both sides played by "
        f"the bot, {MATCHES} seeded matches (the « fort » bot: its first "
        f"{SEARCH_DECISIONS} decisions only).",
        "",
        "| Bot | decisions | p50 (ms) | p95 (ms) | max (ms) | ≤ 50 ms p95 |",
        "|---|---|---|---|---|---|",
    ]
    lines += [row(f"{name} (« {BOTS[name]} »)", t, BOT_TARGET_MS) for name, t in bots.items()]
    lines += [
        "",
        f"## Click → updated board ({len(lags)} clicks)",
        "",
        f"Target: p95 ≤ {CLICK_TARGET_MS:.0f} ms. « {PAGE} » against the « normal » bot; "
        "each click presses the first offered decision. Timed in the page, from the click "
        "event to the first frame showing the new position: kernel round trip, the engine, "
        "the dice and the bot's replies until the reader decides again, the new board, "
        "buttons and log (the save link is built on demand).",
        "",
        "| Input | clicks | p50 (ms) | p95 (ms) | max (ms) | ≤ 100 ms p95 |",
        "|---|---|---|---|---|---|",
        row("click", lags, CLICK_TARGET_MS),
        *kernel,
    ]
    report = "\n".join(lines) + "\n"
    RESULTS.write_text(report)
    print(report)


if __name__ == "__main__":
    main()
