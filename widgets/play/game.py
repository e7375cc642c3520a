"""« Jouer un match »: a whole match against a bot or between two people on one screen.

:class:`MatchGame` owns the :class:`~akvo.match.MatchState`. After each human decision it
plays the chance nodes (seeded dice, shown as faces) and the bot's decisions until a human
must decide again, then redraws. It holds no rule: legal actions, dice, events and the
result all come from the engine.
"""

from __future__ import annotations

import random
from html import escape

import ipywidgets as widgets

from akvo.errors import AkvoError
from akvo.match import MatchState, Phase, new_match
from akvo.match.board import SIDE_NAMES

from ..game_view import (
    log_html,
    make_board,
    roll_html,
    status_html,
    typeset,
)
from .decisions import ACTION_CLASS, ActionButtons, OrdersComposer
from .opponents import Bot, bot_choices, default_bot, make_opponent
from .records import RecordError, download_link, load_record
from .refusals import move_refusal

HOT_SEAT = "hot seat"
HOT_SEAT_LABEL = "Deux joueurs, même écran"
STYLE = """<style>
.akvo-play .akvo-play-action button, .akvo-play button.akvo-play-action {
  white-space: normal; height: auto; min-height: 2.2em; text-align: left; max-width: 100%; }
.akvo-play .widget-toggle-buttons { flex-wrap: wrap; height: auto; }
.akvo-play .widget-toggle-buttons .widget-toggle-button {
  width: auto; white-space: normal; height: auto; min-height: 2.2em; }
.akvo-play .widget-inline-hbox { flex-wrap: wrap; }
.akvo-play-events { max-height: 16em; overflow-y: auto; font-size: 90%; }
.akvo-play-faces { font-size: 150%; white-space: nowrap; }
.akvo-play-result { font-weight: bold; }
.akvo-play svg { max-width: 100%; height: auto; }
</style>"""
RESULT_WHY = {
    "score": "au score",
    "half": "à égalité de points, au nombre de mages dans la moitié adverse",
    "draw": "égalité de points et de mages dans la moitié adverse",
}


def result_text(state: MatchState) -> str:
    """The result and why, from the engine's final events."""
    a, b = state.scores
    if state.result == "draw":
        head = f"Match nul, {a} à {b}"
    else:
        head = f"Victoire de {state.result}, {a} à {b}"
    why = RESULT_WHY.get(state.reason, state.reason)
    extra = " après les deux tours supplémentaires au palier IV" if state.turn > 8 else ""
    return typeset(f"{head} — {why}{extra}. {state.events[-1]}")


class MatchGame(widgets.VBox):  # type: ignore[misc]
    """A whole match in the page: against a bot (``opponent`` a bot name) or hot seat.

    ``human`` is the side the reader plays against a bot (0 = A, 1 = B); ``seed`` fixes the
    dice and the bot, so that a match can be reproduced.
    """

    def __init__(
        self,
        state: MatchState | None = None,
        *,
        opponent: str | None = None,
        human: int = 0,
        seed: int | None = None,
    ) -> None:
        choices = bot_choices()
        self.opponent_choice = widgets.Dropdown(
            options=[(f"Bot « {label} »", name) for name, label in choices.items()]
            + [(HOT_SEAT_LABEL, HOT_SEAT)],
            value=opponent or default_bot(),
            description="Adversaire",
        )
        self.opponent_choice.add_class("akvo-play-opponent")
        self.side_choice = widgets.ToggleButtons(
            options=[("Camp A", 0), ("Camp B", 1)], value=human, description="Vous jouez"
        )
        self.side_choice.add_class("akvo-play-side")
        self.new_button = widgets.Button(description="Nouveau match")
        self.new_button.add_class("akvo-play-new")
        self.new_button.on_click(lambda _: self.start())
        self.opponent_choice.observe(lambda _change: self._continue(), "value")
        self.side_choice.observe(lambda _change: self._continue(), "value")
        self.upload = widgets.FileUpload(accept=".json", multiple=False, description="Charger")
        self.upload.add_class("akvo-play-upload")
        self.upload.observe(self._on_upload, "value")

        self.status = widgets.HTML()
        self.status.add_class("akvo-play-status")
        self.prompt = widgets.HTML()
        self.prompt.add_class("akvo-play-prompt")
        self.dice = widgets.HTML()
        self.dice.add_class("akvo-play-dice")
        self.message = widgets.HTML()
        self.message.add_class("akvo-play-message")
        self.result = widgets.HTML()
        self.result.add_class("akvo-play-result")
        self.decisions = widgets.VBox()
        self.decisions.add_class("akvo-play-decisions")
        self.events = widgets.HTML()
        self.events.add_class("akvo-play-log")
        self.save = widgets.HTML()
        self.save.add_class("akvo-play-save")
        self.save_button = widgets.Button(description="Enregistrer le match (JSON)")
        self.save_button.add_class("akvo-play-save-prepare")
        self.save_button.on_click(lambda _: self._prepare_save())
        self.composer = OrdersComposer(self.play)
        self.action_buttons = ActionButtons(self.play)
        self.curtain = widgets.Button(description="")
        self.curtain.add_class(ACTION_CLASS)
        self.curtain.add_class("akvo-play-curtain")
        self.curtain.on_click(lambda _: self._lift_curtain())
        self._curtain_up = False
        self.buttons: dict[str, widgets.Button] = {}

        self.seed = seed
        self.state = state if state is not None else new_match()
        self.rng = random.Random(seed)
        self.bot: Bot | None = None
        self.rolls: list[tuple[str, str]] = []
        self.board = make_board(self.state, None, self.play)
        setup = widgets.HBox([self.opponent_choice, self.side_choice, self.new_button])
        setup.layout.flex_flow = "row wrap"
        files = widgets.HBox([self.upload, self.save_button, self.save])
        files.layout.flex_flow = "row wrap"
        side = widgets.VBox(
            [self.status, self.result, self.prompt, self.decisions, self.message, self.dice]
        )
        side.layout.min_width = "18em"
        side.layout.flex = "1 1 20em"
        self.board.layout.flex = "1 1 22em"
        main = widgets.HBox([self.board, side])
        main.layout.flex_flow = "row wrap"
        super().__init__([widgets.HTML(STYLE), setup, main, self.events, files])
        self.add_class("akvo-play")
        self.add_class("akvo-widget")
        self._configure()
        self._advance()

    # --- who plays -------------------------------------------------------------------------
    @property
    def hot_seat(self) -> bool:
        return bool(self.opponent_choice.value == HOT_SEAT)

    @property
    def human(self) -> int:
        return int(self.side_choice.value)

    def is_human_turn(self) -> bool:
        player = self.state.current_player
        return player in (0, 1) and (self.hot_seat or player == self.human)

    def _configure(self) -> None:
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
        self._configure()
        self._advance()

    def _continue(self) -> None:
        """A new opponent or side takes over the match in progress."""
        self._configure()
        self._advance()

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
        self._advance()

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

    def _on_upload(self, change: dict[str, object]) -> None:
        files = change["new"]
        if not files:
            return
        upload = files[0]  # type: ignore[index]
        try:
            _record, state = load_record(bytes(upload["content"]))
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
        self.status.value = status_html(state)

    def _prepare_save(self) -> None:
        """The download link of the match as it stands, built on demand: encoding the whole
        record on every click was the slowest part of a redraw, and the heaviest message."""
        self.save.value = download_link(self.state)

    def _render_decisions(self) -> None:
        state = self.state
        self.buttons = {}
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
        else:
            self.buttons = self.action_buttons.show(state)
            self.decisions.children = list(self.buttons.values())
