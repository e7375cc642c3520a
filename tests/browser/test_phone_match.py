"""A whole match on a phone (390×844) without scrolling to decide (issue 36.1), and a kept
match found again after a reload (issue 36.2).

Against the bot « hasard » (the fastest), coach off, the first option pressed at each
decision (Enter on the focused button, or the orders' confirm); at every decision the page
measures: every option and the board inside the screen, the sheet not over the board (the
test scrolls once, to the match, then never), the prompt written once on the screen, and focus
on the first option (« Valider les ordres » at the orders).
"""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, PHONE
from tests.browser.test_play import moves, open_widget_page, wait_for_redraw
from tests.browser.test_site import WAIT

#: Bounds the match in time on a loaded machine: the decisions measured are reported.
BUDGET_S = 420
MAX_DECISIONS = 400

#: What the screen shows of the decision: boxes of the board, the sheet and each option;
#: how many visible elements say the prompt; whether focus is on the first option.
MEASURE = """() => {
  const root = document.querySelector('.akvo-play');
  const box = (e) => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const shown = (e) => e.getClientRects().length > 0 && e.checkVisibility();
  const decisions = root.querySelector('.akvo-play-decisions');
  const options = [...decisions.querySelectorAll('button')].filter(shown);
  const orders = decisions.querySelector('.akvo-play-orders');
  const first = orders ? orders.querySelector('.akvo-play-orders-confirm') : options[0];
  const prompt = root.querySelector('.akvo-play-prompt').textContent.trim();
  const saying = [...root.querySelectorAll('p, li, div, span, b')].filter((e) =>
    shown(e) && e.textContent.includes(prompt) &&
    ![...e.children].some((c) => c.textContent.includes(prompt)));
  const active = document.activeElement;
  return {
    board: box(root.querySelector('.akvo-board')),
    sheet: box(root.querySelector('.akvo-play-sheet')),
    options: options.map((e) => ({...box(e), text: e.textContent.trim()})),
    prompt, saying: saying.length,
    focused: !!first && (active === first || first.contains(active)),
    scrollY: window.scrollY,
    result: !!root.querySelector('.akvo-play-result p'),
  };
}"""

#: The same, two frames later: the board gives the sheet its room (a resize observer).
SETTLED = f"""() => new Promise((done) => requestAnimationFrame(() =>
  requestAnimationFrame(() => done(({MEASURE})()))))"""


def _first_focused(page: Page) -> bool:
    try:
        page.wait_for_function(f"({MEASURE})().focused", timeout=10_000)
    except Exception:
        return False
    return True


def _check(seen: dict, decision: int) -> None:
    height, width = PHONE["height"], PHONE["width"]
    board, sheet = seen["board"], seen["sheet"]
    where = f"decision {decision}: {seen['prompt']!r}"
    assert seen["options"], where
    assert board["top"] >= 0 and board["bottom"] <= sheet["top"] + 1, (where, board, sheet)
    for option in seen["options"]:
        assert option["top"] >= board["bottom"] - 1, (where, "under the board", option)
        assert option["bottom"] <= height + 1 and option["right"] <= width + 1, (where, option)
    assert seen["saying"] == 1, (where, "the prompt is written", seen["saying"], "times")


def test_a_whole_match_on_a_phone_needs_no_scrolling_to_decide(phone: Page, base_url: str) -> None:
    open_widget_page(phone, base_url, "jouer-un-match.ipynb", ".akvo-play-opponent")
    phone.locator(".akvo-play-opponent select").select_option(label="Bot « hasard »")
    phone.locator(".akvo-play-coach-switch input").evaluate("box => box.click()")  # coach off
    phone.locator(".akvo-play-new").click()
    expect(phone.locator(".akvo-play-orders-confirm")).to_be_visible(timeout=WAIT)
    # The reader scrolls once, to the match: the board at the top of the screen.
    phone.evaluate(
        "() => window.scrollTo(0, window.scrollY + "
        "document.querySelector('.akvo-play .akvo-board').getBoundingClientRect().top)"
    )
    phone.wait_for_timeout(500)
    phone.screenshot(path=str(ARTIFACTS / "phone-match-start.png"))
    scroll = phone.evaluate("window.scrollY")
    assert scroll > 0
    start, decision, unfocused = time.monotonic(), 0, []
    while decision < MAX_DECISIONS and time.monotonic() - start < BUDGET_S:
        focused = _first_focused(phone) if decision else True  # the first: Nouveau match
        seen = phone.evaluate(SETTLED)
        if seen["result"]:
            break
        if decision in (1, 5, 9):
            phone.screenshot(path=str(ARTIFACTS / f"phone-match-{decision}.png"))
        _check(seen, decision)
        if not focused:
            unfocused.append(decision)
        before = moves(phone)
        orders = phone.locator(".akvo-play-decisions .akvo-play-orders-confirm")
        if orders.count():
            orders.click()
        else:
            first = phone.locator(".akvo-play-decisions .akvo-play-action").first
            if decision % 2:
                first.press("Enter")
            else:
                first.click()
        wait_for_redraw(phone, before)
        decision += 1
    finished = phone.evaluate(MEASURE)["result"]
    print(f"measured {decision} decisions at 390×844, match finished: {finished}")
    assert decision >= 30, decision
    assert unfocused == [], f"focus not on the first option at decisions {unfocused}"


def test_a_kept_match_is_shown_after_a_reload(phone: Page, base_url: str) -> None:
    open_widget_page(phone, base_url, "jouer-un-match.ipynb", ".akvo-play-opponent")
    phone.locator(".akvo-play-coach-switch input").evaluate("box => box.click()")  # coach off
    confirm = phone.locator(".akvo-play-orders-confirm")
    expect(confirm).to_be_visible(timeout=WAIT)
    before = moves(phone)
    confirm.click()
    wait_for_redraw(phone, before)
    played = moves(phone)
    phone.wait_for_function(
        "() => (localStorage.getItem('akvo-match:jouer-un-match') || '').length > 0",
        timeout=WAIT,
    )
    phone.on("dialog", lambda dialog: dialog.accept())  # the guard asks before leaving
    open_widget_page(phone, base_url, "jouer-un-match.ipynb", ".akvo-play-opponent")
    status = phone.locator(".akvo-play .akvo-play-status-line")
    expect(status).to_have_attribute("data-moves", played, timeout=WAIT)
    expect(phone.locator(".akvo-play-message")).to_contain_text("repris")
    expect(phone.get_by_role("button", name="Reprendre le match")).to_have_count(0)
    phone.locator(".akvo-play-new").click()
    expect(phone.locator(".akvo-play-discard")).to_contain_text("Abandonner le match en cours")
    phone.locator(".akvo-play-discard-no").click()
    expect(status).to_have_attribute("data-moves", played)
