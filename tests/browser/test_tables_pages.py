"""« Jouer en ligne » in Chromium: a table opened from the creation page, two seats on two
phones (two browser contexts), secret orders, the reveal pushed to both, a move with the
keyboard, a reload that resumes, a spectator, a wrong link refused in French.

Lean on purpose (one flow, the book's session server): the API, the secrecy and the
restarts are tested without a browser (tests/test_tables_*.py).
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.chromium import outside_requests

WAIT = 30_000
PHONE = {"width": 390, "height": 844}


def _phone(browser: Browser, url: str) -> tuple[Page, list[str], list[str]]:
    """A new phone-sized context on ``url``: the page, its outside requests, its errors."""
    page = browser.new_context(viewport=PHONE).new_page()
    outside = outside_requests(page, url.split("/akvo/")[0])
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page, outside, errors


def _too_wide(page: Page) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll('button, select, input, svg, .tbl-decision')]
          .filter((e) => e.getBoundingClientRect().right > 391)
          .map((e) => e.tagName + '.' + e.className)"""
    )


def test_two_phones_play_a_table_from_the_creation_page(browser: Browser, base_url: str) -> None:
    host, _, _ = _phone(browser, f"{base_url}/akvo/en-ligne")
    expect(host.locator("#create-form[data-ready=true]")).to_be_attached(timeout=WAIT)
    host.get_by_label("Équipe B", exact=True).select_option("fish-tank")
    host.get_by_role("button", name="Ouvrir la table").click()
    links = host.locator(".tbl-link-text")
    expect(links).to_have_count(3, timeout=WAIT)  # A1, B1, the spectators
    a_link, b_link, watch_link = (links.nth(i).input_value() for i in range(3))
    assert re.search(r"/akvo/table/[\w-]+#[\w-]{43}$", a_link)
    qr = host.locator(".tbl-qr").first
    expect(qr).to_be_visible()
    loaded = "(img) => img.complete && img.naturalWidth > 0"  # the server's SVG, drawn
    host.wait_for_function(loaded, arg=qr.element_handle(), timeout=WAIT)
    assert _too_wide(host) == []

    a, a_outside, a_errors = _phone(browser, a_link)
    b, b_outside, b_errors = _phone(browser, b_link)
    for page, name in ((a, "A1"), (b, "B1")):
        expect(page.locator("#tbl-you")).to_contain_text(f"Vous êtes {name}", timeout=WAIT)
        expect(page.locator("#tbl-yours")).to_be_visible()
    # A programs in secret: B learns only that A has finished.
    a.get_by_label("Pédalair").select_option("T")
    a.get_by_role("button", name="Programmer ces ordres").click()
    expect(a.locator("#tbl-orders")).to_contain_text("Vos ordres : Pédalair tirer")
    expect(b.locator("#tbl-programmed")).to_contain_text("Camp A : ordres programmés ✓")
    expect(b.locator("#tbl-orders")).to_have_text("")
    expect(b.locator("#tbl-team")).to_have_text("")
    assert _too_wide(b) == []
    # B programs too: the reveal reaches both phones.
    b.get_by_role("button", name="Programmer ces ordres").click()
    for page in (a, b):
        expect(page.locator("#tbl-orders")).to_contain_text("Camp", timeout=WAIT)
        expect(page.locator("#tbl-log")).to_contain_text("ordres révélés")
    # The side to play moves with the keyboard; the other phone sees it.
    mover, other = (a, b) if a.locator("#tbl-yours").is_visible() else (b, a)
    first = mover.locator(".tbl-action").first
    label = first.inner_text().split("\n")[0]
    waiting = other.locator("#tbl-prompt").inner_text()
    first.focus()
    mover.keyboard.press("Enter")
    # The other phone sees the next decision (an activation may first ask for a rune, so
    # the log need not have a new line yet).
    expect(other.locator("#tbl-prompt")).not_to_have_text(waiting, timeout=WAIT)
    assert label.startswith("Activer") and "active" in waiting
    # A reload resumes where the table is.
    prompt = other.locator("#tbl-prompt").inner_text()
    other.reload()
    expect(other.locator("#tbl-prompt")).to_have_text(prompt, timeout=WAIT)
    # A spectator sees the board and the log, no decision.
    watcher, _, _ = _phone(browser, watch_link)
    expect(watcher.locator("#tbl-you")).to_contain_text("spectateur", timeout=WAIT)
    expect(watcher.locator("#tbl-log")).to_contain_text("ordres révélés")
    expect(watcher.locator("#tbl-decision")).to_be_hidden()
    # A link with a wrong token is refused in French.
    wrong, _, _ = _phone(browser, a_link.split("#")[0] + "#" + "x" * 43)
    expect(wrong.locator("#tbl-connection")).to_contain_text("Lien invalide", timeout=WAIT)
    assert a_outside == b_outside == [] and a_errors == b_errors == []
