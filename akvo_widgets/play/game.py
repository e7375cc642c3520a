"""« Jouer un match »: a whole match against a bot or between two people on one screen.

:class:`MatchGame` owns the :class:`~akvo.match.MatchState`. After each human decision it
plays the chance nodes (seeded dice, shown as faces) and the bot's decisions until a human
must decide again, then redraws. It holds no rule: legal actions, dice, events and the
result all come from the engine.
"""

from __future__ import annotations

import random
import threading
from html import escape

import ipywidgets as widgets

from akvo.coach import decision_values
from akvo.coach.valuation import Valuation
from akvo.errors import AkvoError
from akvo.match import MatchState, Phase, new_match
from akvo.match.board import SIDE_NAMES
from akvo.match.geometry import mages_in_enemy_half
from akvo_widgets.board.height import BoardHeight
from akvo_widgets.board.view import (
    log_html,
    make_board,
    roll_html,
    status_html,
    typeset,
)
from akvo_widgets.kit import controls as c
from akvo_widgets.kit.file_picker import FilePicker

from .coach import value_text
from .decisions import ACTION_CLASS, ActionButtons, OrdersComposer
from .keeper import MatchKeeper
from .layout import board_beside
from .log_box import LOG_STYLE, LogBox
from .opponents import Bot, bot_choices, default_bot, make_opponent
from .records import MAX_BYTES, RecordError, download_link, load_record, record_json
from .refusals import move_refusal
from .valued import (
    ORDERS_SHOWN,
    method_note,
    option_texts,
    options_html,
    page_valuation,
    reason_words,
    suggestion_sentence,
)

HOT_SEAT = "hot seat"
HOT_SEAT_LABEL = "Deux joueurs, même écran"
STYLE = (
    """<style>
.akvo-play .akvo-play-action button, .akvo-play button.akvo-play-action {
  white-space: normal; height: auto; min-height: 2.2em; text-align: left; max-width: 100%;
  line-height: 1.3; padding-top: 0.3em; padding-bottom: 0.3em; }
.akvo-play .widget-toggle-buttons { flex-wrap: wrap; height: auto; }
.akvo-play .widget-toggle-buttons .widget-toggle-button {
  width: auto; white-space: normal; height: auto; min-height: 2.2em; }
.akvo-play .widget-inline-hbox { flex-wrap: wrap; }
.akvo-play-events { max-height: 16em; overflow-y: auto; font-size: 90%; }
.akvo-play-faces { font-size: 150%; white-space: nowrap; }
.akvo-play-result { font-weight: bold; }
.akvo-play svg { max-width: 100%; height: auto; }
/* The prompt is the page's own (in the sheet): the board does not say it a second time. */
.akvo-play:not(.akvo-replay) .akvo-board-decision { display: none; }
.akvo-play-discard { align-items: center; gap: 0.4em; }
.akvo-play a.akvo-play-download { color: #0b57a4; text-decoration: underline; font-weight: bold; }
.akvo-play a.akvo-play-download:focus-visible { outline: 3px solid #ff6f00; outline-offset: 2px; }
/* A phone: the compact board sticks to the top of the screen and the decision's sheet
   (status, prompt, options) to its bottom; the rest of the match scrolls between them.
   The boxes between the match and its parts step aside (display: contents) so that both
   stick over the whole match; the board's picture gives the sheet the room it needs
   (--akvo-sheet-height, measured by BoardHeight). */
@media (max-width: 640px) {
  .akvo-play .akvo-play-main, .akvo-play .akvo-play-side { display: contents; }
  .akvo-play .akvo-board-compact { order: 1; }
  .akvo-play .akvo-play-side > * { order: 2; }
  .akvo-play > .akvo-play-log, .akvo-play > .akvo-play-logbox { order: 3; }
  .akvo-play > .akvo-play-files { order: 4; }
  .akvo-play .akvo-play-side > .akvo-play-sheet { order: 5; position: sticky; bottom: 0;
    z-index: 21; background: #fff; box-shadow: 0 -2px 6px rgba(0, 0, 0, 0.2);
    padding: 2px 4px 4px; margin: 0 -4px; max-height: 62dvh; overflow-y: auto;
    flex: none; }
  .akvo-play-sheet p { margin: 0.15em 0; }
  .akvo-play-sheet .akvo-play-status-line { font-size: 12px; }
  .akvo-play-sheet .akvo-play-prompt { font-size: 14px; line-height: 1.25; }
  .akvo-play-sheet button.akvo-play-action { font-size: 13px; min-height: 2em; margin: 1px 0;
    padding-top: 0.2em; padding-bottom: 0.2em; line-height: 1.2; }
  .akvo-play-sheet .akvo-play-orders-summary { display: none; }
  .akvo-play-sheet > .widget-html:has(> .widget-html-content:empty) { display: none; }
  .akvo-play-sheet > .widget-html { min-height: 0; }
  .akvo-play-sheet .akvo-play-orders .widget-toggle-buttons { display: flex;
    flex-wrap: nowrap !important;
    align-items: center; margin: 1px 0; min-height: 0; }
  .akvo-play-sheet .akvo-play-orders .widget-toggle-buttons > .widget-label {
    width: 6.5em !important; margin: 0 !important; flex: none; font-size: 13px; }
  .akvo-play-sheet .akvo-play-orders .widget-toggle-button { font-size: 13px; height: auto;
    min-height: 1.9em; padding: 0 0.4em; }
  .akvo-play-sheet .akvo-play-order-ship > div { display: grid; flex: 1 1 auto;
    grid-template-columns: 1fr 1fr; gap: 2px; }
  .akvo-play-sheet .akvo-play-order-ship .widget-toggle-button { width: auto !important;
    font-size: 12px; line-height: 1.15; margin: 0; white-space: normal; }
  .akvo-play .akvo-board-compact { flex: none !important; }
  .akvo-play .akvo-board-compact .akvo-board-details { display: none; }
  .akvo-play .akvo-board-compact .akvo-board-status { font-size: 12px; }
  .akvo-play .akvo-board-compact .akvo-board-legend { margin: 0; }
  .akvo-play .akvo-board-compact .akvo-board-legend > summary { padding: 0; }
  .akvo-play .akvo-board-compact .akvo-board-figure svg {
    max-height: max(28dvh, calc(100dvh - var(--akvo-sheet-height, 45dvh) - 7em)); }
}
"""
    + LOG_STYLE
    + "</style>"
)


def sheet(*parts: widgets.Widget) -> widgets.VBox:
    """The decision's sheet: where the match stands, the prompt and the options. On a
    phone it sticks to the bottom of the screen while the compact board sticks to its top
    (:data:`STYLE`), so that both are in view at every decision without scrolling."""
    box = widgets.VBox(list(parts))
    box.add_class("akvo-play-sheet")
    return box


def result_text(state: MatchState) -> str:
    """The result and why, the winner named once with its score first (R25)."""
    a = state.scores[0]
    extra = " après les deux tours supplémentaires au palier IV" if state.turn > 8 else ""
    if state.result == "draw":
        return typeset(
            f"Match nul, {a} – {a} au score{extra} : autant de mages de chaque camp "
            "dans la moitié adverse."
        )
    winner = SIDE_NAMES.index(state.result)
    mine, theirs = state.scores[winner], state.scores[1 - winner]
    if state.reason == "half":
        halves = [mages_in_enemy_half(state.rows, side) for side in (0, 1)]
        return typeset(
            f"Victoire de {state.result} : égalité de points ({mine} partout){extra}, "
            f"départagée au nombre de mages dans la moitié adverse, "
            f"{halves[winner]} contre {halves[1 - winner]}."
        )
    return typeset(f"Victoire de {state.result}, {mine} à {theirs} au score{extra}.")


class MatchGame(widgets.VBox):  # type: ignore[misc]
    """A whole match in the page: against a bot (``opponent`` a bot name) or hot seat.

    ``human`` is the side the reader plays against a bot (0 = A, 1 = B); ``seed`` fixes the
    dice and the bot, so that a match can be reproduced; ``estimates=False`` leaves out the
    estimated win chances (the exact values stay, behind the « Conseils » switch).
    """

    def __init__(
        self,
        state: MatchState | None = None,
        *,
        opponent: str | None = None,
        human: int = 0,
        seed: int | None = None,
        estimates: bool = True,
    ) -> None:
        choices = bot_choices()
        self.opponent_choice = c.described(
            widgets.Dropdown,
            "Adversaire",
            options=[(f"Bot « {label} »", name) for name, label in choices.items()]
            + [(HOT_SEAT_LABEL, HOT_SEAT)],
            value=opponent or default_bot(),
        )
        self.opponent_choice.add_class("akvo-play-opponent")
        self.side_choice = c.described(
            widgets.ToggleButtons, "Vous jouez", options=[("Camp A", 0), ("Camp B", 1)], value=human
        )
        self.side_choice.add_class("akvo-play-side")
        self.new_button = c.button("Nouveau match", "akvo-play-new", self._ask_new)
        self.discard_question = c.html("akvo-play-discard-question")
        self.discard_yes = c.button(
            "Oui, abandonner ce match", "akvo-play-discard-yes", self._discard_and_start
        )
        self.discard_no = c.button("Non, continuer ce match", "akvo-play-discard-no", self._keep_on)
        self.discard = widgets.HBox([self.discard_question, self.discard_yes, self.discard_no])
        self.discard.layout.flex_flow = "row wrap"
        self.discard.layout.display = "none"
        self.discard.add_class("akvo-play-discard")
        self.opponent_choice.observe(lambda _change: self._setup_changed(), "value")
        self.side_choice.observe(lambda _change: self._setup_changed(), "value")
        self.upload = FilePicker("Charger un match", accept=".json", max_bytes=MAX_BYTES)
        self.upload.add_class("akvo-play-upload")
        self.upload.on_file(self.load_bytes)

        self.status = c.html("akvo-play-status")
        self.prompt = c.html("akvo-play-prompt")
        self.dice = c.html("akvo-play-dice")
        self.message = c.html("akvo-play-message")
        self.result = c.html("akvo-play-result")
        self.decisions = widgets.VBox()
        self.decisions.add_class("akvo-play-decisions")
        self.events = c.html("akvo-play-log")
        self.save = c.html("akvo-play-save")
        self.save_button = c.button(
            "Enregistrer le match (JSON)",
            "akvo-play-save-prepare",
            self._prepare_save,
            layout=widgets.Layout(width="auto"),  # the label's own width: never cut
        )
        self.composer = OrdersComposer(self.play)
        self.action_buttons = ActionButtons(self.play)
        self.coach_switch = c.described(widgets.Checkbox, "Conseils", value=True, indent=False)
        self.coach_switch.add_class("akvo-play-coach-switch")
        self.coach_switch.observe(lambda _change: self._render_decisions(), "value")
        self.advice = c.html("akvo-play-advice")
        self.estimate_orders = c.button(
            "Estimer mes ordres", "akvo-play-estimate-orders", self._estimate_orders
        )
        self.orders_chances = c.html("akvo-play-orders-chances")
        self._lock = threading.RLock()  # one redraw of the decisions at a time
        self._labels: dict[str, str] = {}
        self._values: Valuation | None = None
        self.keeper = MatchKeeper(key="jouer-un-match")
        self.keeper.observe(lambda _change: self._resume(), "saved")
        self.curtain = c.button("", ACTION_CLASS, self._lift_curtain)
        self.curtain.add_class("akvo-play-curtain")
        self._curtain_up = False
        self.buttons: dict[str, widgets.Button] = {}

        self.seed = seed
        self.estimates = estimates  # the win chances beside the options (akvo.coach.valuation)
        self.state = state if state is not None else new_match()
        self.rng = random.Random(seed)
        self.bot: Bot | None = None
        self._hot_seat = (opponent or default_bot()) == HOT_SEAT
        self._human_moves = 0  # the reader's decisions in this match (kept once one is made)
        self._human = human
        self.rolls: list[tuple[str, str]] = []
        self.board = make_board(self.state, None, self.play, compact=True)
        setup = self.setup = widgets.HBox(
            [self.opponent_choice, self.side_choice, self.new_button, self.discard]
        )
        setup.layout.flex_flow = "row wrap"
        files = widgets.HBox([self.upload, self.save_button, self.save])
        files.layout.flex_flow = "row wrap"
        files.add_class("akvo-play-files")
        self.sheet = sheet(self.status, self.result, self.prompt, self.decisions)
        column = [
            self.sheet,
            self.coach_switch,
            self.advice,
            self.orders_chances,
            self.message,
            self.dice,
        ]
        main = board_beside(self.board, column)
        main.children[1].layout.min_width = "18em"  # the side column keeps its width
        self.log_box = LogBox(self.events)
        parts = [widgets.HTML(STYLE), self.keeper, BoardHeight(), setup, main, self.log_box, files]
        super().__init__(parts)
        self.add_class("akvo-play")
        self.add_class("akvo-widget")
        self._configure()
        self._advance()

    # --- who plays -------------------------------------------------------------------------
    @property
    def hot_seat(self) -> bool:
        """Whether the match in progress is hot seat (the controls apply at the next match)."""
        return self._hot_seat

    @property
    def human(self) -> int:
        """The reader's side in the match in progress."""
        return self._human

    def is_human_turn(self) -> bool:
        player = self.state.current_player
        return player in (0, 1) and (self.hot_seat or player == self.human)

    def _configure(self) -> None:
        self._hot_seat = self.opponent_choice.value == HOT_SEAT
        self._human = int(self.side_choice.value)
        self.bot = None if self.hot_seat else make_opponent(self.opponent_choice.value, self.seed)
        viewer = None if self.hot_seat else self.human
        self.board.players = None if viewer is None else (viewer,)  # no choices at a bot's turn
        self.board.viewer = viewer

    # --- actions ---------------------------------------------------------------------------
    def start(self, state: MatchState | None = None) -> None:
        """A new match (or ``state``) with the chosen opponent and side."""
        self.state = state if state is not None else new_match()
        self.rolls = []
        self.message.value = ""
        self._human_moves = 0
        self.discard.layout.display = "none"
        self._configure()
        self._advance()
        self._focus_first_option()

    def _setup_changed(self) -> None:
        """The opponent and side apply at « Nouveau match », never to the match in progress."""
        self._say("Ce choix s’appliquera au prochain match : pressez « Nouveau match ».")

    def play(self, action: str) -> None:
        """Apply the reader's decision (a button, a key, a board click), then the bot's."""
        if not self.is_human_turn():
            self._say("Ce n’est pas à vous de jouer.")
            return
        try:
            self.state.apply_action(action)
        except AkvoError:
            self._say("Ce coup n’est pas permis : " + move_refusal(self.state, action))
            return
        self.message.value = ""
        self._curtain_up = False
        self._human_moves += 1
        self._advance()
        self._focus_first_option()

    def _focus_first_option(self) -> None:
        """Focus on the decision's first option (« Valider les ordres » at the orders, the
        tokens just before it), so that the keyboard goes on where the eyes are."""
        first = self.decisions.children[0] if self.decisions.children else None
        if isinstance(first, OrdersComposer):
            first = first.confirm  # a toggle takes no focus from the kernel: Shift+Tab
        if first is not None:
            first.focus()

    def _advance(self) -> None:
        """Play dice and bot decisions until a human must decide (or the match ends)."""
        state = self.state
        while not state.is_terminal():
            if state.is_chance_node():
                before = state.prompt()
                outcome = state.sample_chance(self.rng)
                state.apply_action(outcome)
                if outcome.startswith("roll"):
                    self.rolls.append((before, outcome))
            elif self.is_human_turn():
                break
            else:
                assert self.bot is not None
                state.apply_action(self.bot(state))
        self.render()

    def _lift_curtain(self) -> None:
        self._curtain_up = True
        self.render()

    def load_bytes(self, data: bytes) -> None:
        """A file's bytes: the match continued if it is a valid record, else a French
        message only."""
        try:
            _record, state = load_record(data)
        except RecordError as error:
            self._say(str(error))
            return
        self.start(state)
        self._say("Match chargé : vous pouvez le continuer.")

    def _say(self, text: str) -> None:
        self.message.value = f'<p role="status">{escape(typeset(text))}</p>'

    # --- drawing ---------------------------------------------------------------------------
    def _needs_curtain(self) -> bool:
        """Hot seat: B programs after A, so A's screen is hidden behind a curtain first."""
        return (
            self.hot_seat
            and self.state.phase == Phase.ORDERS
            and self.state.current_player == 1
            and not self._curtain_up
        )

    def render(self) -> None:
        """Redraw; the status line (and its move count) changes last, once all else has."""
        state = self.state
        self._render_decisions()
        self.board.state = state
        self.events.value = log_html(state.events)
        self.dice.value = roll_html(self.rolls)
        if state.is_terminal():
            self._prepare_save()
        elif self.save.value:
            self.save.value = ""  # a link to an older position would save the wrong match
        self._keep()
        self.status.value = status_html(state)

    # --- kept in the browser (issue 19.5) ---------------------------------------------------
    def _keep(self) -> None:
        in_progress = not self.state.is_terminal() and self._human_moves > 0
        self.keeper.to_store = record_json(self.state) if in_progress else ""
        self.keeper.guard = in_progress

    @property
    def in_progress(self) -> bool:
        """Whether a match the reader has played in is under way (kept, and asked about
        before « Nouveau match » discards it)."""
        return not self.state.is_terminal() and self._human_moves > 0

    def _resume(self) -> None:
        """The browser held a match (a reload, Back, a reopened tab): that match is shown,
        never a fresh one beside an offer, unless the reader already plays another here."""
        if not self.keeper.saved or self._human_moves > 0:
            return
        try:
            _record, state = load_record(self.keeper.saved.encode("utf-8"))
        except RecordError as error:
            self.keeper.saved = ""
            self.keeper.to_store = ""
            self._say(f"Le match gardé ne peut pas être repris : {error}")
            return
        self.start(state)
        self._human_moves = 1
        self._keep()
        self._say("Match repris là où vous l’aviez laissé.")

    def _ask_new(self) -> None:
        """« Nouveau match »: at once if nothing is under way, else after a confirmation."""
        if not self.in_progress:
            self.start()
            return
        self.discard_question.value = (
            "<p><b>Abandonner le match en cours ?</b> Il ne sera plus gardé.</p>"
        )
        self.discard.layout.display = None
        self.discard_no.focus()

    def _discard_and_start(self) -> None:
        self.discard.layout.display = "none"
        self.start()

    def _keep_on(self) -> None:
        self.discard.layout.display = "none"
        self._focus_first_option()

    def _prepare_save(self) -> None:
        """The download link of the match as it stands, built on demand: encoding the whole
        record on every click was the slowest part of a redraw, and the heaviest message."""
        self.save.value = download_link(self.state)

    def _render_decisions(self) -> None:
        with self._lock:
            self._render_decisions_locked()

    def _render_decisions_locked(self) -> None:
        state = self.state
        self.buttons = {}
        self.advice.value = ""
        self.orders_chances.value = ""
        self._values = None
        coaching = self.coach_switch.value and not state.is_terminal() and self.is_human_turn()
        self.coach_switch.layout.display = None if not state.is_terminal() else "none"
        if state.is_terminal():
            self.result.value = f"<p>{escape(result_text(state))}</p>"
            self.prompt.value = ""
            self.decisions.children = [self.new_button]
            return
        self.result.value = ""
        player = SIDE_NAMES[state.current_player]
        self.prompt.value = f"<p><b>{escape(typeset(state.prompt()))}</b></p>"
        if self._needs_curtain():
            self.prompt.value = (
                "<p><b>Les ordres de A sont enregistrés et cachés. Passez l’écran à B.</b></p>"
            )
            self.curtain.description = "B est prêt à programmer"
            self.decisions.children = [self.curtain]
        elif state.phase == Phase.ORDERS:
            self.composer.reset()
            self.composer.confirm.description = f"Valider les ordres de {player}"
            self.decisions.children = [self.composer]
            if coaching and self.estimates:
                self._show_orders(state, None)
                self.decisions.children = [self.composer, self.estimate_orders]
        else:
            texts: dict[str, str] = {}
            if coaching:
                texts = {o.action: value_text(o) for o in decision_values(state)}
                if self.estimates and len(state.legal_actions()) > 1:
                    self._values = page_valuation(state)
                    texts = option_texts(self._values)
                    self.advice.value = self._advice_html(state, self._values)
            self.buttons = self.action_buttons.show(state, texts)
            for action, button in self.buttons.items():
                worth = self._values[action] if self._values is not None else None
                button.tooltip = reason_words(worth) if worth is not None else ""
            self._labels = {a: b.description for a, b in self.buttons.items()}
            self.decisions.children = list(self.buttons.values())

    # --- the coach: the one valuation (akvo.coach.valuation, through .valued) ---------------
    def _advice_html(self, state: MatchState, values: Valuation) -> str:
        lines = [suggestion_sentence(state, values), method_note(values)]
        return "".join(f"<p>{escape(line)}</p>" for line in lines)

    def _show_orders(self, state: MatchState, mine: str | None) -> None:
        """The candidate programmes' win chances (and the reader's, ``mine``), the best
        one as the suggestion."""
        values = page_valuation(state, None if mine is None else [mine])
        self._values = values
        self.advice.value = self._advice_html(state, values)
        self.orders_chances.value = options_html(state, values, mine, ORDERS_SHOWN)

    def _estimate_orders(self) -> None:
        """The win chance of the reader's programme beside the candidates'."""
        state = self.state
        if state.phase != Phase.ORDERS or not self.is_human_turn() or self._values is None:
            return
        with self._lock:
            self._show_orders(state, self.composer.action)
