"""akvo.variants: what each rules variant changes, against brute force and the engine."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from akvo.config import CHOICES, RulesConfig
from akvo.errors import RulesError
from akvo.lab import paired, simulate
from akvo.match.board import KITESURFEUR
from akvo.match.phases import Phase
from akvo.match.preview import unit_preview
from akvo.match.scenario import scenario
from akvo.match.state import MatchState
from akvo.rules import Character, RuneCategory
from akvo.shots import Side, shot_on_chest, shot_on_mage
from akvo.teams import preset_team
from akvo.variants import (
    VARIANT_RULINGS,
    best_own_attack,
    mouvement_before_shot,
    rouleau_advance,
    ship_double_advance,
    variant_rules,
    weather_favoured_turns,
    win_rates,
)

COIN = RulesConfig(weather="coin")


def test_every_variant_of_the_config_is_named_with_its_ruling() -> None:
    assert set(VARIANT_RULINGS) == set(RulesConfig().to_dict())


def test_the_bag_always_splits_the_turns_four_and_four() -> None:
    """Every order of drawing the 8 tokens gives A exactly its 4 tokens."""
    orders = set(itertools.permutations("AAAABBBB"))
    assert all(order.count("A") == 4 for order in orders)
    assert dict(weather_favoured_turns()) == {4: Fraction(1)}


def test_the_coin_follows_the_binomial_law() -> None:
    count = Counter(seq.count("A") for seq in itertools.product("AB", repeat=8))
    expected = {k: Fraction(n, 2**8) for k, n in count.items()}
    assert dict(weather_favoured_turns(COIN)) == expected
    assert weather_favoured_turns(COIN)[4] == Fraction(35, 128)


def test_best_own_attack_tries_each_own_rune() -> None:
    team = preset_team("perrockiss")
    for rules in (RulesConfig(), RulesConfig(grimoire="swapped")):
        for character in Character:
            choices = {
                RuneCategory.ATTAQUE: "attaque",
                RuneCategory.CONFUSION: "confusion",
                RuneCategory.RELANCE: "relance",
            }
            options = [shot_on_mage(2, 2, rules=rules).p_push] + [
                shot_on_mage(2, 2, Side(rune=choices[r.category]), rules=rules).p_push  # type: ignore[arg-type]
                for r in team.runes_of(character, rules)
                if r.category in choices
            ]
            assert best_own_attack(team, character, 2, 2, rules)[1] == max(options)


def test_swapping_the_grimoire_changes_the_kitesurfeur_of_perrockiss() -> None:
    team = preset_team("perrockiss")
    standard = best_own_attack(team, Character.KITESURFEUR, 2, 2)
    swapped = best_own_attack(team, Character.KITESURFEUR, 2, 2, RulesConfig(grimoire="swapped"))
    assert standard[0] is RuneCategory.CONFUSION
    assert swapped[0] is RuneCategory.ATTAQUE
    assert swapped[1] < standard[1]


# --- R18 + R20: the Mouvement rune before a shot ---------------------------------------------


def _kitesurfeur_shot(reading: str, move: str) -> MatchState:
    """Turn 5, start rows: A's Kitesurfeur (Tirer) takes ``move``, then aims at B's."""
    state = scenario(rules=RulesConfig(mouvement_rune=reading), turn=5, bag=[2, 2])  # type: ignore[arg-type]
    for action in ("weather A", "orders ATAA AA", "orders AAAA AA", "activate kitesurfeur"):
        state.apply_action(action)
    state.apply_action(move)
    return state


def test_the_mouvement_rune_is_the_shooters_rune_by_default() -> None:
    state = _kitesurfeur_shot("is_the_rune", "move V")
    preview = unit_preview(state, 0, KITESURFEUR)
    aim = next(t for t in preview.targets if t.action == "shoot kitesurfeur")
    assert (preview.row, aim.base_distance, aim.odds.tier) == (4, 2, 3)
    aimed = state.child("shoot kitesurfeur")
    assert (aimed.phase, aimed.current_player) == (Phase.DEFENCE_RUNE, 1)  # no A rune (R18)
    effect = mouvement_before_shot()
    assert effect.rune == "V" and effect.tier == 3
    assert effect.moved.runes == () and effect.moved.best_rune is None
    assert effect.moved.p_push == aim.odds.p_push == shot_on_mage(3, 2).p_push
    assert effect.moved.p_push == Fraction(37375, 93312)
    # Standing still, the Confusion F is its best rune (N and Q are Attaque).
    assert effect.still.runes == ("N", "F", "Q") and effect.still.best_rune == "F"
    confusion = shot_on_mage(3, 3, Side(rune="confusion")).p_push
    assert confusion > shot_on_mage(3, 3, Side(rune="attaque")).p_push
    assert effect.still.p_push == confusion == Fraction(2465, 5184)
    assert effect.best == effect.still.p_push  # moving costs more than it gains here


def test_the_separate_reading_adds_a_shot_rune_after_the_move() -> None:
    state = _kitesurfeur_shot("separate", "move V").child("shoot kitesurfeur")
    assert state.legal_actions() == ("no rune", "rune N", "rune F", "rune Q")
    effect = mouvement_before_shot(RulesConfig(mouvement_rune="separate"))
    assert effect.moved.runes == ("N", "F", "Q") and effect.moved.best_rune == "F"
    expected = shot_on_mage(3, 2, Side(rune="confusion")).p_push
    assert effect.moved.p_push == effect.best == expected == Fraction(11765, 15552)
    assert effect.still == mouvement_before_shot().still  # standing still is not touched


# --- R20: the ship's Mouvement runes on the double Avancer token -----------------------------


def test_the_ship_takes_one_mouvement_rune_for_its_double_advance() -> None:
    one = ship_double_advance()
    per_order = ship_double_advance(RulesConfig(ship_advance_runes="per_order"))
    assert (one.row_before, one.row, one.cells, one.runes) == (3, 6, 3, ("Z",))
    assert (per_order.row, per_order.cells, per_order.runes) == (7, 4, ("Z", "W"))
    # R5: the chest is 9 − row away for A; R6: B's Barreur (ship on row 8) intercepts.
    for advance in (one, per_order):
        assert advance.tier == 3 and advance.chest_distance == 9 - advance.row
        exact = shot_on_chest(3, 9 - advance.row, 8 - advance.row).expected_points
        assert advance.chest_points == exact
    assert one.chest_points == Fraction(817075, 1679616)
    assert per_order.chest_points == Fraction(542717, 559872)


# --- R20 with R24: a Mouvement rune on Rouleau's advance ------------------------------------


def test_rouleau_takes_a_mouvement_rune_only_under_the_variant() -> None:
    plain = rouleau_advance()
    boosted = rouleau_advance(RulesConfig(rouleau_mouvement="plus_one"))
    assert (plain.row_before, plain.row, plain.cells, plain.rune) == (3, 4, 1, None)
    assert plain.runes_offered == () and plain.chest_distance == 5  # R5: out of range
    assert (boosted.row, boosted.cells, boosted.rune) == (5, 2, "Y")
    assert boosted.runes_offered == ("Y", "W")  # the Surfeur's own Y, the bonus W (R21)
    assert boosted.chest_distance == 4 and plain.tier == boosted.tier == 3


# --- Win rates -------------------------------------------------------------------------------


def test_every_variant_has_its_other_reading() -> None:
    for field, (default, other) in CHOICES.items():
        assert getattr(variant_rules(field), field) == other != default
    with pytest.raises(RulesError, match="unknown rules variant"):
        variant_rules("dice")


def test_win_rates_play_the_same_seeds_under_both_readings() -> None:
    seen: list[tuple[int, int]] = []
    first, second, comparison = win_rates(
        "prodige", n=3, seed=5, on_progress=lambda done, total: seen.append((done, total))
    )
    assert seen[-1] == (6, 6) and all(total == 6 for _, total in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    alone = simulate(
        "perrockiss", "fish-tank", ("greedy", "greedy"), "prodige=all", 3, 5, workers=0
    )
    assert second.rows == alone.rows and second.meta["rules"]["prodige"] == "all"
    assert first.meta["rules"] == RulesConfig().to_dict()
    assert comparison == paired(first, second)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mouvement_before_shot("weather=coin"), "must be a RulesConfig"),  # type: ignore[arg-type]
        (lambda: ship_double_advance(3), "must be a RulesConfig"),  # type: ignore[arg-type]
        (lambda: win_rates("dice"), "unknown rules variant 'dice'"),
        (lambda: win_rates("prodige", n=0), "n must be a positive number"),
        (lambda: win_rates("prodige", 2, 1, ("greedy", "nobot")), "unknown bot 'nobot'"),
    ],
)
def test_bad_requests_are_refused_by_name(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
