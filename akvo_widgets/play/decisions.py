"""The decision panel: every legal action of the side to play as a real, focusable button.

The orders (secret programming) are composed with toggle buttons — four lateral tokens and
the ship's double token — then confirmed; every other decision is one button per legal
action, labelled in French, with the exact odds of each target at a target decision
(:func:`akvo.match.preview.target_values`) and the shot's exact value with each rune at a
rune decision (:func:`.odds.rune_values`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

import ipywidgets as widgets

from akvo.match import MatchState, Phase
from akvo.match.actions import SHIP_TOKENS
from akvo.match.preview import target_values
from akvo_widgets.board.view import value_text
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import french, percent
from akvo_widgets.text.labels import (
    LATERAL_CHARACTERS,
    LATERAL_LABELS,
    SHIP_TOKEN_LABELS,
    action_label,
    character,
    orders_label,
)

from .odds import points, rune_values

ACTION_CLASS = "akvo-play-action"


def action_css(action: str) -> str:
    """A CSS class naming the action, for tests: ``shoot chest`` → ``akvo-do-shoot-chest``."""
    return "akvo-do-" + re.sub(r"[^a-z0-9]+", "-", action.lower()).strip("-")


RUNE_PHASES = (Phase.ATTACK_RUNE, Phase.DEFENCE_RUNE)


def option_values(state: MatchState) -> dict[str, str]:
    """The short French value of each option that has one: a target's P(push) or expected
    points; at a rune decision, the shot's value with each rune (or none)."""
    phase = state.phase_enum
    if phase is Phase.TARGET:
        return {a: value_text(a, v) for a, v in target_values(state).items()}
    if phase in RUNE_PHASES:
        odds = rune_values(state)
        if odds.unit == "points":
            return {a: points(v) for a, v in odds.values.items()}
        return {a: f"{percent(v)} de recul" for a, v in odds.values.items()}
    return {}


def option_labels(state: MatchState, texts: dict[str, str] | None = None) -> dict[str, str]:
    """Each legal action's French label, with its exact value where it has one (``texts``:
    action → value text, by default :func:`option_values`)."""
    values = option_values(state) if texts is None else {a: t for a, t in texts.items() if t}
    labels = {}
    for action in state.legal_actions():
        label = action_label(state, action)
        if action in values:
            label += " — " + values[action]
        labels[action] = label
    return labels


class OrdersComposer(widgets.VBox):  # type: ignore[misc]
    """The secret programming: one token per lateral lane and the ship's double token."""

    def __init__(self, on_orders: Callable[[str], None]) -> None:
        self.lanes = [
            c.described(
                widgets.ToggleButtons,
                character(name),
                options=[(LATERAL_LABELS[t], t) for t in "AT"],
                value="A",
                style={"description_width": "7em", "button_width": "6em"},
            )
            for name in LATERAL_CHARACTERS
        ]
        for name, lane in zip(LATERAL_CHARACTERS, self.lanes, strict=True):
            lane.add_class(f"akvo-play-order-{name}")
        self.ship = c.described(
            widgets.ToggleButtons,
            "Navire",
            options=[(french(SHIP_TOKEN_LABELS[t]), t) for t in SHIP_TOKENS],
            value="AA",
            style={"description_width": "7em"},
        )
        self.ship.add_class("akvo-play-order-ship")
        self.confirm = c.button(
            "Valider les ordres",
            ACTION_CLASS,
            lambda: on_orders(self.action),
            layout=widgets.Layout(width="auto"),  # « … de A » on one line
        )
        self.confirm.add_class("akvo-play-orders-confirm")
        self.summary = c.html("akvo-play-orders-summary")
        for toggle in (*self.lanes, self.ship):
            toggle.observe(lambda _change: self._summarise(), "value")
        super().__init__([*self.lanes, self.ship, self.summary, self.confirm])
        self.add_class("akvo-play-orders")
        self._summarise()

    def _summarise(self) -> None:
        self.summary.value = f"<p>{escape(orders_summary(self.action))}</p>"

    @property
    def action(self) -> str:
        lateral = "".join(lane.value for lane in self.lanes)
        return f"orders {lateral} {self.ship.value}"

    def reset(self) -> None:
        """Back to all-Avancer, so that one side's choices never show to the other."""
        for lane in self.lanes:
            lane.value = "A"
        self.ship.value = "AA"


def orders_summary(action: str) -> str:
    """The orders being composed, as one French sentence."""
    return french("Vos ordres : " + orders_label(action.removeprefix("orders ")))


class ActionButtons:
    """One button per legal action (orders excepted), in the engine's order.

    The buttons are reused from decision to decision (only their text and CSS class
    change, each in one message): creating widgets is the slowest part of a redraw, in the
    kernel and the page. Buttons beyond the legal actions keep their last class: they are
    not shown.
    A press plays the action the button shows now, as the kernel knows it.
    """

    def __init__(self, on_action: Callable[[str], None]) -> None:
        self.on_action = on_action
        self.pool: list[widgets.Button] = []
        self.actions: list[str] = []

    def _button(self, index: int) -> widgets.Button:
        while len(self.pool) <= index:
            button = widgets.Button(layout=widgets.Layout(width="auto"))
            button.add_class(ACTION_CLASS)
            position = len(self.pool)
            button.on_click(lambda _, i=position: self._pressed(i))
            self.pool.append(button)
        return self.pool[index]

    def _pressed(self, index: int) -> None:
        if index < len(self.actions):
            self.on_action(self.actions[index])

    def show(
        self, state: MatchState, texts: dict[str, str] | None = None
    ) -> dict[str, widgets.Button]:
        """Label the first buttons with the legal actions of ``state`` (and ``texts``, their
        values: :func:`option_labels`); returns them."""
        labels = option_labels(state, texts)
        shown: dict[str, widgets.Button] = {}
        for index, (action, label) in enumerate(labels.items()):
            button = self._button(index)
            classes = (ACTION_CLASS, action_css(action))
            if button._dom_classes != classes:  # one message, not a remove and an add
                button._dom_classes = classes
            button.description = label
            shown[action] = button
        self.actions = list(labels)
        return shown
