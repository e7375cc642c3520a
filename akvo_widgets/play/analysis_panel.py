"""« Analyser le match » in « Revoir un match »: the win-chance curve, the flagged moves,
a click that jumps the board to one of them (issue 19.3).

The numbers are :func:`akvo.coach.analyse`'s (rollouts of the « normal » bot on the same
dice for every option, 95 % intervals, verdicts at 5/10/20 points of win chance). The
analysis runs in a daemon thread inside the kernel (``workers=0``: the page's own process,
no cluster to start), with a progress bar; the page stays usable meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from html import escape
from typing import Any, Final

import bqplot as bq
import ipywidgets as widgets

from akvo_widgets.text.formatting import french, integer

#: Rollouts per option in the page (the command line's default is larger).
PAGE_ROLLOUTS: Final = 8


class AnalysisPanel(widgets.VBox):  # type: ignore[misc]
    """The analysis of the record ``get_record()`` returns; ``jump(coup)`` shows a move."""

    def __init__(
        self, get_record: Callable[[], dict[str, Any] | None], jump: Callable[[int], None]
    ) -> None:
        self.get_record = get_record
        self.jump = jump
        self.start_button = widgets.Button(description="Analyser le match")
        self.start_button.add_class("akvo-replay-analyse")
        self.start_button.on_click(lambda _: self.start())
        self.progress = widgets.IntProgress(min=0, max=1, value=0, description="Analyse")
        self.progress.add_class("akvo-replay-progress")
        self.progress.layout.display = "none"
        self.note = widgets.HTML()
        self.note.add_class("akvo-replay-analysis-note")
        x, y = bq.LinearScale(), bq.LinearScale(min=0.0, max=1.0)
        self.line = bq.Lines(x=[0], y=[0.5], scales={"x": x, "y": y}, colors=["#1f5fa8"])
        self.band = bq.Lines(
            x=[0],
            y=[[0.0], [1.0]],
            scales={"x": x, "y": y},
            fill="between",
            fill_colors=["#1f5fa8"],
            fill_opacities=[0.15],
            stroke_width=0,
            colors=["#1f5fa8"],
        )
        self.figure = bq.Figure(
            marks=[self.band, self.line],
            axes=[
                bq.Axis(scale=x, label="coup"),
                bq.Axis(scale=y, orientation="vertical", label="chance de A", tick_format=".0%"),
            ],
            title="Chance de gagner de A après chaque décision (estimation)",
            layout=widgets.Layout(width="100%", max_width="44em", height="16em"),
            fig_margin={"top": 40, "bottom": 40, "left": 50, "right": 10},
        )
        self.figure.add_class("akvo-replay-curve")
        self.figure.layout.display = "none"
        self.flagged = widgets.VBox()
        self.flagged.add_class("akvo-replay-flagged")
        self.explanation = widgets.HTML()
        self.explanation.add_class("akvo-replay-explanation")
        self.analysis: Any = None
        self._thread: threading.Thread | None = None
        super().__init__(
            [
                self.start_button,
                self.progress,
                self.note,
                self.figure,
                self.flagged,
                self.explanation,
            ]
        )
        self.add_class("akvo-replay-analysis")

    def reset(self) -> None:
        """A new record: the old analysis goes."""
        self.analysis = None
        self.note.value = self.explanation.value = ""
        self.flagged.children = []
        self.figure.layout.display = self.progress.layout.display = "none"

    def start(self, wait: bool = False) -> None:
        record = self.get_record()
        if record is None or (self._thread is not None and self._thread.is_alive()):
            return
        self.reset()
        self.progress.layout.display = None
        self.progress.value = 0
        self.note.value = "<p>Analyse en cours…</p>"
        self._thread = threading.Thread(target=self._run, args=(record,), daemon=True)
        self._thread.start()
        if wait:
            self._thread.join()

    def _progress(self, done: int, total: int) -> bool:
        self.progress.max = max(total, 1)
        self.progress.value = done
        return True

    def _run(self, record: dict[str, Any]) -> None:
        from akvo.coach import analyse

        try:
            analysis = analyse(
                record,
                rollouts=PAGE_ROLLOUTS,
                workers=0,
                progress=False,
                on_progress=self._progress,
            )
        except ValueError as error:  # the engine's errors name the problem
            self.note.value = f"<p role='alert'>{escape(french(str(error)))}</p>"
            return
        self.show(analysis)

    def show(self, analysis: Any) -> None:
        """The curve, the summary and one button per flagged move."""
        self.analysis = analysis
        curve = analysis.curve()
        if curve:
            xs = [p.coup for p in curve]
            self.line.x, self.line.y = xs, [p.p_a for p in curve]
            self.band.x = xs
            self.band.y = [[p.low for p in curve], [p.high for p in curve]]
            self.figure.layout.display = None
        flagged = [row for row in analysis.decisions if row.verdict]
        worst = {row.coup for row in analysis.worst()}
        buttons = []
        for row in flagged:
            star = " (parmi les trois pires)" if row.coup in worst else ""
            button = widgets.Button(
                description=f"Coup {row.coup}, camp {row.camp} : {row.verdict}{star}",
                layout=widgets.Layout(width="auto"),
            )
            button.add_class("akvo-replay-flag")
            button.on_click(lambda _b, r=row: self.show_move(r))
            buttons.append(button)
        self.flagged.children = buttons
        per_side = " ; ".join(
            f"camp {s.camp} : {s.decisions} décisions, perte moyenne "
            f"{s.mean_loss * 100:.1f} points".replace(".", ",")
            for s in analysis.summary()
        )
        text = (
            f"Analyse sur {integer(analysis.rollouts)} parties simulées par option "
            f"(jusqu’à {integer(analysis.max_rollouts)} là où le hasard cache la réponse), "
            "mêmes dés pour chaque option ; imprécision, erreur, gaffe : 5, 10, 20 points "
            f"de chance de gagner perdus. {len(flagged)} coups signalés ; {per_side}."
        )
        self.note.value = f"<p>{escape(french(text))}</p>"
        self.progress.value = self.progress.max

    def show_move(self, row: Any) -> None:
        """Jump the board to a flagged move and explain it."""
        self.jump(row.coup)
        why = french(row.explanation().replace("'", "’"))
        self.explanation.value = f'<p class="akvo-replay-why">{escape(why)}</p>'
