"""WindMatrix: the 4 × 4 tier × distance matrix, coloured by the odds of the chosen shot."""

from __future__ import annotations

from typing import Any

import bqplot as bq
import ipywidgets as w
import numpy as np
import traitlets

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import ShotError
from akvo.rules import DISTANCES, TIERS, miles
from akvo.shots import ShotKind, Side, chest_shot_on_board
from akvo.tables import OddsGrid, odds_grid
from akvo_widgets.kit import controls as c
from akvo_widgets.kit.calculator import Calculator
from akvo_widgets.kit.plots import heatmap_figure
from akvo_widgets.text.formatting import (
    decimal,
    fraction,
    french,
    percent,
    tier_numeral,
    turns_of_tier,
)

from .shot import (
    ATTACK_RUNE_CHOICES,
    DEFENCE_RUNE_CHOICES,
    INTERCEPTION_CHOICES,
    KIND_CHOICES,
    interception_distance,
    off_board_note,
)

#: Colour range of each metric: P(push) is a probability, expected points reach 2.
COLOUR_RANGE = {"mage": (0.0, 1.0), "chest": (0.0, 2.0)}


class WindMatrix(Calculator):
    """Kind of shot and both sides' choices → a heatmap and a table over tier × distance.

    ``grid`` is the engine's :class:`~akvo.tables.OddsGrid` behind what is shown (``None``
    when the choices cannot be played together, R20); it follows the controls and
    ``rules``, and can be observed.
    """

    grid = traitlets.Any(None, allow_none=True)

    def __init__(self, kind: ShotKind = "mage", *, rules: RulesConfig = DEFAULT_RULES) -> None:
        self.rules = rules
        self.kind = c.dropdown("Cible", KIND_CHOICES, kind, "akvo-matrix-kind")
        self.interception = c.dropdown(
            "Intercepteur à", INTERCEPTION_CHOICES, 1, "akvo-matrix-interception"
        )
        self.attack_rune = c.dropdown(
            "Rune du tireur", ATTACK_RUNE_CHOICES, (None, "success"), "akvo-matrix-attack-rune"
        )
        self.defence_rune = c.dropdown(
            "Rune du défenseur",
            DEFENCE_RUNE_CHOICES,
            (None, "success"),
            "akvo-matrix-defence-rune",
        )
        self.resilience = c.slider("Résilience (cible)", 0, 3, 0, "akvo-matrix-resilience")
        self.caption = c.html("akvo-matrix-caption")
        self.board_note = c.html("akvo-matrix-board-note")
        self.table = c.html("akvo-table", "akvo-matrix-table")
        self.grid = None
        self._heatmap, self._colours, self.figure = _heatmap_figure()
        super().__init__()
        # The controls the matrix is computed from: shown first, and watched.
        inputs = (
            self.kind,
            self.interception,
            self.attack_rune,
            self.defence_rune,
            self.resilience,
        )
        below = [self.caption, self.board_note, w.HBox([self.table, self.figure])]
        self.children = [c.panel([*inputs, *below], "akvo-matrix")]
        self.watch(inputs)

    def sides(self) -> tuple[Side, Side]:
        attack_rune, attack_policy = self.attack_rune.value
        defence_rune, defence_policy = self.defence_rune.value
        return (
            Side(rune=attack_rune, policy=attack_policy),
            Side(rune=defence_rune, policy=defence_policy, resilience=self.resilience.value),
        )

    def compute(self) -> OddsGrid:
        attack, defence = self.sides()
        return odds_grid(
            self.kind.value,
            attack,
            defence,
            interception_distance=interception_distance(self.interception),
            rules=self.rules,
        )

    def _update(self, _change: Any = None) -> None:
        kind = self.kind.value
        self.interception.layout.display = "" if kind == "chest" else "none"
        # For a chest shot the defender is the interceptor (R17).
        who = "intercepteur" if kind == "chest" else "cible"
        self.resilience.description = f"Résilience ({who})"
        self.board_note.value = matrix_board_note(self) if kind == "chest" else ""
        try:
            self.grid = self.compute()
        except ShotError:
            self.grid = None
            self.caption.value = french(
                "Personne ne peut intercepter : la rune choisie ne peut pas être jouée (R20)."
            )
            self.table.value = ""
            self.board_note.value = ""
            self.figure.layout.display = "none"  # no stale colours beside the message
            return
        self.figure.layout.display = ""
        grid = self.grid
        what = (
            "Chance de repousser la cible"
            if kind == "mage"
            else "Points marqués en moyenne par tir sur le coffre"
        )
        self.caption.value = french(f"<b>{what}</b>, selon le palier du vent et la distance :")
        self.table.value = matrix_table(grid)
        low, high = COLOUR_RANGE[kind]
        with self._heatmap.hold_sync():
            self._colours.min, self._colours.max = low, high
            self._heatmap.color = np.array([[float(v) for v in row] for row in grid.values])


def off_board_distances(interceptor: int | None) -> list[int]:
    """The chest distances the board cannot produce with this interceptor (R10, R11)."""
    return [d for d in DISTANCES if not chest_shot_on_board(d, interceptor)]


def matrix_board_note(matrix: WindMatrix) -> str:
    """The warning for the columns of chest shots the board cannot produce."""
    interceptor = interception_distance(matrix.interception)
    missing = off_board_distances(interceptor)
    if not missing:
        return ""
    names = [str(d) for d in missing]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} ou {names[-1]}"
    case = f"un tir sur le coffre à {listed} mile{'s' if missing[-1] > 1 else ''} " + (
        "sans intercepteur à portée" if interceptor is None else "avec cet intercepteur"
    )
    return off_board_note(case, interceptor)


def shown_value(grid: OddsGrid, tier: int, distance: int) -> str:
    """A cell's number as the table shows it: a percentage, or points with 3 decimals."""
    value = grid.value(tier, distance)
    return percent(value) if grid.kind == "mage" else decimal(value, 3)


def matrix_table(grid: OddsGrid) -> str:
    """Rows = tiers, columns = distances; each cell: value, exact fraction, X and U."""
    rows = []
    for tier in TIERS:
        cells = [
            c.cell(f"<b>Palier {tier_numeral(tier)}</b><br><small>{turns_of_tier(tier)}</small>")
        ]
        for distance in DISTANCES:
            x, defence = grid.thresholds(tier, distance)
            u: int | str = defence
            if grid.kind == "chest":  # U is the interception's, read at its own distance
                interception = grid.interception_threshold(tier)
                u = "—" if interception is None else interception
            value = grid.value(tier, distance)
            cells.append(
                c.cell(
                    f'<span class="akvo-matrix-value akvo-matrix-t{tier}-d{distance}">'
                    f"{shown_value(grid, tier, distance)}</span><br>"
                    f'<small class="akvo-fraction">{fraction(value)}<br>X {x} · U {u}</small>'
                )
            )
        rows.append(cells)
    header = ["Vent \\ distance", *(f"{miles(d)}" for d in DISTANCES)]
    return french(c.wide_table(header, rows))


def _heatmap_figure() -> tuple[bq.GridHeatMap, bq.ColorScale, bq.Figure]:
    return heatmap_figure(
        [f"Palier {tier_numeral(t)}" for t in TIERS],
        [f"{d} mi" for d in DISTANCES],
        scheme="Blues",
        css_class="akvo-matrix-plot",
        width="360px",
        left_margin=70,
    )
