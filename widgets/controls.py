"""Small builders shared by the widgets: labelled controls and HTML tables.

Keeping the look in one place makes every widget read the same way (labels on the left,
keyboard-friendly sliders and drop-downs) and gives each shown number a CSS class the tests
can find.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from html import escape
from typing import Any

import ipywidgets as w

from .formatting import french

_STYLE = {"description_width": "11em"}
_LAYOUT = {"width": "100%", "max_width": "30em"}  # fluid: fits a phone


def slider(description: str, low: int, high: int, value: int, css: str) -> w.IntSlider:
    """An integer slider: arrow keys move it one step, its readout can be typed into."""
    control = w.IntSlider(
        value=value,
        min=low,
        max=high,
        step=1,
        description=description,
        style=_STYLE,
        layout=_LAYOUT,
    )
    control.add_class(css)
    return control


def dropdown(description: str, options: Sequence[tuple[str, Any]], value: Any, css: str) -> Any:
    """A drop-down (an HTML ``select``: keyboard-friendly) over ``(label, value)`` pairs."""
    labelled = [(french(label), choice) for label, choice in options]
    control = w.Dropdown(
        options=labelled, value=value, description=description, style=_STYLE, layout=_LAYOUT
    )
    control.add_class(css)
    return control


def checkbox(description: str, css: str) -> w.Checkbox:
    control = w.Checkbox(value=False, description=description, style=_STYLE, indent=False)
    control.add_class(css)
    return control


def html(css: str) -> w.HTML:
    """An HTML output area carrying the widget's own CSS class."""
    area = w.HTML()
    area.add_class(css)
    return area


def cell(text: str, css: str = "") -> str:
    """One table cell; ``css`` names it for the browser tests."""
    attribute = f' class="{css}"' if css else ""
    return f"<td{attribute}>{text}</td>"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table; ``rows`` hold ready-made ``<td>`` cells (see :func:`cell`)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join(f"<tr>{''.join(r)}</tr>" for r in rows)
    return french(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def panel(children: Sequence[Any], css: str) -> w.VBox:
    box = w.VBox(list(children))
    box.add_class("akvo-widget")
    box.add_class(css)
    return box


@contextmanager
def syncing(owner: Any) -> Iterator[None]:
    """Set several of ``owner``'s controls as one change: while inside, ``owner._syncing``
    is true, so that its observers wait (they check it) instead of reacting to each."""
    owner._syncing = True
    try:
        yield
    finally:
        owner._syncing = False
