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


def _figure(
    marks: list[Any], axes: list[bq.Axis], css_class: str, height: str, left: int = 55
) -> bq.Figure:
    figure = bq.Figure(
        marks=marks,
        axes=axes,
        fig_margin={"top": 10, "bottom": 45, "left": left, "right": 10},
        display_toolbar=False,  # its icons come from a CDN font; zoom has no use here
        layout=w.Layout(width="100%", max_width="36em", height=height),
    )
    figure.add_class(css_class)
    return figure


def error_bar_figure(
    labels: list[str],
    estimates: list[float],
    lows: list[float],
    highs: list[float],
    *,
    y_label: str,
    css_class: str,
    height: str = "260px",
    tick_format: str = "d",
) -> bq.Figure:
    """One point per label with its interval drawn as a vertical bar (bqplot has no error
    bar mark: one two-point line per label)."""
    x_scale = bq.OrdinalScale(domain=labels)
    span = max(highs) - min(lows) if labels else 1.0
    pad = 0.08 * span if span > 0 else 1.0
    y_scale = bq.LinearScale(min=float(min(lows) - pad), max=float(max(highs) + pad))
    scales = {"x": x_scale, "y": y_scale}
    bars = bq.Lines(
        x=np.array([[label, label] for label in labels]),
        y=np.array([[low, high] for low, high in zip(lows, highs, strict=True)], dtype=float),
        scales=scales,
        colors=["#1f77b4"],
        stroke_width=3,
    )
    points = bq.Scatter(
        x=np.array(labels), y=np.array(estimates, dtype=float), scales=scales, colors=["#d62728"]
    )
    axes = [
        bq.Axis(scale=x_scale),
        bq.Axis(scale=y_scale, orientation="vertical", label=y_label, tick_format=tick_format),
    ]
    return _figure([bars, points], axes, css_class, height)


def lines_figure(
    x: list[float],
    series: list[list[float]],
    names: list[str],
    *,
    x_label: str,
    y_label: str,
    css_class: str,
    y_range: tuple[float, float] | None = None,
    diagonal: bool = False,
    markers: bool = False,
    height: str = "260px",
) -> bq.Figure:
    """Several series over one x axis (the page shows their key, a legend inside would
    cover the curves); ``diagonal`` adds the dashed line
    y = x over ``y_range`` (a reliability curve's perfect calibration)."""
    bounds = {} if y_range is None else {"min": y_range[0], "max": y_range[1]}
    y_scale = bq.LinearScale(**bounds)
    x_scale = bq.LinearScale(**bounds) if diagonal else bq.LinearScale()
    scales = {"x": x_scale, "y": y_scale}
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c"]
    marks: list[Any] = []
    if diagonal and y_range is not None:
        marks.append(
            bq.Lines(
                x=np.array(y_range, dtype=float),
                y=np.array(y_range, dtype=float),
                scales=scales,
                colors=["#888888"],
                line_style="dashed",
            )
        )
    marks.append(
        bq.Lines(
            x=np.array(x, dtype=float),
            y=np.array(series, dtype=float),
            scales=scales,
            colors=colours[: len(series)],
            labels=names,
            marker="circle" if markers else None,
        )
    )
    axes = [
        bq.Axis(scale=x_scale, label=x_label),
        bq.Axis(scale=y_scale, orientation="vertical", label=y_label),
    ]
    return _figure(marks, axes, css_class, height)


def grouped_bars_figure(
    x: list[str], counts: np.ndarray, names: list[str], *, x_label: str, css_class: str
) -> tuple[bq.Bars, bq.LinearScale, bq.Figure]:
    """Two series of match counts side by side per x label (the lab's score histograms of A
    and B, the comparison's two readings): one figure for both pages, so that their bars,
    colours and axes read alike. ``counts`` is floats, one row per series (bqplot draws no
    bar from integer 2-D data on an unset scale); the y scale is returned for updates."""
    x_scale = bq.OrdinalScale()
    y_scale = bq.LinearScale(min=0.0, max=float(max(1.0, counts.max())))
    bars = bq.Bars(
        x=np.array(x),
        y=counts,
        scales={"x": x_scale, "y": y_scale},
        type="grouped",
        colors=["#1f77b4", "#ff7f0e"],
        labels=names,
        display_legend=True,
    )
    figure = bq.Figure(
        marks=[bars],
        axes=[
            bq.Axis(scale=x_scale, label=x_label),
            bq.Axis(scale=y_scale, orientation="vertical", label="matchs", tick_format="d"),
        ],
        fig_margin={"top": 10, "bottom": 40, "left": 50, "right": 10},
        display_toolbar=False,  # its icons come from a CDN font; zoom has no use here
        layout=w.Layout(width="100%", max_width="36em", height="240px"),
    )
    figure.add_class(css_class)
    return bars, y_scale, figure
