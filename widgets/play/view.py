"""Shared pieces of the play pages: the book's live board, the status line, the event log,
dice, and French typesetting of the engine's sentences."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from akvo.match import MatchState
from akvo.match.board import SIDE_NAMES

from ..board import Board
from ..formatting import NBSP, decimal, french, percent, tier_numeral
from .labels import faces

LOG_LINES = 14


def typeset(text: str) -> str:
    """An engine sentence in French typography: ’ apostrophes, no-break spaces."""
    return french(text.replace("'", "’"))


def make_board(
    state: MatchState,
    viewer: int | None,
    on_action: Callable[[str], None],
    *,
    interactive: bool = True,
    compact: bool = False,
) -> Board:
    """The book's live :class:`~akvo_widgets.board.Board`, its clicks sent to ``on_action``
    (``compact``: the sticky board of the pages where one decides under it, on a phone)."""
    board = Board(state, viewer=viewer, interactive=interactive, compact=compact)
    board.on_action(on_action)
    return board


def status_html(state: MatchState) -> str:
    """Turn, tier, scores and who decides: always visible on the play pages."""
    a, b = state.scores
    if state.is_terminal():
        who = "match terminé"
    elif state.is_chance_node():
        who = "les dés roulent"
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


def log_html(events: list[str], lines: int = LOG_LINES) -> str:
    shown = events[-lines:]
    items = "".join(f"<li>{escape(typeset(e))}</li>" for e in reversed(shown))
    return f'<ol class="akvo-play-events" reversed>{items}</ol>'


def roll_html(rolls: list[tuple[str, str]], lines: int = 3) -> str:
    """The last rolls: what was rolled (the engine's prompt) and the dice as faces."""
    if not rolls:
        return '<p class="akvo-play-noroll">Aucun dé lancé pour l’instant.</p>'
    items = "".join(
        f'<li>{escape(typeset(prompt))} <span class="akvo-play-faces">'
        f"{escape(faces(action))}</span></li>"
        for prompt, action in reversed(rolls[-lines:])
    )
    return f'<ul class="akvo-play-rolls">{items}</ul>'


def value_text(action: str, value: Any) -> str:
    """A target's exact value as the calculators show it: P(push) or expected points."""
    if " chest" in action:
        return f"{decimal(value, 2)}{NBSP}point en moyenne"
    return f"{percent(value)} de recul"
