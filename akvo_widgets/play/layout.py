"""The play pages' main row, shared by « Jouer un match » and the tutorial: both show the
live board beside one column (the decision's sheet, then the page's own blocks), wrapping
under it on a narrow screen; the CSS of :data:`.game.STYLE` reads these classes."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets


def board_beside(board: widgets.Widget, column: Sequence[widgets.Widget]) -> widgets.HBox:
    """The board and the side ``column`` in one row that wraps (board first, both able to
    grow: 22em and 20em to start with)."""
    side = widgets.VBox(list(column))
    side.layout.flex = "1 1 20em"
    side.add_class("akvo-play-side")
    board.layout.flex = "1 1 22em"
    main = widgets.HBox([board, side])
    main.layout.flex_flow = "row wrap"
    main.add_class("akvo-play-main")
    return main
