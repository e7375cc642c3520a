"""The guided first turn and the exercises, without a browser."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from akvo.bots.values import best_worth, shooters
from akvo.coach import OptionValue, decision_values
from akvo.match import MatchState, replay
from akvo.match.board import CHARS_OF_UNIT, UNIT_OF_NAME
from akvo.match.phases import Phase
from akvo.match.preview import target_values
from akvo_widgets.play.advice import exact_percent, exact_points
from akvo_widgets.play.exercises import (
    ESTIMATE_CHOICES,
    FIRST_NUMBER,
    KEEPER_KEY,
    KINDS,
    LAST_NUMBER,
    OPENING,
    Exercises,
    make_exercise,
    number_error,
    rune_threshold,
    score_text,
)
from akvo_widgets.play.kept_score import KeptScore, KeptScoreError, load_score
from akvo_widgets.play.odds import NO_RUNE, attaque_letters
from akvo_widgets.play.tutorial import (
    LESSON,
    Tutorial,
    lesson_position,
    progress_text,
    refusal_reason,
)
from akvo_widgets.text.formatting import fraction, french, percent
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
    assert tutorial.decisions.children == (tutorial.restart,)
    assert tutorial.state.turn == 2 and "Tour 1 — le Plongeur de B" in tutorial.state.events[-2]
    tutorial.restart.click()  # « Recommencer »: the lesson from its start
    assert tutorial.index == 1 and tutorial.state.turn == 1 and tutorial.state.phase == Phase.ORDERS


def test_a_move_other_than_the_lesson_is_refused_with_the_reason() -> None:
    tutorial = Tutorial()
    tutorial.composer.confirm.click()  # all Avancer: legal, but not the lesson's orders
    assert tutorial.index == 1 and tutorial.state.phase == Phase.ORDERS
    assert "permis par les règles" in tutorial.message.value
    assert "Surfeur tirer" in tutorial.message.value
    assert "bot «\u00a0normal\u00a0» choisirait" in tutorial.message.value
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
    # the defender answers at best, as on the match page (akvo.coach.decision_values); the
    # oracle's unanswered values are the coach's, and a reply never helps the attacker
    coach = {option.action: option for option in decision_values(state)}
    attaque = attaque_letters(state)[0]
    alone = {NO_RUNE: _shot_value(state, None), attaque: _shot_value(state, "attaque")}
    for action, value in alone.items():
        assert coach[action].unanswered == value and coach[action].value <= value  # type: ignore[operator]
    without, with_rune = coach[NO_RUNE].value, coach[attaque].value
    assert without is not None and with_rune is not None
    assert "répondant au mieux" in exercise.question
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


# --- the exercises are quizzes (issue 18.3) --------------------------------------------------

PERCENT = re.compile(r"\d+(,\d+)?\s?%")


def _board_text(page: Exercises) -> str:
    """Everything the board sends to the page: picture, overlay, status, details, the
    clickable mages' selections."""
    board = page.board
    return " ".join([board.svg, board.overlay, board.status, board.details, str(board.choices)])


@pytest.mark.parametrize("number", [1, 5, 9, 13, 17, 21, 25, 29])
def test_quelle_chance_offers_four_distinct_chances_with_the_true_one(number: int) -> None:
    exercise = make_exercise(number)
    assert exercise.kind == "estimate" and len(exercise.options) == ESTIMATE_CHOICES == 4
    labels = list(exercise.options.values())
    assert len(set(labels)) == 4 and "0,0\u00a0%" not in labels and "100,0\u00a0%" not in labels
    values = {a: v for a, v in target_values(exercise.state).items() if "chest" not in a}
    assert Fraction(exercise.correct) in values.values()
    assert exercise.values[exercise.correct] == 1 and sum(exercise.values.values()) == 1
    # after the answer, every target of the shooter with its exact chance
    page = Exercises(first=number)
    page.buttons[exercise.correct].click()
    for value in values.values():
        assert fraction(value) in page.feedback.value


@pytest.mark.parametrize("number", range(1, 9))
def test_no_asked_value_is_shown_before_the_answer_and_every_one_after(number: int) -> None:
    page = Exercises(first=number)
    exercise = page.exercise
    labels = " ".join(f"{b.description} {b.tooltip or ''}" for b in page.buttons.values())
    before = " ".join([_board_text(page), page.question.value, page.status.value])
    assert not page.board.values and not PERCENT.search(before)
    if exercise.kind != "estimate":  # there the four chances offered are the answers
        assert not PERCENT.search(labels) and "point" not in labels
    for value in exercise.values.values():
        assert fraction(value) not in before + labels or value in (0, 1)
    page.buttons[exercise.correct].click()
    assert page.board.values
    for label, value in exercise.rows:
        assert french(value) in page.feedback.value and french(label) in page.feedback.value
    if exercise.kind == "best target":
        assert PERCENT.search(_board_text(page))  # the board now shows the odds


def test_the_board_answers_where_the_question_needs_it() -> None:
    page = Exercises(first=4)
    assert page.exercise.kind == "best target" and page.board.interactive
    page.board.on_action(lambda _a: None)
    wrong = next(k for k in page.exercise.options if k != page.exercise.correct)
    page.board._play(wrong)  # what a click on that target's badge sends
    assert "Pas cette fois" in page.feedback.value and page.asked == 1
    page.new(5)
    assert page.exercise.kind == "estimate" and not page.board.interactive


def test_the_number_typed_in_brings_the_same_question_back() -> None:
    page = Exercises(first=4)
    page.go(" 123 ")
    assert page.exercise.number == 123
    assert page.exercise.state.to_json() == make_exercise(123).state.to_json()
    assert page.exercise.question == make_exercise(123).question
    assert 'data-number="123"' in page.number_text.value
    for bad in ("abc", "0", "100000", "-3", "1e3", ""):
        page.go(bad)
        assert page.exercise.number == 123 and 'role="alert"' in page.number_message.value
        assert number_error(bad) is not None
    page.go("4")
    assert page.exercise.number == 4 and page.number_message.value == ""


# --- the score survives a reload (issue 19.5) ------------------------------------------------


def _score(page: Exercises) -> str:
    return re.sub(r"<[^>]+>", "", page.score.value).replace("\u00a0", " ")


def test_the_score_the_exercise_and_its_answer_are_kept_and_come_back() -> None:
    page = Exercises(first=4)
    assert page.keeper.key == KEEPER_KEY and page.keeper.to_store == ""  # nothing yet
    assert page.score_row.children == (page.score,)  # no reset button for a new reader
    page.buttons[page.exercise.correct].click()
    page.new(5)
    wrong = next(k for k in page.exercise.options if k != page.exercise.correct)
    page.buttons[wrong].click()
    kept = json.loads(page.keeper.to_store)
    assert kept == {"version": 1, "right": 1, "asked": 2, "number": 5, "answer": wrong}
    fresh = Exercises()  # a reload: the page opens on n° 4, then the browser hands back
    assert fresh.exercise.number == OPENING == 4 and _score(fresh) == score_text(0, 0)
    fresh.keeper.saved = page.keeper.to_store
    assert fresh.exercise.number == 5 and _score(fresh) == score_text(1, 2)
    assert fresh.answered == wrong and "Pas cette fois" in fresh.feedback.value
    assert all(b.disabled for b in fresh.buttons.values()) and fresh.board.values
    fresh.buttons[fresh.exercise.correct].click()  # an answered exercise counts once
    assert _score(fresh) == score_text(1, 2) and fresh.reset_button in fresh.score_row.children
    fresh.keeper.saved = KeptScore(9, 9, 7).to_json()  # only once, and only when fresh
    assert fresh.exercise.number == 5 and _score(fresh) == score_text(1, 2)
    fresh.next_button.click()
    assert json.loads(fresh.keeper.to_store)["answer"] is None
    assert json.loads(fresh.keeper.to_store)["number"] == fresh.exercise.number


def test_an_unanswered_exercise_comes_back_unanswered() -> None:
    page = Exercises()
    page.keeper.saved = KeptScore(3, 4, 123).to_json()
    assert page.exercise.number == 123 and page.answered is None and not page.feedback.value
    assert page.exercise.question == make_exercise(123).question
    page.buttons[page.exercise.correct].click()
    assert _score(page) == score_text(4, 5)
    assert json.loads(page.keeper.to_store)["right"] == 4


def test_the_score_is_reset_to_zero_and_kept_so() -> None:
    page = Exercises(first=4)
    page.buttons[page.exercise.correct].click()
    assert page.reset_button.description == "Remettre le score à zéro"
    page.reset_button.click()
    assert _score(page) == score_text(0, 0) and page.exercise.number == 4
    assert json.loads(page.keeper.to_store) == {
        "version": 1,
        "right": 0,
        "asked": 0,
        "number": 4,
        "answer": page.exercise.correct,
    }
    assert page.reset_button in page.score_row.children  # the focus stays where it was
    page.buttons[page.exercise.correct].click()  # the answer given before still counts once
    assert _score(page) == score_text(0, 0)


def _good(**fields: object) -> dict[str, object]:
    return {"version": 1, "right": 2, "asked": 3, "number": 5, "answer": None} | fields


HOSTILE = [
    "not json",
    "{",
    "[1, 2, 3]",
    "null",
    "42",
    '"a string"',
    "[" * 5000 + "]" * 5000,
    json.dumps(_good(right=-1)),
    json.dumps(_good(asked=-3, right=0)),
    json.dumps(_good(right=4)),  # more right than asked
    json.dumps(_good(asked=10**12, right=1)),
    json.dumps(_good(asked=10**400, right=1)),
    json.dumps(_good(right=2.0)),
    json.dumps(_good(right="2")),
    json.dumps(_good(right=True)),
    json.dumps(_good(number=0)),
    json.dumps(_good(number=100_000)),
    json.dumps(_good(number="5")),
    json.dumps(_good(number=None)),
    json.dumps(_good(version=2)),
    json.dumps(_good(answer="no such answer")),
    json.dumps(_good(answer=7)),
    json.dumps(_good(answer="")),
    json.dumps(_good(answer=["x"])),
    json.dumps(_good(asked=0, right=0, answer="yes")),  # an answer that was not counted
    json.dumps(_good(extra=1)),
    json.dumps({k: v for k, v in _good().items() if k != "answer"}),
    json.dumps(_good()) + " " * 2000,
    '{"version": 1, "right": NaN, "asked": 3, "number": 5, "answer": null}',
]


@pytest.mark.parametrize("saved", HOSTILE)
def test_a_hostile_kept_score_is_refused_in_french_and_nothing_changes(saved: str) -> None:
    page = Exercises(first=4)
    before = (page.exercise.number, page.right, page.asked, page.feedback.value)
    page.keeper.saved = saved
    assert (page.exercise.number, page.right, page.asked, page.feedback.value) == before
    assert "score gardé dans ce navigateur est illisible" in page.kept_message.value
    assert page.keeper.to_store == "" and _score(page) == score_text(0, 0)
    if "no such answer" not in saved:  # that one is the page's check: it knows the options
        with pytest.raises(KeptScoreError):
            load_score(saved, FIRST_NUMBER, LAST_NUMBER)
    page.buttons[page.exercise.correct].click()  # the page goes on from its fresh score
    assert _score(page) == score_text(1, 1)


def test_load_score_reads_back_exactly_what_the_page_wrote() -> None:
    for kept in (KeptScore(0, 0, 1), KeptScore(7, 9, 99_999, "yes"), KeptScore(1, 1, 4, "x")):
        assert load_score(kept.to_json(), FIRST_NUMBER, LAST_NUMBER) == kept
    assert issubclass(KeptScoreError, ValueError)
    for bad in (None, b"{}", 3, ""):
        with pytest.raises(KeptScoreError):
            load_score(bad, FIRST_NUMBER, LAST_NUMBER)


# --- the tutorial teaches (issue 18.4) and shows the coach's values (issue 19.1) -------------


def _at(index: int) -> Tutorial:
    tutorial = Tutorial()
    while tutorial.index < index:
        _step(tutorial)
    assert tutorial.index == index
    return tutorial


def _dv(state: MatchState) -> dict[str, OptionValue]:
    return {o.action: o for o in decision_values(state)}


def test_every_lesson_move_of_the_reader_is_the_best_or_said_to_be_a_demonstration() -> None:
    state = lesson_position()
    for step in LESSON:
        if step.who == "you" and not step.action.startswith("orders"):
            values = decision_values(state)
            lesson = values[step.action]
            better = [
                o.action
                for o in values
                if "souffle" not in o.action
                and o.worth is not None
                and lesson.worth is not None
                and (o.worth > lesson.worth if values.higher_is_better else o.worth < lesson.worth)
            ]
            runes_kept = step.action == "no rune"  # below the normal bot's threshold
            assert not better or step.demo or runes_kept, (step.action, better)
        state.apply_action(step.action)


def test_the_buttons_show_each_exact_value_for_its_side_and_the_switch_hides_them() -> None:
    orders = Tutorial()  # the orders: no exact number, the normal bot's programme
    suggestion = decision_values(orders.state).suggestion
    assert suggestion == "orders ATTT AA" and "Kitesurfeur tirer" in orders.assumption.value
    tutorial = _at(4)  # the target: P(push) for A
    values = _dv(tutorial.state)
    button = tutorial.buttons["shoot surfeur"]
    assert percent(values["shoot surfeur"].value) == "18,2\u00a0%"
    assert button.description.endswith("18,2\u00a0% de recul pour\u00a0A")
    assert "Valeurs exactes pour A" in tutorial.assumption.value
    tiny = tutorial.buttons["shoot kitesurfeur"].description  # 0,06 %: not « 0,0 % »
    assert "0,1\u00a0% de recul" in tiny and values["shoot kitesurfeur"].value == Fraction(
        values["shoot kitesurfeur"].value
    )
    tutorial.advice.value = False
    assert button.description == "Tirer sur le Surfeur de B" and tutorial.assumption.value == ""
    assert "%" not in tutorial.board.details
    tutorial.advice.value = True
    assert "18,2" in button.description


def test_small_values_keep_their_digits_and_name_whose_they_are() -> None:
    assert exact_points(Fraction(11, 10_000)) == "0,0011"
    assert exact_points(Fraction(1, 100_000)) == "<\u00a00,0001"
    assert exact_percent(Fraction(1, 10_000)) == "<\u00a00,1\u00a0%"
    assert exact_percent(Fraction(0)) == "0\u00a0%"
    tutorial = _at(13)  # A defends against B's chest shot: the values are B's
    values = _dv(tutorial.state)
    value = values["rune F"].value
    assert value is not None and exact_points(value) == "0,0011"
    assert tutorial.buttons["rune F"].description.endswith("0,0011\u00a0point espéré pour\u00a0B")


def test_every_refusal_of_a_legal_move_is_a_whole_sentence() -> None:
    """At each of the reader's steps, every other legal move is refused with a reason that
    ends in a word (no « pour la démonstration, . » at a step without a demonstration), and
    a Souffle portant shot is refused because the lesson keeps the Ultime."""
    state = lesson_position()
    souffle = 0
    for step in LESSON:
        if step.who == "you" and not step.action.startswith("orders"):
            for action in state.legal_actions():
                if action == step.action:
                    continue
                reason = refusal_reason(state, action, step)
                assert reason.endswith(".") and not re.search(r"[,;:]\s*\.$", reason), reason
                better = "est permis" not in reason and "vaut autant" not in reason
                if "souffle" in action.split() and better:  # worth more than the lesson's
                    assert "Ultime, qui ne sert qu’une fois par match" in reason, reason
                    souffle += 1
        state.apply_action(step.action)
    assert souffle >= 1  # the first shot's chest with Souffle portant is worth more


def test_a_refused_move_gets_its_reason_from_the_position() -> None:
    tutorial = _at(5)  # the attacker's rune: Confusion T is the best
    values = _dv(tutorial.state)
    tutorial.play("rune P")
    message = tutorial.message.value
    assert percent(values["rune P"].value) in message and percent(values["rune T"].value) in message
    assert "meilleur choix ici" in message
    tutorial = _at(19)  # no rune: the gain is under the normal bot's threshold
    values = _dv(tutorial.state)
    tutorial.play("rune R")
    gain = values["rune R"].worth - values["no rune"].worth
    assert exact_points(gain) == "0,022" and "0,022\u00a0point" in tutorial.message.value
    assert exact_points(rune_threshold(1)) in tutorial.message.value
    tutorial = _at(18)  # the chest shot is for the demonstration: said before and on refusal
    assert "Pour la démonstration seulement" in tutorial.step_text.value
    assert "18,2" in tutorial.step_text.value
    tutorial.play("shoot plongeur")
    assert "pour la démonstration" in tutorial.message.value and tutorial.index == 18
