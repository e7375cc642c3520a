"""The lab's widgets show exactly the numbers of the simulation they ran."""

from __future__ import annotations

import base64
import re

from akvo.lab import simulate
from akvo_widgets.formatting import percent
from akvo_widgets.lab import DISTINCT_TEAMS, Lab, RoundRobin, lab_example


def test_nothing_runs_before_the_click() -> None:
    lab = Lab()
    assert lab.results is None
    assert 'class="akvo-lab-p-a">—<' in lab.table.value


def test_lab_shows_the_runs_numbers() -> None:
    lab = Lab(matches=10, seed=3)
    lab.bot_b.value = "random"
    lab.weather.value = "coin"
    seen: list[int] = []
    lab.progress.observe(lambda change: seen.append(change["new"]), names="value")
    results = lab.run()
    expected = simulate(
        "perrockiss", "fish-tank", ("greedy", "random"), "weather=coin", 10, 3, workers=0
    )
    assert results.rows == expected.rows
    summary = expected.summary()
    cell = re.search(r'class="akvo-lab-p-a">([^<]*)<', lab.table.value)
    assert cell is not None and cell.group(1) == percent(summary.p_a.estimate)
    assert seen[-1] == 10
    payload = re.search(r"base64,([A-Za-z0-9+/=]+)", lab.download.value)
    assert payload is not None
    assert base64.b64decode(payload.group(1)).decode() == expected.to_csv()
    bars = lab._bars.y
    assert [int(v) for v in bars[0]] == [summary.scores_a.get(s, 0) for s in range(len(bars[0]))]
    assert sum(int(v) for v in bars[1]) == 10


def test_round_robin_plays_every_pair() -> None:
    robin = RoundRobin(matches=2, seed=4)
    robin.bot.value = "random"
    rates = robin.run()
    assert len(rates) == len(DISTINCT_TEAMS) == 4
    first = simulate(
        DISTINCT_TEAMS[0], DISTINCT_TEAMS[1], ("random", "random"), None, 2, 4, workers=0
    )
    assert rates[0][1] == first.summary().p_a
    assert robin.progress.value == 16


def test_worked_example_quotes_the_simulation() -> None:
    text = lab_example(matches=6, seed=2).data
    summary = simulate(
        "perrockiss", "fish-tank", ("random", "random"), None, 6, 2, workers=0
    ).summary()
    assert percent(summary.p_a.estimate) in text
    assert percent(summary.p_a.high) in text
