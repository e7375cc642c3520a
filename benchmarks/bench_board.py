"""Board benchmark: a click on a unit → the board showing its targets, in Chromium.

Serves the book on a free loopback port (as the browser tests do), opens the mage-shot
chapter, whose live board shows a position, and clicks three of A's mages in turn, 50
times; each time it waits (polling every frame) until the board's details name the newly
selected mage. The board ships every clickable mage's selection layer with the position
(computed by Python with the engine), so the time covers the click, inserting that layer
and the repaint; the kernel round trip that confirms the selection follows in the
background. Also times the same selection done by the keyboard (Enter).

Results go to ``benchmarks/results/board.md`` (target: p95 ≤ 100 ms). Usage:
``.venv/bin/python benchmarks/bench_board.py``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import Page

from akvo.match.board import CHAR_LABELS, CHAR_NAMES

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "board.md"
sys.path.insert(0, str(ROOT))
from bench_site import book_browser, percentile, report_head  # noqa: E402

PAGE = "tir-sur-un-mage.ipynb"
UNITS = ("plongeur", "surfeur", "pedalair")
CLICKS = 50
WAIT_MS = 60_000
TARGET_MS = 100.0


SELECT_IN_PAGE = """
async ([selector, label, how]) => {
  const unit = document.querySelector(selector);
  const named = () => document.querySelector(".akvo-board-details b")?.innerText === label;
  const start = performance.now();
  if (how === "keyboard") {
    unit.focus();
    unit.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
  } else {
    unit.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  }
  while (!named()) await new Promise(requestAnimationFrame);
  return performance.now() - start;
}
"""


def selections(page: Page, how: str) -> list[float]:
    """Select A's mages in turn (click or Enter); milliseconds until the details name each.

    Timed inside the page (from the DOM event to the first frame showing the new
    selection), so that Playwright's own checks before a click are not counted.
    """
    board = page.locator(".akvo-board")
    board.locator(".akvo-board-target").first.wait_for(timeout=WAIT_MS)
    out = []
    for index in range(CLICKS + 1):
        name = UNITS[index % len(UNITS)]
        selector = f'.akvo-board-unit[data-side="A"][data-character="{name}"]'
        label = f"{CHAR_LABELS[CHAR_NAMES.index(name)]} de A"
        elapsed = page.evaluate(SELECT_IN_PAGE, [selector, label, how])
        if index:  # the first one warms the page up
            out.append(float(elapsed))
        time.sleep(0.05)
    return out


def main() -> None:
    lags: dict[str, list[float]] = {}
    with book_browser("board") as (base, browser):
        for how in ("click", "keyboard"):
            page = browser.new_page()
            page.goto(f"{base}/voila/render/{PAGE}", timeout=120_000)
            lags[how] = selections(page, how)
            page.close()
    lines = [
        *report_head("Board benchmark (`benchmarks/bench_board.py`)"),
        f"- Page: `{PAGE}` served by `python -m akvo_site`, headless Chromium.",
        "",
        f"## Select a unit → its targets shown ({CLICKS} selections each)",
        "",
        f"Target: p95 ≤ {TARGET_MS:.0f} ms. Timed in the page, from the click (or Enter key) "
        "event on the unit to the first frame where the board's details name the new mage. "
        "Each clickable mage's selection layer comes with the position (computed in Python "
        "by `unit_preview`), so no kernel round trip is waited for; Python confirms the "
        "selection right after. Before that design, waiting for the round trip measured "
        "p50 45 ms, p95 132 ms on this loaded machine.",
        "",
        "| Input | p50 (ms) | p95 (ms) | max (ms) | target met |",
        "|---|---|---|---|---|",
    ]
    for how, times in lags.items():
        ms = times
        p95 = percentile(ms, 0.95)
        ok = "yes" if p95 <= TARGET_MS else "NO"
        lines.append(f"| {how} | {statistics.median(ms):.0f} | {p95:.0f} | {max(ms):.0f} | {ok} |")
    report = "\n".join(lines) + "\n"
    RESULTS.write_text(report)
    print(report)


if __name__ == "__main__":
    main()
