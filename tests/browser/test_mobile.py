"""Every page of the manifest on a phone (390 px) in Chromium, plus the site's own pages.

Generic on purpose: pages added to ``akvo_widgets.chapters.CHAPTERS`` are checked without
editing this file. On each page: ``lang="fr"``, no control or widget wider than the screen
(tables may scroll inside their own scroll box), an accessible name on every control. Then
the document scrolls with the keyboard, the French 404, and the connection-lost notice (the
kernel dies, the server stops).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from akvo_site.app import serve_in_background
from akvo_widgets import chapters as manifest
from tests.browser.chromium import outside_requests
from tests.browser.conftest import ARTIFACTS, BOOK

WAIT = 60_000
LOOPBACK = "http://127.0.0.1:"  # this module's own servers (the session's is base_url)
PHONE = {"width": 390, "height": 844}
PAGES = [manifest.HOME, *(c.file for c in manifest.CHAPTERS)]

#: Controls and widget boxes that must fit the screen, unless inside a sideways scroll box.
TOO_WIDE = """(width) => {
  const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p).overflowX;
      if ((s === 'auto' || s === 'scroll') && p.getBoundingClientRect().right <= width + 1)
        return true; }
    return false; };
  const sel = "input:not([type=hidden]), select, textarea, button, [role='slider'], " +
    ".widget-readout, .widget-inline-hbox, .akvo-widget, .bqplot, #rendered_cells table";
  return [...document.querySelectorAll(sel)].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && (r.right > width + 1 || r.left < -1) && !scrolls(e);
  }).map((e) => e.tagName + '.' + String(e.className).slice(0, 80) +
    ' [' + Math.round(r(e).left) + ', ' + Math.round(r(e).right) + ']');
  function r(e) { return e.getBoundingClientRect(); }
}"""

#: Visible controls without an accessible name (aria-label, aria-labelledby, a label, text).
UNNAMED = """() => {
  const sel = "input:not([type=hidden]), select, textarea, button, [role='slider'], " +
    "[contenteditable='true']";
  const named = (e) => (e.getAttribute('aria-label') || '').trim() ||
    (e.getAttribute('aria-labelledby') || '').split(/\\s+/).some(
      (id) => id && document.getElementById(id) &&
        document.getElementById(id).textContent.trim()) ||
    (e.labels && [...e.labels].some((l) => l.textContent.trim())) ||
    (e.tagName === 'BUTTON' && e.textContent.trim()) || (e.getAttribute('title') || '').trim();
  return [...document.querySelectorAll(sel)].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !named(e);
  }).map((e) => e.outerHTML.slice(0, 120));
}"""

#: Every widget output drawn: no French placeholder left, no reserved height held.
DRAWN = "document.querySelectorAll('.akvo-pending, .akvo-drawing').length === 0"


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[Page]:
    """A phone-sized page that may fetch nothing from outside the book servers."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_navigation_timeout(WAIT)  # Voilà streams a page while it runs
    page = context.new_page()
    outside = outside_requests(page, base_url, LOOPBACK)
    yield page
    context.close()
    assert outside == [], f"the page fetched from outside the book: {outside}"


def open_rendered(page: Page, base_url: str, file: str) -> None:
    page.goto(f"{base_url}/voila/render/{file}")
    expect(page.locator("#rendered_cells")).to_be_visible(timeout=WAIT)
    expect(page.locator("#loading")).to_have_count(0, timeout=WAIT)
    if page.locator(".akvo-widget").count() or file != manifest.HOME:
        expect(page.locator(".akvo-nav, .akvo-toc").first).to_be_visible(timeout=WAIT)
    # Widgets render asynchronously after the cells: wait until their number settles.
    page.wait_for_timeout(500)


@pytest.mark.parametrize("file", PAGES)
def test_page_fits_a_phone(phone: Page, base_url: str, file: str) -> None:
    open_rendered(phone, base_url, file)
    assert phone.evaluate("document.documentElement.lang") == "fr"
    assert phone.evaluate(TOO_WIDE, PHONE["width"]) == []
    # Once every output is drawn (no placeholder, no height held) the page's script has named
    # each control as it arrived; a control still coming would be named in the same task.
    with suppress(PlaywrightTimeout):
        phone.wait_for_function(f"{DRAWN} && ({UNNAMED})().length === 0", timeout=WAIT // 2)
    assert phone.evaluate(DRAWN), "every output drawn"
    assert phone.evaluate(UNNAMED) == []
    assert phone.get_by_text("Executing").count() == 0


def test_the_page_scrolls_as_a_document(phone: Page, base_url: str) -> None:
    chapter = manifest.CHAPTERS[0].file
    open_rendered(phone, base_url, chapter)
    assert phone.evaluate("document.scrollingElement.scrollHeight") > PHONE["height"] * 2
    phone.locator("h1").first.click()
    phone.keyboard.press("PageDown")
    phone.wait_for_function("window.scrollY > 200", timeout=5_000)
    before = phone.evaluate("window.scrollY")
    phone.keyboard.press("Space")
    phone.wait_for_function(f"window.scrollY > {before}", timeout=5_000)


def test_french_404_without_outside_fetch(phone: Page, base_url: str) -> None:
    response = phone.goto(f"{base_url}/voila/render/page-absente.ipynb")
    assert response is not None and response.status == 404
    assert phone.evaluate("document.documentElement.lang") == "fr"
    expect(phone.locator("h1")).to_have_text("Page introuvable")
    expect(phone.get_by_role("link", name="Aller au sommaire")).to_be_visible()
    expect(phone.get_by_text("page-absente")).to_have_count(0)


def kernel_process(kernel_id: str) -> int:
    """The process id of the kernel ``kernel_id`` (its command line names its connection
    file, ``kernel-<id>.json``)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with suppress(OSError):
            if f"kernel-{kernel_id}.json".encode() in (proc / "cmdline").read_bytes():
                return int(proc.name)
    raise AssertionError(f"no process for kernel {kernel_id}")


def expect_connection_lost(page: Page) -> None:
    notice = page.locator(".akvo-connection-lost")
    expect(notice).to_be_visible(timeout=WAIT)
    expect(notice).to_contain_text("La connexion au serveur est perdue")
    expect(page.get_by_role("button", name="Recharger la page")).to_be_visible()
    assert page.locator("body.akvo-offline").count() == 1, "stale widgets are greyed out"


def test_connection_lost_notice(phone: Page) -> None:
    """A server of its own: the notice appears when the page's kernel dies while its
    websocket stays open (the server restarts the kernel, empty), and when the server stops
    under the reader; it stays until the reader reloads."""
    chapter, other = manifest.CHAPTERS[0].file, manifest.CHAPTERS[1].file
    options = ("--VoilaConfiguration.preheat_kernel=False",)
    log = ARTIFACTS / "voila-connection-lost.log"
    with serve_in_background(BOOK, log, *options, timeout=180) as server:
        open_rendered(phone, server.url, chapter)
        expect(phone.locator(".akvo-connection-lost")).to_be_hidden()
        kernel = phone.evaluate(
            "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
        )
        os.kill(kernel_process(kernel), signal.SIGKILL)  # this test server's own kernel
        expect_connection_lost(phone)
        phone.wait_for_timeout(3_000)  # the websocket reconnects to the restarted kernel…
        expect_connection_lost(phone)  # …and the notice stays: the widgets are gone

        second = phone.context.new_page()
        open_rendered(second, server.url, other)
        expect(second.locator(".akvo-connection-lost")).to_be_hidden()
    # The server is gone (SIGTERM): the page's kernel websocket closes.
    expect_connection_lost(second)
