"""« Jouer en ligne » in Chromium: a table opened from the creation page, two seats on two
phones (two browser contexts), secret orders, the reveal pushed to both, a move with the
keyboard, a reload that resumes, a spectator, a wrong link refused in French; a team of
two with names, a clock and a bot in one seat: the part sent reads what the side waits
for, presence, one's seat handed to a bot and taken back, « Mes tables » and the tab title.

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
    yours = a.locator("#tbl-yours")
    mover, other = (
        (a, b) if yours.is_visible() and yours.inner_text() == "À vous de décider" else (b, a)
    )
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


def test_a_team_table_with_a_clock_a_seat_bot_and_mes_tables(
    browser: Browser, base_url: str
) -> None:
    host, _, host_errors = _phone(browser, f"{base_url}/akvo/en-ligne")
    expect(host.locator("#create-form[data-ready=true]")).to_be_attached(timeout=WAIT)
    host.get_by_label("4 joueurs (2 contre 2)").check()
    host.get_by_label("Place B2 jouée par").select_option("fort")
    host.get_by_label("Nom du joueur A1").fill("Léa")
    host.get_by_label("Nom du joueur A2").fill("Hugo")
    host.get_by_label("Horloge").select_option("en direct")
    expect(host.get_by_label("Minutes par décision (1 à 60)")).to_have_value("3")
    host.get_by_role("button", name="Ouvrir la table").click()
    links = host.locator(".tbl-link-text")
    expect(links).to_have_count(4, timeout=WAIT)  # A1, A2, B1, the spectators
    expect(host.locator(".tbl-link h3").first).to_contain_text("Place A1 (Léa)")
    assert _too_wide(host) == [] and host_errors == []
    lea, _, lea_errors = _phone(browser, links.nth(0).input_value())
    hugo, _, hugo_errors = _phone(browser, links.nth(1).input_value())
    expect(lea.locator("#tbl-clock")).to_have_text(
        "Horloge : en direct, 3\u00a0min par décision.", timeout=WAIT
    )
    seats = lea.locator("#tbl-seats")
    expect(seats).to_contain_text("Hugo (A2)présent", timeout=WAIT)
    expect(seats).to_contain_text("B1absent")
    expect(seats).to_contain_text("B2bot « fort »")
    expect(seats).to_contain_text("à décider, reste 2 min")
    expect(lea).to_have_title(re.compile(r"^\(À vous\) "))
    # Hugo sends his part: he reads what the side still waits for, Léa reads his part.
    expect(hugo.locator("#tbl-yours")).to_have_text("À vous de décider", timeout=WAIT)
    hugo.get_by_role("button", name="Programmer ces ordres").click()
    expect(hugo.locator("#tbl-yours")).to_contain_text("En attente de Léa", timeout=WAIT)
    expect(hugo).not_to_have_title(re.compile("À vous"))
    expect(lea.locator("#tbl-team")).to_contain_text("Hugo — ")
    # Léa hands her seat to a bot of her choice, then asks it back for the next turn.
    lea.get_by_label("Niveau du bot").select_option("facile")
    lea.get_by_role("button", name="Confier ma place à un bot").click()
    expect(seats).to_contain_text("joué par le bot « facile »", timeout=WAIT)
    lea.get_by_role("button", name="Reprendre ma place").click()
    expect(seats).to_contain_text("reprise au prochain tour", timeout=WAIT)
    assert _too_wide(lea) == []
    # « Mes tables » on Léa's phone: the seat she opened, with whose turn it is.
    lea.goto(f"{base_url}/akvo/mes-tables")
    item = lea.locator(".tbl-mine").first
    expect(item).to_contain_text("Place A1", timeout=WAIT)
    expect(item.get_by_role("link")).to_have_text(
        "Équipe Perrockiss contre Équipe des Tortues Carets"
    )
    assert _too_wide(lea) == [] and lea_errors == hugo_errors == []
