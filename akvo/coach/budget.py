"""The valuation's budgets, shared by the API and the command line (light to import:
``akvo --help`` does)."""

from typing import Final

#: The valuation's budget by default (:mod:`akvo.coach.valuation`, ``akvo analyse
#: --budget``): chance nodes expanded per option, rollouts per payoff cell at the orders;
#: « Analyser plus finement » doubles it.
DEFAULT_BUDGET: Final = 1
MAX_BUDGET: Final = 64
