"""How the book's game pages show a match: the live board and the engine's French log.

Every game widget asks :func:`board_for` for its board and then only sets ``board.state``
(and, for a stepper, listens to :meth:`akvo_widgets.board.Board.on_action`).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from akvo.match import MatchState

from .board import Board
from .formatting import french


def board_for(
    state: MatchState, *, interactive: bool = True, flipped: bool = False, compact: bool = False
) -> Board:
    """The live board of ``state``: a click on a mage shows its advances and its targets
    with the engine's exact odds (the Board's own preview); ``flipped``: seen from B's seat;
    ``compact``: the sticky board of a page whose controls sit under it."""
    return Board(state, interactive=interactive, flipped=flipped, compact=compact)


def typographic(text: str) -> str:
    """An engine sentence in the book's typography (’ and no-break spaces)."""
    return french(text.replace("'", "\u2019"))


def log_html(lines: Sequence[str], css: str = "akvo-log") -> str:
    """Event-log lines as an HTML list (each line one ``<li>``)."""
    items = "".join(f"<li>{escape(typographic(line))}</li>" for line in lines)
    return f'<ul class="{css}">{items}</ul>'
