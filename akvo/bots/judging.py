"""What the bots that judge positions by the evaluation share (« expert » and the noisy
levels): draws keyed by their seed and the decision, the greedy bot for the rest of a
lookahead or a rollout, the exact-dice :class:`~akvo.bots.lookahead.Lookahead`, and the
evaluation (:func:`akvo.bots.judge.evaluation_for` unless one is given)."""

from __future__ import annotations

import random

from akvo.bots.greedy import GreedyBot
from akvo.bots.judge import Judge, evaluation_for
from akvo.bots.lookahead import Lookahead
from akvo.bots.registry import BotError
from akvo.errors import require_seed
from akvo.match.state import MatchState
from akvo.match.streams import KeyedChance


class JudgingBot:
    """The shared part (see the module); ``cap``: the lookahead's chance nodes per action."""

    def __init__(self, seed: object, cap: int, judge: Judge | None) -> None:
        checked = require_seed("seed", seed, BotError)
        self.seeds = KeyedChance(random.getrandbits(64) if checked is None else checked)
        self.greedy = GreedyBot(0)
        self.lookahead = Lookahead(self.greedy, cap)
        self._judge = judge

    def judge(self, state: MatchState) -> Judge:
        return self._judge if self._judge is not None else evaluation_for(state.rules)
