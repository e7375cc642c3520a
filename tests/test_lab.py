"""akvo.lab: reproducible simulations, intervals equal to scipy's, exports, comparisons."""

from __future__ import annotations

import math
from typing import Any

import pytest
from scipy import stats

from akvo.bots.values import clear_worths
from akvo.config import RulesConfig
from akvo.errors import RulesError
from akvo.lab import (
    COLUMNS,
    LabError,
    Results,
    compare,
    dask_client,
    mean_interval,
    paired,
    parse_rules,
    proportion,
    replay_match,
    rules_text,
    simulate,
)
from akvo.lab.play import MatchSpec, match_seed, play_indexed, play_one
from akvo.lab.run import LARGEST_CHUNK, LEAN_CONFIG, SMALLEST_CHUNK, _chunks
from akvo.match.state import replay
from akvo.teams import preset_team
from tests.lab_runs import FAST


def _eight_matches(seed: int = 5, chunk: int | None = None) -> Results:
    """Random against greedy, eight matches played here: the small run the tests compare."""
    return simulate(
        "perrockiss", "fish-tank", ("random", "greedy"), None, 8, seed=seed, chunk=chunk, **FAST
    )


@pytest.fixture(scope="module")
def small() -> Results:
    return _eight_matches()


def test_same_seed_same_results_whatever_the_chunks(small: Results) -> None:
    assert _eight_matches(chunk=3).rows == small.rows
    assert _eight_matches(seed=6).rows != small.rows
    assert [r.index for r in small] == list(range(8))
    assert small.complete


def test_one_and_two_dask_workers_give_identical_results(small: Results) -> None:
    for workers in (1, 2):
        run = simulate(
            "perrockiss",
            "fish-tank",
            ("random", "greedy"),
            None,
            8,
            seed=5,
            workers=workers,
            processes=False,
            chunk=2,
            progress=False,
        )
        assert run.rows == small.rows


def test_default_dask_chunks_shrink_towards_the_end_and_cover_every_match(
    small: Results,
) -> None:
    for n, workers in ((2000, 2), (2000, 1), (10_000, 2), (7, 2), (1, 3)):
        bounds = _chunks(n, workers, None)
        assert [start for start, _ in bounds] == [0, *(stop for _, stop in bounds[:-1])]
        assert bounds[-1][1] == n
        sizes = [stop - start for start, stop in bounds]
        assert sizes == sorted(sizes, reverse=True)  # big chunks first, small ones last
        assert max(sizes) <= LARGEST_CHUNK
        assert sizes[-1] <= SMALLEST_CHUNK  # the idle tail: at most a small chunk
    assert [stop - start for start, stop in _chunks(2000, 2, None)][:3] == [125, 118, 110]
    assert _chunks(8, 2, 3) == [(0, 3), (3, 6), (6, 8)]  # an explicit chunk size is kept
    guided = simulate("perrockiss", "fish-tank", ("random", "greedy"), None, 8, seed=5,
                      workers=2, processes=False, progress=False)  # fmt: skip
    assert guided.rows == small.rows


def test_the_lab_cluster_trims_dasks_periodic_work() -> None:
    def periodic(dask_worker: Any) -> tuple[list[str], float]:
        return sorted(dask_worker.periodic_callbacks), dask_worker._tick_interval

    with dask_client(1, processes=False) as client:
        ((callbacks, tick),) = client.run(periodic).values()
    assert "heartbeat" in callbacks and "profile" not in callbacks  # no 10 ms stack samples
    assert tick == 1.0  # the event-loop lag check, every second instead of every 20 ms
    assert LEAN_CONFIG["distributed.worker.profile.enabled"] is False


def test_a_match_depends_only_on_its_seed_and_index() -> None:
    spec = MatchSpec(
        preset_team("perrockiss"), preset_team("fish-tank"), ("random", "random"), RulesConfig(), 9
    )
    first = play_one(spec, 4)
    assert play_one(spec, 4) == first
    assert first.seed == match_seed(9, 4)
    assert first.winner in ("A", "B", "draw")
    if first.reason == "score":
        assert first.winner == ("A" if first.score_a > first.score_b else "B")
    else:
        assert first.score_a == first.score_b
    assert len(first.favoured) == first.turns
    assert match_seed(9, 4) != match_seed(9, 5) != match_seed(10, 4)


def test_summary_counts_and_scipy_intervals(small: Results) -> None:
    summary = small.summary()
    winners = small.column("winner")
    assert summary.matches == 8
    assert (summary.wins_a, summary.draws, summary.wins_b) == (
        winners.count("A"),
        winners.count("draw"),
        winners.count("B"),
    )
    ci = stats.binomtest(summary.wins_b, 8).proportion_ci(0.95, method="wilson")
    assert (summary.p_b.low, summary.p_b.high) == pytest.approx((ci.low, ci.high), abs=1e-12)
    assert sum(summary.scores_a.values()) == 8
    assert summary.score_a.estimate == pytest.approx(sum(small.column("score_a")) / 8)


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (57, 100), (100, 100), (5123, 10000)])
def test_wilson_interval_is_the_textbook_formula(k: int, n: int) -> None:
    z = stats.norm.ppf(0.975)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    interval = proportion(k, n)
    assert interval.estimate == p
    assert interval.low == pytest.approx(max(0.0, centre - half), abs=1e-12)
    assert interval.high == pytest.approx(min(1.0, centre + half), abs=1e-12)


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (100, 100), (512, 1000)])
def test_exact_interval_is_clopper_pearson(k: int, n: int) -> None:
    low = stats.beta.ppf(0.025, k, n - k + 1) if k else 0.0
    high = stats.beta.ppf(0.975, k + 1, n - k) if k < n else 1.0
    interval = proportion(k, n, "exact")
    assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-9)


def test_mean_interval_is_students() -> None:
    values = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]
    low, high = stats.t.interval(0.95, len(values) - 1, loc=4.0, scale=stats.sem(values))
    interval = mean_interval(values)
    assert interval.estimate == 3.875
    mean = sum(values) / len(values)
    low, high = stats.t.interval(0.95, len(values) - 1, loc=mean, scale=stats.sem(values))
    assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-12)
    assert mean_interval([2.0, 2.0]).low == 2.0


def test_bad_requests_are_named() -> None:
    with pytest.raises(LabError, match="unknown bot 'champion'"):
        simulate(bots=("champion", "random"), n=1, **FAST)
    with pytest.raises(LabError, match="n must be a positive"):
        simulate(n=0, **FAST)
    with pytest.raises(LabError, match="unknown interval method"):
        proportion(1, 2, "bayes")
    with pytest.raises(RulesError, match="weather"):
        parse_rules("weather=moon")
    with pytest.raises(RulesError, match="not variant=value"):
        parse_rules("weather")


def test_rules_text_round_trip() -> None:
    rules = parse_rules(" weather=coin , prodige=all ")
    assert rules == RulesConfig(weather="coin", prodige="all")
    assert rules_text(rules) == "weather=coin,prodige=all"
    assert parse_rules(rules_text(rules)) == rules
    assert parse_rules("") == RulesConfig()


def test_csv_and_json_round_trip(small: Results, tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = small.to_csv(tmp_path / "r.csv")
    assert text.splitlines()[0] == ",".join(COLUMNS)
    assert len(text.splitlines()) == 9
    assert Results.load(tmp_path / "r.csv").rows == small.rows
    small.to_json(tmp_path / "r.json")
    loaded = Results.load(tmp_path / "r.json")
    assert loaded.rows == small.rows
    assert loaded.meta == small.meta
    assert loaded.meta["bots"] == ["random", "greedy"]
    with pytest.raises(LabError, match="lacks column"):
        Results.from_csv("index,seed\n1,2\n")


def test_interrupted_runs_keep_what_finished() -> None:
    calls: list[tuple[int, int]] = []

    def stop_after_first(done: int, total: int) -> bool:
        calls.append((done, total))
        return False

    run = simulate(n=6, chunk=2, on_progress=stop_after_first, **FAST)
    assert not run.complete
    assert calls == [(2, 6)]
    assert [r.index for r in run] == [0, 1]
    full = simulate(n=6, chunk=2, **FAST)
    assert full.rows[:2] == run.rows


def test_paired_comparison_on_common_seeds(small: Results) -> None:
    same = paired(small, small)
    assert same.delta.estimate == same.delta.low == same.delta.high == 0
    assert same.changed == 0
    first, second, diff = compare(
        "perrockiss",
        "fish-tank",
        ("random", "random"),
        None,
        6,
        seed=2,
        other_rules="weather=coin",
        **FAST,
    )
    assert [r.seed for r in first] == [r.seed for r in second]
    assert second.meta["rules"]["weather"] == "coin"
    points = {"A": 1.0, "draw": 0.5, "B": 0.0}
    deltas = [points[b.winner] - points[a.winner] for a, b in zip(first, second, strict=True)]
    assert diff.delta.estimate == pytest.approx(sum(deltas) / 6)
    assert diff.changed == sum(d != 0 for d in deltas)
    with pytest.raises(LabError, match="same match seeds"):
        paired(small, first)


def test_a_simulated_match_can_be_played_again_for_the_replay_viewer(small: Results) -> None:
    state = replay_match(small, 3)
    row = small[3]
    assert (state.scores, state.result, state.turn) == (
        [row.score_a, row.score_b],
        row.winner,
        row.turns,
    )
    assert replay(state.record()).to_json() == state.to_json()
    loaded = Results.from_json(small.to_json())
    assert replay_match(loaded, 3).history == state.history
    with pytest.raises(LabError, match="match 99"):
        replay_match(small, 99)


def test_simulations_skip_the_log_but_play_the_logged_match() -> None:
    """A simulation plays without the French log; the replayed match (with its log) is the
    same match, row for row."""
    spec = MatchSpec(
        preset_team("perrockiss"), preset_team("fish-tank"), ("greedy", "random"), RulesConfig(), 2
    )
    for index in range(3):
        silent, row = play_indexed(spec, index)
        logged, again = play_indexed(spec, index, log=True)
        assert silent.history == logged.history and row == again
        assert silent.events == logged.events[-1:] and len(logged.events) > 50


def test_greedy_results_do_not_depend_on_the_bots_caches() -> None:
    """The greedy bot's caches only remember exact values: a cold and a warm cache give the
    same matches (so any split of the work over workers gives the same results)."""
    spec = MatchSpec(
        preset_team("perrockiss"), preset_team("fish-tank"), ("greedy", "greedy"), RulesConfig(), 4
    )
    clear_worths()
    cold = [play_one(spec, index) for index in range(4)]
    warm = [play_one(spec, index) for index in reversed(range(4))][::-1]
    clear_worths()
    assert [play_one(spec, index) for index in range(4)] == cold == warm


@pytest.mark.parametrize("bots", [("greedy", "random"), ("random", "random")])
def test_a_reading_compared_with_itself_gives_exactly_zero(bots: tuple[str, str]) -> None:
    first, second, diff = compare(
        "pink-star", "perrockiss", bots, "weather=coin", 12, seed=4,
        other_rules="weather=coin", **FAST,
    )  # fmt: skip
    assert second.rows == first.rows
    assert diff.changed == 0
    assert diff.delta.estimate == diff.delta.low == diff.delta.high == 0.0
    assert diff.gain == math.inf


def _sequential_changed(n: int, seed: int) -> int:
    """Winners changed by weather=coin when the chance of each match is drawn in sequence
    from one generator (the lab before common random numbers keyed by event)."""
    import random

    from akvo.bots import make_bot
    from akvo.match import decisions, new_match

    changed = 0
    for index in range(n):
        winners = []
        for rules in (RulesConfig(), RulesConfig(weather="coin")):
            state = new_match("perrockiss", "fish-tank", rules, log=False)
            bots = (make_bot("greedy", 1), make_bot("greedy", 2))
            for _ in decisions(state, random.Random(match_seed(3, index)), bots):
                pass
            winners.append(state.result)
        changed += winners[0] != winners[1]
    return changed


def test_dice_keyed_by_event_pair_two_readings() -> None:
    """Bag against coin, 60 greedy matches: 3 winners change (when one generator drew the
    chance in sequence: 35; 10 while the ship's second shot was keyed by its rank in the
    activation, not by its shooter alone), and the paired interval is over four times as
    narrow as the Welch interval of two independent runs of this size (scipy's)."""
    first, second, diff = compare(
        "perrockiss", "fish-tank", ("greedy", "greedy"), None, 60, seed=3,
        other_rules="weather=coin", **FAST,
    )  # fmt: skip
    assert diff.changed == 3
    assert _sequential_changed(60, 3) == 35
    assert diff.gain == pytest.approx(4.38, abs=0.01)
    points = {"A": 1.0, "draw": 0.5, "B": 0.0}
    one, two = ([points[w] for w in run.column("winner")] for run in (first, second))
    welch = stats.ttest_ind(two, one, equal_var=False).confidence_interval(0.95)
    assert (diff.unpaired.low, diff.unpaired.high) == pytest.approx((welch.low, welch.high))
    assert diff.unpaired.estimate == pytest.approx(diff.delta.estimate)
