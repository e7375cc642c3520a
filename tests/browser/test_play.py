"""The play pages in headless Chromium: a whole match against the « normal » bot through
clicks and keys only, saved, loaded in the replay viewer and checked against the engine."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from akvo.match import replay
from akvo_widgets.play.game import result_text
from akvo_widgets.play.replay import counter_text
from tests.browser.test_site import WAIT, _same_text, open_page, screenshot

MAX_DECISIONS = 600  # a match takes about 100 human decisions; this only bounds a runaway


def _moves(page: Page) -> str:
    return page.locator(".akvo-play .akvo-play-status-line").first.get_attribute("data-moves") or ""


def _press_first_button(page: Page, by_keyboard: bool) -> None:
    """Press the first offered decision (Enter on the focused button, or a click), then wait
    until the engine has applied it and the page has redrawn."""
    before = _moves(page)
    button = page.locator(".akvo-play-decisions .akvo-play-action").first
    pressed = button.element_handle(timeout=WAIT)
    if by_keyboard:
        button.focus()
        button.press("Enter")
    else:
        button.click()
    page.wait_for_function(
        """([button, before]) => !button.isConnected && document.querySelector(
            '.akvo-play .akvo-play-status-line').dataset.moves !== before""",
        arg=[pressed, before],
        timeout=WAIT,
    )


def test_a_whole_match_against_the_normal_bot_then_its_replay(
    page: Page, base_url: str, screenshots: Path, tmp_path: Path
) -> None:
    open_page(page, base_url, "jouer-un-match.ipynb")
    opponent = page.locator(".akvo-play-opponent select")
    expect(opponent).to_be_visible(timeout=WAIT)
    opponent.select_option(label="Bot « normal »")
    expect(page.locator(".akvo-play-orders-confirm")).to_be_visible(timeout=WAIT)
    result = page.locator(".akvo-play-result")
    for decision in range(MAX_DECISIONS):
        if page.locator(".akvo-play-result p").count():
            break
        _press_first_button(page, by_keyboard=decision % 2 == 0)
    expect(result).to_contain_text("Fin du match", timeout=WAIT)
    screenshot(page, screenshots, "jouer-un-match-fin.ipynb")

    with page.expect_download() as download:
        page.locator("a.akvo-play-download").click()
    saved = tmp_path / "match.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    final = replay(record)
    assert final.is_terminal()
    expect(result).to_have_text(_same_text(result_text(final)))

    open_page(page, base_url, "rejouer-un-match.ipynb")
    expect(page.locator(".akvo-replay-counter")).to_be_visible(timeout=WAIT)
    with page.expect_file_chooser() as chooser:
        page.locator(".akvo-replay-upload").click()
    chooser.value.set_files(str(saved))
    steps = len(record["actions"])
    counter = page.locator(".akvo-replay-counter")
    expect(counter).to_have_text(_same_text(counter_text(steps, steps)), timeout=WAIT)
    last_event = final.events[-1].replace("'", "’")
    expect(page.locator(".akvo-replay .akvo-play-log li").first).to_have_text(
        re.compile(re.escape(last_event).replace(r"\ ", r"[\s\u00a0\u202f]"))
    )
    status = page.locator(".akvo-replay .akvo-play-status-line")
    expect(status).to_have_attribute("data-moves", str(len(final.history)))
    a, b = final.scores
    expect(status).to_contain_text(re.compile(rf"A\s{a}\s–\s{b}\sB"))
    page.locator(".akvo-replay-back").press("Enter")
    expect(counter).to_have_text(_same_text(counter_text(steps - 1, steps)), timeout=WAIT)
