"""Weak levels that err as people do: the evaluation's values with noise.

At each decision the bot values a few options with the learned evaluation (through
:func:`akvo.bots.judge.evaluation_for`) and draws one with probability proportional to
``exp(value / temperature)`` (values are win chances, 0–1): an option a little worse
than the best is often played, one much worse rarely — small losses often, big ones
rarely, never uniform moves. Orders: the greedy orders and their neighbours, each valued
by one rollout to the end of the turn against the other side's greedy orders (common
dice; never the hidden orders). Other decisions: a shallow
:class:`~akvo.bots.lookahead.Lookahead` (``cap`` chance nodes per action). The draw is
keyed by the bot's seed and the decision (:func:`~akvo.match.streams.decision_key`).
"""

from __future__ import annotations

import math

from akvo.bots.expert import turn_end
from akvo.bots.judge import Judge
from akvo.bots.judging import JudgingBot
from akvo.bots.search import neighbours
from akvo.match.phases import ORDERS
from akvo.match.state import MatchState
from akvo.match.streams import decision_key


def softmax(values: list[float], temperature: float) -> list[float]:
    """The probabilities ``exp(value / temperature)``, normalised."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def softmax_pick(values: list[float], temperature: float, u: float) -> int:
    """The index drawn by ``u`` ∈ [0, 1) from the softmax of ``values`` at ``temperature``."""
    for index, p in enumerate(softmax(values, temperature)):
        u -= p
        if u < 0:
            return index
    return len(values) - 1


class NoisyBot(JudgingBot):
    """See the module: ``temperature`` (win-chance units) sets how often it errs."""

    def __init__(
        self, seed: object, temperature: float, cap: int = 2, judge: Judge | None = None
    ) -> None:
        super().__init__(seed, cap, judge)
        self.temperature = temperature

    def __call__(self, state: MatchState) -> str:
        key = decision_key(state)
        if state.phase == ORDERS:
            actions, values = self.order_values(state, key)
        else:
            actions = list(state.legal)
            values = self.lookahead.values(state, self.judge(state))
        u = (self.seeds.decision_word(key, 1) >> 11) / 2.0**53
        return actions[softmax_pick(values, self.temperature, u)]

    def mixture(self, state: MatchState) -> dict[str, float]:
        """Each programme it may play at an orders decision, with its probability."""
        actions, values = self.order_values(state, decision_key(state))
        return dict(zip(actions, softmax(values, self.temperature), strict=True))

    def order_values(self, state: MatchState, key: int) -> tuple[list[str], list[float]]:
        side = state.side
        base = self.greedy.orders(state, side)
        actions = [base, *neighbours(base)]
        other = self.greedy.orders(state, 1 - side)
        seed = self.seeds.decision_word(key, 0)
        leaves = [turn_end(state, side, own, other, seed, self.greedy) for own in actions]
        values = [float(c) for c in self.judge(state).win_chances(leaves, side)]  # type: ignore[attr-defined]
        return actions, values
