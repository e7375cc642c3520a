"""How the book's game pages draw a match: the live board when it exists, the engine's SVG
otherwise, and the engine's event log in French typography.

Every game widget asks :func:`board_for` for its board and only ever sets ``board.state``:
that is the whole interface it relies on, so the live :class:`akvo_widgets.board.Board`
(anywidget, clickable) and the static picture below are interchangeable.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from html import escape
from typing import Any

import ipywidgets as w

from akvo.match import MatchState

from .formatting import french

_SIZE = re.compile(r'^<svg([^>]*?) width="\d+" height="\d+"')


class StaticBoard(w.HTML):  # type: ignore[misc]
    """The engine's SVG picture of a state (``state._repr_svg_()``), redrawn when ``state``
    is set; it shrinks to the page's width on a phone."""

    def __init__(self, state: MatchState) -> None:
        super().__init__()
        self.add_class("akvo-board")
        self.add_class("akvo-board-static")
        self._state = state
        self._draw()

    @property
    def state(self) -> MatchState:
        return self._state

    @state.setter
    def state(self, value: MatchState) -> None:
        self._state = value
        self._draw()

    def _draw(self) -> None:
        svg = _SIZE.sub(
            r'<svg\1 style="width:100%;max-width:400px;height:auto"', self._state._repr_svg_()
        )
        self.value = f'<div class="akvo-board-picture" role="img">{svg}</div>'


def board_for(state: MatchState, *, interactive: bool = False) -> Any:
    """A widget drawing ``state`` with a settable ``state``: the live Board if installed."""
    try:
        module = importlib.import_module("akvo_widgets.board")
    except ImportError:
        return StaticBoard(state)
    return module.Board(state, interactive=interactive)


def typographic(text: str) -> str:
    """An engine sentence in the book's typography (’ and no-break spaces)."""
    return french(text.replace("'", "\u2019"))


def log_html(lines: Sequence[str], css: str = "akvo-log") -> str:
    """Event-log lines as an HTML list (each line one ``<li>``)."""
    items = "".join(f"<li>{escape(typographic(line))}</li>" for line in lines)
    return f'<ul class="{css}">{items}</ul>'
