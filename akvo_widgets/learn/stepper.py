"""Step through a real engine match on the board: each click plays up to the next log line.

:class:`LineStepper` is generic: it is given a way to start (a fresh :class:`MatchState`
and a ``next_action`` chooser) and a stopping test. :class:`TurnStepper` plays the first
turn of a real match — seeded dice and weather from the engine's exact chance outcomes, and
a plain demonstration policy for the players (:func:`demo_action`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as w

from akvo.match import MatchState, new_match
from akvo.match.preview import target_values
from akvo_widgets.board.view import lines_html, make_board, typeset
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import fraction, french, percent

from .playthrough import MAX_STEPS

Chooser = Callable[[MatchState], str]
Start = Callable[[], tuple[MatchState, Chooser]]

#: The demonstration's secret orders, per side: lanes 1, 2, 5, 6, then the ship's token.
DEMO_ORDERS = ("orders AATA AT-B", "orders TAAT AA")
_DEMO_CHOICES = ("no trident", "no move", "no rune", "keep", "rouleau", "stop", "move first")


def demo_action(state: MatchState, rng: random.Random) -> str:
    """A plain, readable way to play a turn: fixed orders, no rune and no Ultime, units in
    lane order, each shot at the target with the best exact odds; chance from ``rng``."""
    if state.is_chance_node():
        return state.sample_chance(rng)
    legal = state.legal_actions()
    orders = DEMO_ORDERS[state.current_player]
    if orders in legal:
        return orders
    for choice in _DEMO_CHOICES:
        if choice in legal:
            return choice
    if any(a.startswith("shoot ") for a in legal):
        values = target_values(state)
        plain = {a: v for a, v in values.items() if not a.endswith("souffle")} or values
        if plain:
            return max(plain, key=lambda a: plain[a])
    for action in legal:
        if action.startswith(("activate ", "advance")):
            return action
    return legal[0]


def chance_note(state: MatchState, action: str) -> str:
    """At a weather draw: the exact odds the engine gave the outcome that came (R8)."""
    if not action.startswith("weather"):
        return ""
    odds: dict[str, Fraction] = dict(state.chance_outcomes())
    side = action.split()[1]
    return french(
        f"Tirage du jeton météo : il avantageait {side} avec une chance de "
        f"{fraction(odds[action])} ({percent(odds[action])})."
    )


class LineStepper(w.VBox):  # type: ignore[misc]
    """« Étape suivante » plays the match until the engine logs a new line; « Recommencer »
    starts again. ``state`` is the engine state shown; ``lines`` the lines of the last step.

    With ``takeover``, a click on the board that stands for a legal action (a unit at an
    activation, a target at a target choice) plays it: the reader takes a decision in place
    of the demonstration, which then goes on from there.
    """

    def __init__(
        self, start: Start, done: Callable[[MatchState], bool], css: str, *, takeover: bool = False
    ) -> None:
        self._start = start
        self._done = done
        self.state, self._chooser = start()
        self.lines: list[str] = []
        # Compact: on a phone the board sticks to the top while the reader presses « Étape
        # suivante » and reads the step under it.
        self.board = make_board(self.state, compact=True)
        self.next = w.Button(description="Étape suivante", icon="forward")
        self.next.add_class("akvo-stepper-next")
        self.restart = w.Button(description="Recommencer", icon="undo")
        self.restart.add_class("akvo-stepper-restart")
        self.step = c.html("akvo-stepper-step")
        self.prompt = c.html("akvo-stepper-prompt")
        self.journal = c.html("akvo-stepper-log")
        self.count = 0
        super().__init__()
        self.children = [
            c.panel(
                [
                    self.board,
                    w.HBox([self.next, self.restart]),
                    self.step,
                    self.prompt,
                    self.journal,
                ],
                css,
            )
        ]
        self.next.on_click(self.advance)
        self.restart.on_click(self.reset)
        if takeover:
            self.board.on_action(self.play_reader_action)
        self._show()

    def reset(self, _button: Any = None) -> None:
        self.state, self._chooser = self._start()
        self.lines, self.count = [], 0
        self.board.state = self.state
        self._show()

    def advance(self, _button: Any = None) -> list[str]:
        """Play until a new log line (or the end); the new lines."""
        state = self.state
        before = len(state.events)
        notes: list[str] = []
        for _ in range(MAX_STEPS):
            if self._done(state) or len(state.events) > before:
                break
            action = self._chooser(state)
            note = chance_note(state, action) if state.is_chance_node() else ""
            if note:
                notes.append(note)
            state.apply_action(action)
        self.lines = list(state.events[before:])
        if self.lines:
            self.count += 1
        self.board.state = state
        self._show(notes)
        return self.lines

    def play_reader_action(self, action: str) -> list[str]:
        """A decision taken on the board by the reader (ignored if not legal now)."""
        state = self.state
        if self.finished() or action not in state.legal_actions():
            return []
        before = len(state.events)
        state.apply_action(action)
        self.lines = list(state.events[before:])
        self.count += 1
        self.board.state = state
        self._show()
        return self.lines

    def finished(self) -> bool:
        return self._done(self.state)

    def _show(self, notes: Sequence[str] = ()) -> None:
        if self.count == 0:
            head = "Au départ. Cliquez sur « Étape suivante » pour jouer la suite."
            shown = lines_html(self.state.events[-2:], "akvo-stepper-lines")
        else:
            head = f"Étape {self.count}"
            shown = (
                lines_html(self.lines, "akvo-stepper-lines")
                if self.lines
                else "<p>Choix joué : la suite au prochain clic.</p>"
            )
        extra = "".join(f'<p class="akvo-stepper-odds">{escape(n)}</p>' for n in notes)
        self.step.value = french(f"<p><b>{head}</b></p>") + shown + extra
        if self.finished():
            ending = "Fin de la démonstration : « Recommencer » la rejoue."
            self.prompt.value = french(f"<p><i>{ending}</i></p>")
        else:
            self.prompt.value = f"<p>Ensuite : {escape(typeset(self.state.prompt()))}</p>"
        self.next.disabled = self.finished()
        self.journal.value = (
            "<details><summary>Tout le journal</summary>"
            + lines_html(self.state.events)
            + "</details>"
        )


def first_turn_over(state: MatchState) -> bool:
    return state.is_terminal() or state.turn > 1


class TurnStepper(LineStepper):
    """The first turn of a real match (Perrockiss against Fish Tank), one log line a click."""

    def __init__(self, seed: int = 4) -> None:
        self.seed = seed
        super().__init__(self._fresh, first_turn_over, "akvo-turn-stepper", takeover=True)

    def _fresh(self) -> tuple[MatchState, Chooser]:
        rng = random.Random(self.seed)
        return new_match("perrockiss", "fish-tank"), lambda state: demo_action(state, rng)
