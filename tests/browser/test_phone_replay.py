"""« Revoir un match » on a phone (390×844): the compact board and the current move's panel
both on screen while stepping through a match; the log folds and unfolds with the keyboard,
there and on « Jouer un match » (issue 36).

The reader scrolls once, to the board, then steps with the sheet's buttons (Enter on the
focused « Suivant ▶ », a click on « ◀ Précédent »); at every step the page measures the
board, the sheet and the move's panel.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from akvo_widgets.play.log_box import HIDE, SHOW
from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.test_play import open_widget_page
from tests.browser.test_site import WAIT

STEPS = 14

#: The boxes of the board, the sheet, the move's panel and its head (the line that says
#: which move it is), and the counter's text.
MEASURE = """() => {
  const root = document.querySelector('.akvo-replay');
  const box = (e) => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; };
  const head = root.querySelector('.akvo-replay-step p');
  return {
    board: box(root.querySelector('.akvo-board')),
    sheet: box(root.querySelector('.akvo-play-sheet')),
    panel: box(root.querySelector('.akvo-replay-step')),
    head: head ? box(head) : null,
    counter: root.querySelector('.akvo-replay-counter').textContent.trim(),
  };
}"""


def _counter(page: Page, step: int) -> None:
    """Wait until the counter and the move's panel both name ``step``."""
    expect(page.locator(".akvo-replay-counter")).to_have_text(
        re.compile(rf"Coup\s{step}\ssur\s\d+"), timeout=WAIT
    )
    if step:
        expect(page.locator(".akvo-replay-step-head")).to_contain_text(
            re.compile(rf"après le coup\s{step}\s"), timeout=WAIT
        )


def _check(seen: dict, step: int) -> None:
    height, width = PHONE["height"], PHONE["width"]
    board, sheet, panel, head = seen["board"], seen["sheet"], seen["panel"], seen["head"]
    where = f"step {step}: {seen['counter']!r}"
    assert board["top"] >= -1 and board["height"] > 150, (where, "board", board)
    assert board["bottom"] <= sheet["top"] + 1, (where, "sheet over the board", board, sheet)
    assert sheet["bottom"] <= height + 1 and sheet["right"] <= width + 1, (where, sheet)
    assert panel["top"] >= board["bottom"] - 1 and panel["top"] < height - 40, (where, panel)
    assert head is not None and head["bottom"] <= height + 1, (where, "panel's head", head)


def test_stepping_on_a_phone_keeps_the_board_and_the_move_in_view(
    phone: Page, base_url: str
) -> None:
    open_widget_page(phone, base_url, "rejouer-un-match.ipynb", ".akvo-replay-forward")
    phone.locator(".akvo-replay-first").click()
    _counter(phone, 0)
    # The reader scrolls once, to the match: the board at the top of the screen.
    phone.evaluate(
        "() => window.scrollTo(0, window.scrollY + "
        "document.querySelector('.akvo-replay .akvo-board').getBoundingClientRect().top)"
    )
    phone.wait_for_timeout(500)
    forward = phone.locator(".akvo-replay-forward")
    for step in range(1, STEPS + 1):
        forward.press("Enter")
        _counter(phone, step)
        if step in (1, 3, 8):
            phone.screenshot(path=str(ARTIFACTS / f"phone-replay-{step}.png"))
        _check(phone.evaluate(MEASURE), step)
    phone.locator(".akvo-replay-back").click()
    _counter(phone, STEPS - 1)
    _check(phone.evaluate(MEASURE), STEPS - 1)


def _toggles_with_the_keyboard(page: Page, root: str) -> None:
    toggle = page.locator(f"{root} .akvo-play-log-toggle")
    log = page.locator(f"{root} .akvo-play-log")
    expect(toggle).to_have_text(SHOW, timeout=WAIT)
    expect(log).to_be_hidden()
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_text(HIDE, timeout=WAIT)
    expect(log).to_be_visible()
    expect(log.locator("li").first).to_be_visible()
    page.keyboard.press("Space")
    expect(toggle).to_have_text(SHOW, timeout=WAIT)
    expect(log).to_be_hidden()


def test_the_replay_log_folds_with_the_keyboard(phone: Page, base_url: str) -> None:
    open_widget_page(phone, base_url, "rejouer-un-match.ipynb", ".akvo-replay-forward")
    _toggles_with_the_keyboard(phone, ".akvo-replay")


def test_the_match_log_folds_with_the_keyboard(phone: Page, base_url: str) -> None:
    open_widget_page(phone, base_url, "jouer-un-match.ipynb", ".akvo-play-opponent")
    _toggles_with_the_keyboard(phone, ".akvo-play")


def test_the_log_is_always_shown_on_a_wide_screen(page: Page, base_url: str) -> None:
    open_widget_page(page, base_url, "rejouer-un-match.ipynb", ".akvo-replay-forward")
    expect(page.locator(".akvo-replay .akvo-play-log li").first).to_be_visible(timeout=WAIT)
    expect(page.locator(".akvo-replay .akvo-play-log-toggle")).to_be_hidden()
