"""The book's simulator, second half: two readings of one rule on the same dice.

:class:`CompareReadings` plays N matches under each reading of a switch of
:data:`akvo.switches.SWITCHES` (same teams, bots and seeds), then shows what
:func:`akvo.lab.readings.compare_readings` measured: the French caveats first, the
difference of A's match points with its paired, unpaired and luck-adjusted 95 % intervals
side by side (a table and a plot), both readings' distributions of the score difference, and
how often the rule came into play. Adding a switch to the registry adds it here.
"""

from __future__ import annotations

from typing import Any

import bqplot as bq
import ipywidgets as w
import numpy as np

from akvo.config import DEFAULT_RULES
from akvo.errors import AkvoError
from akvo.lab import simulate
from akvo.lab.readings import ReadingsComparison, compare_readings
from akvo.switches import SWITCHES
from akvo_widgets.kit import controls as c
from akvo_widgets.kit.plots import error_bar_figure, grouped_bars_figure
from akvo_widgets.text.formatting import decimal, french, integer, percent

from .lab import BOT_CHOICES, TEAM_CHOICES, RunStatus

MINUS = "\u2212"
#: The switches by the moments they play (their registry label), ruling first.
SWITCH_CHOICES = [(switch.topic, field) for field, switch in SWITCHES.items()]


def reading_choices(field: str) -> list[tuple[str, str]]:
    """The readings of one switch, default first, with their French labels."""
    switch = SWITCHES[field]
    return [(french(switch.reading(option)), option) for option in switch.options]


def signed(value: float) -> str:
    """``+0,033`` / ``−0,020`` (true minus sign)."""
    text = decimal(abs(value), 3)
    return f"+{text}" if value > 0 else f"{MINUS}{text}" if value < 0 else text


def intervals_table(compared: ReadingsComparison) -> str:
    """The three 95 % intervals of the difference side by side, with their half-widths and
    how much narrower each is than the unpaired one (« identique » for a reading compared
    with itself)."""
    unpaired = next(s for s in compared.intervals if s.key == "unpaired").half_width
    rows = []
    for side in compared.intervals:
        i = side.interval
        if compared.identical:
            gain = "identique"
        elif side.key == "unpaired":
            gain = "référence"
        elif side.half_width == 0:
            gain = "sans objet"
        else:
            gain = f"{decimal(unpaired / side.half_width, 1)} fois"
        rows.append(
            [
                c.cell(french(side.label)),
                c.cell(f"<b>{signed(i.estimate)}</b>", f"akvo-compare-{side.key}"),
                c.cell(
                    f"<span class='akvo-compare-{side.key}-interval' style='white-space:nowrap'>"
                    + french(f"de {signed(i.low)} à {signed(i.high)}")
                    + f"</span><br><small>±{decimal(side.half_width, 3)}</small>"
                ),
                c.cell(gain, f"akvo-compare-{side.key}-gain"),
            ]
        )
    header = ["Intervalle", "Différence", "À 95 %", "Plus étroit"]
    return "<div style='overflow-x:auto'>" + french(c.table(header, rows)) + "</div>"


def outcomes_table(compared: ReadingsComparison) -> str:
    """Each reading: A's wins, draws, B's wins, and A's match points with their interval."""
    rows = []
    points = (compared.comparison.first, compared.comparison.second)
    for k, (d, p) in enumerate(zip(compared.distributions, points, strict=True)):
        rows.append(
            [
                c.cell(french(d.name)),
                c.cell(
                    f"<span style='white-space:nowrap'>{integer(d.outcomes[0])} · "
                    f"{integer(d.outcomes[1])} · {integer(d.outcomes[2])}</span>"
                ),
                c.cell(f"<b>{percent(p.estimate)}</b>", f"akvo-compare-points-{k + 1}"),
                c.cell(
                    french(
                        f"<span style='white-space:nowrap'>de {percent(p.low)} "
                        f"à {percent(p.high)}</span>"
                    )
                ),
            ]
        )
    header = ["Lecture", "V · N · D de A", "Points de A", "À 95 %"]
    return "<div style='overflow-x:auto'>" + french(c.table(header, rows)) + "</div>"


def coverage_text(field: str, compared: ReadingsComparison) -> str:
    """How often the rule came into play, by the registry's « la règle a joué » label."""
    switch = SWITCHES[field]
    parts = []
    for rule in compared.coverage:
        label = SWITCHES[rule.field].played if rule.field in SWITCHES else rule.field
        if not rule.counted:
            parts.append(f"<li>{label} : non compté par le laboratoire.</li>")
            continue
        parts.append(
            f"<li>{label} : <b class='akvo-compare-played-{rule.field}'>"
            f"{integer(rule.matches)}</b> matchs sur {integer(rule.total)} "
            f"({integer(rule.first)} fois avec la lecture 1, {integer(rule.second)} avec "
            "la lecture 2).</li>"
        )
    if not parts:
        return french(
            f"<p>Règles en jeu : aucune ne diffère entre les deux lectures ({switch.ruling}).</p>"
        )
    return french("<p>La règle a joué :</p><ul>" + "".join(parts) + "</ul>")


def caveats_html(compared: ReadingsComparison) -> str:
    if not compared.caveats:
        return ""
    items = "".join(f"<li>{french(text)}</li>" for text in compared.caveats)
    return f"<div class='akvo-compare-caveats'><b>À lire d’abord</b><ul>{items}</ul></div>"


class CompareReadings(w.VBox):
    """A switch, two of its readings, teams, a bot, N and a seed → both simulations on the
    same seeds and their comparison, on a click. :meth:`run` does what the button does."""

    def __init__(
        self,
        field: str = "weather",
        matches: int = 40,
        seed: int = 1,
        team_a: str = "perrockiss",
        team_b: str = "fish-tank",
        workers: int = 0,
    ) -> None:
        if field not in SWITCHES:
            raise ValueError(f"unknown rules switch {field!r}; choose one of {list(SWITCHES)}")
        self.workers = workers
        self.switch = c.dropdown("Règle", SWITCH_CHOICES, field, "akvo-compare-switch")
        options = reading_choices(field)
        self.first = c.dropdown("Lecture 1", options, options[0][1], "akvo-compare-first")
        self.second = c.dropdown("Lecture 2", options, options[-1][1], "akvo-compare-second")
        self.team_a = c.dropdown("Équipe A", TEAM_CHOICES, team_a, "akvo-compare-team-a")
        self.team_b = c.dropdown("Équipe B", TEAM_CHOICES, team_b, "akvo-compare-team-b")
        self.bot = c.dropdown("Bots", BOT_CHOICES, "greedy", "akvo-compare-bot")
        self.matches = c.slider("Matchs", 10, 1000, matches, "akvo-compare-matches")
        self.matches.step = 10
        self.seed = seed
        self.button = c.button(
            "Comparer les deux lectures",
            "akvo-compare-run",
            self.run,
            button_style="primary",
            layout=w.Layout(width="auto", max_width="100%"),
        )
        self.status = RunStatus("akvo-compare", "Aucune comparaison lancée.")
        self.progress = self.status.bar
        self.caveats = c.html("akvo-compare-caveats-area")
        self.intervals = c.html("akvo-table", "akvo-compare-intervals")
        self.outcomes = c.html("akvo-table", "akvo-compare-outcomes")
        self.coverage = c.html("akvo-compare-coverage")
        self.interval_plot: Any = w.Box()
        self.interval_area = w.Box([], layout=w.Layout(width="100%"))
        # Both plots are built when a run has data: a bqplot figure first drawn hidden
        # stays blank when shown.
        self.distribution_area = w.Box([], layout=w.Layout(width="100%"))
        self.distribution: Any = None
        self._bars: Any = None
        self.compared: ReadingsComparison | None = None
        self.switch.observe(self._switched, names="value")
        super().__init__()
        self.children = [
            c.panel(
                [
                    self.switch,
                    self.first,
                    self.second,
                    self.team_a,
                    self.team_b,
                    self.bot,
                    self.matches,
                    self.button,
                    self.status,
                    *self._areas(),
                ],
                "akvo-compare",
            )
        ]
        self.clear()

    def _switched(self, _change: Any = None) -> None:
        options = reading_choices(self.switch.value)
        self.first.options = options
        self.second.options = options
        self.first.value, self.second.value = options[0][1], options[-1][1]

    def _areas(self) -> tuple[w.Widget, ...]:
        """What a comparison fills (hidden before, so that no empty box takes room)."""
        return (
            self.caveats,
            self.intervals,
            self.interval_area,
            self.outcomes,
            self.distribution_area,
            self.coverage,
        )

    def clear(self) -> None:
        for area in (self.caveats, self.intervals, self.outcomes, self.coverage):
            area.value = ""
        self.interval_area.children = self.distribution_area.children = ()
        for widget in self._areas():
            widget.layout.display = "none"

    def run(self) -> ReadingsComparison | None:
        """Play both readings on the same seeds and show their comparison."""
        field, n = self.switch.value, self.matches.value
        readings = (self.first.value, self.second.value)
        self.clear()
        self.status.running(0, 2 * n)
        self.button.disabled = True
        runs = []
        try:
            for k, option in enumerate(readings):

                def progress(done: int, _total: int, past: int = k * n) -> None:
                    self.status.running(past + done, 2 * n)

                runs.append(
                    simulate(
                        self.team_a.value,
                        self.team_b.value,
                        (self.bot.value, self.bot.value),
                        DEFAULT_RULES.with_(**{field: option}),
                        n,
                        self.seed,
                        workers=self.workers,
                        progress=False,
                        on_progress=progress,
                    )
                )
        except AkvoError as error:
            self.status.finished(f"La simulation a échoué : {error}")
            return None
        finally:
            self.button.disabled = False
        switch = SWITCHES[field]
        names = (
            f"Lecture 1 : {switch.reading(readings[0])}",
            f"Lecture 2 : {switch.reading(readings[1])}",
        )
        compared = compare_readings(runs[0], runs[1], names)
        self.show(field, compared)
        return compared

    def show(self, field: str, compared: ReadingsComparison) -> None:
        self.compared = compared
        matches = compared.comparison.matches
        self.status.finished(
            f"Terminé : {integer(matches)} matchs par lecture, sur les mêmes graines ; "
            "différence des points de match de A (lecture 2 moins lecture 1)."
        )
        self.caveats.value = caveats_html(compared)
        self.intervals.value = intervals_table(compared)
        sides = compared.intervals
        self.interval_plot = error_bar_figure(
            ["appariée", "sans appariement", "chance corrigée"],
            [s.interval.estimate for s in sides],
            [s.interval.low for s in sides],
            [s.interval.high for s in sides],
            y_label="différence de points",
            css_class="akvo-compare-interval-plot",
            height="220px",
            tick_format=".2f",
        )
        self.interval_area.children = (self.interval_plot,)
        self.outcomes.value = outcomes_table(compared)
        counts = np.array([d.score_differences for d in compared.distributions], dtype=float)
        labels = [str(v).replace("-", MINUS) for v in compared.support]
        self._bars, self.distribution = _distribution_figure(labels, counts)
        self.distribution_area.children = (self.distribution,)
        self.coverage.value = coverage_text(field, compared)
        for widget in self._areas():
            widget.layout.display = None


def _distribution_figure(labels: list[str], counts: np.ndarray) -> tuple[bq.Bars, bq.Figure]:
    """Both readings' matches per score difference (A − B), side by side."""
    bars, _scale, figure = grouped_bars_figure(
        labels,
        counts,
        ["lecture 1", "lecture 2"],
        x_label="écart de score (A − B)",
        css_class="akvo-compare-distribution",
    )
    return bars, figure
