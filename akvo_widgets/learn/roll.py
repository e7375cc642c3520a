"""RollCalculator: one roll of the dice (R12–R15) — its odds and the spread of its totals."""

from __future__ import annotations

from typing import Any

import bqplot as bq
import ipywidgets as w
import traitlets

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.dice import RollOdds, prepare_tables, roll
from akvo.resolution import RelancePolicy, is_critical
from akvo.rules import MAX_RESILIENCE, critical_threshold
from akvo.shots import Side, shot_on_mage
from akvo_widgets.kit import controls as c
from akvo_widgets.kit.calculator import Calculator
from akvo_widgets.text.formatting import fraction, percent

#: A drop-down cannot show a ``None`` value, so "no reroll" is the string ``"none"``.
NO_REROLL = "none"
REROLL_CHOICES: tuple[tuple[str, str], ...] = (
    ("Pas de relance", NO_REROLL),
    ("Relance : viser la réussite", "success"),
    ("Relance : viser le critique", "critical"),
)
COLOURS = ("#a9b8bf", "#2a7fb8", "#e8a33d")
BANDS = ("Échec", "Réussite", "Critique")
#: Modifiers in the game are bonuses only; the largest is a defence with the Défense rune,
#: Égide and full Résilience (R11, R20, R24), read from the engine.
MAX_MODIFIER = shot_on_mage(
    1, 1, Side(), Side(rune="defense", egide=True, resilience=MAX_RESILIENCE)
).defence.modifier  # type: ignore[union-attr]


class RollCalculator(Calculator):
    """Dice count, modifier, threshold and Relance policy → success / critical / prodige.

    Every control is a public attribute (``dice``, ``threshold``, ``modifier``, ``reroll``);
    setting one from Python updates ``odds``, the table and the plot, as in the browser;
    so does setting ``rules`` (R13's prodige), and ``odds`` can be observed.
    """

    odds = traitlets.Any(None, allow_none=True)

    def __init__(
        self,
        threshold: int = 12,
        dice: int = 4,
        modifier: int = 0,
        *,
        rules: RulesConfig = DEFAULT_RULES,
    ) -> None:
        self.rules = rules
        self.dice = c.slider("Dés lancés", 1, 8, dice, "akvo-roll-dice")
        self.threshold = c.slider("Seuil", 2, 30, threshold, "akvo-roll-threshold")
        self.modifier = c.slider("Modificateur", 0, MAX_MODIFIER, modifier, "akvo-roll-modifier")
        self.reroll = c.dropdown("Relance (R15)", REROLL_CHOICES, NO_REROLL, "akvo-roll-reroll")
        self.result = c.html("akvo-odds")
        self.legend = c.html("akvo-roll-legend")
        self.legend.value = legend_html()
        self.odds = roll(threshold, dice=dice, modifier=modifier, prodige=rules.prodige)
        self._bars, self.figure = _totals_figure()
        super().__init__()
        self.children = [
            c.panel(
                [
                    self.dice,
                    self.threshold,
                    self.modifier,
                    self.reroll,
                    self.result,
                    self.legend,
                    self.figure,
                ],
                "akvo-roll",
            )
        ]
        self.watch((self.dice, self.threshold, self.modifier, self.reroll))
        self._warm_odds()

    def _warm_odds(self) -> None:
        """Every dice count the slider offers, for these rules, computed now: the first pick
        of 8 dice would otherwise wait for it. A pre-heated kernel does it before any reader
        comes; a spare kernel has done it for the default rules (site_spares)."""
        prepare_tables(self.rules.prodige, most_dice=self.dice.max)

    def reroll_policy(self) -> RelancePolicy | None:
        """The R15 policy chosen in the drop-down (``None``: no reroll)."""
        value = self.reroll.value
        return None if value == NO_REROLL else value  # type: ignore[no-any-return]

    def _update(self, _change: Any = None) -> None:
        self.odds = roll(
            self.threshold.value,
            dice=self.dice.value,
            modifier=self.modifier.value,
            reroll=self.reroll_policy(),
            prodige=self.rules.prodige,
        )
        self.result.value = odds_table(self.odds, "akvo-roll")
        _draw_totals(self._bars, self.odds)


def odds_table(odds: RollOdds, prefix: str) -> str:
    """Success, critical and prodige as a percentage and an exact fraction."""
    rows = [
        ("Réussite", "success", odds.success, f"total ≥ {odds.threshold}"),
        ("Critique", "critical", odds.critical, f"total ≥ {critical_threshold(odds.threshold)}"),
        ("Prodige", "prodige", odds.prodige, "4 dés identiques (R13)"),
    ]
    return c.table(
        ["", "Chance", "Fraction exacte", "Condition"],
        [
            [
                c.cell(label),
                c.cell(percent(p), f"{prefix}-{key}"),
                c.cell(fraction(p), f"akvo-fraction {prefix}-{key}-fraction"),
                c.cell(condition),
            ]
            for label, key, p, condition in rows
        ],
    )


def legend_html() -> str:
    """The chart's legend, above it: a coloured square and the name of each band."""
    items = "".join(
        f'<span class="akvo-roll-legend-item" style="margin-right:1.2em">'
        f'<span style="display:inline-block;width:0.9em;height:0.9em;background:{colour};'
        f'vertical-align:middle;margin-right:0.3em"></span>{label}</span>'
        for colour, label in zip(COLOURS, BANDS, strict=True)
    )
    return f"<div>{items}</div>"


#: Totals labelled under the bars: one label per bar overprints its neighbours on a phone
#: (4 to 24 is 21 labels in 330 px). On an ordinal axis bqplot honours ``num_ticks`` (every
#: ``len // (num_ticks - 1)``-th total), not ``tick_values``.
MAX_TICKS = 11


def _totals_figure() -> tuple[bq.Bars, bq.Figure]:
    x = bq.OrdinalScale()
    y = bq.LinearScale(min=0.0)
    bars = bq.Bars(
        x=[0],
        y=[[0.0], [0.0], [0.0]],
        scales={"x": x, "y": y},
        type="stacked",
        colors=list(COLOURS),
        labels=list(BANDS),
        display_legend=False,  # inside the plot it hid the bars: an HTML legend sits above
    )
    axes = [
        bq.Axis(
            scale=x, label="Total obtenu", tick_style={"font-size": "10px"}, num_ticks=MAX_TICKS
        ),
        bq.Axis(scale=y, orientation="vertical", label="Chance (%)", tick_format=".0f"),
    ]
    figure = bq.Figure(
        marks=[bars],
        axes=axes,
        fig_margin={"top": 20, "bottom": 40, "left": 50, "right": 10},
        display_toolbar=False,  # its icons come from a CDN font; zoom has no use here
        layout=w.Layout(width="100%", height="260px"),
    )
    figure.add_class("akvo-roll-plot")
    return bars, figure


def _draw_totals(bars: bq.Bars, odds: RollOdds) -> None:
    """Set the bars' data in place, one stacked colour per outcome."""
    totals = sorted(odds.totals)
    layers: list[list[float]] = [[], [], []]
    for total in totals:
        share = float(odds.totals[total]) * 100
        band = 2 if is_critical(total, odds.threshold) else 1 if total >= odds.threshold else 0
        for index, layer in enumerate(layers):
            layer.append(share if index == band else 0.0)
    with bars.hold_sync():
        bars.x = totals
        bars.y = layers
