"""The learned evaluation (akvo.eval): exact values where the match is decided, exact
antisymmetry, blindness to hidden orders, weights stamps, batches, reproducible training."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.eval import (
    FEATURE_NAMES,
    FEATURE_SIZE,
    EvalError,
    Evaluation,
    Weights,
    calibration,
    default_evaluation,
)
from akvo.eval.calibration import CalibrationError
from akvo.eval.features import FEATURE_VERSION
from akvo.match.actions import ORDER_ACTIONS
from akvo.match.bots import RandomBot, decisions, play_match
from akvo.match.phases import Phase
from akvo.match.state import MatchState, new_match


@pytest.fixture(scope="module")
def ev() -> Evaluation:
    return default_evaluation()


def _nodes(seed: int, every: int = 7) -> list[MatchState]:
    """Every ``every``-th decision node of a random match (copies), of all phases."""
    state = new_match("perrockiss", "pink-star", log=False)
    bots = (RandomBot(seed), RandomBot(seed + 1))
    return [n.copy() for k, n in enumerate(decisions(state, seed, bots)) if k % every == 0]


def test_finished_matches_score_their_result_exactly(ev: Evaluation) -> None:
    results = set()
    for seed in range(40):
        state = play_match(seed, log=False)
        a, b = state.scores
        results.add(state.result)
        expected = {"A": 1.0, "B": 0.0, "draw": 0.5}[state.result]  # type: ignore[index]
        assert ev.win_chance(state, "A") == expected
        assert ev.win_chance(state, "B") == 1.0 - expected
        assert ev.score_diff(state, "A") == a - b
        assert ev.score_diff(state, 1) == b - a
    assert {"A", "B"} <= results


def test_both_sides_chances_sum_to_one(ev: Evaluation) -> None:
    nodes = _nodes(3)
    a = ev.win_chances(nodes, "A")
    b = ev.win_chances(nodes, "B")
    assert len(nodes) > 30
    np.testing.assert_allclose(a + b, 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        ev.score_diffs(nodes, 0), -ev.score_diffs(nodes, 1), rtol=0, atol=1e-12
    )
    assert a.min() < 0.4 and a.max() > 0.6  # the positions are judged, not all even


def test_batch_equals_one_by_one(ev: Evaluation) -> None:
    nodes = _nodes(5, every=11)
    batch = ev.win_chances(nodes, "B")
    single = [ev.win_chance(n, "B") for n in nodes]
    np.testing.assert_allclose(batch, single, rtol=0, atol=1e-12)
    assert ev.win_chances([], "A").shape == (0,)


def test_hidden_orders_do_not_move_the_value() -> None:
    """When B programs, A's orders are in the state but hidden from B: swapping them for
    every other programme changes nothing B's evaluation reads."""
    ev = default_evaluation()
    state = new_match("perrockiss", "fish-tank", log=False)
    rng = random.Random(2)
    bots = (RandomBot(4), RandomBot(5))
    seen = 0
    for node in decisions(state, rng, bots):
        if node.phase == Phase.ORDERS and node.side == 1:
            assert node.orders[0] is not None
            value = ev.win_chance(node, "B")
            feats = ev.features(node, "B")
            diff = ev.score_diff(node, "B")
            for orders in ORDER_ACTIONS.values():
                other = node.copy()
                other.orders[0] = orders
                assert ev.win_chance(other, "B") == value
                assert ev.score_diff(other, "B") == diff
                assert np.array_equal(ev.features(other, "B"), feats)
            seen += 1
    assert seen >= 8


def test_features_are_a_named_float32_vector(ev: Evaluation) -> None:
    x = ev.features(new_match(), "A")
    assert x.dtype == np.float32
    assert x.shape == (FEATURE_SIZE,) == (len(FEATURE_NAMES),)
    assert x[FEATURE_NAMES.index("turn_1")] == 1.0
    assert x[FEATURE_NAMES.index("own_score")] == 0.0


def test_weights_for_other_rules_are_refused(tmp_path: Path) -> None:
    coin = RulesConfig(weather="coin")
    with pytest.raises(EvalError, match="no evaluation weights were trained for the rules"):
        default_evaluation(coin)
    weights = Weights.load(Path(__file__).parents[1] / "akvo" / "eval" / "weights" / "default.npz")
    assert weights.rules == DEFAULT_RULES
    with pytest.raises(EvalError, match=r"trained for the rules .*weather=bag"):
        Evaluation(weights, coin)
    old = Weights(
        weights.w1, weights.b1, weights.w2, weights.mean, weights.scale,
        feature_version=FEATURE_VERSION + 1,
    )  # fmt: skip
    path = tmp_path / "old.npz"
    old.save(path)
    with pytest.raises(EvalError, match="feature version"):
        Evaluation(Weights.load(path))
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(EvalError, match="cannot read"):
        Weights.load(tmp_path / "bad.npz")
    assert issubclass(EvalError, ValueError)


def test_calibration_of_a_perfect_forecast_has_no_error() -> None:
    p = np.repeat(np.arange(10) / 10 + 0.05, 20)
    result = calibration(p, p)
    assert result.error == 0.0
    assert [row[2] for row in result.rows] == [20] * 10
    shifted = calibration(p, np.clip(p + 0.04, 0, 1))
    assert shifted.error == pytest.approx(0.04)
    assert shifted.interval == pytest.approx((0.04, 0.04))  # every resample is off by 0.04
    assert "4.00 points" in shifted.to_markdown()
    with pytest.raises(CalibrationError, match="as many predictions as outcomes"):
        calibration(p, p[:-1])
    with pytest.raises(CalibrationError, match=r"in \[0, 1\]"):
        calibration(p + 1, p)


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    from akvo.eval.train import DataSpec, fit, generate

    spec = DataSpec(DEFAULT_RULES, seed=7)
    files = []
    for k in range(2):
        data = generate(spec, 4, workers=0, progress=False)
        result = fit(data, DEFAULT_RULES, seed=7, epochs=2)
        path = tmp_path / f"w{k}.npz"
        result.weights.save(path)
        files.append(path.read_bytes())
    assert files[0] == files[1]
    one_by_one = generate(spec, 4, workers=0, progress=False, chunk=1)
    assert np.array_equal(one_by_one.raw, data.raw) and np.array_equal(one_by_one.value, data.value)
    other = fit(data, DEFAULT_RULES, seed=8, epochs=2).weights
    assert not np.array_equal(other.w1, Weights.load(tmp_path / "w0.npz").w1)


def test_train_command_writes_stamped_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from akvo.cli import main

    out = tmp_path / "w.npz"
    args = ["train", "--matches", "3", "--workers", "0", "--epochs", "2", "--no-progress"]
    assert main([*args, "--seed", "4", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# akvo train --matches 3 --seed 4 --epochs 2")
    assert len([line for line in printed.splitlines() if line[:1].isdigit()]) == 2
    assert Weights.load(out).meta["seed"] == 4
    assert main([*args, "--rules", "weather=coin", "--out", str(out)]) == 0
    assert Weights.load(out).rules == RulesConfig(weather="coin")
    assert main([*args, "--out", str(tmp_path / "w.txt")]) == 2
