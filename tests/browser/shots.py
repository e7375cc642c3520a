"""Screenshots of every page of the book at 1280 and 390 px, to look at with one's own eyes.

``make shots`` (or ``python -m tests.browser.shots [PAGE …] [--widths 1280,390]``) starts
one book server on a free loopback port, opens every page of the manifest (or the pages
named) in Debian's Chromium, waits until its widgets have stopped arriving, and writes
``test-artifacts/shots/<width>/<page>.png`` (the whole page) plus tiles
``<page>-01.png``… of one screen height each, small enough for an image viewer to show at
full size. A green test run says nothing about a clipped table or a quiz that shows its
answer: these pictures do.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from akvo_site.app import SMALL_POOLS, background_server
from akvo_widgets import chapters as manifest
from tests.browser.chromium import CHROMIUM_FLAGS, chromium_path

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
OUT = ROOT / "test-artifacts" / "shots"
#: Screen heights of the tiles: a desktop screen, a phone screen (iPhone 12–15 class).
HEIGHTS = {1280: 900, 390: 844}
#: How long the count of drawn widget views must stay the same before the page is "done".
QUIET_S = 2.5

#: Number of drawn widget views and of placeholders still waiting (Voilà's lab template).
_DRAWN = """() => ({
  views: document.querySelectorAll('.jupyter-widgets, .akvo-widget, .bqplot, svg').length,
  waiting: document.querySelectorAll(
    '.jp-OutputArea-output .widget-loading, #loading:not([style*="none"])').length +
    [...document.querySelectorAll('.jp-OutputArea-output')].filter(
      (e) => e.textContent.startsWith('Loading widget')).length,
  height: Math.max(document.documentElement.scrollHeight,
    (document.querySelector('#rendered_cells') || document.body).scrollHeight),
})"""


def settle(page: Page, timeout_s: float = 90.0, quiet_s: float = QUIET_S) -> None:
    """Wait until the page's widgets have stopped arriving (or ``timeout_s`` passes):
    nothing is waiting and the count of drawn views and the page height have not changed
    for ``quiet_s``."""
    page.wait_for_selector("h1", timeout=int(timeout_s * 1000))
    deadline = time.monotonic() + timeout_s
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        now = page.evaluate(_DRAWN)
        key = (now["views"], now["height"])
        if key != last:
            last, since = key, time.monotonic()
        elif not now["waiting"] and time.monotonic() - since >= quiet_s:
            return
        time.sleep(0.25)


def shoot(page: Page, url: str, file: str, width: int, folder: Path) -> list[Path]:
    """The whole page and its screen-sized tiles; returns the files written."""
    height = HEIGHTS.get(width, 900)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    settle(page)
    total = int(page.evaluate(_DRAWN)["height"])
    # Voilà's page may scroll inside #rendered_cells: grow the viewport to the whole page.
    page.set_viewport_size({"width": width, "height": total + 40})
    page.wait_for_timeout(300)
    stem = Path(file).stem
    for old in [*folder.glob(f"{stem}.png"), *folder.glob(f"{stem}-[0-9][0-9].png")]:
        old.unlink()  # a page grown shorter leaves no stale tile behind
    whole = folder / f"{stem}.png"
    page.screenshot(path=str(whole), full_page=True)
    written = [whole]
    for index, top in enumerate(range(0, total, height), start=1):
        tile = folder / f"{stem}-{index:02d}.png"
        clip = {"x": 0, "y": top, "width": width, "height": min(height, total + 40 - top)}
        page.screenshot(path=str(tile), clip=clip, full_page=True)
        written.append(tile)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="notebooks (default: every page)")
    parser.add_argument("--widths", default="1280,390", help="comma-separated widths in px")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    pages = args.pages or [manifest.HOME, *(c.file for c in manifest.CHAPTERS)]
    widths = [int(w) for w in args.widths.split(",")]
    log = args.out / "voila.log"
    args.out.mkdir(parents=True, exist_ok=True)
    with background_server(BOOK, log, *SMALL_POOLS) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        for width in widths:
            folder = args.out / str(width)
            folder.mkdir(parents=True, exist_ok=True)
            for file in pages:
                context = browser.new_context(viewport={"width": width, "height": 900})
                page = context.new_page()
                started = time.monotonic()
                files = shoot(page, f"{base}/voila/render/{file}", file, width, folder)
                took = time.monotonic() - started
                print(f"{width:>5} px  {file:<36} {len(files) - 1:>2} tiles  {took:5.1f} s")
                context.close()
        browser.close()
    print(f"screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
