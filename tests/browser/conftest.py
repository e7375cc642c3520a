"""Browser-test fixtures: one Voilà book server per session, driven by Debian's Chromium.

Chromium comes from ``AKVO_CHROMIUM`` or ``/usr/bin/chromium`` (``playwright install`` has
no downloads here). Without it the browser tests skip, unless ``AKVO_REQUIRE_BROWSER=1``
(set by CI), where a missing browser is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from akvo_site.app import SMALL_POOLS, background_server
from tests.browser.chromium import CHROMIUM_FLAGS, chromium_path

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
ARTIFACTS = ROOT / "test-artifacts"
#: A phone's screen, for the pages' phone tests (``phone``).
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright has no executable-path option: point it at Debian's Chromium."""
    path = chromium_path()
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        message = f"Chromium not found at {path}: apt-get install chromium (or set AKVO_CHROMIUM)"
        if os.environ.get("AKVO_REQUIRE_BROWSER") == "1":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": path, "args": CHROMIUM_FLAGS}


#: Scripts that play tables out through the API share the browsers' loopback address: they
#: may outrun a person (the throttle itself is tested in tests/akvo_site/tables/).
SCRIPTS_UNTHROTTLED = ("--OnlineTables.rate=500", "--OnlineTables.burst=500")


@pytest.fixture(scope="session")
def book_url() -> Iterator[str]:
    """One book server for the whole session, on a free loopback port; stopped after.

    Small pools (one pre-heated home page): the production pools of ``book/voila.json``
    would start dozens of kernels for nothing. Under pytest-xdist each worker has its own
    server, and its own log (``voila-gw0.log``, …).
    """
    ARTIFACTS.mkdir(exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    log = ARTIFACTS / (f"voila-{worker}.log" if worker else "voila.log")
    with background_server(BOOK, log, *SMALL_POOLS, *SCRIPTS_UNTHROTTLED) as url:
        yield url


@pytest.fixture(scope="session")
def base_url(book_url: str) -> str:
    return book_url


@pytest.fixture(scope="session")
def screenshots() -> Path:
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A page on a phone's screen (:data:`PHONE`, touch)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()
