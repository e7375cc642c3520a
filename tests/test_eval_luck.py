"""The luck evaluation's data and fit (:mod:`akvo.eval.luck`) and the benchmarks' section
writer (``benchmarks/sections.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from akvo.eval import default_evaluation
from akvo.eval.luck import (
    LuckData,
    adjusted_results,
    fit_luck,
    luck_chunk,
    luck_evaluation,
    record_rows,
)
from akvo.eval.train import TrainError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def data() -> LuckData:
    return luck_chunk(0, 0, 3, purpose="test")


def test_each_event_weighs_its_outcomes_by_their_exact_probabilities(data: LuckData) -> None:
    # per event: +1 for the state after it, −p for each distinct outcome (Σp = 1), so a
    # constant value sees no luck at all: the adjusted result is the result
    assert data.events > 50
    assert np.count_nonzero(data.weight == 1.0) == data.events
    assert data.weight.sum() == pytest.approx(0.0, abs=1e-9)
    flat = adjusted_results(data, np.full(len(data.weight), 0.37))
    assert flat == pytest.approx(data.result)
    assert set(data.result) <= {0.0, 0.5, 1.0}


def test_adjusted_result_is_result_minus_the_luck_sum() -> None:
    tiny = LuckData(
        raw=np.zeros((5, 1), np.int32),
        weight=np.array([-0.5, -0.5, 1.0, -1.0, 1.0]),
        match=np.array([0, 0, 0, 1, 1]),
        result=np.array([1.0, 0.0]),
        events=2,
    )
    chances = np.array([0.2, 0.6, 0.6, 0.3, 0.3])
    # match 0: luck 0.6 − (0.1 + 0.3) = 0.2; match 1: a certain outcome, no luck
    assert adjusted_results(tiny, chances) == pytest.approx([0.8, 0.0])


def test_luck_of_the_coach_reads_the_same_states() -> None:
    from akvo.bots.greedy import GreedyBot
    from akvo.coach.luck import match_luck
    from akvo.match.bots import play_match

    final = play_match(3, bots=(GreedyBot(0), GreedyBot(0)), log=False)
    states, weights, result = record_rows(final.record())
    judge = luck_evaluation()
    chances = judge.win_chances(states, 0)
    luck = float(np.dot(weights, chances))
    found = match_luck(final.record(), judge)
    assert found.total(0) == pytest.approx(luck)
    assert found.result == result


def test_fit_is_reproducible_from_its_seed(data: LuckData) -> None:
    start = default_evaluation().weights
    one = fit_luck(data, start, seed=5, epochs=1, batch=2)
    two = fit_luck(data, start, seed=5, epochs=1, batch=2)
    assert np.array_equal(one.weights.w1, two.weights.w1)
    assert one.weights.meta["purpose"] == "luck"
    assert [row["epoch"] for row in one.curve] == [0.0, 1.0]
    with pytest.raises(TrainError):
        fit_luck(LuckData(data.raw[:0], data.weight[:0], data.match[:0], data.result[:1]), start)


def _sections() -> object:
    path = ROOT / "benchmarks" / "sections.py"
    spec = importlib.util.spec_from_file_location("bench_sections", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_sections", module)
    spec.loader.exec_module(module)
    return module


def test_a_benchmark_replaces_only_its_own_section() -> None:
    replace = _sections().replace_section  # type: ignore[attr-defined]
    text = "# T\n\n## A\nold a\n\n## B\nkeep b\n"
    assert replace(text, "## A", ["## A", "new a"]) == "# T\n\n## A\nnew a\n\n## B\nkeep b\n"
    assert replace(text, "## B", ["## B", "new b"]) == "# T\n\n## A\nold a\n\n## B\nnew b\n"
    assert replace(text, "## C", ["## C", "c"]) == text + "\n## C\nc\n"
