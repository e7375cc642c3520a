"""The guided first turn and the exercises, without a browser."""

from __future__ import annotations

from fractions import Fraction

import pytest

from akvo.match.preview import target_values
from akvo_widgets.formatting import percent
from akvo_widgets.play.exercises import Exercises, make_exercise, score_text
from akvo_widgets.play.tutorial import LESSON, Tutorial, lesson_position, progress_text


def _finish(tutorial: Tutorial) -> None:
    """Press the lesson's buttons (the orders composer for the orders)."""
    while not tutorial.finished:
        expected = tutorial.expected
        assert expected is not None
        if expected.startswith("orders"):
            lateral, ship = expected.split()[1:]
            for lane, token in zip(tutorial.composer.lanes, lateral, strict=True):
                lane.value = token
            tutorial.composer.ship.value = ship
            tutorial.composer.confirm.click()
        else:
            tutorial.buttons[expected].click()


def test_the_lesson_is_legal_and_shows_push_resilience_critical_interception_score() -> None:
    state = lesson_position()
    for step in LESSON:
        assert (step.action in state.legal_actions()) or state.is_chance_node()
        state.apply_action(step.action)
    log = "\n".join(state.events)
    assert "critique" in log
    assert "recule de 2 cases, Résilience 1" in log
    assert "Interception réussie" in log and "Interception ratée" in log
    assert state.scores == [2, 0]
    assert state.observation("A")["resilience"]["B"]["surfeur"] == 1


def test_the_tutorial_is_played_with_its_buttons_to_the_end() -> None:
    tutorial = Tutorial()
    assert progress_text(1) in tutorial.progress.value
    _finish(tutorial)
    expected = lesson_position()
    for step in LESSON:
        expected.apply_action(step.action)
    assert tutorial.state.to_json() == expected.to_json()
    assert "jouer-un-match.ipynb" in tutorial.step_text.value
    assert progress_text(len(LESSON)) in tutorial.progress.value
    assert tutorial.decisions.children == ()


def test_a_move_other_than_the_lesson_is_refused_with_the_reason() -> None:
    tutorial = Tutorial()
    tutorial.composer.confirm.click()  # all Avancer: legal, but not the lesson's orders
    assert tutorial.index == 1 and tutorial.state.phase_name() == "orders"
    assert "permis par les règles" in tutorial.message.value
    assert "Surfeur tirer" in tutorial.message.value
    before = tutorial.state.to_json()
    tutorial.play("shoot chest")  # not legal at all
    assert "pas permis" in tutorial.message.value
    assert tutorial.state.to_json() == before


def test_the_target_step_shows_the_exact_odds() -> None:
    tutorial = Tutorial()
    while tutorial.expected != "shoot surfeur":
        _step(tutorial)
    values = target_values(tutorial.state)
    assert percent(values["shoot surfeur"]) in tutorial.buttons["shoot surfeur"].description


def _step(tutorial: Tutorial) -> None:
    expected = tutorial.expected
    assert expected is not None
    if expected.startswith("orders"):
        tutorial.play(expected)
    else:
        tutorial.buttons[expected].click()


# --- exercises ------------------------------------------------------------------------------


@pytest.mark.parametrize("number", range(1, 9))
def test_each_exercise_is_graded_with_the_engine_values(number: int) -> None:
    exercise = make_exercise(number)
    assert make_exercise(number).state.to_json() == exercise.state.to_json()  # reproducible
    values = {a: v for a, v in target_values(exercise.state).items() if "chest" not in a}
    if exercise.kind == "best target":
        assert exercise.values == values
        assert exercise.correct == max(values, key=lambda a: values[a])
        assert sorted(values.values())[-1] > sorted(values.values())[-2]  # one best answer
    else:
        assert Fraction(exercise.correct) in values.values()
        assert len(exercise.options) >= 2
        assert percent(Fraction(exercise.correct)) == exercise.options[exercise.correct]


def test_the_running_score_counts_right_and_wrong_answers() -> None:
    page = Exercises(first=2)
    exercise = page.exercise
    assert exercise.kind == "best target"
    page.buttons[exercise.correct].click()
    assert score_text(1, 1).replace(" :", "\u00a0:") in page.score.value
    assert "Bonne réponse" in page.feedback.value
    assert percent(exercise.values[exercise.correct]) in page.feedback.value
    page.buttons[exercise.correct].click()  # a second answer counts for nothing
    assert score_text(1, 1).replace(" :", "\u00a0:") in page.score.value
    page.new(4)
    wrong = next(k for k in page.exercise.options if k != page.exercise.correct)
    page.buttons[wrong].click()
    assert score_text(1, 2).replace(" :", "\u00a0:") in page.score.value
    assert page.exercise.options[page.exercise.correct] in page.feedback.value
    page.next_button.click()
    assert page.exercise.number != 4 and not page.feedback.value
