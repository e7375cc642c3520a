"""The turn stepper in headless Chromium: a click on a unit of the live board plays the
reader's own decision, and the demonstration goes on from there with the engine.

(A click on a mage of every whole-game page's board is checked by
``tests/browser/test_site.py``, after each page's interaction: see ``BOARD_CLICKS``.)
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from akvo_widgets.learn.stepper import TurnStepper
from tests.browser.test_site import WAIT, open_page


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
    board.locator('.akvo-board-unit[data-side="A"][data-character="plongeur"]').click(timeout=WAIT)
    expect(step).to_contain_text("Choix joué", timeout=WAIT)
    stepper.board.select("A", "plongeur")
    next_step.click()
    line = stepper.advance()[0].replace("'", "’")
    expect(step).to_contain_text(line, timeout=WAIT)
