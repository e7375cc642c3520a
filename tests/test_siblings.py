"""The sibling games' dice (akvo.siblings) against brute-force enumeration of every face."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from akvo import siblings
from akvo.errors import AkvoError

FACES = range(1, 7)


def test_souvenir_duel_by_enumeration() -> None:
    outcome = Counter(
        "win" if a > d else "tie" if a == d else "lose" for a, d in itertools.product(FACES, FACES)
    )
    odds = siblings.souvenir_duel()
    assert (odds.win, odds.tie, odds.lose) == (
        Fraction(outcome["win"], 36),
        Fraction(outcome["tie"], 36),
        Fraction(outcome["lose"], 36),
    )
    assert (odds.win, odds.tie) == (Fraction(5, 12), Fraction(1, 6))


def _brute_lieu() -> tuple[Fraction, Fraction, Fraction]:
    """All 6**6 face tuples of three throws; two throws won (ties count for nobody) win."""
    count: Counter[str] = Counter()
    for faces in itertools.product(FACES, repeat=6):
        throws = list(zip(faces[::2], faces[1::2], strict=True))
        won = sum(a > d for a, d in throws)
        lost = sum(a < d for a, d in throws)
        count["win" if won >= 2 else "lose" if lost >= 2 else "tie"] += 1
    total = 6**6
    return (
        Fraction(count["win"], total),
        Fraction(count["tie"], total),
        Fraction(count["lose"], total),
    )


def test_lieu_duel_without_replay_by_enumeration() -> None:
    odds = siblings.lieu_duel()
    assert (odds.win, odds.tie, odds.lose) == _brute_lieu()
    assert odds.win == odds.lose  # the duel is symmetric
    assert odds.win == Fraction(325, 864)


def _brute_replay(depth: int = 25) -> tuple[Fraction, Fraction]:
    """Ties thrown again: every sequence of throws (36 face pairs each) until someone has
    won two, cut at ``depth`` throws. Returns (P(attacker wins), mass left undecided)."""
    pairs = Counter("win" if a > d else "tie" if a == d else "lose" for a in FACES for d in FACES)
    win, undecided = Fraction(0), Fraction(0)
    frontier = {(0, 0): Fraction(1)}
    for _ in range(depth):
        following: Counter[tuple[int, int]] = Counter()
        for (won, lost), p in frontier.items():
            for result, n in pairs.items():
                q = p * Fraction(n, 36)
                state = (won + (result == "win"), lost + (result == "lose"))
                if state[0] == 2:
                    win += q
                elif state[1] < 2:
                    following[state] += q  # type: ignore[assignment]
        frontier = dict(following)
    undecided = sum(frontier.values(), Fraction(0))
    return win, undecided


def test_lieu_duel_with_replay_always_has_a_winner() -> None:
    odds = siblings.lieu_duel("rejouer")
    assert odds.tie == 0
    assert odds.win == odds.lose == Fraction(1, 2)
    win, undecided = _brute_replay()
    assert win <= odds.win <= win + undecided
    assert undecided < Fraction(1, 10**15)


def test_pirate_ship_die_reads_six_faces() -> None:
    die = siblings.pirate_ship_die()
    assert sum(die.values()) == 1
    assert die["rien"] == Fraction(2, 6)
    assert die["repos"] == die["perte-main"] == Fraction(1, 6)
    assert Counter(siblings.SHIP_FACES) == Counter({k: int(v * 6) for k, v in die.items()})


def _brute_ship(turns: int) -> tuple[list[Fraction], dict[int, Fraction], Counter[str]]:
    """Every sequence of ship rolls, with the skip rule played out turn by turn."""
    plays = [Fraction(0)] * turns
    losses: Counter[int] = Counter()
    effects: Counter[str] = Counter()
    total = 6**turns
    for faces in itertools.product(FACES, repeat=turns):
        skip, lost = False, 0
        for turn, face in enumerate(faces):  # an unused face stands for the unrolled die
            if skip:
                skip = False
                continue
            plays[turn] += Fraction(1, total)
            effect = siblings.SHIP_FACES[face - 1]
            effects[effect] += 1
            lost += effect in ("perte-exploration", "perte-main")
            skip = effect == "repos"
        losses[lost] += 1
    return plays, {k: Fraction(v, total) for k, v in losses.items()}, effects


@pytest.mark.parametrize("turns", [1, 2, 3, 5])
def test_pirate_ship_forecast_by_enumeration(turns: int) -> None:
    plays, losses, effects = _brute_ship(turns)
    forecast = siblings.pirate_ship_forecast(turns)
    assert list(forecast.plays) == plays
    assert dict(forecast.losses) == losses
    for effect, n in effects.items():
        assert forecast.expected[effect] == Fraction(n, 6**turns)
    assert sum(forecast.losses.values()) == 1


@pytest.mark.parametrize("material", siblings.MATERIALS)
def test_wall_test_by_enumeration(material: str) -> None:
    bonus = {"paille": 0, "bois": 1, "pierre": 2}[material]
    holds = sum(1 for lava, wall in itertools.product(FACES, FACES) if wall + bonus > lava)
    odds = siblings.wall_test(material)  # type: ignore[arg-type]
    assert odds.holds == Fraction(holds, 36)
    assert odds.holds + odds.destroyed == 1
    assert siblings.wall_survival(material, 3) == odds.holds**3  # type: ignore[arg-type]


def test_wall_values_and_order() -> None:
    holds = [siblings.wall_test(m).holds for m in siblings.MATERIALS]
    assert holds == [Fraction(15, 36), Fraction(21, 36), Fraction(26, 36)]
    assert siblings.expected_tests_survived("paille") == Fraction(15, 21)
    assert siblings.wall_survival("pierre", 0) == 1


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: siblings.lieu_duel("au hasard"), "reading"),  # type: ignore[arg-type]
        (lambda: siblings.wall_test("verre"), "material"),  # type: ignore[arg-type]
        (lambda: siblings.wall_survival("bois", -1), "outside"),
        (lambda: siblings.wall_survival("bois", 1.5), "integer"),  # type: ignore[arg-type]
        (lambda: siblings.pirate_ship_forecast(0), "outside"),
        (lambda: siblings.pirate_ship_forecast(True), "integer"),
    ],
)
def test_bad_input_is_a_named_error(call: object, message: str) -> None:
    with pytest.raises(siblings.SiblingError, match=message) as error:
        call()  # type: ignore[operator]
    assert isinstance(error.value, AkvoError)
