"""The one kit of the book's game views: the live board, the status line, the event log,
the dice, and the engine's sentences in French typography.

Every game widget — the chapters' steppers and positions, the play pages (a match, a
replay, the first turn, the exercises) — builds its board with :func:`make_board` and then
only sets ``board.state`` (clicks come back through ``on_action``), and shows the engine's
sentences through :func:`typeset`: :func:`log_html` for a match's running log (newest
first), :func:`lines_html` for the few sentences of one move (in order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from akvo.match import MatchState, Phase
from akvo.match.board import SIDE_NAMES
from akvo_widgets.text.formatting import NBSP, decimal, percent, tier_numeral, typeset
from akvo_widgets.text.labels import faces

from .widget import Board

#: The running log shows this many of the latest events.
LOG_LINES = 14

__all__ = [
    "LOG_LINES",
    "lines_html",
    "log_html",
    "make_board",
    "roll_html",
    "status_html",
    "typeset",
    "value_text",
]


def make_board(
    state: MatchState,
    viewer: int | None = None,
    on_action: Callable[[str], None] | None = None,
    *,
    interactive: bool = True,
    flipped: bool | None = None,
    compact: bool = False,
) -> Board:
    """The book's live :class:`~akvo_widgets.board.widget.Board` of ``state``: a click on a mage
    shows its advances and its targets with the engine's exact odds; its clicks go to
    ``on_action``; ``viewer`` is the seat it is seen from (``None``: both sides' view),
    ``flipped`` puts B's beach at the bottom, ``compact`` makes the sticky board of a page
    whose controls sit under it."""
    board = Board(state, viewer=viewer, interactive=interactive, flipped=flipped, compact=compact)
    if on_action is not None:
        board.on_action(on_action)
    return board


def status_html(state: MatchState, moment: str = "") -> str:
    """Turn, tier, scores and who decides, about the position shown: always visible on
    the play pages; ``moment`` (a replay's « après le coup 12 ») replaces who decides."""
    a, b = state.scores
    if moment:
        who = moment
    elif state.is_terminal():
        who = "match terminé"
    elif state.is_chance_node():
        who = "jeton météo à tirer" if state.phase == Phase.WEATHER else "dés à lancer"
    else:
        who = f"à {SIDE_NAMES[state.current_player]} de décider"
    parts = (
        f"Tour{NBSP}{state.turn}",
        f"palier{NBSP}{tier_numeral(state.tier)}",
        f"A{NBSP}{a}{NBSP}–{NBSP}{b}{NBSP}B",
        who,
    )
    moves = len(state.history)  # changes with every decision: tests wait on it
    line = " · ".join(parts)
    return f'<div class="akvo-play-status-line" data-moves="{moves}">{line}</div>'


def _items(lines: Sequence[str]) -> str:
    return "".join(f"<li>{escape(typeset(line))}</li>" for line in lines)


def log_html(events: Sequence[str], lines: int = LOG_LINES) -> str:
    """A match's running log: its last ``lines`` events, the newest first."""
    shown = list(events[-lines:])
    return f'<ol class="akvo-play-events" reversed>{_items(shown[::-1])}</ol>'


def lines_html(lines: Sequence[str], css: str = "akvo-log") -> str:
    """The sentences of one move or passage, in order (each one ``<li>``)."""
    return f'<ul class="{css}">{_items(lines)}</ul>'


def roll_html(rolls: list[tuple[str, str]], lines: int = 3) -> str:
    """The last rolls in the order they were rolled (a shot's attack before its defence):
    what was rolled (the engine's prompt) and the dice as faces."""
    if not rolls:
        return '<p class="akvo-play-noroll">Aucun dé lancé pour l’instant.</p>'
    items = "".join(
        f'<li>{escape(typeset(prompt))} <span class="akvo-play-faces">'
        f"{escape(faces(action))}</span></li>"
        for prompt, action in rolls[-lines:]
    )
    return f'<ul class="akvo-play-rolls">{items}</ul>'


def value_text(action: str, value: Any) -> str:
    """A target's exact value as the calculators show it: P(push) or expected points."""
    if " chest" in action:
        return f"{decimal(value, 2)}{NBSP}point en moyenne"
    return f"{percent(value)} de recul"
