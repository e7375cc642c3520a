"""« Analyser le match » in « Revoir un match »: the review of :func:`akvo.coach.review`.

The page runs the same review as ``akvo analyse`` (the one valuation, same budget and
seed: :data:`PAGE_BUDGET`, :data:`.valued.PAGE_SEED`), so both give the same verdicts:
each side's rating (class and mean loss per decision) and luck (« résultat = niveau de
départ + chance + habileté »), the win-chance curve with the flagged moves marked, the
annotated move list (?!, ?, ?? inline and the luck of every roll), and one button per
flagged move that jumps the board there and opens the table of every option's win chance.
A verdict left « incertain » has « Analyser plus finement » (:func:`akvo.coach.refine`);
« Jouer l'autre option d'ici » opens the match page at the position before a flagged move;
« Garder les erreurs de A/B » makes them exercises (:mod:`.mistakes`).
The review runs in a daemon thread in the kernel (the page stays usable meanwhile).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from html import escape
from typing import Any, Final

import bqplot as bq
import ipywidgets as widgets

from akvo.coach.budget import DEFAULT_BUDGET
from akvo.coach.luck import Luck
from akvo.coach.rating import UNSURE
from akvo.coach.review import Move, Review, Reviewed
from akvo.coach.words import capitalised, percent, points
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import NBSP, french

from .keeper import MatchKeeper
from .mistakes import keep_mistakes, mistakes_keeper
from .records import record_json
from .valued import PAGE_SEED

#: The review's budget on the page: ``akvo analyse``'s default.
PAGE_BUDGET: Final = DEFAULT_BUDGET
#: The match page and its slot in the browser (game.py's ``MatchKeeper(key=...)``).
MATCH_PAGE: Final = "jouer-un-match.ipynb"
MATCH_SLOT: Final = "jouer-un-match"
#: The move list's height before it scrolls.
MOVES_HEIGHT: Final = "22em"


def page_review(record: dict[str, Any]) -> Review:
    """The review the page shows: ``akvo analyse``'s, with its default budget and seed."""
    from akvo.coach.review import review

    return review(record, budget=PAGE_BUDGET, seed=PAGE_SEED, workers=0, progress=False)


def side_a_chance(row: Reviewed) -> tuple[float, float, float]:
    """Side A's win chance after the move chosen at ``row`` (p, low, high)."""
    chosen = row.values[row.chosen]
    if row.side == 0:
        return chosen.p, chosen.low, chosen.high
    return 1 - chosen.p, 1 - chosen.high, 1 - chosen.low


def move_html(move: Move) -> str:
    """One line of the annotated move list: the move, its mark, the luck of a roll."""
    who = "météo" if move.side < 0 else "AB"[move.side]
    text = f"{move.coup}. {who} : {move.words}"
    css = "akvo-move"
    if move.mark:
        text += f" {move.mark}"
        css += " akvo-move-flagged"
    elif move.verdict == UNSURE:
        text += " (incertain)"
    if move.luck_a is not None:
        tenths = round(move.luck_a * 1000)
        sign = "+" if tenths > 0 else "−" if tenths < 0 else ""
        text += f" — chance de A {sign}{points(abs(move.luck_a))}"
        if move.lucky:
            css += " akvo-move-lucky" if move.lucky == "+" else " akvo-move-unlucky"
            text += (
                " (parmi les plus chanceux)" if move.lucky == "+" else " (parmi les moins chanceux)"
            )
    return f'<li class="{css}">{escape(french(text))}</li>'


def moves_html(done: Review) -> str:
    """The annotated move list (a scrolling ``<ol>``)."""
    rows = "".join(move_html(move) for move in done.move_list())
    return f'<ol class="akvo-replay-moves">{rows}</ol>'


def sides_html(done: Review, luck: Luck) -> str:
    """Each side's rating and luck, one paragraph per side."""
    out = []
    for rated in done.ratings():
        side = rated.side
        out.append(
            f'<p class="akvo-replay-rating">{escape(french(rated.sentence()))}.<br>'
            f"{escape(french(luck.sentence(side)))}.</p>"
        )
    return "".join(out)


def options_table(row: Reviewed) -> str:
    """Every option of a reviewed decision with its win chance and interval, best first."""
    lines = []
    for worth in sorted(row.values, key=lambda w: -w.p):
        tags = []
        if worth.action == row.chosen:
            tags.append("joué")
        if worth.action == row.best:
            tags.append("meilleur")
        tag = f" ({', '.join(tags)})" if tags else ""
        low = percent(worth.low).removesuffix(f"{NBSP}%")
        lines.append(
            f"<tr><td>{escape(capitalised(worth.words))}{tag}</td>"
            f"<td>{percent(worth.p)}</td><td>{low}–{percent(worth.high)}</td></tr>"
        )
    return (
        '<table class="akvo-replay-options-table"><thead><tr><th>Option</th>'
        "<th>Chance de gagner</th><th>Intervalle à 95 %</th></tr></thead>"
        f"<tbody>{''.join(lines)}</tbody></table>"
    )


def _hidden_until_shown() -> widgets.Layout:
    """A button's layout: as wide as its words, hidden until a flagged move shows it."""
    return widgets.Layout(width="auto", display="none")


class AnalysisPanel(widgets.VBox):  # type: ignore[misc]
    """The review of the record ``get_record()`` returns; ``jump(coup)`` shows a move."""

    def __init__(
        self, get_record: Callable[[], dict[str, Any] | None], jump: Callable[[int], None]
    ) -> None:
        self.get_record = get_record
        self.jump = jump
        self.start_button = c.button("Analyser le match", "akvo-replay-analyse", self.start)
        self.progress = widgets.IntProgress(min=0, max=1, value=0, description="Analyse")
        self.progress.add_class("akvo-replay-progress")
        self.progress.layout.display = "none"
        self.note = c.html("akvo-replay-analysis-note")
        self.sides = widgets.HTML()
        self.sides.add_class("akvo-replay-sides")
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
        self.marks = bq.Scatter(
            x=[0], y=[0.5], scales={"x": x, "y": y}, colors=["#b3261e"], marker="triangle-down"
        )
        self.figure = bq.Figure(
            marks=[self.band, self.line, self.marks],
            axes=[
                bq.Axis(scale=x, label="coup"),
                bq.Axis(scale=y, orientation="vertical", label="chance de A", tick_format=".0%"),
            ],
            title="Chance de gagner de A (▼ signalé)",  # whole at 390 px
            layout=widgets.Layout(width="100%", max_width="44em", height="16em"),
            fig_margin={"top": 40, "bottom": 40, "left": 50, "right": 10},
        )
        self.figure.add_class("akvo-replay-curve")
        self.figure.layout.display = "none"
        self.flagged = widgets.VBox()
        self.flagged.add_class("akvo-replay-flagged")
        self.explanation = c.html("akvo-replay-explanation")
        self.refine_button = c.button(
            "Analyser plus finement",
            "akvo-replay-refine",
            self.refine_shown,
            layout=_hidden_until_shown(),
        )
        self.moves = widgets.HTML()
        self.moves.add_class("akvo-replay-move-list")
        self.moves.layout.max_height = MOVES_HEIGHT
        self.moves.layout.overflow_y = "auto"
        self.keeper = mistakes_keeper()
        self.match_keeper = MatchKeeper(key=MATCH_SLOT)
        self.play_button = c.button(
            "Jouer l’autre option d’ici",
            "akvo-replay-play-from",
            self.play_from_shown,
            layout=_hidden_until_shown(),
        )
        self.play_link = c.html("akvo-replay-play-link")
        self.keep_buttons = [
            widgets.Button(
                description=f"Garder les erreurs de {side} comme exercices",
                layout=widgets.Layout(width="auto"),
            )
            for side in "AB"
        ]
        for side, button in zip("AB", self.keep_buttons, strict=True):
            button.add_class(f"akvo-replay-keep-{side}")
            button.on_click(lambda _b, s=side: self.keep(s))
        self.keep_row = widgets.HBox(self.keep_buttons)
        self.keep_row.layout.flex_flow = "row wrap"
        self.keep_row.layout.display = "none"
        self.kept_message = widgets.HTML()
        self.kept_message.add_class("akvo-replay-kept-message")
        self.review: Review | None = None
        self.shown: int | None = None  # the coup whose explanation is shown
        self._record: dict[str, Any] | None = None
        self._thread: threading.Thread | None = None
        super().__init__(
            [
                self.start_button,
                self.progress,
                self.note,
                self.sides,
                self.figure,
                self.flagged,
                self.explanation,
                self.refine_button,
                self.play_button,
                self.play_link,
                self.keep_row,
                self.kept_message,
                self.moves,
                self.keeper,
                self.match_keeper,
            ]
        )
        self.add_class("akvo-replay-analysis")

    @property
    def analysis(self) -> Review | None:
        """The review shown (the older name)."""
        return self.review

    def reset(self) -> None:
        """A new record: the old review goes."""
        self.review = None
        self.shown = None
        self.note.value = self.explanation.value = self.sides.value = self.moves.value = ""
        self.kept_message.value = self.play_link.value = ""
        self.keep_row.layout.display = self.play_button.layout.display = "none"
        self.flagged.children = []
        self.figure.layout.display = self.progress.layout.display = "none"
        self.refine_button.layout.display = "none"

    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, wait: bool = False) -> None:
        record = self.get_record()
        if record is None or self.busy():
            return
        self.reset()
        self._record = record
        self.progress.layout.display = None
        self.progress.value = 0
        self.note.value = (
            "<p>Analyse en cours (chaque décision du match est évaluée : cela peut prendre "
            "une demi-minute)…</p>"
        )
        self._run_in_thread(lambda: self.show(page_review(record)), wait)

    def _run_in_thread(self, work: Callable[[], None], wait: bool) -> None:
        def run() -> None:
            try:
                work()
            except ValueError as error:  # the engine's errors name the problem
                self.note.value = f"<p role='alert'>{escape(french(str(error)))}</p>"

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        if wait:
            self._thread.join()

    def show(self, done: Review) -> None:
        """The ratings and luck, the curve, one button per flagged move, the move list."""
        self.review = done
        rows = done.decisions
        if rows:
            xs = [row.coup for row in rows]
            chances = [side_a_chance(row) for row in rows]
            self.line.x, self.line.y = xs, [c[0] for c in chances]
            self.band.x = xs
            self.band.y = [[c[1] for c in chances], [c[2] for c in chances]]
            flagged = [(row.coup, side_a_chance(row)[0]) for row in done.flagged()]
            self.marks.x = [coup for coup, _ in flagged] or [xs[0]]
            self.marks.y = [p for _, p in flagged] or [chances[0][0]]
            self.marks.visible = bool(flagged)
            self.figure.layout.display = None
        buttons = []
        for row in done.flagged():
            mark = f" {row.mark}" if row.mark else ""
            button = widgets.Button(
                description=f"Coup {row.coup}, camp {'AB'[row.side]} : {row.verdict}{mark}",
                layout=widgets.Layout(width="auto"),
            )
            button.add_class("akvo-replay-flag")
            button.on_click(lambda _b, coup=row.coup: self.show_move(coup))
            buttons.append(button)
        self.flagged.children = buttons
        self.sides.value = sides_html(done, done.luck)
        self.moves.value = (
            "<p><b>Le match annoté</b> (?! imprécision, ? erreur, ?? gaffe ; la chance de "
            "chaque jet pour A, en points de chance de gagner)&#8239;:</p>" + moves_html(done)
        )
        text = (
            f"Analyse du match (même calcul que « akvo analyse », budget {done.budget}) : "
            f"{len(done.flagged())} coups signalés. Un verdict n’est donné que si son "
            "intervalle à 95 % dépasse le seuil ; sinon « incertain »."
        )
        self.note.value = f"<p>{escape(french(text))}</p>"
        self.progress.value = self.progress.max
        self.keep_row.layout.display = None
        if self.shown is not None:
            self.show_move(self.shown)

    def show_move(self, coup: int) -> None:
        """Jump the board to a flagged move, explain it, show every option's chance."""
        assert self.review is not None
        row = self.review.decision(coup)
        self.shown = coup
        self.jump(coup)
        why = french(row.explanation().replace("'", "’"))
        self.explanation.value = f'<p class="akvo-replay-why">{escape(why)}</p>{options_table(row)}'
        self.refine_button.layout.display = None if row.verdict == UNSURE else "none"
        self.play_button.layout.display = None
        self.play_link.value = ""

    def play_from_shown(self) -> None:
        """« Jouer l'autre option d'ici »: the position before the move shown goes to the
        match page's slot in this browser (:class:`.keeper.MatchKeeper`, the slot
        « Jouer un match » reads on opening: the kept match is shown there), and a link
        opens that page."""
        if self.review is None or self.shown is None:
            return
        state = self.review.position(self.shown)
        self.match_keeper.to_store = record_json(state)
        self.play_link.value = (
            f'<p role="status"><a class="akvo-replay-play-open" href="{MATCH_PAGE}" '
            'target="_self">Ouvrir « Jouer un match » à cette position</a> (elle remplace le '
            "match gardé dans ce navigateur, s’il y en avait un).</p>"
        )

    def refine_shown(self, wait: bool = False) -> None:
        """« Analyser plus finement »: the decision shown valued again with twice the
        budget (:func:`akvo.coach.refine`), the rest of the review unchanged."""
        done, coup, record = self.review, self.shown, self._record
        if done is None or coup is None or record is None or self.busy():
            return
        from akvo.coach.review import refine

        self.note.value = "<p>Analyse plus fine de ce coup en cours…</p>"
        self._run_in_thread(lambda: self.show(refine(done, record, coup)), wait)

    def keep(self, side: str, today: dt.date | None = None) -> None:
        """« Vos erreurs »: ``side``'s « erreur » and « gaffe » positions become exercises
        kept in this browser, found again in « Exercices »."""
        if self.review is None:
            return
        count = keep_mistakes(self.keeper, self.review, side, today or dt.date.today())
        text = (
            f"{count} erreur(s) de {side} gardée(s) dans ce navigateur : retrouvez-les dans "
            "« Exercices », rubrique « Vos erreurs »."
            if count
            else f"Aucune nouvelle erreur ni gaffe de {side} à garder."
        )
        self.kept_message.value = f'<p role="status">{escape(french(text))}</p>'
