"""bqplot figures shared by the widgets: built once, then updated in place by the widgets."""

from __future__ import annotations

from typing import Any

import bqplot as bq
import ipywidgets as w
import numpy as np


def heatmap_figure(
    rows: list[str],
    columns: list[str],
    *,
    scheme: str,
    css_class: str,
    width: str,
    left_margin: int,
    column_axis: dict[str, Any] | None = None,
) -> tuple[bq.GridHeatMap, bq.ColorScale, bq.Figure]:
    """A rows × columns heat map (first row on top, as in the tables beside it), coloured
    from 0 to 1 until the widget sets its colour range and data."""
    row_scale = bq.OrdinalScale(reverse=True)
    column_scale = bq.OrdinalScale()
    colours = bq.ColorScale(scheme=scheme, min=0.0, max=1.0)
    heatmap = bq.GridHeatMap(
        row=rows,
        column=columns,
        color=np.zeros((len(rows), len(columns))),
        scales={"row": row_scale, "column": column_scale, "color": colours},
        stroke="white",
    )
    bottom = 40 if column_axis and "label" in column_axis else 30
    figure = bq.Figure(
        marks=[heatmap],
        axes=[
            bq.Axis(scale=row_scale, orientation="vertical"),
            bq.Axis(scale=column_scale, **(column_axis or {})),
        ],
        fig_margin={"top": 10, "bottom": bottom, "left": left_margin, "right": 10},
        display_toolbar=False,  # its icons come from a CDN font; zoom has no use here
        layout=w.Layout(width="100%", max_width=width, height="260px"),
    )
    figure.add_class(css_class)
    return heatmap, colours, figure
