"""The designer's lab in the book: simulate many matches, read win rates with intervals.

:class:`Lab` runs :func:`akvo.lab.simulate` on a click (never when the page opens) and shows
the win rates with their 95 % intervals, the score histograms, the first-activation edge and
a CSV download; :class:`RoundRobin` plays every pair of the annex's distinct teams and
draws the heat map. Every number comes from the run; no game logic lives here.
"""

from __future__ import annotations

from typing import Any

import bqplot as bq
import ipywidgets as w
import numpy as np
from IPython.display import Markdown

from akvo.bots import BOTS, LADDER
from akvo.config import CHOICES, DEFAULT_RULES, RulesConfig
from akvo.lab import Interval, Results, Summary, simulate
from akvo.rules import DUPLICATED_PRESETS, PRESET_TEAMS
from akvo.switches import SWITCHES
from akvo_widgets.kit import controls as c
from akvo_widgets.kit.plots import grouped_bars_figure, heatmap_figure
from akvo_widgets.text.formatting import decimal, french, integer, percent

from .variants import download_link

TEAM_CHOICES = [(preset.name, key) for key, preset in PRESET_TEAMS.items()]
#: The annex's distinct teams: three presets print the same list (R28), one stands for them.
DISTINCT_TEAMS = tuple(k for k in PRESET_TEAMS if k not in DUPLICATED_PRESETS[1:])
#: The bots by their French names only: the ladder, weakest first, then those off it
#: (« hasard »).
BOT_CHOICES = [(BOTS[name], name) for name in (*LADDER, *(n for n in BOTS if n not in LADDER))]
PLACEHOLDER = "—"


def variant_choices(field: str) -> list[tuple[str, str]]:
    """The readings of one variant of the engine's :class:`RulesConfig`, default first, with
    their French labels from the switches' registry."""
    switch = SWITCHES[field]
    return [(switch.reading(value), value) for value in CHOICES[field]]


def variant_dropdowns(css: str) -> dict[str, w.Dropdown]:
    """One drop-down per variant the engine has (:data:`akvo.config.CHOICES`)."""
    return {
        field: c.dropdown(
            f"Variante {SWITCHES[field].ruling}",
            variant_choices(field),
            getattr(DEFAULT_RULES, field),
            f"{css}-{field}",
        )
        for field in CHOICES
    }


class RunStatus(w.VBox):
    """What a run is doing: « en cours » with a progress bar while it plays, then how many
    matches it played (or that nothing has run yet)."""

    def __init__(self, css: str, idle: str) -> None:
        self.text = c.html(f"{css}-status")
        self.text.value = french(f"<p>{idle}</p>")
        # No description: on a phone a labelled bar wraps to zero width; the text says it.
        self.bar = w.IntProgress(
            value=0, min=0, max=1, layout=w.Layout(width="100%", max_width="30em")
        )
        self.bar.add_class(f"{css}-progress")
        self.bar.layout.display = "none"
        super().__init__([self.text, self.bar])

    def running(self, done: int, total: int, unit: str = "matchs") -> None:
        self.bar.layout.display = None
        self.bar.max, self.bar.value = max(1, total), done
        self.text.value = french(
            f"<p class='akvo-lab-running'><b>Simulation en cours</b> : {integer(done)} {unit} "
            f"joués sur {integer(total)}…</p>"
        )

    def finished(self, text: str) -> None:
        self.bar.layout.display = "none"
        self.text.value = french(f"<p class='akvo-lab-finished'>{text}</p>")


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
    label = f"Télécharger les {integer(len(results))} matchs (CSV)"
    return download_link(results.to_csv(), "akvo-simulation.csv", label, "akvo-lab-download")


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
        self.variants = variant_dropdowns("akvo-lab")
        self.matches = c.slider("Matchs", 10, 1000, matches, "akvo-lab-matches")
        self.matches.step = 10
        self.seed = c.described(
            w.BoundedIntText,
            "Graine",
            value=seed,
            min=0,
            max=10**9,
            style={"description_width": "11em"},
        )
        self.seed.add_class("akvo-lab-seed")
        self.button = c.button(
            "Lancer les matchs", "akvo-lab-run", self.run, button_style="primary"
        )
        self.status = RunStatus("akvo-lab", "Aucune simulation lancée : choisissez, puis lancez.")
        self.progress = self.status.bar
        self.table = c.html("akvo-table", "akvo-lab-summary")
        self.first = c.html("akvo-lab-first-text")
        self.download = c.html("akvo-lab-download-area")
        self.results: Results | None = None
        self.summary: Summary | None = None
        self._bars, self._y_scale, self.figure = _histogram()
        super().__init__()
        self.children = [
            c.panel(
                [
                    self.team_a,
                    self.team_b,
                    self.bot_a,
                    self.bot_b,
                    *self.variants.values(),
                    self.matches,
                    self.seed,
                    self.button,
                    self.status,
                    self.table,
                    self.figure,
                    self.first,
                    self.download,
                ],
                "akvo-lab",
            )
        ]
        self.clear()

    def rules(self) -> RulesConfig:
        return RulesConfig(**{field: box.value for field, box in self.variants.items()})

    def clear(self) -> None:
        """No result shown: before the first run, and while a new run plays."""
        self.table.value = _empty_table()
        self.first.value = self.download.value = ""
        self.figure.layout.display = "none"

    def run(self) -> Results:
        """Play the matches chosen by the controls and show the results."""
        total = self.matches.value
        self.clear()
        self.status.running(0, total)
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
        self.status.running(done, total)

    def show(self, results: Results) -> None:
        self.results = results
        self.summary = summary = results.summary()
        self.status.finished(f"Terminé : {integer(len(results))} matchs joués.")
        self.figure.layout.display = None
        self.table.value = summary_table(summary)
        self.first.value = first_text(summary)
        self.download.value = csv_link(results)
        top = max([*summary.scores_a, *summary.scores_b, 0])
        scores = list(range(top + 1))
        counts = np.array(
            [
                [summary.scores_a.get(s, 0) for s in scores],
                [summary.scores_b.get(s, 0) for s in scores],
            ],
            dtype=float,  # bqplot draws no bar from integer 2-D data on an unset scale
        )
        self._y_scale.max = float(max(1.0, counts.max()))
        with self._bars.hold_sync():
            self._bars.x = np.array([str(s) for s in scores])
            self._bars.y = counts


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


def _histogram() -> tuple[bq.Bars, bq.LinearScale, bq.Figure]:
    """Score histograms of A and B side by side (matches per final score)."""
    empty = np.zeros((2, 1))
    return grouped_bars_figure(
        ["0"], empty, ["A", "B"], x_label="score final", css_class="akvo-lab-histogram"
    )


def cell_text(summary: Summary) -> str:
    """One tournament cell: A's win rate, its 95 % interval, wins/draws/losses of A and N
    (each on a line that does not wrap: a narrow screen scrolls the table instead)."""
    p = summary.p_a
    lines = (
        f"<b>{percent(p.estimate)}</b>",
        f"<small>de {percent(p.low)} à {percent(p.high)}</small>",
        f"<small>{integer(summary.wins_a)} V · {integer(summary.draws)} N · "
        f"{integer(summary.wins_b)} D</small>",
        f"<small>sur {integer(summary.matches)}</small>",
    )
    return french("<br>".join(f"<span style='white-space:nowrap'>{line}</span>" for line in lines))


#: The heat map's colours (d3's RdYlGn, as bqplot draws it), for the legend beside it.
RDYLGN = (
    "#a50026",
    "#d73027",
    "#f46d43",
    "#fdae61",
    "#fee08b",
    "#ffffbf",
    "#d9ef8b",
    "#a6d96a",
    "#66bd63",
    "#1a9850",
    "#006837",
)


def colour_legend() -> str:
    """The colour scale of the heat map: 0 % (red) to 100 % (green) of wins for A."""
    gradient = ", ".join(RDYLGN)
    ticks = "".join(f"<span>{percent(v, 0)}</span>" for v in (0, 0.25, 0.5, 0.75, 1))
    return french(
        "<div class='akvo-lab-rr-legend' style='max-width:20em;margin:0.3em 0 0.8em'>"
        "<div>Victoires de A :</div>"
        f"<div style='height:12px;background:linear-gradient(to right, {gradient})'></div>"
        f"<div style='display:flex;justify-content:space-between;font-size:0.85em'>{ticks}"
        "</div></div>"
    )


def short_name(key: str) -> str:
    """``Équipe des Tortues Carets`` → ``Tortues Carets``: room on a phone's heat map."""
    name = PRESET_TEAMS[key].name
    for prefix in ("Équipe des ", "Équipe "):
        name = name.removeprefix(prefix)
    return name


class RoundRobin(w.VBox):
    """Every distinct annex team against every other (both sides), one bot for all:
    the heat map of side A's win rate (row team as A, column team as B) with its colour
    scale, and the table of each cell's N, wins/draws/losses and 95 % Wilson interval.
    Nothing is drawn before the tournament has run."""

    def __init__(self, matches: int = 10, seed: int = 1, workers: int = 0) -> None:
        self.workers = workers
        self.teams = DISTINCT_TEAMS
        self.bot = c.dropdown("Bot", BOT_CHOICES, "greedy", "akvo-lab-rr-bot")
        self.matches = c.slider("Matchs par paire", 2, 200, matches, "akvo-lab-rr-matches")
        self.seed = seed
        self.button = c.button(
            "Lancer le tournoi", "akvo-lab-rr-run", self.run, button_style="primary"
        )
        self.status = RunStatus("akvo-lab-rr", "Le tournoi n’a pas encore été joué.")
        self.progress = self.status.bar
        self.table = c.html("akvo-table", "akvo-lab-rr-table")
        labels = [short_name(k) for k in self.teams]
        self._heatmap, _colours, self.figure = heatmap_figure(
            labels,
            labels,
            scheme="RdYlGn",
            css_class="akvo-lab-rr-heatmap",
            width="36em",
            left_margin=100,
            column_axis={"tick_rotate": -20, "label": "équipe B"},
        )
        self.figure.fig_margin = {**self.figure.fig_margin, "bottom": 75}  # the slanted names
        self.figure.layout.height = "300px"
        self.figure.layout.display = "none"
        self.legend = c.html("akvo-lab-rr-legend-area")
        self.summaries: list[list[Summary]] = []
        super().__init__()
        self.children = [
            c.panel(
                [
                    self.bot,
                    self.matches,
                    self.button,
                    self.status,
                    self.figure,
                    self.legend,
                    self.table,
                ],
                "akvo-lab-rr",
            )
        ]

    @property
    def rates(self) -> list[list[Interval]]:
        """``rates[i][j]``: A's win rate, team i (A) against team j (B)."""
        return [[s.p_a for s in row] for row in self.summaries]

    def run(self) -> list[list[Interval]]:
        """Play every ordered pair and show the results."""
        n, bot = self.matches.value, self.bot.value
        pairs = [(a, b) for a in self.teams for b in self.teams]
        self.figure.layout.display = "none"
        self.table.value = self.legend.value = ""
        self.status.running(0, len(pairs), "paires")
        self.button.disabled = True
        self.summaries = [[] for _ in self.teams]
        try:
            for index, (a, b) in enumerate(pairs):
                results = simulate(a, b, (bot, bot), None, n, self.seed, workers=self.workers)
                self.summaries[index // len(self.teams)].append(results.summary())
                self.status.running(index + 1, len(pairs), "paires")
        finally:
            self.button.disabled = False
        self._heatmap.color = np.array([[r.estimate for r in row] for row in self.rates])
        labels = [short_name(k) for k in self.teams]
        rows = [
            [c.cell(f"<b>{labels[i]}</b>")]
            + [c.cell(cell_text(s), f"akvo-lab-rr-{i}-{j}") for j, s in enumerate(row)]
            for i, row in enumerate(self.summaries)
        ]
        self.table.value = (
            "<div style='overflow-x:auto'>" + c.table(["A \\ B", *labels], rows) + "</div>"
        )
        self.figure.layout.display = None
        self.legend.value = colour_legend()
        self.status.finished(
            f"Terminé : {integer(len(pairs))} paires de {integer(n)} matchs, bot « {BOTS[bot]} ». "
            "Chaque case : victoires de A, intervalle à 95 % (Wilson), victoires / nuls / "
            "défaites de A et nombre de matchs."
        )
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


class Balance(w.VBox):
    """The balance report (:func:`akvo.lab.tournament.tournament`) on a click: every preset
    team against every other in both seats, the teams ranked with their 95 % intervals, the
    first-activation edge, and what each rune kind and Ultime is worth to the side that
    plays it (the same bot forbidden to play it, on the same seeds); a CSV download."""

    def __init__(self, matches: int = 10, effect_matches: int = 2, seed: int = 1) -> None:
        self.seed = seed
        self.bot = c.dropdown("Bot", BOT_CHOICES, "greedy", "akvo-lab-balance-bot")
        self.matches = c.slider("Matchs par paire", 2, 200, matches, "akvo-lab-balance-matches")
        self.effect_matches = c.slider(
            "Matchs rejoués",
            0,
            50,
            effect_matches,
            "akvo-lab-balance-effect",
        )
        self.button = c.button(
            "Établir le bilan", "akvo-lab-balance-run", self.run, button_style="primary"
        )
        self.status = RunStatus("akvo-lab-balance", "Le bilan n’a pas encore été établi.")
        self.teams_table = c.html("akvo-table", "akvo-lab-balance-teams")
        self.items_table = c.html("akvo-table", "akvo-lab-balance-items")
        self.download = c.html("akvo-lab-balance-download")
        self.report: Any = None
        super().__init__()
        self.children = [
            c.panel(
                [
                    self.bot,
                    self.matches,
                    self.effect_matches,
                    self.button,
                    self.status,
                    self.teams_table,
                    self.items_table,
                    self.download,
                ],
                "akvo-lab-balance",
            )
        ]

    def run(self) -> Any:
        """Play the report in this kernel and show it."""
        from akvo.lab.tournament import tournament

        for area in (self.teams_table, self.items_table, self.download):
            area.value = ""
        self.status.running(0, 1)
        self.button.disabled = True
        try:
            report = tournament(
                n=self.matches.value,
                effect_matches=self.effect_matches.value,
                seed=self.seed,
                bot=self.bot.value,
                workers=0,
                progress=False,
                on_progress=self.status.running,
            )
        finally:
            self.button.disabled = False
        self.report = report
        self.show(report)
        return report

    def show(self, report: Any) -> None:
        rows = [
            [
                c.cell(team_label(t)),
                c.cell(_nowrap(f"{integer(t.wins)} · {integer(t.draws)} · {integer(t.losses)}")),
                c.cell(percent(t.p_win.estimate), f"akvo-lab-balance-team-{t.team}"),
                c.cell(french(f"de {percent(t.p_win.low)} à {percent(t.p_win.high)}")),
            ]
            for t in report.ranking()
        ]
        edge = report.first_edge
        order = (
            "<p>Les équipes, de la plus victorieuse à la moins victorieuse.</p>"
            if report.ranked
            else "<p>Les équipes dans l’ordre de l’annexe, <b>non classées</b>.</p>"
        )
        self.teams_table.value = (
            caveat_html(report.caveat, "akvo-lab-balance-caveat")
            + french(order)
            + "<div style='overflow-x:auto'>"
            + c.table(
                ["Équipe", "V\u00a0·\u00a0N\u00a0·\u00a0D", "Victoires", "Intervalle à 95 %"], rows
            )
            + "</div>"
            + french(
                "<p>Avantage du camp qui active en premier (R9), sur tous les matchs : "
                f"<b class='akvo-lab-balance-edge'>{_points(edge.estimate)}</b> point par tour "
                f"(de {_points(edge.low)} à {_points(edge.high)}).</p>"
            )
        )
        item_rows = [
            [
                c.cell(e.label),
                c.cell(integer(e.times)),
                c.cell(_nowrap(f"{integer(e.matches_played)} sur {integer(e.matches)}")),
                c.cell(_signed_percent(e.effect.estimate), f"akvo-lab-balance-{e.item}"),
                c.cell(
                    french(f"de {_signed_percent(e.effect.low)} à {_signed_percent(e.effect.high)}")
                ),
            ]
            for e in report.effects_ranking()
        ]
        if item_rows:
            header = ["Rune ou Ultime", "Fois", "Matchs où joué", "Effet", "Intervalle à 95 %"]
            self.items_table.value = (
                french(
                    "<p>Ce que vaut chaque rune et chaque Ultime au camp A : sa chance de "
                    "gagner en les jouant, moins sa chance quand le même bot n’a pas le droit "
                    f"de les jouer, sur les mêmes tirages ({integer(report.effect_matches)} "
                    "matchs par paire).</p>"
                )
                + caveat_html(report.effects_caveat, "akvo-lab-balance-effects-caveat")
                + "<div style='overflow-x:auto'>"
                + c.table(header, item_rows)
                + "</div>"
            )
        pairs = len(report.pairs)
        label = "Télécharger le bilan (CSV)"
        self.download.value = download_link(
            report.to_csv(), "akvo-bilan.csv", label, "akvo-lab-balance-csv"
        )
        self.status.finished(
            f"Terminé : {integer(pairs)} paires de {integer(report.n)} matchs, bot "
            f"« {BOTS[report.bot]} »."
        )


def team_label(team: Any) -> str:
    """A team's row: its short name, or the names of every team with the same list
    (:attr:`~akvo.lab.tournament.TeamResult.label`, « A = B »)."""
    names = team.label.split(" = ")
    return " = ".join(short_name(n) if n in PRESET_TEAMS else n for n in names)


def caveat_html(caveat: str | None, css: str) -> str:
    """A caveat of the lab (French) before the figures it limits, or nothing."""
    return french(f"<p class='{css}'><b>Attention</b> : {caveat}</p>") if caveat else ""


def _nowrap(text: str) -> str:
    return f"<span style='white-space:nowrap'>{text}</span>"


def _signed_percent(value: float) -> str:
    """``+4,2 %`` / ``−1,0 %``: an effect in points of percentage (true minus sign)."""
    text = percent(abs(value))
    return ("+" if value > 0 else "\u2212" if value < 0 else "") + text
