"""akvo.coach.values against independent paths: the engine's own rolls, akvo.shots and
akvo.duel, the bots' float worths and gains, at every decision of seeded matches."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache

import pytest

from akvo.bots import make_bot
from akvo.bots.greedy import GreedyBot
from akvo.bots.values import (
    PUSH_WEIGHT,
    best_worth,
    resolution_sides,
    target_worths,
    ultime_gains,
)
from akvo.coach import CoachError, decision_values
from akvo.coach.values import (
    ASSUMPTIONS,
    EXPECTED_POINTS,
    GAIN,
    MEASURES,
    NONE,
    P_PUSH,
    P_SUCCESS,
    WORTH,
)
from akvo.duel import rune_duel
from akvo.match import MatchState, decisions, new_match, play_match
from akvo.match.actions import ULTIME_ACTIONS
from akvo.match.board import CHAR_NAMES, FORWARD, UNIT_OF_CHAR, UNITS
from akvo.match.geometry import room_ahead
from akvo.match.preview import target_values
from akvo.match.roster import ATTAQUE, CONFUSION, DEFENSE, RELANCE
from akvo.match.streams import KeyedChance
from akvo.match.ultimes import EFFECT_OF_CHAR
from akvo.shots import shot
from tests.brute_force import _flags

_RUNE = {ATTAQUE: "attaque", DEFENSE: "defense", CONFUSION: "confusion", RELANCE: "relance"}


@cache
def nodes() -> dict[str, list[MatchState]]:
    """Every decision node of six seeded matches (greedy and random bots, both sides)."""
    found: dict[str, list[MatchState]] = defaultdict(list)
    for seed in range(6):
        bots = (make_bot("greedy", seed), make_bot("random", seed))
        if seed % 2:
            bots = bots[::-1]
        state = new_match("perrockiss", "fish-tank", log=False)
        for node in decisions(state, KeyedChance(seed), bots):
            found[node.phase_name()].append(node.copy())
    return dict(found)


def test_every_legal_action_has_one_value_in_order() -> None:
    for phase, states in nodes().items():
        for state in states:
            values = decision_values(state)
            assert [o.action for o in values] == list(state.legal), phase
            assert values.phase == phase and values.side == state.current_player
            assert values.assumption in ASSUMPTIONS
            assert values.suggestion == GreedyBot(0).choose(state)
            for option in values:
                assert option.measure in MEASURES
                assert (option.value is None) == (option.measure == NONE)
                assert option.value is None or isinstance(option.value, Fraction)


def test_targets_are_the_previews_exact_values() -> None:
    for state in nodes()["target"]:
        values = decision_values(state)
        exact = target_values(state)
        current = state.shot
        assert current is not None
        floats = target_worths(state, current.side, current.shooter, souffle=True)
        for option in values:
            if option.action == "hold":
                continue
            assert option.value == exact[option.action]
            chest = "chest" in option.action
            assert option.measure == (EXPECTED_POINTS if chest else P_PUSH)
            assert option.worth == option.value * (1 if chest else PUSH_WEIGHT)
            assert float(option.worth) == pytest.approx(floats[option.action], abs=1e-12)


def test_relance_chances_are_brute_force_over_the_faces() -> None:
    """The engine's threshold and dice, every face of the rerolled die, and the flags of
    tests/brute_force.py (written apart from akvo.resolution)."""
    checked = 0
    for state in nodes()["relance"]:
        modifier, threshold = state.roll_target()
        dice = tuple(state.shot.dice)  # type: ignore[union-attr]
        for option in decision_values(state):
            assert option.measure == P_SUCCESS
            if option.action == "keep":
                rolls = [dice]
            else:
                i = int(option.action.split()[1]) - 1
                rolls = [(*dice[:i], face, *dice[i + 1 :]) for face in range(1, 7)]
            brute = [_flags(r, threshold, modifier, state.rules.prodige) for r in rolls]
            share = Fraction(1, len(brute))
            assert option.value == sum(share for s, _, _ in brute if s)
            assert option.critical == sum(share for _, c, _ in brute if c)
            assert option.prodige == sum(share for _, _, p in brute if p)
            checked += 1
    assert checked > 20


def _duel(state: MatchState):  # type: ignore[no-untyped-def]
    chest, distance, idist, attack, defence = resolution_sides(state)
    return rune_duel(
        "chest" if chest else "mage",
        state.tier,
        distance,
        interception_distance=idist,
        attack=attack,
        defence=defence,
        rules=state.rules,
    )


def test_attack_runes_meet_the_defenders_best_reply_of_the_rune_duel() -> None:
    checked = full = 0
    for state in nodes()["attack rune"][::3]:  # a third of them: each duel solves two LPs
        values = decision_values(state)
        assert values.assumption == "opponent_best_reply"
        duel = _duel(state)
        current = state.shot
        assert current is not None
        attack_cats = state.rosters[current.side].category_of
        defence_cats = state.rosters[1 - current.side].category_of
        for option in values:
            rune = None if option.action == "no rune" else _RUNE.get(attack_cats[option.action[-1]])
            row = duel.payoff[duel.attacker_options.index(rune)]
            assert option.unanswered == row[duel.defender_options.index(None)]
            assert option.value is not None and option.value <= option.unanswered
            if option.reply is not None:
                reply = None if option.reply == "no rune" else _RUNE[defence_cats[option.reply[-1]]]
                assert option.value == row[duel.defender_options.index(reply)]
            checked += 1
        attacks = {None, *(_RUNE.get(attack_cats[a[-1]]) for a in state.legal if a != "no rune")}
        replies = state.child("no rune").legal
        defences = {None, *(_RUNE.get(defence_cats[a[-1]]) for a in replies if a != "no rune")}
        if attacks >= set(duel.attacker_options) and defences >= set(duel.defender_options):
            # every rune of the duel is open to both: the best attack is R18's sequential value
            best = values.best()
            assert best is not None and best.value == duel.sequential_value
            full += 1
    assert checked > 40 and full > 0


def test_defence_runes_are_the_shot_with_both_runes() -> None:
    for state in nodes()["defence rune"]:
        values = decision_values(state)
        assert not values.higher_is_better
        for option in values:
            chest, distance, idist, attack, defence = resolution_sides(state.child(option.action))
            kind = "chest" if chest else "mage"
            expected = shot(kind, state.tier, distance, idist, attack, defence, rules=state.rules)
            assert option.value == expected.value


def test_activations_and_ultimes_are_what_the_greedy_bot_computes() -> None:
    ultimes = 0
    for state in nodes()["activate"]:
        side = state.current_player
        for option in decision_values(state):
            if option.measure == WORTH:
                assert option.shooter is None or option.shooter in CHAR_NAMES
                if option.shooter is not None:
                    character = CHAR_NAMES.index(option.shooter)
                    assert float(option.value) == pytest.approx(  # type: ignore[arg-type]
                        best_worth(state, side, character), abs=1e-12
                    )
            elif option.measure == GAIN:
                effect = EFFECT_OF_CHAR[ULTIME_ACTIONS[option.action]]
                (bot_gain,) = ultime_gains(state, side, (effect,))
                assert float(option.value) == pytest.approx(bot_gain, abs=1e-12)  # type: ignore[arg-type]
                ultimes += 1
            else:
                assert option.action.startswith("rune U")
    assert ultimes > 20


def test_moving_before_a_shot_is_valued_as_the_greedy_bot_does() -> None:
    checked = 0
    for state in nodes()["pre-shot"]:
        current = state.shot
        assert current is not None
        side, shooter = current.side, current.shooter
        unit = UNIT_OF_CHAR[shooter]
        row = state.rows[side * UNITS + unit]
        stepped = row + FORWARD[side] if room_ahead(state.rows, side, unit) else row
        for option in decision_values(state):
            at = row if option.action == "no move" else stepped
            assert float(option.value) == pytest.approx(  # type: ignore[arg-type]
                best_worth(state, side, shooter, row=at), abs=1e-12
            )
            checked += 1
    assert checked > 10


def test_every_phase_is_met_and_orders_suggest_the_greedy_programme() -> None:
    found = nodes()
    assert {"orders", "activate", "target", "attack rune", "defence rune", "relance"} <= set(found)
    for state in found["orders"]:
        values = decision_values(state)
        assert values.suggestion == GreedyBot(0).orders(state, state.current_player)
        assert values.best() is None and values.assumption == "no_exact_value"


def test_values_read_nothing_hidden_at_the_orders() -> None:
    state = new_match(log=False)
    while state.current_player != 1:
        state.apply_action(state.legal[0] if state.current_player == 0 else "weather A")
    before = decision_values(state)
    other = state.copy()
    other.orders[0] = (1, 1, 1, 1, 1)
    assert decision_values(other) == before


@pytest.mark.parametrize("bad", [None, "state", 3])
def test_not_a_state_is_refused(bad: object) -> None:
    with pytest.raises(CoachError, match="MatchState"):
        decision_values(bad)


def test_chance_nodes_and_the_end_are_refused() -> None:
    with pytest.raises(CoachError, match="chance node"):
        decision_values(new_match())
    with pytest.raises(CoachError, match="over"):
        decision_values(play_match(1, log=False))
    values = decision_values(nodes()["target"][0])
    with pytest.raises(CoachError, match="not an option"):
        values["shoot nobody"]
