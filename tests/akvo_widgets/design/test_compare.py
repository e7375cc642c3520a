"""The book's simulator compares two readings with the engine's intervals and caveats."""

from __future__ import annotations

import re

from akvo.lab import simulate
from akvo.lab.readings import compare_readings
from akvo.switches import SWITCHES
from akvo_widgets.design.compare import CompareReadings, signed
from akvo_widgets.text.formatting import french


def _cell(html: str, css: str) -> str:
    found = re.search(rf'class="{css}">(.*?)</td>', html)
    assert found is not None, css
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_two_readings_on_the_same_seeds() -> None:
    widget = CompareReadings("weather", matches=10, seed=2)
    assert widget.intervals.value == "" and widget.distribution_area.layout.display == "none"
    widget.bot.value = "random"
    seen: list[int] = []
    widget.progress.observe(lambda change: seen.append(change["new"]), names="value")
    shown = widget.run()
    assert shown is not None
    runs = [
        simulate("perrockiss", "fish-tank", ("random", "random"), f"weather={o}", 10, 2, workers=0)
        for o in ("bag", "coin")
    ]
    expected = compare_readings(*runs)
    assert shown.comparison.delta == expected.comparison.delta
    for side in expected.intervals:
        low, high = side.interval.low, side.interval.high
        span = re.search(
            rf"class='akvo-compare-{side.key}-interval'[^>]*>([^<]*)<", widget.intervals.value
        )
        assert span is not None and span.group(1) == french(f"de {signed(low)} à {signed(high)}")
    assert seen[-1] == 20 and widget.progress.max == 20  # both readings on one bar
    assert [list(map(int, row)) for row in widget._bars.y] == [
        list(d.score_differences) for d in expected.distributions
    ]
    assert widget.distribution_area.layout.display is None
    assert widget.distribution_area.children == (widget.distribution,)
    rule = expected.coverage[0]
    played = widget.coverage.value
    assert french(SWITCHES["weather"].played) in played
    assert f"akvo-compare-played-weather'>{rule.matches}</b>" in played
    assert "Trop peu de matchs (10)" in widget.caveats.value  # below the minimum sample


def test_a_reading_compared_with_itself_reads_identique() -> None:
    widget = CompareReadings("prodige", matches=10, seed=1)
    widget.bot.value = "random"
    widget.second.value = widget.first.value
    shown = widget.run()
    assert shown is not None and shown.identical
    for key in ("paired", "unpaired", "luck"):
        assert _cell(widget.intervals.value, f"akvo-compare-{key}-gain") == "identique"
    assert "identiques" in widget.caveats.value


def test_every_switch_of_the_registry_is_offered_with_its_readings() -> None:
    widget = CompareReadings()
    assert [value for _label, value in widget.switch.options] == list(SWITCHES)
    for field, switch in SWITCHES.items():
        widget.switch.value = field
        assert [label for label, _ in widget.first.options] == [french(r) for r in switch.readings]
        assert (widget.first.value, widget.second.value) == (switch.options[0], switch.options[-1])
