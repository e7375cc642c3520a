"""Small builders shared by the widgets: labelled controls and HTML tables.

Keeping the look in one place makes every widget read the same way (labels on the left,
keyboard-friendly sliders and drop-downs) and gives each shown number a CSS class the tests
can find.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from html import escape
from typing import Any

import ipywidgets as w

from akvo_widgets.text.formatting import french

_STYLE = {"description_width": "11em"}
_LAYOUT = {"width": "100%", "max_width": "40em"}  # fluid: fits a phone, long options fit too


def described(control: type[Any], description: str, **options: Any) -> Any:
    """``control(description=…, **options)`` whose label's hover title is its description:
    without a ``tooltip``, ipywidgets 8 writes the title "null", which the browser shows on
    hover (and a label cut short by its width shows its whole text there)."""
    return control(description=description, tooltip=description, **options)


def _labelled(kind: Any, description: str, css: str, **settings: Any) -> Any:
    """A ``kind`` control labelled ``description`` (:func:`described`), in the book's
    style, carrying the CSS class ``css``."""
    control = described(kind, description, style=_STYLE, **settings)
    control.add_class(css)
    return control


def slider(description: str, low: int, high: int, value: int, css: str) -> w.IntSlider:
    """An integer slider: arrow keys move it one step, its readout can be typed into."""
    return _labelled(
        w.IntSlider, description, css, value=value, min=low, max=high, step=1, layout=_LAYOUT
    )


def dropdown(description: str, options: Sequence[tuple[str, Any]], value: Any, css: str) -> Any:
    """A drop-down (an HTML ``select``: keyboard-friendly) over ``(label, value)`` pairs."""
    labelled = [(french(label), choice) for label, choice in options]
    return _labelled(w.Dropdown, description, css, options=labelled, value=value, layout=_LAYOUT)


def checkbox(description: str, css: str) -> w.Checkbox:
    return _labelled(w.Checkbox, description, css, value=False, indent=False)


def html(*css: str) -> w.HTML:
    """An HTML output area carrying the widget's own CSS classes."""
    area = w.HTML()
    for name in css:
        area.add_class(name)
    return area


def button(
    description: str, css: str, on_click: Callable[[], object] | None = None, **options: Any
) -> w.Button:
    """A button carrying its CSS class; ``on_click()`` runs on each press (click or key)."""
    control = w.Button(description=description, **options)
    control.add_class(css)
    if on_click is not None:
        control.on_click(lambda _button: on_click())
    return control


def cell(text: str, css: str = "") -> str:
    """One table cell; ``css`` names it for the browser tests."""
    attribute = f' class="{css}"' if css else ""
    return f"<td{attribute}>{text}</td>"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table; ``rows`` hold ready-made ``<td>`` cells (see :func:`cell`)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join(f"<tr>{''.join(r)}</tr>" for r in rows)
    return french(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


#: Above a table that may be wider than a phone: shown only while its box can still scroll
#: to the right (the book's CSS, a scroll-state container query), beside the edge shadows.
SCROLL_CUE = (
    '<p class="akvo-scroll-cue" aria-hidden="true">'
    "Faites glisser le tableau vers la gauche pour voir la suite\u00a0→</p>"
)


def wide_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A :func:`table` with many columns, and its cue for the reader of a narrow screen."""
    return SCROLL_CUE + table(header, rows)


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
