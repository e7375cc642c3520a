"""akvo.coach.analysis and ``akvo analyse``: the table, the summary, the curve, the worst
decisions; reproducible from a seed, the same in this process and on Dask; bad input gets
the engine's error or one line on stderr."""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from akvo.bots import make_bot
from akvo.cli import main
from akvo.coach import CoachError, analyse
from akvo.coach.analysis import (
    HEADER,
    SMALLEST_LOSS,
    VERDICTS,
    Analysis,
    Plan,
    analyse_chunk,
    chunks,
    decision_nodes,
    paired_difference,
    retest_seed,
    verdict,
)
from akvo.coach.chances import WIN, OptionChance, WinChances
from akvo.errors import RecordError
from akvo.lab.run import dask_client
from akvo.match import decisions
from akvo.match.streams import KeyedChance
from tests.match.helpers import bare

FAST: dict[str, Any] = {"workers": 0, "progress": False, "rollouts": 3}


@cache
def record() -> dict[str, Any]:
    """A short match: turn 8, greedy A against random B, chests in reach on both sides,
    a few runes and Ultimes left (few decisions: the analysis is quick)."""
    state = bare(
        keep={"A": "NIV", "B": "AF"},
        ultimes={"A": ["lanceur"], "B": ["plongeur"]},
        turn=8,
        rows={
            "A": {"pedalair": 5, "kitesurfeur": 5, "navire": 4, "surfeur": 3, "plongeur": 3},
            "B": {"pedalair": 6, "kitesurfeur": 6, "navire": 5, "surfeur": 4, "plongeur": 4},
        },
    )
    for _ in decisions(state, KeyedChance(3), (make_bot("greedy", 1), make_bot("random", 2))):
        pass
    return state.record()


@cache
def analysis(seed: int = 4) -> Analysis:
    """Seed 4 shows no loss in this short match; seed 0 shows one (a retest)."""
    return analyse(record(), seed=seed, **FAST)


def _sign_test_p(best: OptionChance, chosen: OptionChance) -> float:
    """P(at least as many rollouts won by ``best`` alone | both as good), counted exactly
    over the rollouts only one of the two won."""
    pairs = list(zip(best.outcomes, chosen.outcomes, strict=True))
    ahead = sum(a == WIN and b != WIN for a, b in pairs)
    n = ahead + sum(b == WIN and a != WIN for a, b in pairs)
    return sum(math.comb(n, k) for k in range(ahead, n + 1)) / 2**n


def _shown(best: OptionChance, chosen: OptionChance) -> bool:
    return (
        best.action != chosen.action
        and paired_difference(best, chosen).low > 0
        and _sign_test_p(best, chosen) < 0.025
    )


@pytest.mark.parametrize(("seed", "retests"), [(4, 0), (0, 1)])
def test_every_decision_has_a_row_with_the_choice_recorded(seed: int, retests: int) -> None:
    result = analysis(seed)
    recorded = [(i + 1, s.current_player) for i, s, _ in decision_nodes(record())]
    assert [(row.coup, row.side) for row in result.decisions] == recorded
    actions = record()["actions"]
    for row in result.decisions:
        assert row.chosen.action == actions[row.coup - 1]
        assert row.best in row.options and row.chosen in row.options
        assert row.best.wins >= max(o.wins for o in row.options)
        assert row.best.p >= row.chosen.p
        assert row.chosen.rollouts in (3, 6, 12)
        assert all(o.rollouts == row.chosen.rollouts for o in row.options)
        assert (row.retest is not None) == _shown(row.best, row.chosen)
        if row.retest is None:
            assert row.judged == (row.best, row.chosen) and row.loss == 0.0
            continue
        best, chosen = row.retest
        assert (best.action, chosen.action) == (row.best.action, row.chosen.action)
        assert best.rollouts == chosen.rollouts in (6, 12, 24, 48)  # 12 × RETEST_FACTOR
        assert best.rollouts >= row.chosen.rollouts
        assert row.difference == best.p - chosen.p
        assert row.loss == (row.difference if _shown(best, chosen) else 0.0)
        assert row.verdict == verdict(row.loss)
    assert sum(row.retest is not None for row in result.decisions) == retests
    assert result.complete and result.rollouts == 3 and result.max_rollouts == 12
    assert result.seed == seed


def test_rollouts_double_only_where_the_noise_hides_the_answer() -> None:
    for row in analysis().decisions:
        if row.chosen.rollouts == 3:
            continue  # settled at once: the choice is the best, or the answer is clear
        fewer = [
            OptionChance(o.action, o.outcomes[: row.chosen.rollouts // 2]) for o in row.options
        ]
        chosen = next(o for o in fewer if o.action == row.chosen.action)
        best = max(fewer, key=lambda o: (o.wins, o.action == chosen.action))
        interval = paired_difference(best, chosen)
        assert best != chosen and interval.low <= 0 and interval.high >= SMALLEST_LOSS


def test_a_loss_is_read_from_fresh_rollouts_of_the_best_option_and_the_choice() -> None:
    """The best option is the maximum of noisy estimates, so its own rollouts flatter it (the
    winner's curse): the retest estimates it and the choice again on other dice
    (:func:`retest_seed`), the same for both, and the loss is read from those."""
    states = {index + 1: state.copy() for index, state, _ in decision_nodes(record())}
    retested = [row for row in analysis(0).decisions if row.retest is not None]
    assert retested
    fresh = 0
    for row in retested:
        best, chosen = row.retest or ()
        pair = (best.action, chosen.action)
        again = WinChances(states[row.coup], pair, seed=retest_seed(0)).refine(best.rollouts)
        assert again == (best, chosen)
        first = WinChances(states[row.coup], pair, seed=0).refine(best.rollouts)
        assert first[0].outcomes[: row.best.rollouts] == row.best.outcomes
        assert first[1].outcomes[: row.chosen.rollouts] == row.chosen.outcomes
        fresh += first != again
    assert fresh == len(retested)
    assert retest_seed(4) != 4 and retest_seed(4) == retest_seed(4) != retest_seed(5)


def test_the_table_has_the_header_then_a_summary_per_side() -> None:
    lines = analysis().to_text().splitlines()
    assert lines[0] == "coup\tcamp\tchoix\tmeilleur\tp_choix\tp_meilleur\tperte\tverdict"
    assert tuple(lines[0].split("\t")) == HEADER
    rows = lines[1 : 1 + len(analysis().decisions)]
    assert all(len(line.split("\t")) == len(HEADER) for line in rows)
    first = rows[0].split("\t")
    chance = analysis().decisions[0].chosen
    assert first[4] == f"{chance.p:.3f} [{chance.low:.3f}, {chance.high:.3f}]"
    summary = lines[len(rows) + 2 :]
    assert summary[0] == "camp\tdécisions\tperte_moyenne\timprécision\terreur\tgaffe"
    for side, line in zip(analysis().summary(), summary[1:], strict=True):
        cells = line.split("\t")
        mine = [row for row in analysis().decisions if row.side == side.side]
        assert cells[:2] == [side.camp, str(len(mine))]
        assert float(cells[2]) == pytest.approx(sum(r.loss for r in mine) / len(mine), abs=1e-4)
        assert [int(c) for c in cells[3:]] == [
            sum(r.verdict == name for r in mine) for name in ("imprécision", "erreur", "gaffe")
        ]


def test_verdicts_follow_the_documented_thresholds() -> None:
    assert VERDICTS == (("gaffe", 0.20), ("erreur", 0.10), ("imprécision", 0.05))
    assert [verdict(x) for x in (0.0, 0.049, 0.05, 0.099, 0.1, 0.19, 0.2, 1.0)] == [
        None,
        None,
        "imprécision",
        "imprécision",
        "erreur",
        "erreur",
        "gaffe",
        "gaffe",
    ]


def test_the_curve_and_the_worst_decisions() -> None:
    result = analysis()
    curve = result.curve()
    assert [p.coup for p in curve] == [row.coup for row in result.decisions]
    for point, row in zip(curve, result.decisions, strict=True):
        a_wins = row.chosen.wins if row.side == 0 else row.chosen.losses
        assert point.p_a == a_wins / row.chosen.rollouts
        assert point.low <= point.p_a <= point.high
    worst = result.worst()
    assert len(worst) <= 3
    assert [w.loss for w in worst] == sorted((w.loss for w in worst), reverse=True)
    lossy = [row for row in result.decisions if row.loss > 0]
    assert all(w.loss >= max((r.loss for r in lossy if r not in worst), default=0) for w in worst)
    for row in worst:
        text = row.explanation()
        assert f"Coup {row.coup}, tour {row.turn}, camp {row.camp}" in text
        assert f"« {row.best.action} »" in text and "\u00a0%" in text
    data = json.loads(result.to_json())
    assert data["worst"] == [w.coup for w in worst]
    assert len(data["curve"]) == len(curve) and data["teams"] == record()["team_names"]


def test_the_same_seed_gives_the_same_analysis_another_seed_another() -> None:
    assert analyse(record(), seed=4, **FAST).to_text() == analysis().to_text()
    assert analyse(record(), seed=5, **FAST).to_text() != analysis().to_text()


def test_one_side_only() -> None:
    result = analyse(record(), side="b", seed=4, **FAST)
    assert {row.side for row in result.decisions} == {1}
    both = {row.coup: row for row in analysis().decisions}
    assert all(row == both[row.coup] for row in result.decisions)
    assert [s.camp for s in result.summary()] == ["B"]


def test_dask_workers_give_the_same_rows_with_progress() -> None:
    """Seed 0: one decision's loss is retested (its own seed, its own memo table)."""
    seen: list[tuple[int, int]] = []
    with dask_client(2, processes=False) as client:
        result = analyse(
            record(),
            seed=0,
            client=client,
            rollouts=3,
            progress=False,
            on_progress=lambda done, total: seen.append((done, total)) is None,
        )
    assert result.decisions == analysis(0).decisions
    assert sum(row.retest is not None for row in result.decisions) == 1
    total = len(analysis(0).decisions)
    assert seen[-1] == (total, total) and len(seen) > 1


def test_shared_rollouts_give_the_same_rows_as_rollouts_played_alone() -> None:
    """The memo (issue 19.6) only cuts play short where the result is known: every row,
    every rollout's outcome, is the one each rollout played in full gives."""
    indices = [index for index, _state, _action in decision_nodes(record())]
    plan = Plan(3, 12, 0)  # seed 0: a retest too
    shared = analyse_chunk(record(), indices, plan, share=True)
    alone = analyse_chunk(record(), indices, plan, share=False)
    assert shared == alone and len(shared) == len(indices)
    assert [row.options for row in shared] == [row.options for row in alone]
    assert [row.retest for row in shared] == [row.retest for row in alone]
    assert sum(row.retest is not None for row in shared) == 1


@pytest.mark.parametrize("count", [1, 2, 5, 12, 400])
def test_chunks_are_runs_of_consecutive_decisions_of_even_work(count: int) -> None:
    indices = list(range(0, 600, 3))
    length = 600
    parts = chunks(indices, count, length)
    assert [i for part in parts for i in part] == indices  # every decision once, in order
    assert len(parts) == min(count, len(indices)) and all(parts)
    weight = {i: length - i + length // 10 + 1 for i in indices}
    work = [sum(weight[i] for i in part) for part in parts]
    share = sum(work) / len(parts)
    assert max(work) <= share + max(weight.values())  # even, to one decision
    if count == 2:
        assert len(parts[0]) < len(parts[1])  # the early decisions weigh more
    assert chunks([], count, length) == []


def test_a_callback_returning_false_stops_the_analysis() -> None:
    result = analyse(record(), on_progress=lambda done, total: done < 2, seed=4, **FAST)
    assert not result.complete and len(result.decisions) == 2
    assert "interrompue" in result.to_text()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"side": "C"}, "side"),
        ({"side": True}, "side"),
        ({"rollouts": 0}, "rollouts"),
        ({"rollouts": "8"}, "rollouts"),
        ({"rollouts": 8, "max_rollouts": 4}, "max_rollouts"),
        ({"seed": 1.5}, "seed"),
        ({"workers": -1}, "workers"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    args = {**FAST, **options}
    with pytest.raises(CoachError, match=message):
        analyse(record(), **args)


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [1, 2],
        {"format": 1},
        {**record(), "actions": ["weather A", "fly away"]},
        {**record(), "actions": "roll 1111"},
        {**record(), "teams": ["AAAA", "BBBB"]},
        {**record(), "format": 99},
    ],
)
def test_a_broken_or_hostile_record_gets_the_engines_error(bad: object) -> None:
    with pytest.raises(RecordError):
        analyse(bad, **FAST)


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("content", "options", "message"),
    [
        ("{not json", [], "not valid JSON"),
        ("[1, 2]", [], "JSON object"),
        ('{"format": 1, "rules": {}, "teams": ["x", "y"], "actions": []}', [], "teams"),
        (None, ["--side", "C"], "side"),
        (None, ["--budget", "0"], "budget"),
        (None, ["--budget", "many"], "budget"),
        (None, ["--out", "x.csv"], "out"),
        (None, ["--workers", "1", "--scheduler", "tcp://127.0.0.1:1"], "not allowed"),
    ],
)
def test_bad_input_gets_one_line_and_status_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: str | None,
    options: list[str],
    message: str,
) -> None:
    text = json.dumps(record()) if content is None else content
    match = _write(tmp_path, "match.json", text)
    assert main(["analyse", match, "--workers", "0", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("akvo: error:") and message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_missing_file_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "/nowhere/match.json", "--workers", "0"]) == 2
    assert "cannot read '/nowhere/match.json'" in capsys.readouterr().err
