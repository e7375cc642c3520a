"""« Vos erreurs »: the reader's own mistakes as exercises, on a spaced schedule.

After an analysis in « Revoir un match », :func:`keep_mistakes` turns one side's « erreur »
and « gaffe » decisions (:func:`akvo.coach.exercises.mistake_exercises`) into exercises and
adds them to the set kept in this browser (:class:`.keeper.MatchKeeper`, slot
:data:`MISTAKES_KEY`: localStorage). When the browser holds an online player's profile, the
keeper also sends the set to :data:`SERVER_COPY`, which keeps it under the profile's key
and answers the two sets merged (:func:`akvo.coach.exercises.merge`); the browser keeps
that answer. The page « Exercices » shows them
in :class:`MistakesBox`: the position, « trouvez une meilleure option », then the
refutation and every option's win chance (the one valuation, :mod:`.valued`: the numbers
of the analysis and of the match page); each comes back 1, 3 then 7 days later until
answered right twice (:func:`akvo.coach.exercises.answer`). The set goes to a file and
comes back from one (the kit's file picker); every text read back is checked by
:func:`akvo.coach.exercises.import_json` (a hostile file changes nothing).
"""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Callable
from html import escape
from typing import Final

import ipywidgets as widgets

from akvo.coach.exercises import (
    Exercise,
    Kept,
    answer,
    due,
    export_json,
    import_json,
    merge,
    mistake_exercises,
    new_cards,
)
from akvo.coach.review import Review
from akvo.errors import AkvoError
from akvo.match import Phase
from akvo_widgets.board.view import make_board, typeset
from akvo_widgets.kit.file_picker import FilePicker
from akvo_widgets.text.formatting import french
from akvo_widgets.text.labels import action_label

from .decisions import ActionButtons, OrdersComposer
from .keeper import MatchKeeper
from .valued import ORDERS_SHOWN, options_html, page_valuation

#: The browser's slot for the mistakes (localStorage ``akvo-match:vos-erreurs``).
MISTAKES_KEY: Final = "vos-erreurs"
#: The book server's route that keeps a profile's set (:mod:`akvo.online.mistakes`).
SERVER_COPY: Final = "akvo/api/profiles/mistakes"
MAX_FILE_BYTES: Final = 2_000_000
EMPTY: Kept = ((), ())


def mistakes_keeper() -> MatchKeeper:
    """The browser's slot of the mistakes, copied on the server for a profile."""
    return MatchKeeper(key=MISTAKES_KEY, server_copy=SERVER_COPY)


def read_kept(text: str) -> Kept:
    """The exercises and cards of a kept text ("" or a refused text: none)."""
    if not text:
        return EMPTY
    try:
        return import_json(text)
    except AkvoError:
        return EMPTY


def merged(kept: Kept, more: tuple[Exercise, ...], today: dt.date) -> Kept:
    """``kept`` plus the exercises of ``more`` it does not hold yet, each due ``today``."""
    exercises, cards = kept
    known = {exercise.id for exercise in exercises}
    fresh = tuple(exercise for exercise in more if exercise.id not in known)
    return exercises + fresh, cards + new_cards(fresh, today)


def keep_mistakes(keeper: MatchKeeper, done: Review, side: str, today: dt.date) -> int:
    """Add ``side``'s mistakes in ``done`` to the set the browser keeps; how many were new."""
    kept = read_kept(keeper.to_store or keeper.saved)
    exercises, cards = merged(kept, mistake_exercises(done, side), today)
    keeper.to_store = export_json(exercises, cards)
    return len(exercises) - len(kept[0])


def download_link(kept: Kept) -> str:
    """A link that saves the set as ``vos-erreurs.json``."""
    payload = base64.b64encode(export_json(*kept).encode()).decode()
    return (
        '<a class="akvo-play-download akvo-mistakes-download" download="vos-erreurs.json" '
        f'href="data:application/json;base64,{payload}">Télécharger vos erreurs (JSON)</a>'
    )


class MistakesBox(widgets.VBox):  # type: ignore[misc]
    """The due exercises made from the reader's mistakes; ``today`` fixes the date (tests)."""

    def __init__(self, today: Callable[[], dt.date] = dt.date.today) -> None:
        self.today = today
        self.kept: Kept = EMPTY
        self.current: Exercise | None = None
        self.keeper = mistakes_keeper()
        self.keeper.observe(lambda _change: self.load(self.keeper.saved), "saved")
        self.title = widgets.HTML("<h3>Vos erreurs</h3>")
        self.summary = self._html("akvo-mistakes-summary")
        self.question = self._html("akvo-mistakes-question")
        self.feedback = self._html("akvo-mistakes-feedback")
        self.board_box = widgets.Box()
        self.buttons = ActionButtons(self.answer)
        self.composer = OrdersComposer(self.answer)
        self.options = widgets.VBox()
        self.options.add_class("akvo-mistakes-options")
        self.next_button = widgets.Button(description="Erreur suivante")
        self.next_button.add_class("akvo-mistakes-next")
        self.next_button.on_click(lambda _: self.show_next())
        self.upload = FilePicker("Importer des erreurs", accept=".json", max_bytes=MAX_FILE_BYTES)
        self.upload.add_class("akvo-mistakes-upload")
        self.upload.on_file(self.import_bytes)
        self.download = self._html("akvo-mistakes-export")
        files = widgets.HBox([self.upload, self.download])
        files.layout.flex_flow = "row wrap"
        super().__init__(
            [
                self.keeper,
                self.title,
                self.summary,
                self.question,
                self.board_box,
                self.options,
                self.feedback,
                self.next_button,
                files,
            ]
        )
        self.add_class("akvo-mistakes")
        self.load("")

    @staticmethod
    def _html(css: str) -> widgets.HTML:
        html = widgets.HTML()
        html.add_class(css)
        return html

    def due_ids(self) -> tuple[str, ...]:
        return due(self.kept[1], self.today())

    def load(self, text: str) -> None:
        self.kept = read_kept(text)
        self.show_next()

    def _store(self) -> None:
        self.keeper.to_store = export_json(*self.kept) if self.kept[0] else ""
        self.download.value = download_link(self.kept) if self.kept[0] else ""

    def import_bytes(self, data: bytes) -> None:
        """A file of exercises: merged into the set (:func:`akvo.coach.exercises.merge`: each
        card at its furthest), or a French refusal and nothing changes."""
        try:
            exercises, cards = import_json(bytes(data).decode("utf-8"))
        except (AkvoError, UnicodeDecodeError):
            self.summary.value = (
                '<p role="alert">Ce fichier n’est pas un fichier d’erreurs d’akvo valide : '
                "rien n’a changé.</p>"
            )
            return
        self.kept = merge(self.kept, (exercises, cards))
        self._store()
        self.show_next()

    def summary_text(self) -> str:
        exercises, cards = self.kept
        if not exercises:
            return (
                "Aucune erreur gardée dans ce navigateur. Analysez un match dans « Revoir un "
                "match », puis gardez vos erreurs : elles reviendront ici, 1, 3 puis 7 jours "
                "plus tard, jusqu’à deux bonnes réponses."
            )
        waiting = len(self.due_ids())
        retired = sum(card.retired for card in cards)
        return (
            f"{len(exercises)} erreurs gardées dans ce navigateur, {waiting} à revoir "
            f"aujourd’hui, {retired} réussies deux fois."
        )

    def show_next(self) -> None:
        """The first due exercise, or the summary alone."""
        self._store()
        self.summary.value = f"<p>{escape(french(self.summary_text()))}</p>"
        self.feedback.value = ""
        ids = self.due_ids()
        by_id = {e.id: e for e in self.kept[0]}
        self.current = by_id[ids[0]] if ids else None
        self.next_button.layout.display = "none"
        if self.current is None:
            self.question.value = ""
            self.board_box.children = []
            self.options.children = []
            self._hide_empty()
            return
        state = self.current.position()
        self.question.value = f"<p><b>{escape(french(self.current.question))}</b></p>"
        board = make_board(state, None, None, interactive=False, compact=True)
        self.board_box.children = [board]
        if state.phase == Phase.ORDERS:
            self.composer.reset()
            self.options.children = [self.composer]
        else:
            self.options.children = list(self.buttons.show(state, {}).values())
        self._hide_empty()

    def _hide_empty(self) -> None:
        """An empty line takes no room (no exercise due: the summary and the files only)."""
        for part, empty in (
            (self.question, not self.question.value),
            (self.feedback, not self.feedback.value),
            (self.board_box, not self.board_box.children),
            (self.options, not self.options.children),
            (self.download, not self.download.value),
        ):
            part.layout.display = "none" if empty else None

    def answer(self, action: str) -> None:
        """Grade ``action`` (right: one of the better options), reschedule, show why."""
        exercise = self.current
        if exercise is None:
            return
        state = exercise.position()
        if action not in state.legal_actions():
            return
        right = exercise.is_right(action)
        exercises, cards = self.kept
        self.kept = (exercises, answer(cards, exercise.id, right, self.today()))
        self._store()
        said = action_label(state, action)
        head = (
            f"Bien vu : « {said} » fait mieux que votre choix du match."
            if right
            else f"Pas encore : « {said} » ne fait pas mieux. Cette erreur revient demain."
        )
        self.current = None
        self.options.children = []
        orders = state.phase == Phase.ORDERS
        values = page_valuation(state, [exercise.chosen] if orders else None)  # the review's
        self.feedback.value = (
            f"<p><b>{escape(french(head))}</b></p>"
            f"<p>{escape(typeset(french(exercise.refutation)))}</p>"
            + options_html(state, values, exercise.chosen, ORDERS_SHOWN if orders else None)
        )
        self.summary.value = f"<p>{escape(french(self.summary_text()))}</p>"
        self.next_button.layout.display = None if self.due_ids() else "none"
        self._hide_empty()


__all__ = [
    "MISTAKES_KEY",
    "SERVER_COPY",
    "MistakesBox",
    "keep_mistakes",
    "merged",
    "mistakes_keeper",
    "read_kept",
]
