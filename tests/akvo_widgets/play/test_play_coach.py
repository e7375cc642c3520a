"""The coach in « Jouer un match », without a browser: the value on each button is the
engine's (:mod:`akvo.coach`, :mod:`akvo.shots` through the preview), the « Conseils »
switch hides it, the win chances beside the options are the one valuation's
(:mod:`akvo.coach.valuation`), the same in the replay, and the match behaves (issues 18.5,
34)."""

from __future__ import annotations

import random
import time
from fractions import Fraction
from html import escape

import ipywidgets
import pytest

from akvo.coach import decision_values
from akvo.coach.valuation import valuation
from akvo.coach.words import percent as percent_words
from akvo.match import MatchState, play_match
from akvo.match.phases import Phase
from akvo.match.preview import target_values
from akvo.resolution import is_critical, is_success
from akvo_widgets.play.coach import small_points, value_text
from akvo_widgets.play.decisions import OrdersComposer
from akvo_widgets.play.game import HOT_SEAT, MatchGame, result_text
from akvo_widgets.play.replay import step_html
from akvo_widgets.play.valued import (
    ORDERS_SHOWN,
    PAGE_SEED,
    chance_words,
    option_line,
    reason_words,
    suggestion_sentence,
)
from akvo_widgets.text.formatting import exact_percent, french, percent
from akvo_widgets.text.labels import action_label
from tests.hot_seat import hot_seat_games


def _step(game: MatchGame, rng: random.Random) -> None:
    """One human decision: random orders, or a random button."""
    if game.state.phase == Phase.ORDERS:
        if game.decisions.children == (game.curtain,):
            game.curtain.click()
        for lane in game.composer.lanes:
            lane.value = rng.choice("AT")
        game.composer.confirm.click()
    else:
        game.buttons[rng.choice(list(game.buttons))].click()


def _until(game: MatchGame, phase: Phase, rng: random.Random) -> MatchState:
    while game.state.phase != phase:
        assert not game.state.is_terminal()
        _step(game, rng)
    return game.state


def _wait(condition: object, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the estimates never came"
        time.sleep(0.05)


def test_every_button_shows_the_coachs_exact_value() -> None:
    """Hot seat, random presses through whole matches: each button reads its action's
    label then akvo.coach's value; targets equal the preview's exact odds; each Relance
    option's success and critical chances are counted again here from the dice."""
    seen: set[Phase] = set()
    for game, rng in hot_seat_games(range(3)):
        while not game.state.is_terminal():
            state = game.state
            if state.phase != Phase.ORDERS and game.buttons:
                values = decision_values(state)
                for option in values:
                    label = game._labels[option.action]
                    text = value_text(option)
                    head = action_label(state, option.action)
                    assert label == (f"{head} — {text}" if text else head)
                if state.phase == Phase.TARGET:
                    for action, value in target_values(state).items():
                        assert values[action].value == value
                        if "chest" not in action and value >= Fraction(1, 2000):
                            assert percent(value) in game._labels[action]
                if state.phase == Phase.RELANCE:
                    _check_relance(state, game._labels)
                seen.add(state.phase)
            _step(game, rng)
    assert {Phase.TARGET, Phase.RELANCE, Phase.ATTACK_RUNE, Phase.ACTIVATE} <= seen


def _check_relance(state: MatchState, labels: dict[str, str]) -> None:
    modifier, threshold = state.roll_target()
    dice = list(state.shot.dice)  # type: ignore[union-attr]
    for action in state.legal_actions():
        if action == "keep":
            rolls = [dice]
        else:
            i = int(action.split()[1]) - 1
            rolls = [[*dice[:i], face, *dice[i + 1 :]] for face in range(1, 7)]
        totals = [sum(r) + modifier for r in rolls]
        success = Fraction(sum(is_success(t, threshold) for t in totals), len(totals))
        critical = Fraction(sum(is_critical(t, threshold) for t in totals), len(totals))
        expected = f"réussite {exact_percent(success)}, critique {exact_percent(critical)}"
        assert labels[action].endswith(expected)


def test_the_conseils_switch_hides_every_value_and_the_estimates() -> None:
    game = MatchGame(seed=3)
    state = _until(game, Phase.TARGET, random.Random(1))
    assert all("victoire " in b.description for b in game.buttons.values())
    game.coach_switch.value = False
    assert game.advice.value == "" and game._values is None
    for action, button in game.buttons.items():
        assert button.description == action_label(state, action)
        assert button.tooltip == ""
    game.coach_switch.value = True
    assert game._values is not None and "Conseil" in game.advice.value


def _best_shown(labels: dict[str, str]) -> set[str]:
    """The actions whose label shows the highest win chance (parsed back from the text)."""
    shown = {
        action: float(label.rsplit("victoire ", 1)[1].split("\u00a0%")[0].replace(",", "."))
        for action, label in labels.items()
    }
    top = max(shown.values())
    return {action for action, p in shown.items() if p == top}


@pytest.mark.parametrize("phase", [Phase.TARGET, Phase.ACTIVATE, Phase.ATTACK_RUNE])
def test_the_match_page_and_the_replay_show_the_one_valuation(phase: Phase) -> None:
    """Same state → the same option lines on the match page's buttons and in the replay
    (akvo.coach.valuation through .valued); the suggestion is the best shown value, each
    button's tooltip its reason."""
    game = MatchGame(seed=7)
    state = _until(game, phase, random.Random(2)).copy()
    values = valuation(state, budget=1, seed=PAGE_SEED)
    lines = {a: b.description for a, b in game.buttons.items()}
    assert lines == {w.action: option_line(state, w) for w in values}
    for worth in values:
        assert percent_words(worth.p) in lines[worth.action]
        assert game.buttons[worth.action].tooltip == reason_words(worth)
        assert "chance de gagner ensuite" not in game.buttons[worth.action].tooltip
    assert values.suggestion in _best_shown(lines)
    best = values.best
    assert escape(suggestion_sentence(state, values)) in game.advice.value
    assert french(f"Conseil : {action_label(state, best.action)} — {chance_words(best)}") in (
        suggestion_sentence(state, values)
    )
    chosen = next(iter(game.buttons))
    replayed = step_html(state, chosen)
    for line in lines.values():
        assert escape(line) in replayed
    assert f"✔ {escape(lines[chosen])}" in replayed


def test_orders_suggest_the_best_candidate_and_estimate_the_readers() -> None:
    game = MatchGame(seed=4)
    state = game.state
    assert state.phase == Phase.ORDERS
    values = valuation(state, budget=1, seed=PAGE_SEED)
    assert escape(suggestion_sentence(state, values)) in game.advice.value
    listed = game.orders_chances.value
    assert listed.count("<li") == min(len(values), ORDERS_SHOWN)
    assert escape(option_line(state, values.best)) in listed
    assert f"et {len(values) - ORDERS_SHOWN} autres" in listed
    game.composer.lanes[0].value = "T" if values.suggestion.split()[1][0] == "A" else "A"
    mine = game.composer.action
    game.estimate_orders.click()
    again = valuation(state, budget=1, seed=PAGE_SEED, actions=[mine])
    assert f"✔ {escape(option_line(state, again[mine]))}" in game.orders_chances.value
    assert game.orders_chances.value.count("<li") in (ORDERS_SHOWN, ORDERS_SHOWN + 1)


def test_small_values_never_read_zero() -> None:
    assert exact_percent(Fraction(1, 10_000)) == "<\u00a00,1\u00a0%"
    assert exact_percent(Fraction(9_999, 10_000)) == ">\u00a099,9\u00a0%"
    assert exact_percent(Fraction(0)) == "0\u00a0%"  # exactly nothing: no decimals
    assert small_points(Fraction(1, 1_000)) == "<\u00a00,01\u00a0pt"
    assert small_points(Fraction(-1, 1_000)) == ">\u00a0−0,01\u00a0pt"
    assert small_points(Fraction(1, 4)) == "0,25\u00a0pt"


# --- issue 18.5: a match that behaves ---------------------------------------------------------


def test_the_controls_apply_at_nouveau_match_only() -> None:
    game = MatchGame(opponent=HOT_SEAT, seed=2)
    game.composer.confirm.click()
    before = game.state.to_json()
    game.opponent_choice.value = "random"
    game.side_choice.value = 1
    assert game.hot_seat and game.human == 0 and game.bot is None
    assert game.state.to_json() == before
    assert "prochain match" in game.message.value
    game.new_button.click()
    game.discard_yes.click()  # a match under way is discarded only once confirmed
    assert not game.hot_seat and game.human == 1 and game.bot is not None
    assert game.state.current_player == 1  # the bot programmed A's orders


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_result_names_the_winner_once_with_its_score_first(seed: int) -> None:
    ended = play_match(seed)
    text = result_text(ended)
    winner = ended.result
    assert winner in ("A", "B")
    assert text.count("Victoire") == 1 and f"Victoire de {winner}" in text
    assert "gagne" not in text  # the engine's own sentence is not repeated
    mine, theirs = ended.scores[SIDE[winner]], ended.scores[1 - SIDE[winner]]
    if ended.reason == "score":
        assert f"{mine}\u00a0à\u00a0{theirs}" in text or f"{mine} à {theirs}" in text
    else:
        assert "égalité de points" in text and "départagée" in text and "nul" not in text


SIDE = {"A": 0, "B": 1}


def test_a_b_victory_puts_bs_score_first() -> None:
    ended = next(m for m in map(play_match, range(40)) if m.result == "B" and m.reason == "score")
    a, b = ended.scores
    assert b > a and f"Victoire de B, {b}" in result_text(ended).replace("\u00a0", " ")


def test_focus_goes_to_the_first_option_after_each_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 36.1: the keyboard goes on where the eyes are (the first option; « Valider
    les ordres » at the orders, the tokens just before it)."""
    focused: list[object] = []
    monkeypatch.setattr(ipywidgets.Button, "focus", lambda self: focused.append(self))
    game = MatchGame(seed=5, estimates=False)
    for _decision in range(6):
        first = game.decisions.children[0]
        (first.confirm if first is game.composer else first).click()
        now = game.decisions.children[0]
        assert focused[-1] is (game.composer.confirm if now is game.composer else now)


def test_a_whole_match_by_first_buttons_still_ends() -> None:
    game = MatchGame(seed=6, estimates=False)
    while not game.state.is_terminal():
        first = game.decisions.children[0]
        (first.confirm if isinstance(first, OrdersComposer) else first).click()
    assert result_text(game.state) in game.result.value.replace("&#x27;", "'")


# --- issue 19.3: the analysis in « Revoir un match » ------------------------------------------


@pytest.mark.slow
def test_the_replay_analysis_is_akvo_analyses_review() -> None:
    """The panel's verdicts, ratings and luck are akvo.coach.review's at the page's budget
    and seed (``akvo analyse``'s defaults); a flagged move jumps the board and opens the
    table of every option; « Analyser plus finement » refines an uncertain one."""
    from akvo.coach.review import refine, review
    from akvo_widgets.play.analysis_panel import PAGE_BUDGET, move_html
    from akvo_widgets.play.replay import ReplayViewer

    record = play_match(11).record()
    viewer = ReplayViewer(record)
    viewer.analysis.start(wait=True)
    expected = review(record, budget=PAGE_BUDGET, seed=PAGE_SEED, workers=0, progress=False)
    shown = viewer.analysis.review
    assert shown is not None
    assert [(r.coup, r.verdict) for r in shown.decisions] == [
        (r.coup, r.verdict) for r in expected.decisions
    ]
    flagged = expected.flagged()
    assert len(viewer.analysis.flagged.children) == len(flagged)
    for rated in expected.ratings():
        assert escape(french(rated.sentence())) in viewer.analysis.sides.value
    for side in (0, 1):
        assert escape(french(expected.luck.sentence(side))) in viewer.analysis.sides.value
    assert "niveau de départ" in viewer.analysis.sides.value
    moves = viewer.analysis.moves.value
    for move in expected.move_list():
        assert move_html(move) in moves
    assert any(r.mark for r in flagged) and any(r.mark + "</li>" in moves for r in flagged)
    assert list(viewer.analysis.line.x) == [r.coup for r in expected.decisions]
    first = flagged[0]
    viewer.analysis.flagged.children[0].click()
    assert viewer.step == first.coup
    table = viewer.analysis.explanation.value
    assert f"Coup {first.coup}," in table and table.count("<tr>") == len(first.values) + 1
    unsure = [r for r in flagged if r.verdict == "incertain"]
    if unsure:
        viewer.analysis.show_move(unsure[0].coup)
        assert viewer.analysis.refine_button.layout.display is None
        viewer.analysis.refine_shown(wait=True)
        finer = refine(expected, record, unsure[0].coup).decision(unsure[0].coup)
        assert viewer.analysis.review.decision(unsure[0].coup).values == finer.values  # type: ignore[union-attr]
