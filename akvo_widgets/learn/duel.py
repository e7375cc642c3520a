"""RuneDuel: which rune should each side play? The payoff matrix, best responses, equilibrium."""

from __future__ import annotations

from typing import Any

import bqplot as bq
import ipywidgets as w
import numpy as np
import traitlets

from akvo import duel as engine
from akvo.rules import DISTANCES, tier_for_turn
from akvo.shots import RuneChoice
from akvo_widgets.kit import controls as c
from akvo_widgets.kit.plots import heatmap_figure
from akvo_widgets.text.formatting import decimal, fraction, french, percent

from .shot import (
    SituationCalculator,
    chest_board_note,
    interception_distance,
    show_situation,
)

RUNE_NAMES: dict[RuneChoice, str] = {
    None: "Aucune",
    "attaque": "Attaque",
    "defense": "Défense",
    "confusion": "Confusion",
    "relance": "Relance",
}


class RuneDuel(SituationCalculator):
    """Situation of a shot → the attacker × defender rune matrix and how to play it.

    ``duel`` is the engine's :class:`akvo.duel.RuneDuel` for the current settings
    (``rules`` included); it can be observed.
    """

    duel = traitlets.Any(None, allow_none=True)
    CSS = "akvo-duel"
    LONGEST = DISTANCES[-1]

    def build(self) -> None:
        self.table = c.html("akvo-table")
        self.table.add_class("akvo-duel-table")
        self.summary = c.html("akvo-duel-summary")
        self.board_note = c.html("akvo-duel-board-note")
        self.duel = engine.rune_duel(
            self.kind.value, tier_for_turn(self.turn.value), self.distance.value, rules=self.rules
        )
        self._heatmap, self._colours, self.figure = _payoff_figure()
        self.children = [
            c.panel(
                [
                    *self.situation_widgets(),
                    self.interception,
                    self.board_note,
                    w.HBox([self.table, self.figure]),
                    self.summary,
                ],
                "akvo-duel",
            )
        ]
        self.watch((self.kind, self.turn, self.distance, self.interception))
        # The other distances of the first situation (watch computed the one shown), with
        # the page (a pre-heated kernel does it before any reader comes): the slider's
        # first moves then find the engine's caches warm (~9 ms each the first time).
        for other in DISTANCES:
            if other != self.distance.value:
                self.compute(other)

    def compute(self, distance: int | None = None) -> engine.RuneDuel:
        """The engine's duel for the controls' settings (at ``distance`` if given)."""
        return engine.rune_duel(
            self.kind.value,
            tier_for_turn(self.turn.value),
            self.distance.value if distance is None else distance,
            interception_distance=interception_distance(self.interception),
            rules=self.rules,
        )

    def _update(self, _change: Any = None) -> None:
        # The number a reader waits for goes first (each widget's update is one message,
        # sent when its value is set); what did not change sends nothing.
        self.duel = duel = self.compute()
        self.summary.value = summary(duel)
        self.table.value = payoff_table(duel)
        is_chest = show_situation(self, self.interception)
        self.board_note.value = (
            chest_board_note(self.distance.value, interception_distance(self.interception))
            if is_chest
            else ""
        )
        rows = [RUNE_NAMES[o] for o in duel.attacker_options]
        columns = [RUNE_NAMES[o] for o in duel.defender_options]
        with self._heatmap.hold_sync():  # one message: colour scale, grid, labels
            self._colours.min, self._colours.max = 0.0, 1.0 if duel.kind == "mage" else 2.0
            same_grid = (
                _labels(self._heatmap.row) == rows and _labels(self._heatmap.column) == columns
            )
            if not same_grid:
                # bqplot checks row/column against color's shape: clear them while it changes.
                self._heatmap.row, self._heatmap.column = None, None
            self._heatmap.color = np.array([[float(v) for v in row] for row in duel.payoff])
            if not same_grid:
                self._heatmap.row, self._heatmap.column = rows, columns


def _labels(axis: Any) -> list[str]:
    """A heat map's row or column labels as a list (bqplot holds an array, or None)."""
    return [] if axis is None else [str(label) for label in axis]


def shown(kind: str, value: Any) -> str:
    """A payoff as shown: a percentage (P(push)) or points with 3 decimals."""
    return percent(value) if kind == "mage" else decimal(value, 3)


def payoff_table(duel: engine.RuneDuel) -> str:
    """Rows: the attacker's rune; columns: the defender's. ★ = attacker's best answer to that
    column, ◆ = defender's best answer to that row."""
    rows = []
    for i, attack in enumerate(duel.attacker_options):
        cells = [c.cell(f"<b>{RUNE_NAMES[attack]}</b>")]
        for j, _defence in enumerate(duel.defender_options):
            marks = ("★" if duel.attacker_best_response[j] == i else "") + (
                "◆" if duel.defender_best_response[i] == j else ""
            )
            value = duel.payoff[i][j]
            cells.append(
                c.cell(
                    f'<span class="akvo-duel-value akvo-duel-a{i}-d{j}">'
                    f"{shown(duel.kind, value)}</span> {marks}<br>"
                    f'<small class="akvo-fraction">{fraction(value)}</small>'
                )
            )
        rows.append(cells)
    header = ["Tireur \\ défenseur", *(RUNE_NAMES[o] for o in duel.defender_options)]
    return french(c.wide_table(header, rows))


def summary(duel: engine.RuneDuel) -> str:
    """Sequential play (R18) and the mixed equilibrium, in French."""
    choice = RUNE_NAMES[duel.attacker_options[duel.sequential_attacker_choice]]
    mix_a = ", ".join(
        f"{RUNE_NAMES[o]} {percent(p, 0)}"
        for o, p in zip(duel.attacker_options, duel.attacker_strategy, strict=True)
        if p > 1e-9
    )
    mix_d = ", ".join(
        f"{RUNE_NAMES[o]} {percent(p, 0)}"
        for o, p in zip(duel.defender_options, duel.defender_strategy, strict=True)
        if p > 1e-9
    )
    return french(
        "<p>★ meilleure réponse du tireur à la rune du défenseur ; "
        "◆ meilleure réponse du défenseur à la rune du tireur.</p>"
        f"<p><b>Ordre réel (R18)</b> : le tireur annonce d’abord. Son meilleur choix est "
        f'<b class="akvo-duel-choice">{choice}</b>, qui lui garantit '
        f'<b class="akvo-duel-sequential">{shown(duel.kind, duel.sequential_value)}</b> '
        f"({fraction(duel.sequential_value)}) face à la meilleure réponse.</p>"
        f"<p><b>Si les deux choisissaient en secret</b>, l’équilibre vaudrait "
        f'<b class="akvo-duel-equilibrium">{shown(duel.kind, duel.value)}</b> : '
        f"tireur {mix_a} ; défenseur {mix_d}.</p>"
    )


def _payoff_figure() -> tuple[bq.GridHeatMap, bq.ColorScale, bq.Figure]:
    names = list(RUNE_NAMES.values())[:4]
    return heatmap_figure(
        names,
        names,
        scheme="Oranges",
        css_class="akvo-duel-plot",
        width="330px",
        left_margin=80,
        column_axis={"label": "Défenseur", "tick_style": {"font-size": "9px"}},
    )
