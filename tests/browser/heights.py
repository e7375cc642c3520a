"""The outputs' reserved heights (``akvo-heights.css``): measured in Chromium, checked, written.

The ``akvo`` template shows each page's text at once and keeps every output's place with a
placeholder (akvo.js) as tall as the output will be, so nothing moves when the front end
draws it. Those heights are measured here, on every page of the manifest, at a desktop
width (1280 px: the book's column at its widest, used above :data:`NARROW_MAX` px) and a
phone width (390 px, used up to :data:`NARROW_MAX` px). ``tests/browser/test_reserved_heights.py``
fails when the file no longer matches the pages (an output added, moved or resized); then
``python -m tests.browser.heights --write`` (about 2 minutes) rewrites it.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from akvo_site.app import SMALL_POOLS, background_server
from akvo_widgets import chapters as manifest
from tests.browser.chromium import CHROMIUM_FLAGS, chromium_path

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
CSS = ROOT / "akvo_site" / "templates" / "voila" / "templates" / "akvo" / "static"
CSS = CSS / "akvo-heights.css"
WIDTHS = {"wide": 1280, "narrow": 390}
SCREEN_HEIGHT = 900
#: Widest viewport (px) that uses the phone heights.
NARROW_MAX = 700
#: A reservation this close (px) to the measured height is up to date (``--write``'s report).
TOLERANCE = 4
#: What the test allows: an output off by this much moves what follows by at most 32/900 of
#: a screen (a layout shift of about 0.04 per output, under the 0.1 target for a page),
#: while a font or a Chromium build that draws a line a few pixels taller passes.
LAYOUT_TOLERANCE = 32
#: How long every output's height must stay the same before it is measured.
QUIET_S = 2.0
PAGES = (manifest.HOME, *(c.file for c in manifest.CHAPTERS))

Heights = dict[str, int]  # output key ("des/4/0") → height in px

_MEASURE = """() => {
  const out = {};
  document.querySelectorAll('.jp-OutputArea-child[data-akvo-output]').forEach((child) => {
    out[child.getAttribute('data-akvo-output')] = Math.round(child.getBoundingClientRect().height);
  });
  return {heights: out, pending: document.querySelectorAll('.akvo-pending').length};
}"""


#: Pages measured side by side (each in its own window; their kernels start together).
AT_ONCE = 4


@dataclass
class _Watch:
    """One page being measured: the last heights seen on it, and since when."""

    page: Page
    last: Heights | None = None
    since: float = 0.0

    def settled(self) -> Heights | None:
        """The page's heights once none is pending and none moved for :data:`QUIET_S`
        seconds, else ``None``."""
        state = self.page.evaluate(_MEASURE)
        heights: Heights = state["heights"]
        now = time.monotonic()
        if heights != self.last:
            self.last, self.since = heights, now
        elif heights and not state["pending"] and now - self.since >= QUIET_S:
            return heights  # not before the first output: a slow page starts blank
        return None


def _settle(waiting: dict[str, _Watch], timeout_s: float) -> Heights:
    """The heights of every watched page once each has settled (see :meth:`_Watch.settled`)."""
    found: Heights = {}
    deadline = time.monotonic() + timeout_s
    while waiting and time.monotonic() < deadline:
        for url, watch in list(waiting.items()):
            heights = watch.settled()
            if heights is not None:
                found.update(heights)
                del waiting[url]
        time.sleep(0.25)
    if waiting:
        late = ", ".join(waiting)
        raise TimeoutError(f"{late}: outputs still pending or moving after {timeout_s:.0f} s")
    return found


def measure_pages(
    browser: Browser, urls: list[str], widths: dict[str, int], timeout_s: float = 120.0
) -> dict[str, Heights]:
    """Width name → every output's height on the pages at ``urls``, opened side by side at
    the first width, then resized to each next one (one kernel per page for every width: a
    page lays its outputs out by CSS alone, so a resized page draws what a page opened at
    that width draws, which ``python -m tests.browser.heights --fresh`` checks)."""
    (first, *_) = widths.values()
    contexts = [
        browser.new_context(viewport={"width": first, "height": SCREEN_HEIGHT}) for _ in urls
    ]
    try:
        pages = [context.new_page() for context in contexts]
        for page, url in zip(pages, urls, strict=True):
            page.goto(url, wait_until="commit")
        found: dict[str, Heights] = {}
        for name, width in widths.items():
            for page in pages:
                page.set_viewport_size({"width": width, "height": SCREEN_HEIGHT})
            watches = {url: _Watch(page) for page, url in zip(pages, urls, strict=True)}
            found[name] = _settle(watches, timeout_s)
        return found
    finally:
        for context in contexts:
            context.close()


def measure(
    browser: Browser, base: str, pages: Iterable[str], fresh: bool = False
) -> dict[str, Heights]:
    """Width name → every output's height, over ``pages`` (fresh windows, :data:`AT_ONCE`
    at a time, each measured at every width in turn; ``fresh``: a new window per width)."""
    files = list(pages)
    found: dict[str, Heights] = {name: {} for name in WIDTHS}
    groups = [{name: width} for name, width in WIDTHS.items()] if fresh else [WIDTHS]
    for widths in groups:
        for start in range(0, len(files), AT_ONCE):
            batch = files[start : start + AT_ONCE]
            urls = [f"{base}/voila/render/{file}" for file in batch]
            for name, heights in measure_pages(browser, urls, widths).items():
                found[name].update(heights)
            print(f"{' '.join(map(str, widths.values())):>9} px  {' '.join(batch)}", flush=True)
    return found


def to_css(found: dict[str, Heights]) -> str:
    lines = [
        "/* Reserved heights of the book's outputs (px), measured in Chromium by",
        "   tests/browser/heights.py: do not edit; `python -m tests.browser.heights --write`",
        "   rewrites this file, tests/browser/test_reserved_heights.py says when to. */",
    ]
    rule = '.akvo-pending[data-akvo-output="{key}"] {{ min-height: {px}px; }}'
    lines += [rule.format(key=k, px=v) for k, v in sorted(found["wide"].items())]
    lines.append(f"@media (max-width: {NARROW_MAX}px) {{")
    lines += ["  " + rule.format(key=k, px=v) for k, v in sorted(found["narrow"].items())]
    lines.append("}")
    return "\n".join(lines) + "\n"


_RULE = re.compile(r'data-akvo-output="([^"]+)"\] \{ min-height: (\d+)px; \}')


def from_css(text: str) -> dict[str, Heights]:
    """The heights written by :func:`to_css`."""
    wide, _, narrow = text.partition("@media")
    return {
        name: {key: int(px) for key, px in _RULE.findall(part)}
        for name, part in (("wide", wide), ("narrow", narrow))
    }


def stale(
    recorded: dict[str, Heights], found: dict[str, Heights], tolerance: int = TOLERANCE
) -> list[str]:
    """Each output whose reservation is missing or off by more than ``tolerance`` px."""
    problems = []
    for name, heights in found.items():
        for key, px in sorted(heights.items()):
            want = recorded.get(name, {}).get(key)
            if want is None:
                problems.append(f"{name} {key}: {px} px, no reservation")
            elif abs(want - px) > tolerance:
                problems.append(f"{name} {key}: {px} px, {want} px reserved")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {CSS.name}")
    parser.add_argument(
        "--fresh", action="store_true", help="open each page anew at each width (slower)"
    )
    parser.add_argument("pages", nargs="*", help="only these notebooks (default: every page)")
    args = parser.parse_args(argv)
    pages = args.pages or PAGES
    log = ROOT / "test-artifacts" / "heights-voila.log"
    log.parent.mkdir(exist_ok=True)
    with background_server(BOOK, log, *SMALL_POOLS) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        found = measure(browser, base, pages, fresh=args.fresh)
        browser.close()
    recorded = from_css(CSS.read_text())
    problems = stale(recorded, found)
    print("\n".join(problems) or "every reservation is up to date")
    if args.write:
        stems = tuple(f"{Path(p).stem}/" for p in pages)
        for name, heights in recorded.items():  # the pages not measured keep theirs
            kept = {k: v for k, v in heights.items() if not k.startswith(stems)}
            found[name] = {**kept, **found[name]}
        CSS.write_text(to_css(found))
        print(f"written: {CSS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
