"""The lab page's « La force des bots » and « L'évaluation apprise »: read-only views of
results the engine produced, drawn when the page opens (nothing is played).

:class:`LadderView` reads the ladder shipped beside this module (``ladder.json``, written by
``akvo ladder --out``; :data:`LADDER_FILE`): the levels' Bradley–Terry Elo and each
pairing's match points and win rate, all with 95 % intervals, and a plot of the Elo with
its intervals. :class:`EvaluationView` draws the learned evaluation's learning curve and its
reliability curve on held-out positions (:mod:`akvo.eval.held_out`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

import ipywidgets as w
from IPython.display import Markdown

from akvo.bots import BOTS, LADDER, REGISTRY
from akvo.eval.calibration import Calibration
from akvo.eval.held_out import Epoch, held_out_calibration, learning_curve
from akvo.lab.ladder import LadderReport
from akvo.lab.stats import MIN_SAMPLE, Interval
from akvo_widgets.kit import controls as c
from akvo_widgets.kit.plots import error_bar_figure, lines_figure
from akvo_widgets.text.formatting import decimal, french, integer, percent

#: The ladder the page shows: written by ``benchmarks/bench_ladder.py --json`` (or ``akvo
#: ladder --out``) this file; the command is recorded inside.
LADDER_FILE: Final = Path(__file__).resolve().parent / "ladder.json"

MINUS = "\u2212"
#: The plots' colours (:func:`akvo_widgets.kit.plots.lines_figure`), for the keys above them.
BLUE, ORANGE, GREY = "#1f77b4", "#ff7f0e", "#888888"


def load_ladder(path: Path = LADDER_FILE) -> tuple[LadderReport, str]:
    """The shipped ladder report and the command that made it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return LadderReport.from_dict(data), str(data.get("command", "akvo ladder"))


def elo_text(value: float) -> str:
    """``+120`` / ``−35`` / ``0``: an Elo rating, true minus sign."""
    number = round(value)
    return f"+{number}" if number > 0 else f"{MINUS}{-number}" if number < 0 else "0"


def _between(low: str, high: str) -> str:
    return french(f"<span style='white-space:nowrap'>de {low} à {high}</span>")


def elo_table(report: LadderReport) -> str:
    """The levels, weakest first, with their Elo and its 95 % interval."""
    rows = [
        [
            c.cell(f"« {BOTS[name]} »"),
            c.cell(elo_text(r.estimate), f"akvo-ladder-elo-{name}"),
            c.cell(
                "référence"
                if r.low == r.high == r.estimate
                else _between(elo_text(r.low), elo_text(r.high))
            ),
        ]
        for name, r in report.elo.items()
    ]
    return french(c.table(["Niveau", "Elo", "Intervalle à 95 %"], rows))


def _share(interval: Interval) -> tuple[str, str]:
    """``66,7 %`` and ``de 39,1 à 86,2 %`` (short enough for a phone's column)."""
    low, high = decimal(100 * interval.low, 1), decimal(100 * interval.high, 1)
    return percent(interval.estimate), _between(low, f"{high}\u00a0%")


def pairings_table(report: LadderReport) -> str:
    """Each pairing: the first bot's match points and win rate, with intervals (and its
    deals when fewer than the run's, as in an interrupted run)."""
    rows = []
    for p in report.pairings:
        if not p.deal_points:
            continue
        points, points_range = _share(p.points)
        wins, wins_range = _share(p.win_rate)
        rows.append(
            [
                c.cell(
                    f"<span style='white-space:nowrap'>{BOTS[p.first]} – {BOTS[p.second]}</span>"
                    + (
                        f"<br><small>{integer(len(p.deal_points))} donnes</small>"
                        if len(p.deal_points) != report.deals  # an interrupted run
                        else ""
                    )
                ),
                c.cell(f"<b>{points}</b><br><small>{points_range}</small>"),
                c.cell(f"<b>{wins}</b><br><small>{wins_range}</small>"),
            ]
        )
    header = ["Rencontre", "Points", "Victoires"]
    return "<div style='overflow-x:auto'>" + french(c.table(header, rows)) + "</div>"


def played(report: LadderReport) -> int:
    """The deals every pairing finished (fewer than asked when the run was interrupted)."""
    return min((len(p.deal_points) for p in report.pairings), default=0)


def ladder_caveat(report: LadderReport) -> str | None:
    """Why the figures are indicative only (French), or ``None``."""
    notes = []
    if played(report) * 2 < MIN_SAMPLE:
        notes.append(
            f"Peu de matchs ({integer(2 * played(report))} par rencontre, moins de "
            f"{MIN_SAMPLE}) : les intervalles sont larges et des niveaux voisins peuvent "
            "s’y chevaucher ; seule leur position, non leur ordre exact, est établie."
        )
    if not report.complete:
        notes.append(
            f"La série a été arrêtée après {integer(played(report))} des "
            f"{integer(report.deals)} donnes prévues : seules les donnes terminées comptent."
        )
    return french(" ".join(notes)) if notes else None


class LadderView(w.VBox):
    """The shipped ladder: the Elo table, its plot, and the pairings' table."""

    def __init__(self, path: Path = LADDER_FILE) -> None:
        self.report, self.command = load_ladder(path)
        names = list(self.report.elo)
        ratings = [self.report.elo[name] for name in names]
        self.figure = error_bar_figure(
            [BOTS[name] for name in names],
            [r.estimate for r in ratings],
            [r.low for r in ratings],
            [r.high for r in ratings],
            y_label="Elo",
            css_class="akvo-ladder-plot",
        )
        caveat = ladder_caveat(self.report)
        self.intro = c.html("akvo-ladder-intro")
        self.intro.value = french(
            f"<p>Résultat enregistré de <code>{self.command}</code> : "
            f"{integer(played(self.report))} {'donne' if played(self.report) < 2 else 'donnes'} "
            "par rencontre, chacune jouée deux fois, "
            "les bots échangeant leurs places sur les mêmes dés. Elo de Bradley–Terry, "
            "« normal » à 0. Dans chaque rencontre, les points (victoire 1, nul ½) et "
            "les victoires sont ceux du premier bot nommé.</p>"
            + (f"<p class='akvo-ladder-caveat'><b>Attention</b> : {caveat}</p>" if caveat else "")
        )
        self.elo = c.html("akvo-table", "akvo-ladder-elo")
        self.elo.value = elo_table(self.report)
        self.pairings = c.html("akvo-table", "akvo-ladder-pairings")
        self.pairings.value = pairings_table(self.report)
        super().__init__(
            [c.panel([self.intro, self.elo, self.figure, self.pairings], "akvo-ladder")]
        )


def curve_text(curve: tuple[Epoch, ...]) -> str:
    best = min(curve, key=lambda e: e.held_log_loss)
    return french(
        f"<p>Sur les positions mises de côté, l’erreur (log-loss) descend à "
        f"<b class='akvo-eval-best'>{decimal(best.held_log_loss, 3)}</b> à l’époque "
        f"{best.epoch} (une pièce de monnaie obtiendrait 0,693), et le camp donné favori "
        f"gagne dans {percent(best.held_accuracy)} des cas. Les poids livrés sont ceux de "
        "cette époque.</p>"
    )


def calibration_text(curve: Calibration) -> str:
    low, high = curve.interval
    return french(
        "<p>Erreur moyenne de calibration : "
        f"<b class='akvo-eval-calibration'>{decimal(100 * curve.error, 1)} point</b> "
        f"(intervalle à 95 % : de {decimal(100 * low, 1)} à {decimal(100 * high, 1)}), "
        f"sur {integer(curve.positions)} positions. Un point sur la diagonale : quand "
        "l’évaluation annonce 70 %, le camp gagne 70 % du temps.</p>"
    )


def key_html(entries: list[tuple[str, str]], css: str) -> str:
    """A plot's legend above it (bqplot's would cover the curves): colour, then name."""
    items = " ".join(
        f"<span style='white-space:nowrap;margin-right:1em'>"
        f"<span style='color:{colour}'>●</span> {name}</span>"
        for colour, name in entries
    )
    return f"<div class='{css}'>{items}</div>"


class EvaluationView(w.VBox):
    """The shipped evaluation's learning curve and reliability curve."""

    def __init__(self) -> None:
        curve = learning_curve()
        self.curve = curve
        self.learning = lines_figure(
            [float(e.epoch) for e in curve],
            [[e.train_log_loss for e in curve], [e.held_log_loss for e in curve]],
            ["entraînement", "positions mises de côté"],
            x_label="époque",
            y_label="log-loss",
            css_class="akvo-eval-learning",
            markers=True,
        )
        self.calibration = held_out_calibration()
        rows = [row for row in self.calibration.rows if row[2]]
        self.reliability = lines_figure(
            [row[3] for row in rows],
            [[row[4] for row in rows]],
            ["observé"],
            x_label="chance annoncée",
            y_label="chance observée",
            css_class="akvo-eval-reliability",
            y_range=(0.0, 1.0),
            diagonal=True,
            markers=True,
            height="300px",
        )
        self.learning_key = c.html("akvo-eval-learning-key")
        self.learning_key.value = key_html(
            [(BLUE, "entraînement"), (ORANGE, "positions mises de côté")], "akvo-key"
        )
        self.reliability_key = c.html("akvo-eval-reliability-key")
        self.reliability_key.value = key_html(
            [(BLUE, "observé"), (GREY, "calibration parfaite (diagonale)")], "akvo-key"
        )
        self.learning_text = c.html("akvo-eval-learning-text")
        self.learning_text.value = curve_text(curve)
        self.reliability_text = c.html("akvo-eval-reliability-text")
        self.reliability_text.value = calibration_text(self.calibration)
        super().__init__(
            [
                c.panel(
                    [
                        self.learning_key,
                        self.learning,
                        self.learning_text,
                        self.reliability_key,
                        self.reliability,
                        self.reliability_text,
                    ],
                    "akvo-eval",
                )
            ]
        )


def bot_levels() -> Markdown:
    """The bots the lab plays, from the registry: the ladder weakest first, then the bots
    off it, each with its French description."""
    on = [f"- **{BOTS[name]}** : {REGISTRY[name].description} ;" for name in LADDER]
    off = [
        f"- hors de l’échelle, **{spec.label}** : {spec.description}."
        for name, spec in REGISTRY.items()
        if name not in LADDER
    ]
    return Markdown(french("\n".join([*on, *off])))  # type: ignore[no-untyped-call]
