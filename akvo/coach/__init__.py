"""The coach: what each option of a decision is worth now and for the match, and the
mistakes of a finished match.

- :func:`decision_values` (:mod:`akvo.coach.values`): the exact immediate value of every
  legal action at a decision node, with what it measures and assumes, and the « normal »
  bot's suggestion;
- :class:`WinChances` (:mod:`akvo.coach.chances`): the estimated chance of winning the
  match after each option, from rollouts of the greedy bot on common random numbers, with
  95 % intervals, refinable while the reader thinks;
- :func:`akvo.coach.valuation.valuation`: the one valuation — every option of a
  decision on the win-chance scale with its interval, exact measure and French reason; the
  suggestion is its best option;
- :func:`akvo.coach.review.review`: the post-match review on it, behind
  ``akvo analyse`` — stable verdicts, luck (:mod:`akvo.coach.luck`), ratings
  (:mod:`akvo.coach.rating`), the annotated move list, :func:`refine`;
- :func:`mistake_exercises` (:mod:`akvo.coach.exercises`): mistakes as exercises on a
  spaced schedule.

``review`` and ``valuation`` are imported from their modules, not from here: once a module
of the same name is imported, ``akvo.coach.review`` is that module, not the function.

Pure Python over the engine's public API: no Jupyter, no widgets (the pages build on it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from akvo.coach.errors import CoachError

if TYPE_CHECKING:
    from akvo.coach.chances import OptionChance, WinChances, candidate_options
    from akvo.coach.exercises import mistake_exercises
    from akvo.coach.review import Review, refine
    from akvo.coach.valuation import OptionWorth, Valuation
    from akvo.coach.values import DecisionValues, OptionValue, decision_values

#: Where each name lives: imported on first use, so that ``akvo --help`` stays light.
_HOMES = {
    "OptionChance": "chances",
    "WinChances": "chances",
    "candidate_options": "chances",
    "DecisionValues": "values",
    "OptionValue": "values",
    "decision_values": "values",
    "OptionWorth": "valuation",
    "Valuation": "valuation",
    "Review": "review",
    "refine": "review",
    "mistake_exercises": "exercises",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'akvo.coach' has no attribute {name!r}")
    return getattr(importlib.import_module(f"akvo.coach.{_HOMES[name]}"), name)


__all__ = [
    "CoachError",
    "DecisionValues",
    "OptionChance",
    "OptionValue",
    "OptionWorth",
    "Review",
    "Valuation",
    "WinChances",
    "candidate_options",
    "decision_values",
    "mistake_exercises",
    "refine",
]
