"""The « expert » bot: regret matching over sampled orders, exact lookahead elsewhere.

- **Orders** (secret and simultaneous, R9): candidate programmes for both sides — the
  greedy bot's orders, their neighbours (one unit's token changed) and a per-unit sample
  (each token changed with probability :data:`FLIP`) for itself; the greedy orders and
  their neighbours for the other side, from public information only. Each cell of the
  payoff matrix (its candidate × theirs) is the mean, over ``budget`` rollouts, of the
  learned win chance (:mod:`akvo.eval`, through :func:`akvo.bots.judge.evaluation_for`) at
  the end of the turn, the turn played by greedy bots. Rollout ``k`` of every cell draws
  its dice from the same :class:`~akvo.match.streams.KeyedChance` (common random numbers),
  keyed by the bot's seed and the decision. The matrix is solved by regret matching
  (:mod:`akvo.bots.matrix`), then one round of the double oracle widens it: each side's
  :data:`ORACLE_ADDS` best responses among all 64 programmes against the other's strategy
  join it, and it is solved again (without that round a best response that knew its
  strategy gained 6.4 win-chance points; with it, 1.5: :mod:`akvo.lab.exploitability`).
  The bot plays its mixed strategy, sampled from its seed.
  It never reads the other side's hidden orders: when B programs, A's orders are in the
  state but hidden, and each column replaces them on its copy by that column's candidate
  (a determinisation).
- **Every other decision** (activation order, Ultimes, targets, runes, Relance, prodige,
  Rouleau, Trident): :class:`~akvo.bots.lookahead.Lookahead`, to the end of the current
  activation over the exact dice outcomes, the evaluation at the leaves. The greedy bot's
  action is played unless another's expected win chance beats it by :data:`MARGIN`: without
  the margin the evaluation's error picked noise (search's orders with the lookahead
  elsewhere took 0.29 of the points against « fort » on 6 paired deals; with a margin of
  0.03, 0.57 on 7).

``budget`` (rollouts per cell) is the strength/speed knob.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from akvo.bots.greedy import GreedyBot
from akvo.bots.judge import Judge
from akvo.bots.judging import JudgingBot
from akvo.bots.lookahead import DEFAULT_CAP
from akvo.bots.registry import BotOption, BotSpec, positive_int
from akvo.bots.search import neighbours
from akvo.match.actions import ORDER_ACTION_LIST, ORDER_ACTIONS, SHIP_TOKENS
from akvo.match.core import CHANCE, TERMINAL
from akvo.match.phases import ORDERS, WEATHER
from akvo.match.state import MatchState
from akvo.match.streams import KeyedChance, decision_key

#: Rollouts per payoff-matrix cell by default (2 until 2026-12-07: about 0.07 s of one core
#: a decision; 6 with the double oracle's round, about 0.5 s, benchmarks/results/bots.md).
DEFAULT_BUDGET: Final = 6
#: Per-unit sampled candidates beyond the greedy orders and their neighbours.
SAMPLES: Final = 4
#: Chance a sampled candidate changes each unit's token.
FLIP: Final = 0.3
#: A strategy's probabilities below this are dropped before it is sampled (regret
#: matching's average keeps a little of every row it tried).
PURIFY: Final = 0.03
#: Word indices of a decision's stream (rollout seeds use 0 … budget − 1).
_CANDIDATE_WORD, _PLAY_WORD = 1 << 16, 1 << 17
#: Programmes each side gains from the double oracle's round, and the rollouts a cell that
#: screen the 64 programmes for them.
ORACLE_ADDS: Final = 2
ORACLE_ROLLOUTS: Final = 2
#: Win-chance points by which the lookahead's best action must beat the greedy bot's to be
#: played instead: the evaluation's error, a few points, would otherwise pick noise.
MARGIN: Final = 0.03


class ExpertBot(JudgingBot):
    """See the module. ``budget``: rollouts per cell; ``cap``: the lookahead's chance nodes
    per action; ``judge``: an evaluation (default: the learned one for the rules)."""

    def __init__(
        self,
        seed: object = None,
        budget: object = DEFAULT_BUDGET,
        cap: object = DEFAULT_CAP,
        judge: Judge | None = None,
        margin: float = MARGIN,
    ) -> None:
        super().__init__(seed, int(positive_int("cap", "nodes")(cap)), judge)  # type: ignore[call-overload]
        self.budget = int(positive_int("budget", "rollouts")(budget))  # type: ignore[call-overload]
        self.margin = margin

    def __call__(self, state: MatchState) -> str:
        if state.phase == ORDERS:
            return self.orders(state)
        values = self.lookahead.values(state, self.judge(state))
        best = max(range(len(values)), key=lambda i: (values[i], -i))
        usual = state.legal.index(self.greedy(state))
        return state.legal[best if values[best] - values[usual] > self.margin else usual]

    # --- the orders ---------------------------------------------------------------------------
    def candidates(self, state: MatchState, side: int, key: int) -> list[str]:
        """Greedy orders, their neighbours, and :data:`SAMPLES` per-unit samples."""
        base = self.greedy.orders(state, side)
        out = [base, *neighbours(base)]
        rng = random.Random(self.seeds.decision_word(key, _CANDIDATE_WORD))
        for _ in range(SAMPLES):
            lateral, ship = base.split()[1:]
            tokens = [("A" if t == "T" else "T") if rng.random() < FLIP else t for t in lateral]
            if rng.random() < FLIP:
                ship = rng.choice([s for s in SHIP_TOKENS if s != ship])
            candidate = f"orders {''.join(tokens)} {ship}"
            if candidate not in out:
                out.append(candidate)
        return out

    def payoffs(self, state: MatchState) -> tuple[list[str], list[str], list[list[float]]]:
        """Its candidates, the other side's, and the matrix of its win chances: the sampled
        candidates, then one round of the double oracle (McMahan et al. 2003): against
        the restricted game's strategies, the :data:`ORACLE_ADDS` best responses of each
        side among all 64 programmes (screened on :data:`ORACLE_ROLLOUTS` rollouts, the
        support only) join the matrix at the full budget."""
        from akvo.bots.matrix import regret_matching

        side, key, judge = state.side, decision_key(state), self.judge(state)
        mine = self.candidates(state, side, key)
        base = self.greedy.orders(state, 1 - side)
        theirs = [base, *neighbours(base)]
        seeds = [self.seeds.decision_word(key, k) for k in range(self.budget)]
        matrix = turn_end_matrix(state, mine, theirs, seeds, judge)
        x, y = regret_matching(matrix)
        screen = seeds[:ORACLE_ROLLOUTS]
        # The other side's best responses: lowest win chance for us against x.
        rows = [(a, p) for a, p in zip(mine, x.tolist(), strict=True) if p >= PURIFY]
        others = [a for a in ORDER_ACTION_LIST if a not in theirs]
        screened = turn_end_matrix(state, [a for a, _ in rows], others, screen, judge)
        value = [
            sum(p * r[j] for (_, p), r in zip(rows, screened, strict=True))
            for j in range(len(others))
        ]
        new_theirs = [
            others[j] for j in sorted(range(len(others)), key=value.__getitem__)[:ORACLE_ADDS]
        ]
        # Its own best responses against y.
        columns = [(a, p) for a, p in zip(theirs, y.tolist(), strict=True) if p >= PURIFY]
        own = [a for a in ORDER_ACTION_LIST if a not in mine]
        screened = turn_end_matrix(state, own, [a for a, _ in columns], screen, judge)
        value = [sum(p * v for (_, p), v in zip(columns, r, strict=True)) for r in screened]
        new_mine = [own[i] for i in sorted(range(len(own)), key=lambda i: -value[i])[:ORACLE_ADDS]]
        extra = turn_end_matrix(state, mine, new_theirs, seeds, judge)
        matrix = [row + more for row, more in zip(matrix, extra, strict=True)]
        theirs += new_theirs
        matrix += turn_end_matrix(state, new_mine, theirs, seeds, judge)
        return mine + new_mine, theirs, matrix

    def strategy(self, state: MatchState) -> tuple[list[str], list[float]]:
        """Its candidates and the probability it plays each (regret matching, purified)."""
        mine, _ = self.equilibrium(state)
        return list(mine), list(mine.values())

    def equilibrium(self, state: MatchState) -> tuple[dict[str, float], dict[str, float]]:
        """Its mixed strategy (purified) and the one it expects of the other side, each
        programme with its probability: regret matching on :meth:`payoffs`."""
        from akvo.bots.matrix import regret_matching

        mine, theirs, matrix = self.payoffs(state)
        x, y = regret_matching(matrix)
        kept = [p if p >= PURIFY else 0.0 for p in x.tolist()]
        total = sum(kept)
        return (
            {action: p / total for action, p in zip(mine, kept, strict=True)},
            dict(zip(theirs, y.tolist(), strict=True)),
        )

    def orders(self, state: MatchState) -> str:
        mine, probabilities = self.strategy(state)
        u = (self.seeds.decision_word(decision_key(state), _PLAY_WORD) >> 11) / 2.0**53
        for action, p in zip(mine, probabilities, strict=True):
            u -= p
            if u < 0:
                return action
        return mine[max(range(len(mine)), key=probabilities.__getitem__)]


def turn_end_matrix(
    state: MatchState,
    mine: Sequence[str],
    theirs: Sequence[str],
    seeds: Sequence[int],
    judge: Judge,
) -> list[list[float]]:
    """The side programming's win chance (``judge``) at the end of the turn, each of its
    orders ``mine`` against each of ``theirs``, averaged over the dice of ``seeds`` (common
    to every cell), the turn played by greedy bots (:func:`turn_end`): one row a programme."""
    side, greedy = state.side, GreedyBot(0)
    leaves = [
        turn_end(state, side, own, other, seed, greedy)
        for own in mine
        for other in theirs
        for seed in seeds
    ]
    chances = [float(c) for c in judge.win_chances(leaves, side)]  # type: ignore[attr-defined]
    n, width = len(seeds), len(theirs)
    cells = [sum(chances[i : i + n]) / n for i in range(0, len(chances), n)]
    return [cells[r * width : (r + 1) * width] for r in range(len(mine))]


def turn_end(state: MatchState, side: int, own: str, other: str, seed: int, bot: Any) -> MatchState:
    """A copy of ``state`` (``side`` programming) played to the end of the turn with
    ``own`` orders against ``other``'s (which replace the hidden ones when ``side`` is B),
    dice keyed by ``seed``, every other decision ``bot``'s."""
    copy = state.copy()
    copy.log = False
    if side == 1:  # A's orders are hidden from B: a determinisation replaces them
        copy.orders[0] = ORDER_ACTIONS[other]
    copy.apply_action(own)
    if copy.player == 1 - side and copy.phase == ORDERS:
        copy.apply_action(other)
    dice = KeyedChance(seed)
    while True:
        player = copy.player
        if player == TERMINAL:
            return copy
        if player == CHANCE:
            if copy.phase == WEATHER:
                return copy
            dice.apply(copy)
        elif copy.phase == ORDERS:
            return copy
        else:
            copy.apply_action(bot(copy))


SPEC = BotSpec(
    name="expert",
    label="expert",
    description=(
        "choisit ses ordres comme un joueur de poker, en mélangeant ses options face à celles "
        "qu’il prête à l’adversaire, et calcule ailleurs chaque résultat possible des dés"
    ),
    factory=ExpertBot,
    options=(
        BotOption(
            "budget",
            f"rollouts per payoff-matrix cell (default {DEFAULT_BUDGET})",
            positive_int("budget", "rollouts"),
        ),
    ),
    speed="slow",
    rank=5,
)
