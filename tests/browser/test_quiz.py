"""The exercises in Chromium as a quiz (issue 18.3): nothing in the page gives away a value
before the reader answers — not the board's picture, badges, titles or details, not a button
— every value shows after; the number typed in brings the same question back. The tutorial's
buttons carry the coach's exact values, for whom they are, and the « Conseils » switch hides
them (issue 19.1)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from akvo.coach import decision_values
from akvo_widgets.play.advice import value_phrase
from akvo_widgets.play.decisions import action_css
from akvo_widgets.play.exercises import make_exercise
from akvo_widgets.play.tutorial import LESSON, lesson_position
from akvo_widgets.text.labels import LATERAL_CHARACTERS
from tests.browser.test_play import open_widget_page
from tests.browser.test_site import WAIT

#: A chance as any part of the page prints one (« 47,6 % », « 48 % »).
PERCENT = re.compile(r"\d+(,\d+)?(\s|&nbsp;)?%")
#: What a part of the page holds (outside the answer buttons): its text and every
#: attribute (titles, accessible names, data-*, the board's SVG), style sheets left out.
QUIZ_MARKUP = """(selector) => {
  const root = document.querySelector(selector).cloneNode(true);
  root.querySelectorAll('.akvo-exercise-answers, .akvo-exercise-number-field, style, script')
    .forEach(e => e.remove());
  const out = [root.textContent];
  for (const e of [root, ...root.querySelectorAll('*')]) {
    for (const a of e.attributes) {
      if (a.name !== 'style' && a.name !== 'class') out.push(a.value);
    }
  }
  return out.join(' ');
}"""


def _words(text: str) -> re.Pattern[str]:
    """``text`` anywhere in an element, whatever kind of space the page uses."""
    parts = (re.escape(p) for p in re.split(r"\s+", text.strip()))
    return re.compile(r"[\s\u00a0\u202f]+".join(parts))


def _show(page: Page, number: int) -> None:
    field = page.locator(".akvo-exercise-number-field input")
    field.fill(str(number))
    field.press("Enter")
    page.locator(".akvo-exercise-go").click()
    expect(page.locator(f'.akvo-exercise-number span[data-number="{number}"]')).to_have_count(
        1, timeout=WAIT
    )


def test_no_asked_value_shows_before_the_answer_and_a_number_brings_its_question_back(
    page: Page, base_url: str
) -> None:
    open_widget_page(page, base_url, "exercices.ipynb", ".akvo-exercise-answer")
    question = page.locator(".akvo-exercise-question")
    for number in (4, 1, 2, 3, 8):  # every kind: best target, estimate, rune, first unit
        exercise = make_exercise(number)
        _show(page, number)
        expect(question).to_contain_text(_words(exercise.question), timeout=WAIT)
        answers = page.locator(".akvo-exercise-answers .akvo-exercise-answer")
        expect(answers).to_have_count(len(exercise.options), timeout=WAIT)
        markup = page.evaluate(QUIZ_MARKUP, ".akvo-exercises")
        assert not PERCENT.search(markup), (number, PERCENT.search(markup))
        if exercise.kind != "estimate":  # there the chances offered are the answers
            texts = " ".join(answers.all_inner_texts())
            assert not PERCENT.search(texts) and "point" not in texts, texts
        answers.nth(0).click()
        feedback = page.locator(".akvo-exercise-feedback")
        expect(feedback).to_contain_text(re.compile("Bonne réponse|Pas cette fois"), timeout=WAIT)
        for label, _value in exercise.rows:
            expect(feedback).to_contain_text(_words(label))
        if exercise.kind == "best target":
            # the same check finds the values once they may show: it can fail
            expect(page.locator(".akvo-exercises .akvo-board")).to_contain_text(
                PERCENT, timeout=WAIT
            )
            assert PERCENT.search(page.evaluate(QUIZ_MARKUP, ".akvo-exercises"))
    _show(page, 4)  # the same number again: the same question
    expect(question).to_contain_text(_words(make_exercise(4).question), timeout=WAIT)


def test_the_tutorial_buttons_show_the_coach_values_and_the_switch_hides_them(
    page: Page, base_url: str
) -> None:
    open_widget_page(page, base_url, "premier-tour.ipynb", ".akvo-tutorial-progress")
    state = lesson_position()
    for step in LESSON:  # the engine's position at the target decision
        if step.action == "shoot surfeur":
            break
        state.apply_action(step.action)
    phrase = value_phrase(decision_values(state)["shoot surfeur"], 0)
    assert phrase.endswith("de recul pour\u00a0A")
    for lane, token in zip(LATERAL_CHARACTERS, "AATT", strict=True):
        if token == "T":
            page.locator(f".akvo-play-order-{lane} button", has_text="Tirer").click()
    page.locator(".akvo-play-orders-confirm").click()
    page.locator(f".akvo-play-decisions .{action_css('activate surfeur')}").click()
    target = page.locator(f".akvo-play-decisions .{action_css('shoot surfeur')}")
    expect(target).to_contain_text(_words(phrase), timeout=WAIT)
    page.locator(".akvo-tutorial-advice input").uncheck()
    expect(target).to_have_text(_words("Tirer sur le Surfeur de B"), timeout=WAIT)
    board = page.locator(".akvo-tutorial .akvo-board")
    expect(board).not_to_contain_text(PERCENT, timeout=WAIT)  # the board redraws without
    assert not PERCENT.search(page.evaluate(QUIZ_MARKUP, ".akvo-tutorial .akvo-board"))


def test_vos_erreurs_come_back_from_the_browser_and_are_graded(page: Page, base_url: str) -> None:
    """A mistake kept in this browser's slot (as the replay's analysis stores it) is asked
    under « Vos erreurs »: the position, the question, the orders to compose; an answer
    shows the refutation. The browser holds an online profile: the answered set reaches the
    server's copy under its key (issue 34.7)."""
    import datetime as dt
    import json
    import secrets
    import time

    from akvo.coach.exercises import export_json, mistake_exercises, new_cards
    from akvo.coach.review import review
    from akvo.match import play_match
    from akvo_widgets.play.mistakes import MISTAKES_KEY, SERVER_COPY

    record = play_match(11).record()
    done = review({**record, "actions": record["actions"][:5]}, side="B", progress=False)
    exercises = mistake_exercises(done, "B")
    kept = export_json(exercises, new_cards(exercises, dt.date.today()))
    made = page.request.post(f"{base_url}/akvo/api/profiles", data={"name": secrets.token_hex(4)})
    profile = json.dumps(made.json())
    open_widget_page(page, base_url, "exercices.ipynb", ".akvo-exercise-answer")
    for slot, value in ((f"akvo-match:{MISTAKES_KEY}", kept), ("akvo-profile", profile)):
        page.evaluate("([key, value]) => window.localStorage.setItem(key, value)", [slot, value])
    open_widget_page(page, base_url, "exercices.ipynb", ".akvo-mistakes-question b")
    box = page.locator(".akvo-mistakes")
    expect(box.locator(".akvo-mistakes-question")).to_contain_text(
        _words("Trouvez une meilleure option"), timeout=WAIT
    )
    expect(box.locator(".akvo-mistakes-summary")).to_contain_text(_words("1 à revoir"))
    box.locator(".akvo-play-orders-confirm").click()
    feedback = box.locator(".akvo-mistakes-feedback")
    expect(feedback).to_contain_text(re.compile("Bien vu|Pas encore"), timeout=WAIT)
    stored = page.evaluate(f"window.localStorage.getItem('akvo-match:{MISTAKES_KEY}')")
    assert json.loads(stored)["cards"][0]["due"] > dt.date.today().isoformat()
    deadline, copy = time.monotonic() + 10, {"key": made.json()["key"]}
    while (server := page.request.post(f"{base_url}/{SERVER_COPY}", data=copy).json()) != {
        "mistakes": stored
    }:
        assert time.monotonic() < deadline, server
        time.sleep(0.2)
