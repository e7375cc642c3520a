"""Positions the reader sets up: one lane's rows and an order (movement, R10), or a final
position and score (end of the match, R25). The engine plays them; nothing is decided here.

:class:`MovementLab` builds the position with :func:`akvo.match.scenario`, lets side A
activate the chosen unit with the chosen order, and shows the engine's log (and, for a
Tirer order, the targets the engine offers with their exact odds). :class:`EndOfMatch`
plays quiet turns (:func:`akvo_widgets.learn.playthrough.play_quietly_to_the_end`) from the
chosen position, so that the engine itself says who wins and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as w

from akvo.errors import AkvoError
from akvo.match import MatchState, Phase, scenario
from akvo.match.preview import target_values
from akvo_widgets.board.view import lines_html, make_board, typeset
from akvo_widgets.kit import controls as c
from akvo_widgets.text.formatting import decimal, french, percent

from .playthrough import MAX_STEPS, play_quietly_to_the_end

#: Units in lane order (engine names) and their French labels.
UNITS = (
    ("Pédalair (couloir 1)", "pedalair"),
    ("Kitesurfeur (couloir 2)", "kitesurfeur"),
    ("Navire (couloirs 3–4)", "navire"),
    ("Surfeur (couloir 5)", "surfeur"),
    ("Plongeur (couloir 6)", "plongeur"),
)
_LATERAL = ("pedalair", "kitesurfeur", "surfeur", "plongeur")
#: Start rows (R2) — where units stand unless the reader moves them.
START_ROWS = {"A": 3, "B": 6}

ORDERS = (
    ("Avancer", "advance"),
    ("Avancer + rune de Mouvement", "advance-rune"),
    ("Tirer", "shoot"),
    ("Rune de Mouvement, puis tirer", "rune-shoot"),
)
TARGET_LABELS = {
    "pedalair": "le Pédalair",
    "kitesurfeur": "le Kitesurfeur",
    "barreur": "le Barreur",
    "lanceur": "le Lanceur",
    "surfeur": "le Surfeur",
    "plongeur": "le Plongeur",
    "chest": "le coffre",
}

_ROW_STYLE = {"description_width": "11em"}


def _row_slider(description: str, value: int, css: str) -> w.IntSlider:
    return c.slider(description, 1, 8, value, css)


def position_error(error: AkvoError) -> str:
    """The French sentence for a position the engine refuses."""
    if "below" in str(error):
        return french(
            "Impossible : dans chaque couloir, l’unité de A reste plus près de la plage de A "
            "que celle de B. Les unités ne se croisent jamais et ne partagent pas une case "
            "(R10, R11)."
        )
    return french("Cette position n’existe pas dans le jeu.")


# --- Movement -------------------------------------------------------------------------


def orders_action(unit: str, order: str) -> str:
    """Side A's orders: the chosen unit gets the order, every other unit advances."""
    shoots = order in ("shoot", "rune-shoot")
    lateral = "".join("T" if (name == unit and shoots) else "A" for name in _LATERAL)
    ship = "TT" if unit == "navire" and shoots else "AA"
    return f"orders {lateral} {ship}"


def _movement_choice(state: MatchState, order: str) -> str | None:
    """The decision for the chosen order at A's node, or ``None`` to stop (targets)."""
    legal = state.legal_actions()
    if any(a.startswith("shoot ") for a in legal):
        return None
    with_rune = order in ("advance-rune", "rune-shoot")
    for action in legal:
        if with_rune and action.startswith(("advance +", "move ")):
            return action
    for action in ("advance", "no move", "first barreur", "move first"):
        if action in legal:
            return action
    return legal[0]


@dataclass(frozen=True)
class MoveOutcome:
    """What the engine did with side A's activation: log lines, final state, targets."""

    state: MatchState
    lines: tuple[str, ...]
    targets: tuple[tuple[str, Any], ...]  # (target action, exact value)
    rune_unused: bool  # a Mouvement rune was asked for but the engine offered none


def play_move(rows_a: dict[str, int], rows_b: dict[str, int], unit: str, order: str) -> MoveOutcome:
    """Weather for A, the orders, then A activates ``unit`` until it shoots or is done."""
    state = scenario(turn=1, rows={"A": rows_a, "B": rows_b})
    for action in ("weather A", orders_action(unit, order), "orders AAAA AA"):
        state.apply_action(action)
    before = len(state.events)
    state.apply_action(f"activate {unit}")
    rune_used = False
    for _ in range(MAX_STEPS):
        if state.current_player != 0:
            break
        choice = _movement_choice(state, order)
        if choice is None:
            break
        rune_used |= choice.startswith(("advance +", "move "))
        state.apply_action(choice)
    targets: tuple[tuple[str, Any], ...] = ()
    if state.current_player == 0 and state.phase == Phase.TARGET:
        targets = tuple(target_values(state).items())
    wants_rune = order in ("advance-rune", "rune-shoot")
    return MoveOutcome(state, tuple(state.events[before:]), targets, wants_rune and not rune_used)


def targets_html(targets: Sequence[tuple[str, Any]]) -> str:
    """The targets without Souffle portant (those with it when there is no other), the best
    odds first."""
    plain = [t for t in targets if not t[0].endswith("souffle")] or list(targets)
    items = []
    for action, value in sorted(plain, key=lambda t: -t[1]):
        words = action.split()
        label = TARGET_LABELS[words[1]]
        extra = " (avec Souffle portant)" if words[-1] == "souffle" else ""
        what = "points espérés" if words[1] == "chest" else "chance de repousser"
        shown = decimal(value, 2) if words[1] == "chest" else percent(value)
        items.append(f"<li>{label} de B{extra} : {what} {shown}</li>")
    return french(f'<ul class="akvo-move-targets">{"".join(items)}</ul>')


class MovementLab(w.VBox):  # type: ignore[misc]
    """Choose a lane, the rows of A's and B's units there and A's order; the engine plays
    A's activation first (A is favoured) and shows what happened on the board."""

    def __init__(self, unit: str = "navire", row_a: int = 3, row_b: int = 5) -> None:
        self.unit = c.dropdown("Unité de A", UNITS, unit, "akvo-move-unit")
        self.row_a = _row_slider("Ligne de l’unité de A", row_a, "akvo-move-row-a")
        self.row_b = _row_slider("Ligne de l’unité de B", row_b, "akvo-move-row-b")
        self.order = c.dropdown("Ordre", ORDERS, "advance", "akvo-move-order")
        self.result = c.html("akvo-move-result")
        self.outcome: MoveOutcome | None = None
        self.board = make_board(scenario())
        super().__init__()
        self.children = [
            c.panel(
                [self.unit, self.row_a, self.row_b, self.order, self.result, self.board],
                "akvo-movement-lab",
            )
        ]
        for control in (self.unit, self.row_a, self.row_b, self.order):
            control.observe(self._update, names="value")
        self._update()

    def rows(self) -> tuple[dict[str, int], dict[str, int]]:
        unit = self.unit.value
        return {unit: self.row_a.value}, {unit: self.row_b.value}

    def _update(self, _change: Any = None) -> None:
        rows_a, rows_b = self.rows()
        try:
            outcome = play_move(rows_a, rows_b, self.unit.value, self.order.value)
        except AkvoError as error:
            self.outcome = None
            self.result.value = (
                f'<p class="akvo-note akvo-move-error">{escape(position_error(error))}</p>'
            )
            return
        self.outcome = outcome
        parts = [lines_html(outcome.lines, "akvo-move-lines")] if outcome.lines else []
        if outcome.rune_unused:
            parts.append(
                french(
                    '<p class="akvo-note">Pas de rune de Mouvement ici : la case de plus '
                    "serait occupée ou hors de l’eau, la rune ne peut pas agir (R20).</p>"
                )
            )
        if outcome.targets:
            parts.append(french("<p>Puis il tire : voici les cibles que le moteur propose.</p>"))
            parts.append(targets_html(outcome.targets))
        elif self.order.value in ("shoot", "rune-shoot"):
            parts.append(french("<p>Aucune cible à portée : le tir est perdu.</p>"))
        self.result.value = "".join(parts)
        self.board.state = outcome.state


# --- End of the match -------------------------------------------------------------------


def verdict(
    rows_a: dict[str, int], rows_b: dict[str, int], scores: tuple[int, int], turn: int
) -> tuple[MatchState, list[str]]:
    """The engine's end of the match from this position at the start of ``turn`` (8 or 10),
    every later turn played quietly: the final state and its last log lines."""
    state = scenario(turn=turn, rows={"A": rows_a, "B": rows_b}, scores=list(scores))
    lines = play_quietly_to_the_end(state)
    keep = [line for line in lines if "égalité" in line or line.startswith("Fin du match")]
    return state, keep


class EndOfMatch(w.VBox):  # type: ignore[misc]
    """A final position: the scores, the turn that ends, and the rows lane by lane; the
    engine plays the end (quiet turns: nobody moves) and names the winner (R25)."""

    def __init__(self) -> None:
        self.rows_a = {name: START_ROWS["A"] for _, name in UNITS}
        self.rows_b = {name: START_ROWS["B"] for _, name in UNITS}
        self.rows_a.update(surfeur=5, navire=5)
        self.rows_b.update(pedalair=4, kitesurfeur=4, plongeur=4)
        self.turn = c.dropdown(
            "Dernier tour joué",
            [("Tour 8", 8), ("Tour 10 (après égalité)", 10)],
            10,
            "akvo-end-turn",
        )
        self.score_a = c.slider("Score de A", 0, 8, 2, "akvo-end-score-a")
        self.score_b = c.slider("Score de B", 0, 8, 2, "akvo-end-score-b")
        self.unit = c.dropdown("Couloir", UNITS, "navire", "akvo-end-unit")
        self.row_a = _row_slider("Ligne de l’unité de A", 5, "akvo-end-row-a")
        self.row_b = _row_slider("Ligne de l’unité de B", 6, "akvo-end-row-b")
        self.result = c.html("akvo-end-verdict")
        self.final: MatchState | None = None
        self.board = make_board(scenario(turn=10, rows={"A": self.rows_a, "B": self.rows_b}))
        self._syncing = False
        super().__init__()
        self.children = [
            c.panel(
                [
                    self.turn,
                    self.score_a,
                    self.score_b,
                    self.unit,
                    self.row_a,
                    self.row_b,
                    self.result,
                    self.board,
                ],
                "akvo-end-of-match",
            )
        ]
        self.unit.observe(self._on_unit, names="value")
        for control in (self.turn, self.score_a, self.score_b, self.row_a, self.row_b):
            control.observe(self._update, names="value")
        self._update()

    def _on_unit(self, _change: Any = None) -> None:
        with c.syncing(self):
            self.row_a.value = self.rows_a[self.unit.value]
            self.row_b.value = self.rows_b[self.unit.value]
        self._update()

    def _update(self, _change: Any = None) -> None:
        if self._syncing:
            return
        unit = self.unit.value
        rows_a = dict(self.rows_a, **{unit: self.row_a.value})
        rows_b = dict(self.rows_b, **{unit: self.row_b.value})
        scores = (self.score_a.value, self.score_b.value)
        try:
            final, lines = verdict(rows_a, rows_b, scores, self.turn.value)
        except AkvoError as error:
            self.final = None
            self.result.value = (
                f'<p class="akvo-note akvo-end-error">{escape(position_error(error))}</p>'
            )
            return
        self.rows_a, self.rows_b, self.final = rows_a, rows_b, final
        self.result.value = lines_html(lines, "akvo-end-lines")
        self.board.state = final  # the finished match the lines describe, not its start

    def last_line(self) -> str:
        """The engine's closing sentence (« Fin du match — … »), typographic."""
        assert self.final is not None
        return typeset(self.final.events[-1])
