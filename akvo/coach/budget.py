"""Rollout budgets of the analysis, shared by the API and the command line (light to
import: ``akvo --help`` does)."""

from typing import Final

#: Rollouts per option by default (``akvo analyse --rollouts``).
DEFAULT_ROLLOUTS: Final = 16
#: The most rollouts per option an analysis accepts.
MAX_ROLLOUTS: Final = 10_000

#: The valuation's budget by default (:mod:`akvo.coach.valuation`, ``akvo analyse
#: --budget``): chance nodes expanded per option, rollouts per payoff cell at the orders;
#: « Analyser plus finement » doubles it.
DEFAULT_BUDGET: Final = 1
MAX_BUDGET: Final = 64
