"""The coach: what each option of a decision is worth now and for the match, and the
mistakes of a finished match.

- :func:`decision_values` (:mod:`akvo.coach.values`): the exact immediate value of every
  legal action at a decision node, with what it measures and assumes, and the « normal »
  bot's suggestion;
- :class:`WinChances` (:mod:`akvo.coach.chances`): the estimated chance of winning the
  match after each option, from rollouts of the greedy bot on common random numbers, with
  95 % intervals, refinable while the reader thinks;
- :func:`analyse` (:mod:`akvo.coach.analysis`): the post-match analysis of a record, on
  Dask, behind ``akvo analyse``.

Pure Python over the engine's public API: no Jupyter, no widgets (the pages build on it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from akvo.coach.errors import CoachError

if TYPE_CHECKING:
    from akvo.coach.analysis import Analysis, analyse
    from akvo.coach.chances import OptionChance, WinChances, candidate_options
    from akvo.coach.values import DecisionValues, OptionValue, decision_values

#: Where each name lives: imported on first use, so that ``akvo --help`` stays light.
_HOMES = {
    "Analysis": "analysis",
    "analyse": "analysis",
    "OptionChance": "chances",
    "WinChances": "chances",
    "candidate_options": "chances",
    "DecisionValues": "values",
    "OptionValue": "values",
    "decision_values": "values",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'akvo.coach' has no attribute {name!r}")
    return getattr(importlib.import_module(f"akvo.coach.{_HOMES[name]}"), name)


__all__ = [
    "Analysis",
    "CoachError",
    "DecisionValues",
    "OptionChance",
    "OptionValue",
    "WinChances",
    "analyse",
    "candidate_options",
    "decision_values",
]
