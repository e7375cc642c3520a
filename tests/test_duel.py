"""Rune duels (akvo.duel): payoff matrices, best responses and both game values."""

from __future__ import annotations

import itertools
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction

import pytest

from akvo.duel import ATTACK_OPTIONS, DEFENCE_OPTIONS, RuneDuel, rune_duel, solve_zero_sum
from akvo.errors import AkvoError
from akvo.shots import Side, shot_on_chest, shot_on_mage
from tests.test_shots import brute_shot

TOLERANCE = 1e-9

DUELS = [
    ("mage", 1, 1, 1, Side(), Side()),
    ("mage", 2, 2, 1, Side(vigie=True), Side(resilience=2)),
    ("mage", 4, 3, 1, Side(tourbillon=True), Side(egide=True, resilience=1)),
    ("mage", 3, 4, 1, Side(souffle=True, policy="critical"), Side(policy="critical")),
    ("chest", 2, 3, 1, Side(), Side()),
    ("chest", 4, 1, 4, Side(vigie=True), Side(resilience=3)),
    ("chest", 3, 2, None, Side(), Side()),
]


def _duel(case: tuple[str, int, int, int | None, Side, Side]) -> RuneDuel:
    kind, tier, distance, interception, attack, defence = case
    return rune_duel(
        kind,  # type: ignore[arg-type]
        tier,
        distance,
        interception_distance=interception,
        attack=attack,
        defence=defence,
    )


@pytest.mark.parametrize("case", DUELS, ids=str)
def test_payoff_is_the_shot_value(case: tuple[str, int, int, int | None, Side, Side]) -> None:
    kind, tier, distance, interception, attack, defence = case
    duel = _duel(case)
    for i, a_rune in enumerate(duel.attacker_options):
        for j, d_rune in enumerate(duel.defender_options):
            a, d = replace(attack, rune=a_rune), replace(defence, rune=d_rune)
            if kind == "mage":
                expected = shot_on_mage(tier, distance, a, d).p_push
            else:
                expected = shot_on_chest(tier, distance, interception, a, d).expected_points
            assert duel.payoff[i][j] == expected


@pytest.mark.parametrize("case", DUELS, ids=str)
def test_equilibrium(case: tuple[str, int, int, int | None, Side, Side]) -> None:
    duel = _duel(case)
    a = [[float(v) for v in row] for row in duel.payoff]
    x, y, v = duel.attacker_strategy, duel.defender_strategy, duel.value
    assert sum(x) == pytest.approx(1) and sum(y) == pytest.approx(1)
    assert min(x) >= 0 and min(y) >= 0
    # The attacker's mix earns at least v against every defender option, the defender's
    # mix concedes at most v against every attacker option: together, a proof of optimality.
    for j in range(len(y)):
        assert sum(x[i] * a[i][j] for i in range(len(x))) >= v - TOLERANCE
    for i in range(len(x)):
        assert sum(y[j] * a[i][j] for j in range(len(y))) <= v + TOLERANCE
    assert float(duel.pure_maximin) - TOLERANCE <= v <= float(duel.pure_minimax) + TOLERANCE


@pytest.mark.parametrize("case", DUELS, ids=str)
def test_best_responses_are_best(case: tuple[str, int, int, int | None, Side, Side]) -> None:
    duel = _duel(case)
    rows, cols = len(duel.attacker_options), len(duel.defender_options)
    for j in range(cols):
        best = duel.attacker_best_response[j]
        assert all(duel.payoff[best][j] >= duel.payoff[i][j] for i in range(rows))
    for i in range(rows):
        best = duel.defender_best_response[i]
        assert all(duel.payoff[i][best] <= duel.payoff[i][j] for j in range(cols))


@pytest.mark.parametrize("case", DUELS, ids=str)
def test_sequential_value_is_r18_order(case: tuple[str, int, int, int | None, Side, Side]) -> None:
    duel = _duel(case)
    # Brute force: for each declared attacker rune, the defender picks its worst case.
    answers = [min(row) for row in duel.payoff]
    assert duel.sequential_value == max(answers) == duel.pure_maximin
    assert answers[duel.sequential_attacker_choice] == duel.sequential_value
    choice = duel.sequential_attacker_choice
    assert duel.payoff[choice][duel.defender_best_response[choice]] == duel.sequential_value


def test_payoff_against_brute_force() -> None:
    duel = rune_duel("mage", 2, 2, defence=Side(resilience=1))
    for (i, a_rune), (j, d_rune) in itertools.product(
        enumerate(ATTACK_OPTIONS), enumerate(DEFENCE_OPTIONS)
    ):
        outcomes, _, _ = brute_shot("mage", 2, 2, None, Side(a_rune), Side(d_rune, resilience=1))
        assert duel.payoff[i][j] == outcomes["push_1"] + outcomes["push_2"]
    # Confusion against Confusion: 3d6 ≥ 12 (81/216) and 3d6 + 1 < 12 (108/216), by hand.
    assert duel.payoff[2][2] == Fraction(81, 216) * Fraction(108, 216)


def test_unintercepted_chest_offers_only_runes_that_act() -> None:
    duel = rune_duel("chest", 3, 2, interception_distance=None)
    assert duel.attacker_options == (None, "attaque", "relance")
    assert duel.defender_options == (None, "confusion")
    assert len(duel.payoff) == 3 and all(len(row) == 2 for row in duel.payoff)


def test_solver_on_known_games() -> None:
    value, x, y = solve_zero_sum(((Fraction(1), Fraction(-1)), (Fraction(-1), Fraction(1))))
    assert value == pytest.approx(0) and x == pytest.approx((0.5, 0.5))
    assert y == pytest.approx((0.5, 0.5))
    rps = ((0, -1, 1), (1, 0, -1), (-1, 1, 0))
    value, x, y = solve_zero_sum(tuple(tuple(Fraction(v) for v in row) for row in rps))
    assert value == pytest.approx(0) and x == pytest.approx((1 / 3,) * 3)
    # A saddle point: row 1 / column 0 (value 3) is the pure solution.
    value, x, y = solve_zero_sum(((Fraction(1), Fraction(5)), (Fraction(3), Fraction(4))))
    assert value == pytest.approx(3) and x == pytest.approx((0, 1)) and y == pytest.approx((1, 0))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "boat"}, "unknown shot kind"),
        ({"tier": 9}, "tier 9"),
        ({"distance": 5}, "distance 5"),
        ({"attack": "attaque"}, "Side"),
    ],
)
def test_bad_duels_raise(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(AkvoError, match=message):
        rune_duel(**kwargs)  # type: ignore[arg-type]


def test_importing_the_engine_does_not_import_scipy() -> None:
    code = (
        "import sys, akvo, akvo.shots, akvo.tables, akvo.duel, akvo.cli;"
        "print('scipy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_duel_asked_again_reuses_its_solved_game() -> None:
    first = rune_duel("mage", 2, 3)
    hits = solve_zero_sum.cache_info().hits
    again = rune_duel("mage", 2, 3)
    assert solve_zero_sum.cache_info().hits == hits + 1
    assert again == first
