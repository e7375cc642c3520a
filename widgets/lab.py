"""The designer's lab in the book: simulate many matches, read win rates with intervals.

:class:`Lab` runs :func:`akvo.lab.simulate` on a click (never when the page opens) and shows
the win rates with their 95 % intervals, the score histograms, the first-activation edge and
a CSV download; :class:`RoundRobin` plays every pair of the annex's distinct teams and
draws the heat map. Every number comes from the run; no game logic lives here.
"""

from __future__ import annotations

import base64

import bqplot as bq
import ipywidgets as w
import numpy as np
from IPython.display import Markdown

from akvo.bots import BOTS
from akvo.config import RulesConfig
from akvo.lab import Interval, Results, Summary, simulate
from akvo.rules import DUPLICATED_PRESETS, PRESET_TEAMS

from . import controls as c
from .formatting import decimal, french, integer, percent
from .plots import heatmap_figure

TEAM_CHOICES = [(preset.name, key) for key, preset in PRESET_TEAMS.items()]
#: The annex's distinct teams: three presets print the same list (R28), one stands for them.
DISTINCT_TEAMS = tuple(k for k in PRESET_TEAMS if k not in DUPLICATED_PRESETS[1:])
BOT_CHOICES = [(label, name) for name, label in BOTS.items()]
WEATHER_CHOICES = [("sac de 8 jetons (R8)", "bag"), ("pile ou face (variante R8)", "coin")]
PRODIGE_CHOICES = [("quatre dés identiques (R13)", "four"), ("tous les dés identiques", "all")]
PLACEHOLDER = "—"


def interval_text(interval: Interval, as_percent: bool = True) -> str:
    """``52,3 % (de 49,2 % à 55,4 %)``: an estimate and its 95 % interval, in French."""
    shown = percent if as_percent else (lambda v: decimal(v, 2))
    return french(f"{shown(interval.estimate)} (de {shown(interval.low)} à {shown(interval.high)})")


def summary_table(summary: Summary) -> str:
    """Wins, draws, losses and mean scores with their 95 % intervals."""
    names = summary.meta.get("teams", ["A", "B"])
    labels = {key: PRESET_TEAMS[key].name if key in PRESET_TEAMS else key for key in names}
    rows = []
    for label, count, interval, css in (
        (f"Victoires de A ({labels[names[0]]})", summary.wins_a, summary.p_a, "akvo-lab-p-a"),
        ("Matchs nuls", summary.draws, summary.p_draw, "akvo-lab-p-draw"),
        (f"Victoires de B ({labels[names[1]]})", summary.wins_b, summary.p_b, "akvo-lab-p-b"),
    ):
        rows.append(
            [
                c.cell(label),
                c.cell(integer(count)),
                c.cell(percent(interval.estimate), css),
                c.cell(french(f"de {percent(interval.low)} à {percent(interval.high)}")),
            ]
        )
    header = ["Résultat", "Matchs", "Fréquence", "Intervalle à 95 %"]
    return c.table(header, rows)


def csv_link(results: Results) -> str:
    """A download link carrying the per-match table as a data: URI (nothing is stored)."""
    payload = base64.b64encode(results.to_csv().encode()).decode()
    return (
        f'<a class="akvo-lab-download" download="akvo-simulation.csv" '
        f'href="data:text/csv;base64,{payload}">Télécharger les {integer(len(results))} '
        "matchs (CSV)</a>"
    )


def _points(value: float) -> str:
    """``-0.11`` → ``−0,11`` (a true minus sign)."""
    return decimal(value, 2).replace("-", "\u2212")


def first_text(summary: Summary) -> str:
    edge = summary.first_edge
    return french(
        "<p>Avantage du camp qui active en premier (R9) : "
        f'<b class="akvo-lab-first">{_points(edge.estimate)}</b> point par tour '
        f"(intervalle à 95 % : de {_points(edge.low)} à {_points(edge.high)}). "
        "Un intervalle qui contient 0 ne montre pas d’avantage mesurable.</p>"
    )


class Lab(w.VBox):
    """Teams, bots, rules variants and N → a simulation's summary, on a click.

    ``results`` / ``summary`` hold the last run; :meth:`run` does what the button does.
    ``workers=0`` plays in the kernel; a number starts a local Dask cluster for each run.
    """

    def __init__(
        self,
        team_a: str = "perrockiss",
        team_b: str = "fish-tank",
        matches: int = 40,
        seed: int = 1,
        workers: int = 0,
    ) -> None:
        self.workers = workers
        self.team_a = c.dropdown("Équipe A", TEAM_CHOICES, team_a, "akvo-lab-team-a")
        self.team_b = c.dropdown("Équipe B", TEAM_CHOICES, team_b, "akvo-lab-team-b")
        self.bot_a = c.dropdown("Bot de A", BOT_CHOICES, "greedy", "akvo-lab-bot-a")
        self.bot_b = c.dropdown("Bot de B", BOT_CHOICES, "greedy", "akvo-lab-bot-b")
        self.weather = c.dropdown("Météo", WEATHER_CHOICES, "bag", "akvo-lab-weather")
        self.prodige = c.dropdown("Prodige", PRODIGE_CHOICES, "four", "akvo-lab-prodige")
        self.matches = c.slider("Matchs", 10, 1000, matches, "akvo-lab-matches")
        self.matches.step = 10
        self.seed = w.BoundedIntText(
            value=seed, min=0, max=10**9, description="Graine", style={"description_width": "11em"}
        )
        self.seed.add_class("akvo-lab-seed")
        self.button = w.Button(description="Lancer les matchs", button_style="primary")
        self.button.add_class("akvo-lab-run")
        self.progress = w.IntProgress(
            value=0,
            min=0,
            max=matches,
            description="Progression",
            layout=w.Layout(width="100%", max_width="30em"),
        )
        self.progress.add_class("akvo-lab-progress")
        self.table = c.html("akvo-table")
        self.table.add_class("akvo-lab-summary")
        self.first = c.html("akvo-lab-first-text")
        self.download = c.html("akvo-lab-download-area")
        self.results: Results | None = None
        self.summary: Summary | None = None
        self._bars, self.figure = _histogram()
        super().__init__()
        self.children = [
            c.panel(
                [
                    self.team_a,
                    self.team_b,
                    self.bot_a,
                    self.bot_b,
                    self.weather,
                    self.prodige,
                    self.matches,
                    self.seed,
                    self.button,
                    self.progress,
                    self.table,
                    self.figure,
                    self.first,
                    self.download,
                ],
                "akvo-lab",
            )
        ]
        self.table.value = _empty_table()
        self.button.on_click(lambda _button: self.run())

    def rules(self) -> RulesConfig:
        return RulesConfig(weather=self.weather.value, prodige=self.prodige.value)

    def run(self) -> Results:
        """Play the matches chosen by the controls and show the results."""
        total = self.matches.value
        self.progress.max, self.progress.value = total, 0
        self.button.disabled = True
        try:
            results = simulate(
                self.team_a.value,
                self.team_b.value,
                (self.bot_a.value, self.bot_b.value),
                self.rules(),
                total,
                self.seed.value,
                workers=self.workers,
                progress=False,
                on_progress=self._progress,
            )
        finally:
            self.button.disabled = False
        self.show(results)
        return results

    def _progress(self, done: int, total: int) -> None:
        self.progress.value = done

    def show(self, results: Results) -> None:
        self.results = results
        self.summary = summary = results.summary()
        self.table.value = summary_table(summary)
        self.first.value = first_text(summary)
        self.download.value = csv_link(results)
        top = max([*summary.scores_a, *summary.scores_b, 0])
        scores = list(range(top + 1))
        with self._bars.hold_sync():
            self._bars.x = np.array(scores)
            self._bars.y = np.array(
                [
                    [summary.scores_a.get(s, 0) for s in scores],
                    [summary.scores_b.get(s, 0) for s in scores],
                ]
            )


def _empty_table() -> str:
    rows = [
        [c.cell(label), c.cell(PLACEHOLDER), c.cell(PLACEHOLDER, css), c.cell(PLACEHOLDER)]
        for label, css in (
            ("Victoires de A", "akvo-lab-p-a"),
            ("Matchs nuls", "akvo-lab-p-draw"),
            ("Victoires de B", "akvo-lab-p-b"),
        )
    ]
    return c.table(["Résultat", "Matchs", "Fréquence", "Intervalle à 95 %"], rows)


def _histogram() -> tuple[bq.Bars, bq.Figure]:
    """Score histograms of A and B side by side (matches per final score)."""
    x_scale, y_scale = bq.OrdinalScale(), bq.LinearScale(min=0.0)
    bars = bq.Bars(
        x=np.array([0]),
        y=np.array([[0], [0]]),
        scales={"x": x_scale, "y": y_scale},
        type="grouped",
        colors=["#1f77b4", "#ff7f0e"],
        labels=["A", "B"],
        display_legend=True,
    )
    figure = bq.Figure(
        marks=[bars],
        axes=[
            bq.Axis(scale=x_scale, label="score final"),
            bq.Axis(scale=y_scale, orientation="vertical", label="matchs"),
        ],
        fig_margin={"top": 10, "bottom": 40, "left": 50, "right": 10},
        display_toolbar=False,  # its icons come from a CDN font; zoom has no use here
        layout=w.Layout(width="100%", max_width="36em", height="240px"),
    )
    figure.add_class("akvo-lab-histogram")
    return bars, figure


class RoundRobin(w.VBox):
    """Every distinct annex team against every other (both sides), one bot for all:
    the heat map of side A's win rate, row team as A, column team as B."""

    def __init__(self, matches: int = 10, seed: int = 1, workers: int = 0) -> None:
        self.workers = workers
        self.teams = DISTINCT_TEAMS
        self.bot = c.dropdown("Bot", BOT_CHOICES, "greedy", "akvo-lab-rr-bot")
        self.matches = c.slider("Matchs par paire", 2, 200, matches, "akvo-lab-rr-matches")
        self.seed = seed
        self.button = w.Button(description="Lancer le tournoi", button_style="primary")
        self.button.add_class("akvo-lab-rr-run")
        self.progress = w.IntProgress(
            value=0,
            min=0,
            max=1,
            description="Progression",
            layout=w.Layout(width="100%", max_width="30em"),
        )
        self.progress.add_class("akvo-lab-rr-progress")
        self.table = c.html("akvo-table")
        self.table.add_class("akvo-lab-rr-table")
        labels = [PRESET_TEAMS[k].name for k in self.teams]
        self._heatmap, _, self.figure = heatmap_figure(
            labels,
            labels,
            scheme="RdYlGn",
            css_class="akvo-lab-rr-heatmap",
            width="100%",
            left_margin=150,
        )
        self.rates: list[list[Interval]] = []
        super().__init__()
        self.children = [
            c.panel(
                [self.bot, self.matches, self.button, self.progress, self.figure, self.table],
                "akvo-lab-rr",
            )
        ]
        self.button.on_click(lambda _button: self.run())

    def run(self) -> list[list[Interval]]:
        """Play every ordered pair; ``rates[i][j]``: A's win rate, team i (A) vs team j (B)."""
        n, bot = self.matches.value, self.bot.value
        pairs = [(a, b) for a in self.teams for b in self.teams]
        self.progress.max, self.progress.value = len(pairs), 0
        self.rates = [[] for _ in self.teams]
        for index, (a, b) in enumerate(pairs):
            results = simulate(a, b, (bot, bot), None, n, self.seed, workers=self.workers)
            self.rates[index // len(self.teams)].append(results.summary().p_a)
            self.progress.value = index + 1
        self._heatmap.color = np.array([[r.estimate for r in row] for row in self.rates])
        labels = [PRESET_TEAMS[k].name for k in self.teams]
        rows = [
            [c.cell(f"<b>{labels[i]}</b>")]
            + [c.cell(percent(r.estimate), f"akvo-lab-rr-{i}-{j}") for j, r in enumerate(row)]
            for i, row in enumerate(self.rates)
        ]
        self.table.value = c.table(["A \\ B", *labels], rows)
        return self.rates


def lab_example(
    team_a: str = "perrockiss",
    team_b: str = "fish-tank",
    matches: int = 100,
    seed: int = 1,
    bot: str = "random",
) -> Markdown:
    """A small simulation played in the kernel (fast bots by default, so that the page
    opens quickly), told in French with its intervals."""
    summary_ = simulate(team_a, team_b, (bot, bot), None, matches, seed, workers=0).summary()
    a, b = PRESET_TEAMS[team_a].name, PRESET_TEAMS[team_b].name
    return Markdown(
        french(
            f"Sur **{integer(matches)} matchs** entre deux bots « {BOTS[bot]} », "
            f"{a} (camp A) contre {b} (camp B), graine {seed} : "
            f"A gagne **{interval_text(summary_.p_a)}** des matchs, "
            f"B **{interval_text(summary_.p_b)}**, et {interval_text(summary_.p_draw)} finissent "
            f"à égalité. Score moyen : {decimal(summary_.score_a.estimate, 2)} contre "
            f"{decimal(summary_.score_b.estimate, 2)}."
        )
    )
