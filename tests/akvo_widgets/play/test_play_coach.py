"""The coach in « Jouer un match », without a browser: the value on each button is the
engine's (:mod:`akvo.coach`, :mod:`akvo.shots` through the preview), the « Conseils »
switch hides it, the win chances beside the options are :class:`akvo.coach.WinChances`'
own estimates, and the match behaves (issue 18.5)."""

from __future__ import annotations

import json
import random
import time
from fractions import Fraction

import pytest

from akvo.coach import WinChances, decision_values
from akvo.match import MatchState, play_match
from akvo.match.phases import Phase
from akvo.match.preview import target_values
from akvo.resolution import is_critical, is_success
from akvo_widgets.play.coach import chance_text, small_points, value_text
from akvo_widgets.play.decisions import OrdersComposer
from akvo_widgets.play.game import HOT_SEAT, MatchGame, result_text
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
    assert any(" — " in b.description for b in game.buttons.values())
    game.coach_switch.value = False
    assert game._worker is None and game.advice.value == ""
    for action, button in game.buttons.items():
        assert button.description == action_label(state, action)
    game.coach_switch.value = True
    assert game._worker is not None
    game._stop_worker()


def test_the_win_chances_shown_are_the_coachs_estimates_on_the_same_dice() -> None:
    game = MatchGame(seed=7)
    state = _until(game, Phase.TARGET, random.Random(2)).copy()
    _wait(lambda: all("victoire ≈" in b.description for b in game.buttons.values()))
    with game._lock:
        shown = {a: b.description for a, b in game.buttons.items()}
        note = game.advice.value
        worker = game._worker
        assert worker is not None
        rollouts = int(note.split("estimation sur ")[1].split(" parties")[0])
        game._stop_worker()
    again = WinChances(state, seed=7).refine(rollouts)
    for chance in again:
        assert shown[chance.action].endswith(f" · {chance_text(chance)}")
    assert "intervalle de confiance à 95" in note and "parties simulées" in note


def test_orders_show_the_normal_bots_programme_and_estimate_the_readers() -> None:
    game = MatchGame(seed=4)
    assert game.state.phase == Phase.ORDERS
    suggestion = decision_values(game.state).suggestion
    assert french("Le bot « normal » programmerait : ") in game.advice.value
    game.composer.lanes[0].value = "T" if suggestion.split()[1][0] == "A" else "A"
    game.estimate_orders.click()
    _wait(lambda: "victoire ≈" in game.orders_chances.value)
    assert game.orders_chances.value.count("<li>") == 2
    game._stop_worker()


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


def test_focus_goes_to_the_switch_after_each_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    game = MatchGame(seed=5)
    focused: list[str] = []
    monkeypatch.setattr(game.coach_switch, "focus", lambda: focused.append("switch"))
    game.composer.confirm.click()
    next(iter(game.buttons.values())).click()
    assert focused == ["switch", "switch"]
    game._stop_worker()


def test_a_whole_match_by_first_buttons_still_ends() -> None:
    game = MatchGame(seed=6, estimates=False)
    while not game.state.is_terminal():
        first = game.decisions.children[0]
        (first.confirm if isinstance(first, OrdersComposer) else first).click()
    assert result_text(game.state) in game.result.value.replace("&#x27;", "'")
    assert game._worker is None


# --- issue 19.3: the analysis in « Revoir un match » ------------------------------------------


@pytest.mark.slow
def test_the_replay_analysis_shows_akvo_coachs_curve_and_jumps_to_a_flagged_move() -> None:
    from akvo.coach import analyse
    from akvo_widgets.play.analysis_panel import PAGE_ROLLOUTS
    from akvo_widgets.play.replay import ReplayViewer

    record = play_match(11).record()
    viewer = ReplayViewer(record)
    viewer.analysis.start(wait=True)
    expected = analyse(record, rollouts=PAGE_ROLLOUTS, workers=0, progress=False)
    curve = expected.curve()
    assert list(viewer.analysis.line.y) == [p.p_a for p in curve]
    assert list(viewer.analysis.line.x) == [p.coup for p in curve]
    flagged = [row for row in expected.decisions if row.verdict]
    assert len(viewer.analysis.flagged.children) == len(flagged)
    assert viewer.analysis.progress.value == viewer.analysis.progress.max
    if flagged:
        viewer.analysis.flagged.children[0].click()
        assert viewer.step == flagged[0].coup
        assert f"Coup {flagged[0].coup}," in viewer.analysis.explanation.value


# --- issue 19.5: a match kept in the browser -------------------------------------------------


def test_a_match_in_progress_is_kept_and_resumed_and_a_tampered_one_refused() -> None:
    game = MatchGame(seed=9, estimates=False)
    assert game.keeper.to_store == "" and not game.keeper.guard
    game.composer.confirm.click()
    kept = game.keeper.to_store
    assert game.keeper.guard and json.loads(kept)["actions"] == game.state.record()["actions"]
    fresh = MatchGame(seed=1, estimates=False)
    fresh.keeper.saved = kept  # what the browser hands back on a reload
    assert fresh.can_resume
    fresh.resume_button.click()
    assert not fresh.can_resume
    assert fresh.state.to_json() == game.state.to_json()
    other = MatchGame(seed=1, estimates=False)
    other.keeper.saved = kept.replace('"actions": [', '"actions": ["shoot chest", ', 1)
    before = other.state.to_json()
    other.resume_button.click()
    assert other.state.to_json() == before and "ne peut pas être repris" in other.message.value
    assert other.keeper.to_store == ""
