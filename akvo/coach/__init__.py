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

from akvo.coach.chances import OptionChance, WinChances, candidate_options
from akvo.coach.errors import CoachError
from akvo.coach.values import DecisionValues, OptionValue, decision_values

__all__ = [
    "CoachError",
    "DecisionValues",
    "OptionChance",
    "OptionValue",
    "WinChances",
    "candidate_options",
    "decision_values",
]
