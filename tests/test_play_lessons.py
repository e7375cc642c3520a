"""The guided first turn and the exercises, without a browser."""

from __future__ import annotations

from fractions import Fraction

import pytest

from akvo.bots.values import best_worth, shooters
from akvo.match import MatchState, replay
from akvo.match.board import CHARS_OF_UNIT, UNIT_OF_NAME
from akvo.match.phases import Phase
from akvo.match.preview import target_values
from akvo_widgets.formatting import fraction, percent
from akvo_widgets.play.exercises import (
    KINDS,
    Exercises,
    make_exercise,
    rune_threshold,
    score_text,
)
from akvo_widgets.play.tutorial import LESSON, Tutorial, lesson_position, progress_text
from tests.shot_oracle import attack_value


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
    assert tutorial.index == 1 and tutorial.state.phase == Phase.ORDERS
    assert "permis par les règles" in tutorial.message.value
    assert "Surfeur tirer" in tutorial.message.value
    before = tutorial.state.to_json()
    tutorial.play("shoot chest")  # not legal at all: the reason, in French
    assert "programme ses ordres" in tutorial.message.value
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
    assert exercise.kind == KINDS[number % len(KINDS)]
    assert make_exercise(number).state.to_json() == exercise.state.to_json()  # reproducible
    if exercise.kind not in ("best target", "estimate"):
        return  # the other kinds have their own tests below
    values = {a: v for a, v in target_values(exercise.state).items() if "chest" not in a}
    if exercise.kind == "best target":
        assert exercise.values == values
        assert exercise.correct == max(values, key=lambda a: values[a])
        assert sorted(values.values())[-1] > sorted(values.values())[-2]  # one best answer
    else:
        assert Fraction(exercise.correct) in values.values()
        assert len(exercise.options) >= 2
        assert percent(Fraction(exercise.correct)) == exercise.options[exercise.correct]


def _shot_value(state: MatchState, rune: str | None) -> Fraction:
    """The shot's exact value from the target decision just before (replayed) and
    :func:`akvo.shots.shot` with sides built here: an independent path to the answer."""
    record = state.record()
    previous = replay({**record, "actions": record["actions"][:-1]})
    target = record["actions"][-1]
    assert state.shot is not None and previous.phase == Phase.TARGET
    value = attack_value(previous, state, target, rune)
    if rune is None:
        assert value == target_values(previous)[target]
    return value


def _independent(number: int) -> bool:
    """The exercise's shot was chosen at a target decision, with no Ultime in force (the
    sides built in :func:`_shot_value` know none)."""
    state = make_exercise(number).state
    record = state.record()
    previous = replay({**record, "actions": record["actions"][:-1]})
    return previous.phase == Phase.TARGET and not any(state.effects)


ATTACK_RUNE_NUMBERS = [n for n in range(2, 400, 4) if _independent(n)][:12]


@pytest.mark.parametrize("number", ATTACK_RUNE_NUMBERS)
def test_the_attaque_rune_question_is_graded_with_the_exact_gain(number: int) -> None:
    exercise = make_exercise(number)
    state = exercise.state
    assert exercise.kind == "attack rune" and state.phase == Phase.ATTACK_RUNE
    without, with_rune = _shot_value(state, None), _shot_value(state, "attaque")
    chest = "chest" in state.history[-1]
    gain = (with_rune - without) * (1 if chest else Fraction(2, 5))
    threshold = Fraction(max(0, 9 - state.turn), 80) if state.turn < 8 else Fraction(0)
    assert rune_threshold(state.turn) == threshold
    expected = "yes" if gain > 0 and gain >= threshold else "no"
    assert exercise.correct == expected
    assert set(exercise.options) == {"yes", "no"}
    page = Exercises(first=number)
    page.buttons[expected].click()
    assert "Bonne réponse" in page.feedback.value
    shown = percent(with_rune) if not chest else fraction(with_rune)
    assert shown in page.feedback.value and fraction(without) in page.feedback.value


def test_the_attaque_rune_answers_are_both_yes_and_no() -> None:
    answers = {make_exercise(n).correct for n in ATTACK_RUNE_NUMBERS}
    assert answers == {"yes", "no"}


@pytest.mark.parametrize("number", [3, 7, 11, 15, 19])
def test_the_first_unit_question_ranks_units_by_their_best_shot(number: int) -> None:
    exercise = make_exercise(number)
    state = exercise.state
    assert exercise.kind == "first unit" and state.phase == Phase.ACTIVATE
    side = state.current_player
    firing = shooters(state, side)
    worth = {}
    for action in state.legal_actions():
        if action.startswith("activate "):
            characters = CHARS_OF_UNIT[UNIT_OF_NAME[action.split()[1]]]
            worth[action] = max(
                (best_worth(state, side, c) for c in characters if c in firing), default=0.0
            )
    assert set(exercise.options) == set(worth)
    assert exercise.correct == max(worth, key=lambda a: worth[a])
    for action, value in exercise.values.items():
        assert float(value) == pytest.approx(worth[action])
    page = Exercises(first=number)
    wrong = next(a for a in exercise.options if a != exercise.correct)
    page.buttons[wrong].click()
    assert "Pas cette fois" in page.feedback.value
    assert "un coup d’avance" in page.feedback.value
    assert exercise.options[exercise.correct] in page.feedback.value


def test_the_running_score_counts_right_and_wrong_answers() -> None:
    page = Exercises(first=4)
    exercise = page.exercise
    assert exercise.kind == "best target"
    page.buttons[exercise.correct].click()
    assert score_text(1, 1).replace(" :", "\u00a0:") in page.score.value
    assert "Bonne réponse" in page.feedback.value
    assert percent(exercise.values[exercise.correct]) in page.feedback.value
    page.buttons[exercise.correct].click()  # a second answer counts for nothing
    assert score_text(1, 1).replace(" :", "\u00a0:") in page.score.value
    page.new(5)
    wrong = next(k for k in page.exercise.options if k != page.exercise.correct)
    page.buttons[wrong].click()
    assert score_text(1, 2).replace(" :", "\u00a0:") in page.score.value
    assert page.exercise.options[page.exercise.correct] in page.feedback.value
    page.next_button.click()
    assert page.exercise.number != 5 and not page.feedback.value
