"""One change of a control sends only the updates it needs, the reader's number first.

Every widget update is one comm message, sent when a value is set; the page shows the number
as soon as its message arrives, so it must not wait behind the table, the board note or the
chart, and a chart sends only what changed (the rune duel's heat map: its colours, not its
unchanged row and column labels).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w
import pytest

from akvo_widgets import RuneDuel, ShotCalculator

Sent = list[tuple[Any, dict[str, Any]]]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Sent:
    log: Sent = []

    def record(widget: w.Widget, msg: dict[str, Any], buffers: Any = None) -> None:
        if msg.get("method") == "update":
            log.append((widget, msg["state"]))

    monkeypatch.setattr(w.Widget, "_send", record)
    return log


def updates_after(control: w.ValueWidget, value: int, sent: Sent) -> Sent:
    control.value = value
    return [(widget, state) for widget, state in sent if widget is not control]


@pytest.mark.parametrize("distance", [2, 3, 4])
def test_chest_shot_sends_its_number_first(sent: Sent, distance: int) -> None:
    calculator = ShotCalculator(kind="chest", distance=1)
    sent.clear()
    updates = updates_after(calculator.distance, distance, sent)
    first_widget, first_state = updates[0]
    assert first_widget is calculator.main
    assert 'class="akvo-shot-value"' in first_state["value"]
    widgets = [widget for widget, _ in updates]
    order = [calculator.main, calculator.sentence, calculator.table, calculator.board_note]
    assert widgets == [*order, calculator._bars]  # one message each, the chart last


@pytest.mark.parametrize("distance", [2, 3, 4])
def test_rune_duel_sends_its_number_first_and_only_the_colours(sent: Sent, distance: int) -> None:
    duel = RuneDuel()
    sent.clear()
    updates = updates_after(duel.distance, distance, sent)
    assert updates[0][0] is duel.summary
    assert 'class="akvo-duel-sequential"' in updates[0][1]["value"]
    charts = [state for widget, state in updates if widget is duel._heatmap]
    assert [sorted(state) for state in charts] == [["color"]]
    assert len(updates) == 3
