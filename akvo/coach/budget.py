"""Rollout budgets of the analysis, shared by the API and the command line (light to
import: ``akvo --help`` does)."""

from typing import Final

#: Rollouts per option by default (``akvo analyse --rollouts``).
DEFAULT_ROLLOUTS: Final = 16
#: The most rollouts per option an analysis accepts.
MAX_ROLLOUTS: Final = 10_000
