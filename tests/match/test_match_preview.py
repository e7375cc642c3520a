"""akvo.match.preview against the engine: at every target decision of random matches, the
preview lists exactly the engine's legal shots, and each value is the akvo.shots value of the
situation the engine then resolves (checked on the engine's own roll thresholds)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest

from akvo.errors import AkvoError
from akvo.match import MatchState, decisions, new_match, play_match
from akvo.match.phases import Phase
from akvo.match.preview import PreviewError, target_values, unit_preview
from akvo.shots import Side, shot_on_chest, shot_on_mage


def _target_nodes(seed: int, limit: int = 400) -> Iterator[MatchState]:
    """Target decisions of the first ``limit`` decisions of a random match (one generator
    for the dice and both players' choices)."""
    rng = random.Random(seed)

    def choose(state: MatchState) -> str:
        return rng.choice(state.legal_actions())

    nodes = decisions(new_match("perrockiss", "fish-tank"), rng, (choose, choose))
    for node in itertools.islice(nodes, limit):
        if node.phase == Phase.TARGET:
            yield node


@pytest.mark.parametrize("seed", range(12))
def test_preview_lists_exactly_the_engine_targets(seed: int) -> None:
    checked = 0
    for state in _target_nodes(seed):
        values = target_values(state)
        shots = set(state.legal_actions()) - {"hold"}
        assert set(values) == shots
        checked += 1
    assert checked > 0


def test_a_preview_value_is_the_shot_calculator_value() -> None:
    state = new_match("perrockiss", "fish-tank")
    rng = random.Random(3)
    while state.phase != Phase.TARGET:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            shoot_orders = [a for a in legal if a.startswith("orders TTTT")]
            state.apply_action(shoot_orders[0] if shoot_orders else rng.choice(legal))
    shot = state.shot
    assert shot is not None
    preview = unit_preview(state, shot.side, shot.shooter)
    for target in preview.targets:
        if target.target == "chest":
            expected = shot_on_chest(
                state.tier,
                target.base_distance,
                target.odds.interception_distance,
                Side(souffle=target.souffle),
            ).value
        else:
            expected = shot_on_mage(
                state.tier, target.base_distance, Side(souffle=target.souffle)
            ).value
        assert target.value == expected
        assert isinstance(target.value, Fraction)


def test_advance_cells_of_the_opening() -> None:
    state = new_match("perrockiss", "fish-tank")
    # Turn 1, every unit on its start row (R2): one step forward, two with a Mouvement rune.
    preview = unit_preview(state, 0, 0)
    assert preview.row == 3
    assert preview.advance_rows in ((4,), (4, 5))
    assert unit_preview(state, 1, 0).advance_rows[0] == 5


def test_after_a_match_the_preview_still_answers() -> None:
    state = play_match(seed=5)
    assert unit_preview(state, 1, 5).side == 1


@pytest.mark.parametrize(
    "args",
    [("state", 0, 0), (None, 0, 0), ("S", 2, 0), ("S", True, 0), ("S", 0, 6), ("S", 0, "1")],
)
def test_bad_arguments_are_refused(args: tuple[object, object, object]) -> None:
    state = new_match()
    call = tuple(state if a == "S" else a for a in args)
    with pytest.raises(PreviewError):
        unit_preview(*call)  # type: ignore[arg-type]
    assert issubclass(PreviewError, AkvoError)


def test_no_target_decision_is_refused() -> None:
    with pytest.raises(PreviewError, match="no target"):
        target_values(new_match())
