"""The engine's sampled dice agree with akvo.shots' exact odds (chi-square, fixed seed)."""

from __future__ import annotations

import random
from fractions import Fraction

from scipy.stats import chi2

from akvo.match import CHANCE, MatchState
from akvo.match.bots import r15_relance
from akvo.match.scenario import scenario
from akvo.shots import CHEST_OUTCOMES, MAGE_OUTCOMES, Side, shot_on_chest, shot_on_mage

ALL = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SAMPLES = 6000


def _at_the_attack_roll(actions: list[str], **setup: object) -> MatchState:
    state = scenario(**setup)  # type: ignore[arg-type]
    for action in actions:
        state.apply_action(action)
    assert state.phase_name() == "roll"
    return state


def _sample(state: MatchState, outcomes: tuple[str, ...], seed: int) -> list[int]:
    rng = random.Random(seed)
    counts = dict.fromkeys(outcomes, 0)
    for _ in range(SAMPLES):
        shot = state.copy()
        shot.last_outcome = ""
        while shot.current_player == CHANCE and not shot.last_outcome:
            shot.apply_action(shot.sample_chance(rng))
        counts[shot.last_outcome] += 1
    return [counts[key] for key in outcomes]


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
    state = _at_the_attack_roll(
        [
            "weather A",
            "orders AATA AA",
            "orders AAAA AA",
            "activate surfeur",
            "shoot surfeur",
            "rune P",
            "rune D",
        ],
        turn=3,
        rows={"A": {"surfeur": 4}, "B": {"surfeur": 6}},
        resilience={"B": {"surfeur": 1}},
        spent={"A": ALL.replace("P", ""), "B": ALL.replace("D", "")},
        ultimes_used={"A": ["pedalair"], "B": []},
    )
    odds = shot_on_mage(
        2, 2, attack=Side(rune="attaque"), defence=Side(rune="defense", resilience=1)
    )
    observed = _sample(state, MAGE_OUTCOMES, seed=20261129)
    assert _p_value(observed, [odds.outcomes[k] for k in MAGE_OUTCOMES]) > 1e-6


def test_a_chest_shot_samples_like_its_exact_odds() -> None:
    # Tier IV, chest distance 3, interception distance 2; A plays the bonus Q (Attaque) with
    # Vigie; B's Plongeur holds only P (Attaque), useless to an interceptor.
    state = _at_the_attack_roll(
        [
            "weather A",
            "orders AAAT AA",
            "orders AAAA AA",
            "ultime vigie",
            "activate plongeur",
            "no trident",
            "shoot chest",
            "rune Q",
        ],
        turn=7,
        rows={"A": {"plongeur": 6}, "B": {"plongeur": 8}},
        spent={"A": ALL.replace("Q", ""), "B": ALL.replace("P", "")},
        ultimes_used={"A": ["pedalair"], "B": []},
    )
    odds = shot_on_chest(4, 3, 2, attack=Side(rune="attaque", vigie=True), defence=Side())
    observed = _sample(state, CHEST_OUTCOMES, seed=7)
    assert _p_value(observed, [odds.outcomes[k] for k in CHEST_OUTCOMES]) > 1e-6


def test_a_wrong_model_is_detected() -> None:
    """The check has teeth: the mage shot's samples reject the odds without Résilience."""
    state = _at_the_attack_roll(
        ["weather A", "orders AATA AA", "orders AAAA AA", "activate surfeur", "shoot surfeur"],
        turn=3,
        rows={"A": {"surfeur": 4}, "B": {"surfeur": 6}},
        resilience={"B": {"surfeur": 3}},
        spent={"A": ALL, "B": ALL},
        ultimes_used={"A": ["pedalair"], "B": []},
    )
    right = shot_on_mage(2, 2, defence=Side(resilience=3))
    wrong = shot_on_mage(2, 2)
    observed = _sample(state, MAGE_OUTCOMES, seed=3)
    assert _p_value(observed, [right.outcomes[k] for k in MAGE_OUTCOMES]) > 1e-6
    assert _p_value(observed, [wrong.outcomes[k] for k in MAGE_OUTCOMES]) < 1e-6


def test_relance_played_by_r15_samples_like_its_exact_odds() -> None:
    # Tier I, distance 2; B's Surfeur defends with the bonus M (Relance), choosing by R15.
    state = _at_the_attack_roll(
        [
            "weather A",
            "orders AATA AA",
            "orders AAAA AA",
            "activate surfeur",
            "shoot surfeur",
            "no rune",
            "rune M",
        ],
        turn=1,
        rows={"A": {"surfeur": 4}, "B": {"surfeur": 6}},
        spent={"A": ALL.replace("P", ""), "B": ALL.replace("M", "")},
        ultimes_used={"A": ["pedalair"], "B": []},
    )
    rng = random.Random(99)
    counts = dict.fromkeys(MAGE_OUTCOMES, 0)
    for _ in range(SAMPLES):
        shot = state.copy()
        shot.last_outcome = ""
        while not shot.last_outcome:
            if shot.current_player == CHANCE:
                shot.apply_action(shot.sample_chance(rng))
            else:
                shot.apply_action(r15_relance(shot))
        counts[shot.last_outcome] += 1
    odds = shot_on_mage(1, 2, defence=Side(rune="relance"))
    observed = [counts[k] for k in MAGE_OUTCOMES]
    assert _p_value(observed, [odds.outcomes[k] for k in MAGE_OUTCOMES]) > 1e-6


def test_confusion_tourbillon_and_egide_sample_like_their_exact_odds() -> None:
    # Tier III, distance 2: B declares Tourbillon and Égide before activating; A's
    # Kitesurfeur then shoots B's Kitesurfeur with F (Confusion): 3 dice each way.
    state = _at_the_attack_roll(
        [
            "weather B",
            "orders ATAA AA",
            "orders AAAA AA",
            "ultime tourbillon",
            "ultime egide",
            "activate pedalair",
            "activate kitesurfeur",
            "shoot kitesurfeur",
            "rune F",
        ],
        turn=5,
        rows={"A": {"kitesurfeur": 4}},
        spent={"A": ALL.replace("F", ""), "B": ALL},
        ultimes_used={"A": ["pedalair"], "B": []},
    )
    assert state.chance_outcomes()[0][0] == "roll 111"  # 3 attack dice (Tourbillon)
    odds = shot_on_mage(
        3, 2, attack=Side(rune="confusion"), defence=Side(tourbillon=True, egide=True)
    )
    observed = _sample(state, MAGE_OUTCOMES, seed=5)
    assert _p_value(observed, [odds.outcomes[k] for k in MAGE_OUTCOMES]) > 1e-6
