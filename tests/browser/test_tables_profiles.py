"""Profiles, ratings and the replay link in Chromium (issue 37.5), on phones (390 px): Léa
makes a profile on the creation page and plays her seat under it, Max makes his on his
seat's page with the keyboard; the match is played to its end by scripts through the API;
both are rated and listed in « Classement » (rating ± margin, karma); « Mes tables » and
the finished seat's page link to « Revoir un match », which opens that table's record,
no download. Screenshots at 390 and 1280 px go to test-artifacts/screenshots/."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from akvo.online.client import SeatClient, play_seat
from tests.browser.test_tables_pages import PHONE, WAIT, _phone
from tests.tables_play import run_async

WIDE = {"width": 1280, "height": 900}


def _too_wide(page: Page) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll('button, select, input, a, li, .tbl-profile')]
          .filter((e) => e.getBoundingClientRect().right > 391)
          .map((e) => e.tagName + '.' + e.className)"""
    )


def _shots(page: Page, folder: Path, name: str) -> None:
    """The page at 390 px, then at 1280 px, then back at 390 px."""
    page.screenshot(path=str(folder / f"{name}-390.png"), full_page=True)
    page.set_viewport_size(WIDE)
    page.screenshot(path=str(folder / f"{name}-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)


def _play_out(base_url: str, table: str, tokens: list[str]) -> None:
    async def both() -> None:  # the session's server does not throttle scripts (conftest)
        async with httpx.AsyncClient(timeout=30) as client:
            seats = [SeatClient(client, base_url, table, token) for token in tokens]
            await asyncio.wait_for(
                asyncio.gather(*(play_seat(s, seed=i) for i, s in enumerate(seats))), 400
            )

    run_async(both())


def test_profiles_ratings_and_the_replay_link(
    browser: Browser, base_url: str, screenshots: Path
) -> None:
    # The session's server keeps its tables' file between runs: names of this run only.
    number = random.randrange(100, 1000)
    lea_name, max_name = f"Léa {number}", f"Max {number}"
    host, host_outside, host_errors = _phone(browser, f"{base_url}/akvo/en-ligne")
    expect(host.locator("#create-form[data-ready=true]")).to_be_attached(timeout=WAIT)
    host.get_by_label("Un pseudonyme pour être classé (facultatif, sans e-mail)").fill(lea_name)
    host.get_by_role("button", name="Créer mon profil").click()
    expect(host.locator("#create-profile")).to_contain_text(
        f"Votre profil : {lea_name} — 1\u202f500 ± 700"
    )
    host.get_by_role("button", name="Ouvrir la table").click()
    links = host.locator(".tbl-link-text")
    expect(links).to_have_count(3, timeout=WAIT)
    a_link, b_link = links.nth(0).input_value(), links.nth(1).input_value()
    host.get_by_role("button", name=f"C’est ma place : la jouer sous « {lea_name} »").first.click()
    expect(host.locator(".tbl-link").first).to_contain_text(f"Place jouée sous « {lea_name} » ✓")
    assert _too_wide(host) == []
    _shots(host, screenshots, "tables-create-profile")

    # Max opens his seat and makes his profile there, with the keyboard only.
    max_, max_outside, max_errors = _phone(browser, b_link)
    expect(max_.locator("#tbl-seats")).to_contain_text(
        f"« {lea_name} » 1\u202f500 ± 700", timeout=WAIT
    )
    name = max_.get_by_label("Un pseudonyme pour être classé (facultatif, sans e-mail)")
    name.focus()
    max_.keyboard.type(max_name)
    max_.keyboard.press("Enter")
    join = max_.get_by_role("button", name=f"Jouer cette place sous « {max_name} » (classée)")
    expect(join).to_be_visible(timeout=WAIT)
    join.focus()
    max_.keyboard.press("Enter")
    expect(max_.locator("#tbl-seats")).to_contain_text(
        f"« {max_name} » 1\u202f500 ± 700", timeout=WAIT
    )
    expect(max_.locator("#tbl-profile")).to_be_hidden()
    assert _too_wide(max_) == []
    _shots(max_, screenshots, "tables-seat-profile")

    # The match is played to its end by scripts through the API.
    table = a_link.split("/akvo/table/")[1].split("#")[0]
    tokens = [a_link.split("#")[1], b_link.split("#")[1]]
    _play_out(base_url, table, tokens)
    lea = host  # Léa opens her seat on the phone that holds her profile
    lea.goto(a_link)
    expect(lea.locator("#tbl-prompt")).to_contain_text("Match terminé", timeout=WAIT)
    replay = lea.get_by_role("link", name="Revoir ce match, avec son analyse")
    expect(replay).to_be_visible()
    # Both are rated once the luck ledger has measured the match (off the server's loop).
    deadline = time.monotonic() + 120
    rated: list[dict[str, object]] = []
    while time.monotonic() < deadline and len(rated) < 2:
        every = httpx.get(f"{base_url}/akvo/api/standings").json()["profiles"]
        rated = [p for p in every if p["name"] in (lea_name, max_name)]
        time.sleep(0.5)
    assert sorted(str(p["name"]) for p in rated) == [lea_name, max_name]
    assert all(p["tables"] == 1 and p["deviation"] < 350 for p in rated)

    lea.goto(f"{base_url}/akvo/mes-tables")
    item = lea.locator(".tbl-mine").first
    expect(item).to_contain_text("Match terminé", timeout=WAIT)
    expect(item.get_by_role("link", name="Revoir ce match, avec son analyse")).to_be_visible()
    assert _too_wide(lea) == []
    _shots(lea, screenshots, "tables-mine-finished")

    lea.goto(f"{base_url}/akvo/classement")
    standings = lea.locator("#standings-list")
    expect(standings).to_contain_text(f"{lea_name} (vous)", timeout=WAIT)
    expect(standings).to_contain_text(max_name)
    expect(standings).to_contain_text("1 table")
    assert _too_wide(lea) == []
    _shots(lea, screenshots, "tables-classement")

    # « Revoir un match » opens that table's record, no file to pick.
    lea.goto(f"{base_url}/akvo/mes-tables")
    lea.locator(".tbl-mine").first.get_by_role("link", name="Revoir ce match").click()
    expect(lea).to_have_url(f"{base_url}/voila/render/rejouer-un-match.ipynb?table={table}")
    message = lea.locator(".akvo-replay-message")
    expect(message).to_contain_text("Match de la table en ligne chargé", timeout=180_000)
    expect(lea.get_by_role("button", name="Analyser le match")).to_be_visible()
    _shots(lea, screenshots, "tables-replay-linked")
    assert host_outside == max_outside == []
    assert host_errors == max_errors == []
