"""The exercises in Chromium as a quiz (issue 18.3): nothing in the page gives away a value
before the reader answers — not the board's picture, badges, titles or details, not a
button — every value shows after; the number typed in brings the same question back."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from akvo_widgets.play.exercises import make_exercise
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
