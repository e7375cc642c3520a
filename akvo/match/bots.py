"""The random bot (:class:`UniformBot`, the one the bots' registry names « hasard »), the loop
that plays a match with two bots (:func:`decisions`), and whole matches (:func:`play_match`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import lru_cache

from akvo.config import DEFAULT_RULES
from akvo.errors import (
    IllegalAction,
    MatchError,
    excerpt,
    require_choice,
    require_instance,
    require_int,
    require_seed,
)
from akvo.match.actions import KEEP, REROLL_ACTIONS
from akvo.match.core import CHANCE
from akvo.match.engine import DECIDE, settle
from akvo.match.phases import Phase
from akvo.match.state import MatchState, _random_chance, new_match
from akvo.match.streams import KeyedChance, decision_key
from akvo.resolution import RELANCE_POLICIES, is_critical, is_prodige

Bot = Callable[[MatchState], str]


class UniformBot:
    """Picks uniformly among the legal actions; seeded (``None``: a fresh random seed).

    By default each draw comes from a stream keyed by the seed and the decision's identity
    (:func:`akvo.match.streams.decision_key`), as :class:`~akvo.match.streams.KeyedChance`
    draws the dice: the same decision in two readings of a rule sees the same number, however
    many other decisions came before (a generator drawn in sequence pairs two readings only
    until their first different decision). ``keyed=False`` draws in sequence from
    ``random.Random(seed)`` instead (:func:`RandomBot`): cheaper, and the moves
    :func:`play_match` plays without bots."""

    __slots__ = ("chance", "rng")

    def __init__(self, seed: object = None, keyed: object = True) -> None:
        """``seed``: an integer or None; ``keyed``: True or False (typed ``object``: checked
        here, see akvo.compiled)."""
        checked = require_seed("seed", seed, MatchError)
        if not isinstance(keyed, bool):
            raise MatchError(f"keyed must be True or False, got {excerpt(keyed)}")
        self.chance: KeyedChance | None = None
        self.rng: random.Random | None = None
        if keyed:
            self.chance = KeyedChance(random.getrandbits(64) if checked is None else checked)
        else:
            self.rng = random.Random(checked)

    def __call__(self, state: MatchState) -> str:
        legal = state.legal
        rng = self.rng
        if rng is not None:
            return legal[int(rng.random() * len(legal))]
        chance = self.chance
        assert chance is not None
        return legal[int(chance.decision_uniform(decision_key(state)) * len(legal))]


def RandomBot(seed: object = None) -> UniformBot:  # the name callers know
    """The random bot drawing in sequence from ``random.Random(seed)``: two of them play the
    match :func:`play_match` plays without bots (seeds ``2·seed + 1`` and ``2·seed + 2``)."""
    return UniformBot(seed, keyed=False)


def play_match(
    seed: object,
    team_a: object = "perrockiss",
    team_b: object = "fish-tank",
    rules: object = DEFAULT_RULES,
    bots: object = None,
    *,
    log: object = True,
) -> MatchState:
    """Play a whole match: chance from ``random.Random(seed)`` (``seed`` an int), bots
    random unless given (a pair of callables ``state -> action``).

    ``log=False`` skips the French event log (same play, faster). Arguments are checked
    here, hence typed ``object`` (see :class:`~akvo.match.state.MatchState`)."""
    seed = require_int("seed", seed, MatchError)
    pair = _bot_pair(bots) if bots is not None else None
    rng = random.Random(seed)
    state = new_match(team_a, team_b, rules, log=log)
    if pair is None:
        return _play_random(state, rng, random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    for _ in decisions(state, rng, pair):
        pass
    return state


def _bot_pair(bots: object) -> tuple[Bot, Bot]:
    if not isinstance(bots, tuple) or len(bots) != 2 or not all(map(callable, bots)):
        raise MatchError(f"bots must be a pair of callables state -> action, got {excerpt(bots)}")
    return (bots[0], bots[1])


def decisions(state: object, rng: object, bots: object) -> Iterator[MatchState]:
    """Play ``state`` to the end, chance drawn from ``rng`` (a ``random.Random``, a seed for
    one, or a :class:`~akvo.match.streams.KeyedChance`: dice keyed by event), each decision
    answered by the bot of the side to play; yield every decision node just before its bot
    answers.

    The node yielded is ``state`` itself, live: read it (or ``copy()`` it to keep it), do not
    change it. When the loop ends, ``state`` is terminal. The one loop behind
    :func:`play_match`, the lab's simulations and the benchmarks' and tests' node samples::

        state = new_match("perrockiss", "fish-tank")
        targets = [n.copy() for n in decisions(state, 7, bots) if n.phase == Phase.TARGET]
    """
    node = require_instance("state", state, MatchState, MatchError)
    if isinstance(rng, int) and not isinstance(rng, bool):
        rng = random.Random(rng)
    if not isinstance(rng, random.Random | KeyedChance):
        raise MatchError(
            f"rng must be a random.Random, a seed or a KeyedChance, got {excerpt(rng)}"
        )
    pair = _bot_pair(bots)
    if isinstance(rng, KeyedChance):
        keyed = rng

        def chance() -> object:
            return keyed.apply(node)
    else:
        seeded = rng

        def chance() -> object:
            return node.apply_random_chance(seeded)

    apply = node.apply_action
    while True:
        player = node.player
        if player >= 0:
            yield node
            apply(pair[player](node))
        elif player == CHANCE:
            chance()
        else:
            return


def _play_random(
    state: MatchState, rng: random.Random, rng_a: random.Random, rng_b: random.Random
) -> MatchState:
    """Two :func:`RandomBot` s (generators ``rng_a``, ``rng_b``) to the end: the same draws
    as the bots, without the checks their answers need not pass (they pick from ``legal``)."""
    draws = (rng_a.random, rng_b.random)
    record = state.history.append
    while True:
        player = state.player
        if player >= 0:  # apply_action's work, less its checks
            legal = state.legal
            action = legal[int(draws[player]() * len(legal))]
            record(action)
            DECIDE[state.phase](state, action)  # type: ignore[misc]
            settle(state)
        elif player == CHANCE:
            _random_chance(state, rng)
        else:
            return state


def r15_relance(state: object, policy: object = "success") -> str:
    """The Relance choice of R15 at a Relance node: keep the dice unless rerolling one die
    strictly improves (P(success), P(critical), P(prodige)) — or (critical, success,
    prodige) for the ``"critical"`` policy."""
    if not isinstance(state, MatchState):
        raise MatchError(f"r15_relance needs a MatchState, got {excerpt(state)}")
    policy = require_choice("policy", policy, RELANCE_POLICIES, MatchError)
    shot = state.shot
    if shot is None or state.phase != Phase.RELANCE:
        raise IllegalAction("r15_relance needs a Relance decision node")
    modifier, threshold = state.roll_target()
    return _relance_choice(tuple(shot.dice), modifier, threshold, state.rules.prodige, policy)


@lru_cache(maxsize=1 << 14)
def _relance_choice(
    dice: tuple[int, ...], modifier: int, threshold: int, prodige: str, policy: str
) -> str:
    """R15's choice for these dice (cached). Chances are counted in sixths: a kept die's
    flags count 6, a rerolled die's the faces that give them."""

    def flags(faces: list[int]) -> tuple[int, int, int]:
        total = sum(faces) + modifier
        return (
            int(total >= threshold),
            int(is_critical(total, threshold)),
            int(is_prodige(faces, prodige)),
        )

    def key(values: tuple[int, int, int]) -> tuple[int, int, int]:
        success, critical, prodige_ = values
        return (critical, success, prodige_) if policy == "critical" else values

    kept = flags(list(dice))
    best = key((6 * kept[0], 6 * kept[1], 6 * kept[2]))
    choice = KEEP
    for index in range(len(dice)):
        sums = [0, 0, 0]
        for face in range(1, 7):
            faces = [*dice[:index], face, *dice[index + 1 :]]
            for k, flag in enumerate(flags(faces)):
                sums[k] += flag
        option = key((sums[0], sums[1], sums[2]))
        if option > best:
            best, choice = option, REROLL_ACTIONS[index]
    return choice
