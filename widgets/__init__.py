"""akvo_widgets — the book's live widgets, thin ipywidgets/bqplot views over :mod:`akvo`.

The widget classes are imported lazily, so a page that shows only a roll calculator does not
pay for the shot or duel modules (scipy, bqplot marks it does not use).
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "Board": "akvo_widgets.board",
    "RollCalculator": "akvo_widgets.roll",
    "ShotCalculator": "akvo_widgets.shot",
    "WindMatrix": "akvo_widgets.matrix",
    "RuneDuel": "akvo_widgets.duel",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'akvo_widgets' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
