"""Where Debian's Chromium is and how it is launched headless here (shared by the browser
tests and benchmarks/bench_site.py). ``playwright install`` cannot download browsers.
Also the browser tests' one rule for "nothing fetched from outside the book"."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    """``AKVO_CHROMIUM`` if set, else Debian's ``/usr/bin/chromium``."""
    return os.environ.get("AKVO_CHROMIUM", "/usr/bin/chromium")


def outside_requests(page: Page, *origins: str) -> list[str]:
    """Watch ``page``: the returned list fills with every URL it requests outside ``origins``.

    ``data:`` URLs and ``blob:`` URLs made by a page of those origins are the page's own
    memory, not a fetch: anywidget (the live board) loads its module, shipped in its Python
    package, from such a ``blob:`` URL.
    """
    local = ("data:", *origins, *(f"blob:{origin}" for origin in origins))
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(local) else outside.append(r.url))
    return outside
