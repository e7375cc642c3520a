"""Exact values of every decision in the replay viewer, and the engine's refusals in French."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from akvo.bots.values import best_worth, shooters
from akvo.match import MatchState, new_match, play_match, replay
from akvo.match.board import CHARS_OF_UNIT, UNIT_OF_NAME
from akvo.match.phases import Phase
from akvo.match.preview import target_values
from akvo_widgets.play.decisions import option_labels
from akvo_widgets.play.game import MatchGame
from akvo_widgets.play.odds import decision_values, relance_values, rune_values, unit_values
from akvo_widgets.play.records import RecordError, load_record
from akvo_widgets.play.refusals import move_refusal
from akvo_widgets.play.replay import ReplayViewer
from akvo_widgets.play.tutorial import Tutorial
from akvo_widgets.text.formatting import decimal, percent
from akvo_widgets.text.labels import action_label
from tests.shot_oracle import attack_value

MATCH = play_match(seed=9)
#: Words of the engine's English messages that must never reach the page.
ENGLISH = re.compile(r"\b(illegal|must|expected|field|action|got|unknown|phase|side)\b")


def _decisions(phase: Phase) -> list[tuple[MatchState, MatchState, str]]:
    """(state before the previous move, state at a ``phase`` decision, move played there)."""
    record = MATCH.record()
    out = []
    for index, action in enumerate(record["actions"]):
        before = replay({**record, "actions": record["actions"][:index]})
        if before.phase == phase and index > 0:
            previous = replay({**record, "actions": record["actions"][: index - 1]})
            out.append((previous, before, action))
    return out


RUNE_DECISIONS = _decisions(Phase.ATTACK_RUNE)


def test_rune_decisions_show_the_exact_value_of_each_rune() -> None:
    checked = 0
    for previous, state, _action in RUNE_DECISIONS:
        if previous.phase != Phase.TARGET:
            continue  # a single target, chosen by the engine
        odds = rune_values(state)
        assert all(isinstance(v, Fraction) for v in odds.values.values())
        # no rune: the value the target decision offered for this shot (another path)
        assert odds.values["no rune"] == target_values(previous)[state.history[-1]]
        if any(state.effects) or "souffle" in state.history[-1]:
            continue  # the independent sides below know no Ultime
        category_of = state.rosters[state.shot.side].category_of  # type: ignore[union-attr]
        names = {0: "attaque", 2: "confusion", 3: "relance"}
        for action, value in odds.values.items():
            if action == "no rune":
                continue
            rune = names[category_of[action.split()[1]]]
            assert value == attack_value(previous, state, state.history[-1], rune)  # type: ignore[arg-type]
            checked += 1
    assert checked >= 5


def test_the_match_pages_rune_buttons_show_the_shots_value_with_each_rune() -> None:
    checked = 0
    for previous, state, _action in RUNE_DECISIONS:
        if previous.phase != Phase.TARGET or any(state.effects):
            continue
        if "souffle" in state.history[-1]:
            continue  # the oracle's sides know no Ultime
        labels = option_labels(state)
        assert set(labels) == set(state.legal_actions())
        category_of = state.rosters[state.shot.side].category_of  # type: ignore[union-attr]
        names = {0: "attaque", 2: "confusion", 3: "relance"}
        for action, label in labels.items():
            if action == "no rune":
                rune = None
            elif category_of[action.split()[1]] in names:
                rune = names[category_of[action.split()[1]]]
            else:
                assert " — " not in label  # no effect on this shot's odds: no number
                continue
            value = attack_value(previous, state, state.history[-1], rune)
            chest = "chest" in state.history[-1]
            shown = (
                f"{decimal(value, 2)}\u00a0point en moyenne"
                if chest
                else f"{percent(value)} de recul"
            )
            assert label == f"{action_label(state, action)} — {shown}"
            checked += 1
    assert checked >= 10


def test_the_replay_shows_every_rune_option_as_the_match_page_does() -> None:
    """The replay's rune decision: every option's line from the one valuation (the match
    page's words), its reason assuming the defender's best reply, as the match page does."""
    from html import escape

    from akvo_widgets.play.valued import option_line, page_valuation

    viewer = ReplayViewer(MATCH.record())
    state = RUNE_DECISIONS[0][1]
    step = len(state.history) + 1
    assert viewer.states[step - 1].to_json() == state.to_json()
    viewer.go(step)
    values = page_valuation(state)
    assert {w.action for w in values} == set(state.legal_actions())
    for worth in values:
        assert escape(option_line(state, worth)) in viewer.detail.value
    assert "meilleure réponse du défenseur" in viewer.detail.value


def test_activation_values_are_each_unit_best_shot() -> None:
    state = next(s for _p, s, _a in _decisions(Phase.ACTIVATE) if len(unit_values(s).values) >= 3)
    values = unit_values(state).values
    side = state.current_player
    for action, value in values.items():
        unit = UNIT_OF_NAME[action.split()[1]]
        floats = [
            best_worth(state, side, c) for c in CHARS_OF_UNIT[unit] if c in shooters(state, side)
        ]
        assert float(value) == pytest.approx(max(floats, default=0.0))


def test_relance_values_are_exact_chances_of_this_roll() -> None:
    _p, state, _a = _decisions(Phase.RELANCE)[0]
    modifier, threshold = state.roll_target()
    dice = list(state.shot.dice)  # type: ignore[union-attr]
    values = relance_values(state).values
    assert values["keep"] == (sum(dice) + modifier >= threshold)
    for index in range(len(dice)):
        wins = sum(sum(dice) - dice[index] + face + modifier >= threshold for face in range(1, 7))
        assert values[f"reroll {index + 1}"] == Fraction(wins, 6)


def test_decisions_without_a_single_number_say_so() -> None:
    state = new_match()
    state.apply_action("weather A")
    odds = decision_values(state)
    assert odds.values == {} and "secrets" in odds.meaning


# --- refusals in French -----------------------------------------------------------------------


def test_an_illegal_move_in_a_match_is_refused_in_french_with_the_choices() -> None:
    game = MatchGame(seed=3)
    game.composer.confirm.click()
    state = game.state
    before = state.to_json()
    game.play("shoot chest")
    message = game.message.value
    assert game.state.to_json() == before
    assert "Ce coup n’est pas permis" in message
    assert action_label(state, state.legal_actions()[0]) in message
    assert not ENGLISH.search(message)


def test_the_tutorial_refuses_an_illegal_move_in_french() -> None:
    tutorial = Tutorial()
    tutorial.play("reroll 9")
    assert "programme ses ordres" in tutorial.message.value
    assert not ENGLISH.search(tutorial.message.value)


def test_move_refusal_at_the_end_and_at_dice() -> None:
    assert move_refusal(MATCH, "keep") == "le match est déjà terminé."
    state = new_match()
    assert "météo" in move_refusal(state, "roll 1")


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda a: [*a[:5], "shoot chest", *a[5:]], "le coup n° 6 du fichier"),
        (lambda a: [*a, "roll 1111"], "déjà terminé"),
        (lambda a: [x.replace("roll 6", "roll 9") for x in a], "dés"),
    ],
)
def test_a_file_with_an_illegal_move_names_it_in_french(edit: object, words: str) -> None:
    record = MATCH.record()
    data = json.dumps({**record, "actions": edit(record["actions"])})  # type: ignore[operator]
    with pytest.raises(RecordError) as error:
        load_record(data.encode())
    assert words in str(error.value)
    assert not ENGLISH.search(str(error.value))


@pytest.mark.parametrize("teams", [["XXXX", "YYYY"], 3])
def test_a_file_with_bad_teams_names_the_field_in_french(teams: object) -> None:
    data = json.dumps({**MATCH.record(), "teams": teams}).encode()
    with pytest.raises(RecordError) as error:
        load_record(data)
    assert "le champ «\u00a0teams" in str(error.value)
    assert not ENGLISH.search(str(error.value))
