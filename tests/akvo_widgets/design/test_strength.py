"""« La force des bots » and « L'évaluation apprise » show the engine's stored results."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from akvo.bots import BOTS, LADDER
from akvo.eval.held_out import held_out_calibration, learning_curve
from akvo.lab.ladder import LadderReport, PairingResult
from akvo.lab.stats import Interval
from akvo_widgets.design.strength import (
    LADDER_FILE,
    EvaluationView,
    LadderView,
    elo_text,
    load_ladder,
)
from akvo_widgets.text.formatting import decimal, percent


def _report(deals: int) -> LadderReport:
    pairing = PairingResult("easy", "beginner", (1.0, 0.5, 0.0, 1.0)[:deals], 3, 1, 2 * deals)
    elo = {
        "beginner": Interval(-120.4, -300.0, 60.0),
        "easy": Interval(0.0, 0.0, 0.0),
    }
    return LadderReport((pairing,), elo, deals, 7, True)


def test_a_ladder_report_survives_its_json(tmp_path: Path) -> None:
    report = _report(4)
    again = LadderReport.from_dict(json.loads(json.dumps(report.to_dict())))
    assert again == report
    with pytest.raises(ValueError, match="not a ladder report"):
        LadderReport.from_dict({"elo": {}})


def test_the_ladder_view_shows_elo_points_and_win_rates_with_intervals(tmp_path: Path) -> None:
    path = tmp_path / "ladder.json"
    report = _report(4)
    path.write_text(json.dumps({"command": "akvo ladder --matches 8", **report.to_dict()}))
    view = LadderView(path)
    assert "akvo ladder --matches 8" in view.intro.value
    cell = re.search(r'class="akvo-ladder-elo-beginner">([^<]*)<', view.elo.value)
    assert cell is not None and cell.group(1) == "\u2212120" == elo_text(-120.4)
    assert "de \u2212300 à +60" in view.elo.value
    pairing = report.pairings[0]
    assert f"{BOTS['easy']} – {BOTS['beginner']}</span>" in view.pairings.value
    assert percent(pairing.points.estimate) in view.pairings.value
    low, high = pairing.win_rate.low, pairing.win_rate.high
    assert f"de {decimal(100 * low, 1)} à {percent(high)}" in view.pairings.value
    assert "akvo-ladder-caveat" in view.intro.value  # 8 matches per pairing: a caveat
    points = view.figure.marks[1]
    assert list(points.y) == [-120.4, 0.0]
    assert [list(bar) for bar in view.figure.marks[0].y] == [[-300.0, 60.0], [0.0, 0.0]]


def test_the_shipped_ladder_rates_every_level() -> None:
    report, command = load_ladder(LADDER_FILE)
    assert command.startswith(("akvo ladder", "python benchmarks/bench_ladder.py"))
    assert list(report.elo) == list(LADDER)
    assert report.elo["greedy"] == Interval(0.0, 0.0, 0.0)  # « normal » anchors the scale
    for rating in report.elo.values():
        assert rating.low <= rating.estimate <= rating.high
    for pairing in report.pairings:
        assert 0 <= pairing.points.low <= pairing.points.high <= 1


def test_the_evaluation_view_plots_the_engines_curves() -> None:
    view = EvaluationView()
    curve = learning_curve()
    assert [float(v) for v in view.learning.marks[-1].x] == [float(e.epoch) for e in curve]
    assert [float(v) for v in view.learning.marks[-1].y[1]] == [e.held_log_loss for e in curve]
    calibration = held_out_calibration()
    assert calibration.positions == 2000
    assert calibration.error < 0.03  # the target: within 3 points
    diagonal, observed = view.reliability.marks
    assert list(diagonal.x) == list(diagonal.y) == [0.0, 1.0]
    rows = [row for row in calibration.rows if row[2]]
    assert [float(v) for v in np.atleast_2d(observed.y)[0]] == [row[4] for row in rows]
    assert "2\u202f000 positions" in view.reliability_text.value
