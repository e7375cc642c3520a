"""Where Debian's Chromium is and how it is launched headless here (shared by the browser
tests and benchmarks/bench_site.py). ``playwright install`` cannot download browsers."""

from __future__ import annotations

import os

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
