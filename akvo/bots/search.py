"""The « fort » bot: flat Monte Carlo search over the orders, with greedy rollouts.

Programming the orders is the one secret, simultaneous decision of a turn and the one that
shapes it. At each orders decision the bot takes the greedy bot's orders and their
neighbours (one unit's token changed) as candidates and scores each by ``budget`` rollouts:
the match is played to its end by greedy bots from a copy of the state, and scored
``win − loss + score difference / 10``. Rollout ``k`` of every candidate draws its dice from
the same :class:`~akvo.match.streams.KeyedChance` (common random numbers keyed by event), so
candidates are compared on the same dice wherever they shoot the same shot; the rollouts'
seeds are keyed by the bot's seed and the decision (:func:`~akvo.match.streams.decision_key`),
so two readings of a rule that reach the same decision roll out on the same seeds.

It never peeks: when B programs, A's orders are already in the state but hidden from B; each
rollout replaces them on its copy by a *determinisation* sampled from B's model of A (the
greedy orders, one token changed at random half of the time). When A programs, B's orders
are not chosen yet and the rollout's B chooses them the same way. Every other decision is
the greedy bot's. ``budget`` (rollouts per candidate) is the strength/speed knob.
"""

from __future__ import annotations

import random

from akvo.bots.greedy import GreedyBot
from akvo.bots.values import target_worths
from akvo.errors import AkvoError
from akvo.match.actions import ORDER_ACTIONS, SHIP_TOKENS
from akvo.match.board import CHARS
from akvo.match.core import CHANCE, TERMINAL
from akvo.match.phases import ORDERS
from akvo.match.preview import CHEST_NAME
from akvo.match.state import MatchState
from akvo.match.streams import KeyedChance, decision_key

#: Rollouts per candidate by default.
DEFAULT_BUDGET = 4
#: Turns a rollout plays beyond the current one before it is scored (None: to the end).
DEFAULT_HORIZON = 1
#: Points a chest shot in range is worth to the evaluation of a cut-off rollout.
THREAT_WEIGHT = 0.5
_SHIPS = SHIP_TOKENS
_CHEST = f"shoot {CHEST_NAME}"


class SearchBot:
    """Monte Carlo rollouts at the orders decisions; greedy everywhere else."""

    def __init__(
        self,
        seed: int | None = None,
        budget: object = DEFAULT_BUDGET,
        horizon: object = DEFAULT_HORIZON,
    ) -> None:
        """``budget``: rollouts per decision (an int ≥ 1); ``horizon``: turns looked ahead
        (an int ≥ 0) or None. Checked here, hence typed ``object`` (see akvo.compiled)."""
        if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
            raise AkvoError(f"budget must be a positive number of rollouts, got {budget!r}")
        if horizon is not None and (not isinstance(horizon, int) or horizon < 0):
            raise AkvoError(f"horizon must be a number of turns ≥ 0 or None, got {horizon!r}")
        self.budget: int = budget
        self.horizon: int | None = horizon if isinstance(horizon, int) else None
        self.seeds = KeyedChance(random.getrandbits(64) if seed is None else seed)
        self.greedy = GreedyBot(self.seeds.decision_word(0) >> 32)
        self.rollout_bots = (GreedyBot(1), GreedyBot(2))

    def __call__(self, state: MatchState) -> str:
        if state.phase != ORDERS:
            return self.greedy(state)
        return self.orders(state)

    def orders(self, state: MatchState) -> str:
        side = state.side
        base = self.greedy.orders(state, side)
        candidates = [base, *neighbours(base)]
        key = decision_key(state)
        seeds = [self.seeds.decision_word(key, k) for k in range(self.budget)]
        best, best_score = base, float("-inf")
        for candidate in candidates:
            score = 0.0
            for seed in seeds:
                score += self._rollout(state, side, candidate, seed)
            if score > best_score:
                best, best_score = candidate, score
        return best

    def opponent_orders(self, state: MatchState, side: int, rng: random.Random) -> str:
        """A determinisation of ``side``'s orders from public information only."""
        orders = self.greedy.orders(state, side)
        if rng.random() < 0.5:
            orders = rng.choice(neighbours(orders))
        return orders

    def _rollout(self, state: MatchState, side: int, candidate: str, seed: int) -> float:
        """One rollout: dice keyed by event from ``seed``, the other side's hidden or future
        orders sampled from a generator of the same seed."""
        rng = random.Random(seed)
        dice = KeyedChance(seed)
        copy = state.copy()
        copy.log = False  # a rollout's French log is never read
        if side == 1:  # A's orders are hidden from B: replace them on the copy
            copy.orders[0] = ORDER_ACTIONS[self.opponent_orders(state, 0, rng)]
        copy.apply_action(candidate)
        bots = self.rollout_bots
        last = copy.turn + self.horizon if self.horizon is not None else 99
        while True:
            player = copy.player
            if player == TERMINAL:
                break
            if copy.turn > last:
                return evaluate(copy, side)
            if player == CHANCE:
                dice.apply(copy)
            elif copy.phase == ORDERS and player != side:
                copy.apply_action(self.opponent_orders(copy, player, rng))
            else:
                copy.apply_action(bots[player](copy))
        mine, theirs = copy.scores[side], copy.scores[1 - side]
        outcome = 1.0 if copy.winner == side else 0.0 if copy.winner == 2 else -1.0
        return outcome + (mine - theirs) / 10


def evaluate(state: MatchState, side: int) -> float:
    """A cut-off rollout's score for ``side``: the score difference plus the worth of each
    side's chest shots in range (its threat for the coming turns)."""
    threat = [0.0, 0.0]
    for s in (0, 1):
        for character in range(CHARS):
            threat[s] += target_worths(state, s, character).get(_CHEST, 0.0)
    mine, theirs = state.scores[side], state.scores[1 - side]
    return (mine - theirs + THREAT_WEIGHT * (threat[side] - threat[1 - side])) / 10


def neighbours(action: str) -> list[str]:
    """Orders that differ from ``action`` by one unit's token (the ship: any other token)."""
    lateral, ship = action.split()[1:]
    out = []
    for index, token in enumerate(lateral):
        flipped = lateral[:index] + ("A" if token == "T" else "T") + lateral[index + 1 :]
        out.append(f"orders {flipped} {ship}")
    out += [f"orders {lateral} {other}" for other in _SHIPS if other != ship]
    return out
