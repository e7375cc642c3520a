"""A seeded random bot and a runner that plays whole matches."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import IllegalAction, MatchError, excerpt, require_int
from akvo.match.actions import KEEP, REROLL_ACTIONS
from akvo.match.core import CHANCE, TERMINAL
from akvo.match.phases import Phase
from akvo.match.state import MatchState, new_match
from akvo.resolution import is_critical, is_prodige
from akvo.teams import Team

Bot = Callable[[MatchState], str]


class RandomBot:
    """Picks uniformly among the legal actions with its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: MatchState) -> str:
        legal = state.legal
        return legal[int(self.rng.random() * len(legal))]


def play_match(
    seed: int,
    team_a: Team | str = "perrockiss",
    team_b: Team | str = "fish-tank",
    rules: RulesConfig = DEFAULT_RULES,
    bots: tuple[Bot, Bot] | None = None,
    *,
    log: bool = True,
) -> MatchState:
    """Play a whole match: chance from ``random.Random(seed)``, bots random unless given.

    ``log=False`` skips the French event log (same play, faster)."""
    seed = require_int("seed", seed, MatchError)
    if bots is not None and (
        not isinstance(bots, tuple) or len(bots) != 2 or not all(map(callable, bots))
    ):
        raise MatchError(f"bots must be a pair of callables state -> action, got {excerpt(bots)}")
    rng = random.Random(seed)
    players: tuple[Bot, Bot] = bots or (RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2))
    state = new_match(team_a, team_b, rules, log=log)
    chance = state.apply_random_chance
    apply = state.apply_action
    while True:
        player = state.player
        if player == CHANCE:
            chance(rng)
        elif player == TERMINAL:
            return state
        else:
            apply(players[player](state))


def r15_relance(state: MatchState, policy: str = "success") -> str:
    """The Relance choice of R15 at a Relance node: keep the dice unless rerolling one die
    strictly improves (P(success), P(critical), P(prodige)) — or (critical, success,
    prodige) for the ``"critical"`` policy."""
    if not isinstance(state, MatchState):
        raise MatchError(f"r15_relance needs a MatchState, got {excerpt(state)}")
    if policy not in ("success", "critical"):
        raise MatchError(f"policy must be 'success' or 'critical', got {excerpt(policy)}")
    shot = state.shot
    if shot is None or state.phase != Phase.RELANCE:
        raise IllegalAction("r15_relance needs a Relance decision node")
    modifier, threshold = state.roll_target()
    dice = shot.dice

    def flags(faces: list[int]) -> tuple[int, int, int]:
        total = sum(faces) + modifier
        return (
            int(total >= threshold),
            int(is_critical(total, threshold)),
            int(is_prodige(faces, state.rules.prodige)),
        )

    def key(values: tuple[Fraction, Fraction, Fraction]) -> tuple[Fraction, ...]:
        success, critical, prodige = values
        return (critical, success, prodige) if policy == "critical" else values

    kept = flags(dice)
    best = key((Fraction(kept[0]), Fraction(kept[1]), Fraction(kept[2])))
    choice = KEEP
    for index in range(len(dice)):
        sums = [0, 0, 0]
        for face in range(1, 7):
            faces = [*dice[:index], face, *dice[index + 1 :]]
            for k, flag in enumerate(flags(faces)):
                sums[k] += flag
        option = key((Fraction(sums[0], 6), Fraction(sums[1], 6), Fraction(sums[2], 6)))
        if option > best:
            best, choice = option, REROLL_ACTIONS[index]
    return choice
