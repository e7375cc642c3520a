"""The height of a page's sticky board, for what must stay visible just under it.

On a phone the compact board (:mod:`.board`) sticks to the top of the screen and covers
about two thirds of it; a text that must stay readable while the buttons under it scroll
(the tutorial's step) sticks just under the board, at ``top: var(--akvo-board-height)``.
That height changes with the board's status lines and open legend: :class:`BoardHeight`'s
script (``board_height.js``) measures it and writes it on the closest ``.akvo-play`` box.
The match page's decision sheet, stuck to the screen's bottom, gets its height written
the same way (``--akvo-sheet-height``): the board's picture leaves it that room.
It shows nothing and sends nothing to the kernel.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import ipywidgets as widgets

HERE = Path(__file__).resolve().parent


class BoardHeight(anywidget.AnyWidget):  # type: ignore[misc]
    _esm = HERE / "height.js"

    def __init__(self) -> None:
        super().__init__(layout=widgets.Layout(display="none"))
