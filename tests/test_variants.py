"""akvo.variants: what each rules variant changes, against brute force and the engine."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from akvo.config import RulesConfig
from akvo.rules import Character, RuneCategory
from akvo.shots import Side, shot_on_mage
from akvo.teams import preset_team
from akvo.variants import VARIANT_RULINGS, best_own_attack, weather_favoured_turns

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
