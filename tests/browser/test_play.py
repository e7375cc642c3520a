"""The play pages in headless Chromium: a whole match against the « normal » bot through
clicks and keys only, saved, loaded in the replay viewer and checked against the engine;
the guided first turn completed the same way; exercises answered with the keyboard."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from akvo.match import replay
from akvo_widgets.play.decisions import action_css
from akvo_widgets.play.exercises import OPENING, make_exercise, score_text
from akvo_widgets.play.game import result_text
from akvo_widgets.play.replay import counter_text
from akvo_widgets.play.tutorial import LESSON, lesson_position, progress_text
from akvo_widgets.text.labels import LATERAL_CHARACTERS
from tests.browser.test_site import WAIT, _same_text, open_page, screenshot

MAX_DECISIONS = 600  # a match takes about 100 human decisions; this only bounds a runaway


def lesson_scores() -> list[int]:
    """The scores after the lesson, as the engine plays it."""
    state = lesson_position()
    for step in LESSON:
        state.apply_action(step.action)
    return list(state.scores)


def open_widget_page(page: Page, base_url: str, file: str, widget: str) -> None:
    """Open a page until its widget shows: on an overloaded machine Voilà's pre-heated
    kernel may lose a cell's output ("Timeout waiting for IOPub output"); a reload takes a
    fresh kernel."""
    page.set_default_navigation_timeout(WAIT)  # Voilà streams a page while it runs
    for _attempt in range(3):
        open_page(page, base_url, file)
        try:
            page.locator(widget).first.wait_for(state="visible", timeout=WAIT // 2)
        except PlaywrightTimeout:
            continue
        return
    expect(page.locator(widget).first).to_be_visible(timeout=WAIT)


def moves(page: Page) -> str:
    """The match page's move count (its status line's ``data-moves``)."""
    return page.locator(".akvo-play .akvo-play-status-line").first.get_attribute("data-moves") or ""


def wait_for_redraw(page: Page, before: str) -> None:
    """Wait until the match page's move count is no longer ``before``: the engine applied
    the move and the page redrew (the status line is the last thing a redraw changes).
    Every test that plays a move through the page waits this way."""
    page.wait_for_function(
        """before => document.querySelector('.akvo-play .akvo-play-status-line')
            .dataset.moves !== before""",
        arg=before,
        timeout=WAIT,
    )


def _press_first_button(page: Page, by_keyboard: bool) -> None:
    """Press the first offered decision (Enter on the focused button, or a click), then
    wait for the redraw."""
    before = moves(page)
    button = page.locator(".akvo-play-decisions .akvo-play-action").first
    if by_keyboard:
        button.focus()
        button.press("Enter")
    else:
        button.click()
    wait_for_redraw(page, before)


def _play_the_lesson(page: Page, until: int) -> None:
    """The reader's moves of the lesson's steps before ``until``, by clicks and keys."""
    progress = page.locator(".akvo-tutorial-progress")
    expect(progress).to_be_visible(timeout=WAIT)
    for index, step in enumerate(LESSON[:until]):
        if step.who != "you":
            continue
        expect(progress).to_have_text(_same_text(progress_text(index)), timeout=WAIT)
        if step.action.startswith("orders"):
            lateral, ship = step.action.split()[1:]
            for lane, token in zip(LATERAL_CHARACTERS, lateral, strict=True):
                if token == "T":
                    page.locator(f".akvo-play-order-{lane} button", has_text="Tirer").click()
            assert ship == "AA"  # the default double token
            page.locator(".akvo-play-orders-confirm").press("Enter")
        else:
            button = page.locator(f".akvo-play-decisions .{action_css(step.action)}")
            expect(button).to_have_count(1, timeout=WAIT)  # one button per action, none stale
            if index % 2:
                button.press("Enter")
            else:
                button.click()
    expect(progress).to_have_text(_same_text(progress_text(until)), timeout=WAIT)


def test_the_first_turn_is_completed_with_clicks_and_keys(page: Page, base_url: str) -> None:
    open_widget_page(page, base_url, "premier-tour.ipynb", ".akvo-tutorial-progress")
    _play_the_lesson(page, len(LESSON))
    link = page.locator("a.akvo-tutorial-next")
    expect(link).to_have_attribute("href", "jouer-un-match.ipynb")
    expect(link).to_have_css("text-decoration-line", "underline")  # it looks like a link
    expect(page.locator(".akvo-tutorial-restart")).to_be_visible()
    a, b = lesson_scores()
    expect(page.locator(".akvo-tutorial .akvo-play-status-line")).to_contain_text(
        re.compile(rf"A\s{a}\s–\s{b}\sB")
    )


def test_on_a_phone_the_step_text_and_its_buttons_are_on_screen_with_the_board(
    page: Page, base_url: str
) -> None:
    """At 390×844, the lesson's first shot offers the most targets: with the board at the
    top of the screen, the step's text (whole, not cut) and every button are on screen in
    the sheet under the board, the text above the buttons; pressed, a wrong button's refusal
    shows in the sheet too, atop the text (not under the buttons, off the screen)."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_widget_page(page, base_url, "premier-tour.ipynb", ".akvo-tutorial-progress")
    shot = next(i for i, step in enumerate(LESSON) if step.action.startswith("shoot"))
    _play_the_lesson(page, shot)
    buttons = page.locator(".akvo-tutorial .akvo-play-decisions button")
    assert buttons.count() >= 8
    expect(buttons.last).to_contain_text("coffre", timeout=WAIT)  # the chest comes last
    page.evaluate(
        "() => window.scrollTo(0, window.scrollY + "
        "document.querySelector('.akvo-tutorial .akvo-board').getBoundingClientRect().top)"
    )
    page.wait_for_timeout(500)  # a frame for the sticky boxes and the measured sheet
    board = page.locator(".akvo-tutorial .akvo-board").bounding_box()
    text = page.locator(".akvo-tutorial-step")
    shown = text.bounding_box()
    assert board and shown
    # the whole text shows: its last line above the first button, in no scroll box of its own
    last_line = page.locator(".akvo-tutorial-step p").last.bounding_box()
    first = buttons.first.bounding_box()
    assert last_line and first and last_line["y"] + last_line["height"] <= first["y"] + 1
    assert text.evaluate("e => getComputedStyle(e).overflowY") == "visible"
    assert board["y"] + board["height"] <= shown["y"] + 1, (board, shown)
    for index in range(buttons.count()):
        box = buttons.nth(index).bounding_box()
        assert box and shown["y"] + shown["height"] <= box["y"] + 1, (index, shown, box)
        assert box["y"] + box["height"] <= 844 + 1, (index, box)
    buttons.last.click()  # not the lesson's target: refused, the reason where it is seen
    refusal = page.locator(".akvo-tutorial-step .akvo-tutorial-refusal")
    expect(refusal).to_contain_text("Pas tout à fait", timeout=WAIT)
    seen = refusal.bounding_box()
    assert seen and board["y"] + board["height"] - 2 <= seen["y"] < 844, (board, seen)
    expect(page.locator(".akvo-tutorial-message")).to_be_hidden()  # announced once


def test_exercises_are_answered_with_the_keyboard_and_graded_by_the_engine(
    page: Page, base_url: str
) -> None:
    open_widget_page(page, base_url, "exercices.ipynb", ".akvo-exercise-answer")
    score = page.locator(".akvo-exercises .akvo-exercise-score")
    for asked in range(1, 5):
        number = page.locator(".akvo-exercise-number span").get_attribute("data-number")
        exercise = make_exercise(int(number or 0))
        answers = page.locator(".akvo-exercise-answers .akvo-exercise-answer")
        expect(answers).to_have_count(len(exercise.options), timeout=WAIT)
        right = answers.nth(list(exercise.options).index(exercise.correct))
        # the last exercise's buttons, disabled once answered, may still be the ones shown:
        # a key pressed on one of those is lost (a press does not wait, as a click does)
        expect(right).to_be_enabled(timeout=WAIT)
        expect(right).to_have_text(_same_text(exercise.options[exercise.correct]))
        right.press("Enter")
        expect(page.locator(".akvo-exercise-feedback")).to_contain_text(
            "Bonne réponse", timeout=WAIT
        )
        expect(score).to_have_text(_same_text(score_text(asked, asked)), timeout=WAIT)
        page.locator(".akvo-exercise-next").press("Enter")
        expect(page.locator(".akvo-exercise-feedback")).to_have_text("", timeout=WAIT)


def test_the_exercise_score_survives_a_reload_and_a_tampered_one_is_refused(
    page: Page, base_url: str
) -> None:
    """Answer two exercises (one right, one wrong), reload: the score, the exercise and its
    answer come back from the browser; « Remettre le score à zéro » resets it; a kept score
    the page did not write gets the French message."""
    open_widget_page(page, base_url, "exercices.ipynb", ".akvo-exercise-answer")
    score = page.locator(".akvo-exercises .akvo-exercise-score")
    feedback = page.locator(".akvo-exercise-feedback")
    answers = page.locator(".akvo-exercise-answers .akvo-exercise-answer")
    shown = page.locator(".akvo-exercise-number span")
    expect(shown).to_have_attribute("data-number", str(OPENING), timeout=WAIT)
    first = make_exercise(OPENING)
    expect(answers).to_have_count(len(first.options), timeout=WAIT)
    answers.nth(list(first.options).index(first.correct)).click()
    expect(score).to_have_text(_same_text(score_text(1, 1)), timeout=WAIT)
    page.locator(".akvo-exercise-next").click()
    expect(feedback).to_have_text("", timeout=WAIT)
    number = int(shown.get_attribute("data-number") or 0)
    second = make_exercise(number)
    wrong = next(k for k in second.options if k != second.correct)
    expect(answers).to_have_count(len(second.options), timeout=WAIT)
    answers.nth(list(second.options).index(wrong)).click()
    expect(score).to_have_text(_same_text(score_text(1, 2)), timeout=WAIT)
    page.wait_for_function(
        "() => (localStorage.getItem('akvo-match:exercices') || '').includes('\"asked\":2')",
        timeout=WAIT,
    )
    open_widget_page(page, base_url, "exercices.ipynb", ".akvo-exercise-answer")
    expect(score).to_have_text(_same_text(score_text(1, 2)), timeout=WAIT)
    expect(shown).to_have_attribute("data-number", str(number))
    expect(feedback).to_contain_text("Pas cette fois")
    expect(answers.first).to_be_disabled()  # an answered exercise counts once
    page.locator(".akvo-exercise-reset").press("Enter")
    expect(score).to_have_text(_same_text(score_text(0, 0)), timeout=WAIT)
    page.evaluate(
        """() => localStorage.setItem('akvo-match:exercices',
             '{"version":1,"right":99,"asked":3,"number":5,"answer":null}')"""
    )
    open_widget_page(page, base_url, "exercices.ipynb", ".akvo-exercise-answer")
    expect(page.locator(".akvo-exercise-kept-message")).to_contain_text("illisible", timeout=WAIT)
    expect(score).to_have_text(_same_text(score_text(0, 0)))
    expect(shown).to_have_attribute("data-number", str(OPENING))


def test_a_whole_match_against_the_normal_bot_then_its_replay(
    page: Page, base_url: str, screenshots: Path, tmp_path: Path
) -> None:
    open_widget_page(page, base_url, "jouer-un-match.ipynb", ".akvo-play-opponent")
    opponent = page.locator(".akvo-play-opponent select")
    expect(opponent).to_be_visible(timeout=WAIT)
    opponent.select_option(label="Bot « normal »")
    expect(page.locator(".akvo-play-orders-confirm")).to_be_visible(timeout=WAIT)
    result = page.locator(".akvo-play-result")
    for decision in range(MAX_DECISIONS):
        if page.locator(".akvo-play-result p").count():
            break
        _press_first_button(page, by_keyboard=decision % 2 == 0)
    expect(result).to_contain_text(re.compile("Victoire|Match nul"), timeout=WAIT)
    screenshot(page, screenshots, "jouer-un-match-fin.ipynb")

    with page.expect_download() as download:
        page.locator("a.akvo-play-download").click()
    saved = tmp_path / "match.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    final = replay(record)
    assert final.is_terminal()
    expect(result).to_have_text(_same_text(result_text(final)))

    open_widget_page(page, base_url, "rejouer-un-match.ipynb", ".akvo-replay-counter")
    expect(page.locator(".akvo-replay-counter")).to_be_visible(timeout=WAIT)
    with page.expect_file_chooser() as chooser:
        page.locator(".akvo-replay-upload button").press("Enter")  # the keyboard opens it
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


def test_the_coach_shows_values_and_win_chances_and_the_switch_hides_them(
    page: Page, base_url: str
) -> None:
    """Every decision button carries its exact value and its win chance with its interval
    (the one valuation), the suggestion is the best of them, and « Conseils » unchecked
    takes every number away."""
    open_widget_page(page, base_url, "jouer-un-match.ipynb", ".akvo-play-orders-confirm")
    expect(page.locator(".akvo-play-advice")).to_contain_text("Conseil", timeout=WAIT)
    expect(page.locator(".akvo-play-orders-chances li").first).to_contain_text("victoire")
    page.locator(".akvo-play-orders-confirm").click()
    buttons = page.locator(".akvo-play-decisions .akvo-play-action")
    expect(buttons.first).to_contain_text("victoire ", timeout=WAIT)
    expect(page.locator(".akvo-play-advice")).to_contain_text("intervalle à 95")
    page.locator(".akvo-play-coach-switch input").uncheck()
    expect(page.locator(".akvo-play-advice")).to_have_text("")
    for index in range(buttons.count()):
        expect(buttons.nth(index)).not_to_contain_text("victoire")
        expect(buttons.nth(index)).not_to_contain_text(" — ")


def test_a_reload_shows_the_kept_match_and_refuses_a_tampered_one(
    page: Page, base_url: str
) -> None:
    """Issue 36.2: on return the kept match itself is shown (no offer beside a fresh one);
    a tampered record is refused with a French sentence and nothing is resumed."""
    open_widget_page(page, base_url, "jouer-un-match.ipynb", ".akvo-play-orders-confirm")
    page.locator(".akvo-play-orders-confirm").click()
    expect(page.locator(".akvo-play-decisions .akvo-play-action").first).to_be_visible(timeout=WAIT)
    page.wait_for_function(
        "() => (localStorage.getItem('akvo-match:jouer-un-match') || '').includes('orders')",
        timeout=WAIT,
    )
    played = moves(page)
    page.once("dialog", lambda dialog: dialog.accept())  # leaving asks first
    open_widget_page(page, base_url, "jouer-un-match.ipynb", ".akvo-play-status-line")
    expect(page.locator(".akvo-play-status-line").first).to_have_attribute(
        "data-moves", played, timeout=WAIT
    )
    expect(page.locator(".akvo-play-message")).to_contain_text("Match repris", timeout=WAIT)
    page.evaluate(
        """() => localStorage.setItem('akvo-match:jouer-un-match',
             localStorage.getItem('akvo-match:jouer-un-match').replace('"actions": [',
             '"actions": ["shoot chest", '))"""
    )
    page.once("dialog", lambda dialog: dialog.accept())
    open_widget_page(page, base_url, "jouer-un-match.ipynb", ".akvo-play-orders-confirm")
    expect(page.locator(".akvo-play-message")).to_contain_text(
        "ne peut pas être repris", timeout=WAIT
    )
