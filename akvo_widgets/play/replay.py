"""« Revoir un match »: step through a recorded match, forward and back, on the board.

At each step the viewer shows the position, the event log up to there, and the move that
led to it: for a decision, every option that was open with the one valuation's win chance,
interval, exact value and reason (:mod:`.valued`, the match page's numbers) and the one
chosen; for dice, the faces and the exact chance that the roll
succeeds (:func:`akvo.dice.roll`).

On a phone (:data:`REPLAY_STYLE`, with the match page's :data:`.game.STYLE`) the compact
board and, under it, a sheet with the step counter, the buttons and the current move's panel
fill one screen, so that both stay in view while stepping; the review and the log (folded,
:class:`.log_box.LogBox`) come after them with the whole screen.
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as widgets

from akvo.dice import roll
from akvo.match import MatchState, Phase, new_match, play_match, replay
from akvo.match.board import SIDE_NAMES
from akvo_widgets.board.height import BoardHeight
from akvo_widgets.board.view import log_html, make_board, status_html, typeset
from akvo_widgets.kit import controls as c
from akvo_widgets.kit.file_picker import FilePicker
from akvo_widgets.text.formatting import NBSP, percent
from akvo_widgets.text.labels import action_label, faces

from .analysis_panel import AnalysisPanel
from .game import STYLE, sheet
from .layout import board_beside
from .log_box import LogBox
from .opponents import default_bot, make_opponent
from .records import MAX_BYTES, RecordError, load_record
from .table_record import TableRecord
from .valued import method_note, options_html, page_valuation


def replay_states(record: dict[str, Any]) -> list[MatchState]:
    """The position before the first recorded action, then after each one."""
    state = replay({**record, "actions": []})
    states = [state]
    for action in record["actions"]:
        state = state.child(action)
        states.append(state)
    return states


EXAMPLE_SEED = 2026
#: The replay's phone layout, over the match page's (:data:`.game.STYLE`): the board and
#: the sheet stick only within their own box, which fits the screen, so that the review and
#: the log under it get the whole screen once the reader scrolls past; the sheet keeps one
#: height (the board does not jump from step to step) and holds the counter, the buttons on
#: one line and the move's panel, which scrolls inside it; no scroll anchoring (a longer
#: panel must not move the page under the reader's thumb).
REPLAY_STYLE = """<style>
/* the review's empty lines (before « Analyser le match ») take no room */
.akvo-replay-analysis > .widget-html:has(> .widget-html-content:empty) { display: none; }
/* each line of the annotated list starts with its own move number: no second one */
.akvo-replay-moves { list-style: none; padding-left: 0.2em; }
.akvo-replay-analysis .widget-html-content { line-height: 1.45; }
.akvo-replay-moves li { margin: 0.15em 0; }
@media (max-width: 640px) {
  .akvo-play.akvo-replay .akvo-play-main { display: flex !important;
    flex-flow: column nowrap !important; }
  .akvo-replay .akvo-play-side > .akvo-play-status { display: none; }
  .akvo-replay { overflow-anchor: none; }
  .akvo-replay .akvo-play-side > .akvo-play-sheet { height: 42dvh; max-height: 42dvh;
    overflow: hidden; display: flex; flex-direction: column; }
  .akvo-replay-sheet > .akvo-replay-counter, .akvo-replay-sheet > .akvo-replay-controls {
    flex: none; }
  .akvo-replay-sheet > .akvo-replay-step { flex: 1 1 auto; min-height: 0; overflow-y: auto;
    overscroll-behavior: contain; }
  .akvo-replay-sheet .widget-html-content { line-height: 1.3; }
  .akvo-replay-sheet .akvo-replay-controls { flex-wrap: nowrap !important; gap: 2px; }
  .akvo-replay-sheet .akvo-replay-controls button { flex: 1 1 0; min-width: 0; margin: 0;
    padding: 0 2px; font-size: 13px; }
  .akvo-replay-sheet .akvo-replay-counter p { margin: 0; font-size: 12px; }
  .akvo-replay-sheet .akvo-replay-step { font-size: 13px; line-height: 1.3; }
  .akvo-replay-sheet .akvo-replay-step ul, .akvo-replay-sheet .akvo-replay-step ol {
    padding-left: 1.2em; margin: 0.2em 0; }
  .akvo-replay-move-list { font-size: 14px; overflow-wrap: anywhere; }
  .akvo-replay .akvo-board-compact .akvo-board-moment { white-space: nowrap;
    overflow: hidden; text-overflow: ellipsis; }
  .akvo-replay .akvo-board-compact .akvo-board-figure svg {
    max-height: max(26dvh, calc(58dvh - 8em)); }
}
</style>"""


def counter_text(step: int, steps: int) -> str:
    return f"Coup {step} sur {steps}"


def moment_text(step: int, before: MatchState | None = None, action: str = "") -> str:
    """The moment the board shows, as its header and the status line name it: the same
    step as the side panel (:func:`step_head`), with the move that led there."""
    if step == 0 or before is None:
        return "position de départ"
    if action.startswith("roll"):
        what = f"jet {faces(action)}"
    elif action.startswith("weather"):
        what = f"météo : {action.split()[-1]} avantagé"
    else:
        what = f"{SIDE_NAMES[before.current_player]} : {action_label(before, action)}"
    return f"après le coup {step} ({what})"


def step_head(step: int) -> str:
    """The side panel says which step it describes: the one that led to the board shown."""
    return (
        f'<p class="akvo-replay-step-head">Le plateau montre la position après le coup '
        f"{step}{NBSP}; voici ce coup{NBSP}:</p>"
    )


def step_html(before: MatchState, action: str) -> str:
    """The move from ``before``: every option that was open with the one valuation's win
    chance and reason (:mod:`.valued`, as the match page shows them) and the one chosen,
    or dice."""
    if before.is_chance_node():
        return _chance_html(before, action)
    who = SIDE_NAMES[before.current_player]
    head = escape(typeset(before.prompt()))
    if len(before.legal_actions()) < 2:
        return f"<p><b>{who} décide.</b> {head} {escape(action_label(before, action))}</p>"
    values = page_valuation(before, [action] if before.phase == Phase.ORDERS else None)
    return (
        f"<p><b>{who} décide.</b> {head}</p>"
        + options_html(before, values, action)
        + f'<p class="akvo-replay-meaning">{escape(method_note(values))}</p>'
    )


def _chance_html(before: MatchState, action: str) -> str:
    head = escape(typeset(before.prompt()))
    if not action.startswith("roll"):
        return f"<p>{head} Résultat{NBSP}: {escape(action.replace('weather', 'météo'))}.</p>"
    text = f'<p>{head} <span class="akvo-play-faces">{escape(faces(action))}</span></p>'
    if before.phase == Phase.ROLL:
        modifier, threshold = before.roll_target()
        dice = len(action) - len("roll ")
        chance = roll(threshold, dice=dice, modifier=modifier).success
        text += f"<p>Chance de réussir ce jet{NBSP}: {percent(chance)} (valeur exacte).</p>"
    return text


class ReplayViewer(widgets.VBox):  # type: ignore[misc]
    """Load a record (file picker, or ``record=``) and step through it."""

    def __init__(self, record: dict[str, Any] | None = None) -> None:
        self.step: int = 0
        self.upload = FilePicker("Ouvrir un match", accept=".json", max_bytes=MAX_BYTES)
        self.upload.add_class("akvo-replay-upload")
        self.upload.on_file(self.load_bytes)
        self.message = c.html("akvo-replay-message")
        # ``?table=ID``: a finished online table's record, fetched by the browser.
        self.from_table = TableRecord(self.load, lambda html: setattr(self.message, "value", html))
        self.first = c.button("◀◀ Début", "akvo-replay-first", lambda: self.go(0))
        self.back = c.button("◀ Précédent", "akvo-replay-back", lambda: self.go(self.step - 1))
        self.forward = c.button("Suivant ▶", "akvo-replay-forward", lambda: self.go(self.step + 1))
        self.last = c.button("Fin ▶▶", "akvo-replay-last", lambda: self.go(self.steps))
        self.slider = c.described(widgets.IntSlider, "Coup", min=0, max=0, value=0)
        self.slider.add_class("akvo-replay-slider")
        self.slider.observe(lambda change: self.go(int(change["new"])), "value")
        self.status = c.html("akvo-play-status")
        self.counter = c.html("akvo-replay-counter")
        self.detail = c.html("akvo-replay-step")
        self.events = c.html("akvo-play-log")
        self.states: list[MatchState] = []
        self.record: dict[str, Any] | None = None
        self.board = make_board(
            new_match(), None, lambda _action: None, interactive=False, compact=True
        )
        self.analysis = AnalysisPanel(lambda: self.record, self.go)
        controls = widgets.HBox([self.first, self.back, self.forward, self.last])
        controls.layout.flex_flow = "row wrap"
        controls.add_class("akvo-replay-controls")
        self.sheet = sheet(self.counter, controls, self.detail)
        self.sheet.add_class("akvo-replay-sheet")
        main = board_beside(self.board, [self.status, self.sheet])
        self.log_box = LogBox(self.events)
        super().__init__(
            [
                widgets.HTML(STYLE + REPLAY_STYLE),
                BoardHeight(),
                self.upload,
                self.from_table,
                self.message,
                self.slider,
                main,
                self.analysis,
                self.log_box,
            ]
        )
        self.add_class("akvo-play")
        self.add_class("akvo-widget")
        self.add_class("akvo-replay")
        if record is not None:
            self.load(record)
        else:
            self._show_empty()

    @property
    def steps(self) -> int:
        return len(self.states) - 1

    def load(self, record: dict[str, Any]) -> None:
        """Show a record (already checked by the engine) from its last position."""
        self.record = record
        self.states = replay_states(record)
        self.analysis.reset()
        self.slider.max = self.steps
        self.message.value = (
            f"<p>Match chargé{NBSP}: {self.steps} coups et jets. "
            "Avancez ou reculez avec les boutons ou le curseur.</p>"
        )
        self.go(self.steps)

    def load_bytes(self, data: bytes) -> None:
        """A file's bytes: loaded if it is a valid record, else a French message only."""
        try:
            record, _final = load_record(data)
        except RecordError as error:
            self.message.value = f'<p role="alert">{escape(typeset(str(error)))}</p>'
            return
        self.load(record)

    @property
    def state(self) -> MatchState | None:
        return self.states[self.step] if self.states else None

    def go(self, step: int) -> None:
        if not self.states:
            return
        step = max(0, min(self.steps, step))
        if self.slider.value != step:
            self.slider.value = step  # its observer comes back here: the step is drawn once
            return
        self.step = step
        state = self.states[self.step]
        moment = (
            moment_text(
                self.step, self.states[self.step - 1], self.record["actions"][self.step - 1]
            )
            if self.step and self.record is not None
            else moment_text(0)
        )
        if state.is_terminal():
            moment += ", match terminé"
        self.board.moment = moment[0].upper() + moment[1:]  # the moment shown, not the next
        self.board.state = state
        self.status.value = status_html(state, moment)
        self.events.value = log_html(state.events)
        if self.step == 0:
            self.detail.value = "<p>Position de départ.</p>"
        else:
            assert self.record is not None
            action = self.record["actions"][self.step - 1]
            self.detail.value = step_head(self.step) + step_html(self.states[self.step - 1], action)
        # the counter last: once it names this step, the whole page does
        self.counter.value = f"<p>{counter_text(self.step, self.steps)}</p>"

    @classmethod
    def example(cls, seed: int = EXAMPLE_SEED) -> ReplayViewer:
        """A viewer opened on a whole match played by the engine's bots (seeded)."""
        bots = (make_opponent(default_bot(), seed), make_opponent(default_bot(), seed + 1))
        return cls(play_match(seed, bots=bots).record())

    def _show_empty(self) -> None:
        self.status.value = ""
        self.detail.value = "<p>Ouvrez un match enregistré (fichier JSON) pour le revoir.</p>"
