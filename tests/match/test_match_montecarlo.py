"""The engine's sampled dice agree with akvo.shots' exact odds (chi-square, fixed seed)."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from scipy.stats import chi2

from akvo.match import CHANCE, MatchState
from akvo.match.bots import r15_relance
from akvo.match.phases import Phase
from akvo.match.scenario import scenario
from akvo.shots import CHEST_OUTCOMES, MAGE_OUTCOMES, ShotOdds, Side, shot_on_chest, shot_on_mage
from tests.match.helpers import ALL, bare, play

SAMPLES = 6000


def _at_the_attack_roll(actions: str, keep: str = "", **setup: object) -> MatchState:
    """Play ``actions`` (separated by ``;``) from a scenario where A holds only ``keep[0]``
    (or nothing), B only ``keep[1]``, and A's Souffle portant is used; the state must reach
    the attack roll."""
    a, b = (keep + "--")[:2]
    spent = {"A": ALL.replace(a, ""), "B": ALL.replace(b, "")}
    state = scenario(spent=spent, ultimes_used={"A": ["pedalair"]}, **setup)  # type: ignore[arg-type]
    play(state, *(action.strip() for action in actions.split(";")))
    assert state.phase == Phase.ROLL
    return state


def _fits(counts: dict[str, int], odds: ShotOdds) -> float:
    """The chi-square p-value of sampled outcome counts against a shot's exact odds."""
    assert set(counts) == set(odds.outcomes)
    return _p_value([counts[k] for k in odds.outcomes], list(odds.outcomes.values()))


def _sample(
    state: MatchState,
    outcomes: tuple[str, ...],
    seed: int,
    decide: Callable[[MatchState], str] | None = None,
) -> dict[str, int]:
    """Outcome counts of ``SAMPLES`` resolutions from ``state``; ``decide`` answers the
    decisions met before the outcome (a Relance), if any."""
    rng = random.Random(seed)
    counts = dict.fromkeys(outcomes, 0)
    for _ in range(SAMPLES):
        shot = state.copy()
        shot.last_outcome = ""
        while not shot.last_outcome:
            if shot.current_player == CHANCE:
                shot.apply_action(shot.sample_chance(rng))
            else:
                assert decide is not None, f"unexpected decision: {shot.legal_actions()}"
                shot.apply_action(decide(shot))
        counts[shot.last_outcome] += 1
    return counts


def _surfeur_duel(
    turn: int, attack_rune: str = "", defence_rune: str = "", resilience: int = 0
) -> MatchState:
    """A's Surfeur (row 4) shoots B's Surfeur (row 6, distance 2), each side holding only
    the rune it plays, at the attack roll."""
    runes = "".join(f"; rune {r}" for r in (attack_rune, defence_rune) if r)
    return _at_the_attack_roll(
        "weather A; orders AATA AA; orders AAAA AA; activate surfeur; shoot surfeur" + runes,
        (attack_rune or "-") + (defence_rune or "-"),
        turn=turn,
        rows={"A": {"surfeur": 4}, "B": {"surfeur": 6}},
        resilience={"B": {"surfeur": resilience}},
    )


def _samples_like(
    state: MatchState, odds: ShotOdds, seed: int, decide: Callable[[MatchState], str] | None = None
) -> bool:
    """Whether ``SAMPLES`` resolutions from ``state`` fit the exact ``odds`` (p > 1e-6)."""
    outcomes = MAGE_OUTCOMES if odds.kind == "mage" else CHEST_OUTCOMES
    return _fits(_sample(state, outcomes, seed, decide), odds) > 1e-6


def _p_value(observed: list[int], exact: list[Fraction]) -> float:
    statistic = 0.0
    cells = 0
    for seen, p in zip(observed, exact, strict=True):
        if p == 0:
            assert seen == 0
            continue
        expected = SAMPLES * float(p)
        statistic += (seen - expected) ** 2 / expected
        cells += 1
    return float(chi2.sf(statistic, cells - 1))


def test_a_mage_shot_samples_like_its_exact_odds() -> None:
    # Tier II, distance 2; A's Surfeur plays P (Attaque), B's Surfeur D (Défense) with
    # Résilience 1.
    state = _surfeur_duel(3, "P", "D", resilience=1)
    odds = shot_on_mage(
        2, 2, attack=Side(rune="attaque"), defence=Side(rune="defense", resilience=1)
    )
    assert _samples_like(state, odds, seed=20261129)


def test_a_chest_shot_samples_like_its_exact_odds() -> None:
    # Tier IV, chest distance 3, interception distance 2; A plays the bonus Q (Attaque) with
    # Vigie; B's Plongeur holds only P (Attaque), useless to an interceptor.
    state = _at_the_attack_roll(
        "weather A; orders AAAT AA; orders AAAA AA; ultime vigie; activate plongeur; "
        "no trident; shoot chest; rune Q",
        "QP",
        turn=7,
        rows={"A": {"plongeur": 6}, "B": {"plongeur": 8}},
    )
    odds = shot_on_chest(4, 3, 2, attack=Side(rune="attaque", vigie=True), defence=Side())
    assert _samples_like(state, odds, seed=7)


def test_a_wrong_model_is_detected() -> None:
    """The check has teeth: the mage shot's samples reject the odds without Résilience."""
    state = _surfeur_duel(3, resilience=3)
    right = shot_on_mage(2, 2, defence=Side(resilience=3))
    wrong = shot_on_mage(2, 2)
    observed = _sample(state, MAGE_OUTCOMES, seed=3)
    assert _fits(observed, right) > 1e-6
    assert _fits(observed, wrong) < 1e-6


def test_relance_played_by_r15_samples_like_its_exact_odds() -> None:
    # Tier I, distance 2; B's Surfeur defends with the bonus M (Relance), choosing by R15.
    state = _surfeur_duel(1, defence_rune="M")
    odds = shot_on_mage(1, 2, defence=Side(rune="relance"))
    assert _samples_like(state, odds, seed=99, decide=r15_relance)


def test_confusion_tourbillon_and_egide_sample_like_their_exact_odds() -> None:
    # Tier III, distance 2: B declares Tourbillon and Égide before activating; A's
    # Kitesurfeur then shoots B's Kitesurfeur with F (Confusion): 3 dice each way.
    state = _at_the_attack_roll(
        "weather B; orders ATAA AA; orders AAAA AA; ultime tourbillon; ultime egide; "
        "activate pedalair; activate kitesurfeur; shoot kitesurfeur; rune F",
        "F",
        turn=5,
        rows={"A": {"kitesurfeur": 4}},
    )
    assert state.chance_outcomes()[0][0] == "roll 111"  # 3 attack dice (Tourbillon)
    odds = shot_on_mage(
        3, 2, attack=Side(rune="confusion"), defence=Side(tourbillon=True, egide=True)
    )
    assert _samples_like(state, odds, seed=5)


def _exact(state: MatchState, decide: Callable[[MatchState], str]) -> dict[str, Fraction]:
    """Every chance outcome from ``state`` to the shot's outcome, with exact weights."""
    if state.last_outcome:
        return {state.last_outcome: Fraction(1)}
    if state.current_player != CHANCE:
        return _exact(state.child(decide(state)), decide)
    odds: dict[str, Fraction] = {}
    for action, p in state.chance_outcomes():
        for outcome, q in _exact(state.child(action), decide).items():
            odds[outcome] = odds.get(outcome, Fraction(0)) + p * q
    return odds


def test_an_attack_relance_enumerated_exactly_matches_akvo_shots() -> None:
    # R15 + R17 + R24: A's Pédalair shoots the chest 6 cells away with Souffle portant and
    # its Relance L; B's Pédalair on row 8 is 5 away: no interception. Every roll and every
    # reroll chosen by R15, weighed exactly, gives akvo.shots' odds.
    state = bare(keep={"A": "L"}, ultimes={"A": ["pedalair"]}, rows={"B": {"pedalair": 8}})
    play(state, "weather A", "orders TAAA AA", "orders AAAA AA", "activate pedalair")
    play(state, "shoot chest souffle", "rune L")
    assert state.phase == Phase.ROLL and not state.last_outcome
    exact = _exact(state, r15_relance)
    odds = shot_on_chest(1, 6, None, attack=Side(rune="relance", souffle=True))
    assert exact == {k: p for k, p in odds.outcomes.items() if p}
