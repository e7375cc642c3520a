"""The whole-game pages' boards in headless Chromium: a click on a mage shows its options,
and on the turn stepper a click on a unit plays the reader's own decision.

Which mage can be clicked depends on the position shown (the side to decide, or both at a
weather draw); each case below names a board of the page and a mage of that board.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from akvo_widgets.stepper import TurnStepper
from tests.browser.test_site import WAIT, open_page

#: page → (index of the board on the page, side, character) of a clickable mage.
CLICKS = {
    "plateau-et-mise-en-place.ipynb": (0, "A", "surfeur"),
    "tour-de-jeu.ipynb": (0, "B", "plongeur"),
    "avancer-et-se-bloquer.ipynb": (0, "B", "surfeur"),
    "ultimes-en-jeu.ipynb": (0, "B", "surfeur"),
    "fin-du-match.ipynb": (1, "A", "lanceur"),
}
LABELS = {"surfeur": "Surfeur", "plongeur": "Plongeur", "lanceur": "Lanceur"}


@pytest.mark.parametrize("file", CLICKS)
def test_a_click_on_a_mage_shows_its_options(page: Page, base_url: str, file: str) -> None:
    index, side, character = CLICKS[file]
    open_page(page, base_url, file)
    board = page.locator(".akvo-board").nth(index)
    unit = board.locator(f'.akvo-board-unit[data-side="{side}"][data-character="{character}"]')
    unit.click()
    details = board.locator(".akvo-board-details")
    expect(details).to_contain_text(f"{LABELS[character]} de {side}", timeout=WAIT)


def test_the_reader_takes_a_decision_of_the_turn_on_the_board(page: Page, base_url: str) -> None:
    open_page(page, base_url, "tour-de-jeu.ipynb")
    next_step = page.locator("button.akvo-stepper-next")
    step = page.locator(".akvo-stepper-step")
    for count in (1, 2, 3):  # the weather, A's orders, B's orders and the reveal
        next_step.click()
        expect(step).to_contain_text(f"Étape {count}", timeout=WAIT)
    stepper = TurnStepper()
    for _ in range(3):
        stepper.advance()
    assert "activate plongeur" in stepper.state.legal_actions()
    board = page.locator(".akvo-board")
    board.locator('.akvo-board-unit[data-side="A"][data-character="plongeur"]').click()
    expect(step).to_contain_text("Choix joué", timeout=WAIT)
    stepper.board.select("A", "plongeur")
    next_step.click()
    line = stepper.advance()[0].replace("'", "’")
    expect(step).to_contain_text(line, timeout=WAIT)
