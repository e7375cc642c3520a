"""The chance of winning the match after each option of a decision, estimated by rollouts.

One scale for every decision: a push chance and « 0,17 point » do not compare, a win chance
does. :class:`WinChances` estimates, for each option of one decision, the chance that the
side deciding wins the match if it plays that option, by playing the match on to its end
with the « normal » bot (:class:`akvo.bots.greedy.GreedyBot`) on both sides::

    chances = WinChances(state, seed=1)      # every option (the orders: see below)
    first = chances.refine_for(1.5)          # first estimates, within 1.5 s
    more = chances.refine(32)                # 32 more rollouts per option
    for option in more:
        print(option.action, option.p, option.low, option.high, option.rollouts)

What the estimate rests on, and what it assumes:

- **The same dice for every option** (common random numbers): rollout *i* of every option
  draws its chance from :class:`akvo.match.streams.KeyedChance` seeded by ``(seed, i)``,
  which gives a roll the same dice wherever the same event happens (same turn, shooter,
  shot rank and roll). Two options that lead to the same play get the same result, so
  the *differences* between options are much surer than each interval says.
- **The rest of the match is the greedy bot's**, on both sides, including the side
  deciding: « after this option » means « then played as the normal bot would ».
- **No peeking.** The rollouts read only what the side deciding may know. At the orders,
  when B programs, A's orders are already in the state but hidden from B: every rollout
  replaces them by the greedy bot's orders for A, from public information (when A
  programs, B's orders are not chosen yet, and the rollout's B chooses them likewise).
  Nothing else is hidden in Akvolition (the dice to come are drawn afresh).
- **A win is a win**: the estimate is P(the side deciding wins); a draw is not a win
  (:attr:`OptionChance.draws` counts them).
- **Intervals**: Wilson score 95 % intervals of that proportion (scipy, through
  :func:`akvo.lab.stats.proportion`), for each option alone.
- **The orders' options**: 64 programmes are too many to roll out in a reader's moment, so
  by default an orders decision is estimated for the greedy bot's programme and its
  neighbours (one unit's token changed, :func:`akvo.bots.search.neighbours`) — pass
  ``options`` to add the reader's own programme. Every other decision: every legal action.
- **Reproducible**: the same state, options, seed and number of rollouts give the same
  estimates, in any order of :meth:`WinChances.refine` calls.
- **Shared work** (:class:`RolloutMemo`, optional): a rollout's result is a function of the
  position it starts from and of its dice (rollout *i* of a seed), nothing else (the bots
  are deterministic, the dice keyed by event). A memo remembers the first positions of
  each rollout with its result, and a later rollout of the same index that reaches one of
  them stops there with that result: the same numbers, less play. It pays across the
  decisions of an analysis (decision *k*'s rollouts after the choice pass through decision
  *k* + 1 and the greedy bot's option there) and between options that meet again (two
  targets both missed).

A :class:`WinChances` works on its own copy of the state (the live match may move on) and
is meant for one thread at a time: a page refines it in small steps between its events
(:meth:`WinChances.refine_for`, :meth:`WinChances.stream`).
"""

from __future__ import annotations

import itertools
import pickle
import time
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Any, Final

from akvo.bots.greedy import GreedyBot
from akvo.bots.search import neighbours
from akvo.coach.errors import CoachError
from akvo.errors import excerpt
from akvo.lab.stats import Interval, proportion
from akvo.match.actions import ORDER_ACTIONS
from akvo.match.bots import decisions
from akvo.match.core import CHANCE, TERMINAL, StateCore
from akvo.match.phases import ORDERS, ROLL, WEATHER
from akvo.match.schema import (
    ROLL_FIELDS,
    SHOT_BOOLS,
    SHOT_INTS,
    SHOT_LETTERS,
    STATE_INT_LISTS,
    STATE_INTS,
    STATE_TEXTS,
)
from akvo.match.shooting import roll_dice
from akvo.match.state import MatchState
from akvo.match.streams import KeyedChance, event_key, mix

#: Rollouts per option a step of :meth:`WinChances.refine_for` adds (a short step keeps a
#: page responsive; a whole round of options per step keeps every option on the same count).
STEP: Final = 2
#: The most rollouts per option one :class:`WinChances` will play (a bound for hostile asks).
MAX_ROLLOUTS: Final = 100_000
_MASK: Final = (1 << 64) - 1
_BOTS: Final = (GreedyBot(1), GreedyBot(2))  # deterministic: their generators are never drawn
WIN, DRAW, LOSS = 1, 0, -1


@dataclass(frozen=True, slots=True)
class OptionChance:
    """The estimated chance that the side deciding wins after one option.

    ``outcomes`` holds each rollout's result for that side, in rollout order (1 win, 0 draw,
    −1 loss): rollout *i* of two options saw the same dice, so they pair.
    """

    action: str
    outcomes: tuple[int, ...]

    @property
    def rollouts(self) -> int:
        return len(self.outcomes)

    @property
    def wins(self) -> int:
        return self.outcomes.count(WIN)

    @property
    def draws(self) -> int:
        return self.outcomes.count(DRAW)

    @property
    def losses(self) -> int:
        return self.outcomes.count(LOSS)

    @property
    def p(self) -> float:
        """The estimated win chance (wins / rollouts); 0.0 before any rollout."""
        return self.wins / self.rollouts if self.outcomes else 0.0

    @property
    def interval(self) -> Interval:
        """The Wilson 95 % interval of the win chance (the whole [0, 1] before any rollout)."""
        if not self.outcomes:
            return Interval(0.0, 0.0, 1.0)
        return proportion(self.wins, self.rollouts)

    @property
    def low(self) -> float:
        return self.interval.low

    @property
    def high(self) -> float:
        return self.interval.high


class _RememberedChance(KeyedChance):
    """The same dice as :class:`~akvo.match.streams.KeyedChance` of the same seed, each
    roll's outcome drawn once: rollout *i* of every option, and of every decision of an
    analysis, meets the same rolls again (drawing them was half of a rollout's time)."""

    __slots__ = ("_rolls",)

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._rolls: dict[int, str] = {}  # (event key, dice kept) → the roll's action

    def outcome(self, state: object) -> str:
        if not isinstance(state, StateCore) or state.player != CHANCE or state.phase == WEATHER:
            return super().outcome(state)  # the engine's checks; the weather: once a turn
        phase = state.phase
        memo = event_key(state) << 4 | (roll_dice(state) if phase == ROLL else 0)
        action = self._rolls.get(memo)
        if action is None:
            action = self._rolls[memo] = super().outcome(state)
        return action


@lru_cache(maxsize=512)
def rollout_chance(seed: int, index: int) -> KeyedChance:
    """The chance of rollout ``index`` under the master ``seed``: a
    :class:`~akvo.match.streams.KeyedChance` seeded by :func:`rollout_seed` (remembered,
    with the faces it has drawn, for the next option or decision)."""
    return _RememberedChance(rollout_seed(seed, index))


def rollout_seed(seed: int, index: int) -> int:
    """The :class:`~akvo.match.streams.KeyedChance` seed of rollout ``index`` under the
    master ``seed`` (far from any match's own seed: a rollout never replays the match's
    dice)."""
    return mix(mix(seed & _MASK) ^ mix(index + 0xC0AC4))


# --- shared work: positions and the results of the rollouts that passed them ------------------
#: The fields of a state that decide the rest of the match (:mod:`akvo.match.schema`), all
#: but the log, the history, the legal actions (derived), the scenario's setup (a note) and
#: the rules and teams (one per :class:`RolloutMemo`'s tag).
_SCALARS: Final = attrgetter(*STATE_INTS, *STATE_TEXTS, "trident")
_LISTS: Final = attrgetter(*STATE_INT_LISTS)
_SHOT_SCALARS: Final = attrgetter(*SHOT_INTS, *SHOT_LETTERS, *SHOT_BOOLS, "outcome")
_ROLL_SCALARS: Final = attrgetter(*(name for name in ROLL_FIELDS if name != "dice"))
#: Positions remembered (and looked up) from each rollout's start. Most meetings happen at
#: the start (two options that lead to the same position, the greedy option of the next
#: decision) or a step or two on, the rest within a shot or two; a key costs about one
#: position's play (a few microseconds). Counted on the benchmark's match (positions played
#: plus keys, decisions 100–124 and 200–230): 6 steps save 20–23 %, 12 save 26–27 %, 24
#: no more than 12.
MEMO_STEPS: Final = 12
#: Positions a memo holds at most per match and seed (about 0.3 kB each); when full it
#: starts again empty.
MEMO_LIMIT: Final = 200_000


def _roll_key(roll: Any) -> tuple[Any, ...] | None:
    return None if roll is None else (tuple(roll.dice), _ROLL_SCALARS(roll))


def state_key(state: StateCore) -> tuple[Hashable, ...]:
    """Everything in ``state`` the rest of the match depends on, as one hashable value: two
    states with the same key, the same rules and teams, play the same from there on."""
    shot = state.shot
    shot_key = None
    if shot is not None:
        shot_key = (
            _SHOT_SCALARS(shot),
            tuple(shot.dice),
            _roll_key(shot.attack),
            _roll_key(shot.defence),
            tuple(shot.pending),
        )
    return (
        _SCALARS(state),
        tuple(map(tuple, _LISTS(state))),
        tuple(state.orders),
        tuple(state.tasks),
        shot_key,
    )


def position_key(index: int, state: StateCore) -> bytes:
    """:func:`state_key` and the rollout's index as bytes: their hash is kept, and the
    collector does not walk them (a memo holds tens of thousands). The same bytes are the
    same key (pickle reads them back); the same key may in principle give other bytes (a
    shared object is pickled once), which only misses a meeting."""
    return pickle.dumps((index, state_key(state)), protocol=5)


class RolloutMemo:
    """The results of rollouts by their first positions, for the rollouts of one match (its
    rules and teams) under one master seed (see the module: *shared work*). ``hits`` counts
    the rollouts it cut short."""

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self._tables: dict[Hashable, dict[bytes, int]] = {}
        self._limit = limit
        self.hits = 0

    def __len__(self) -> int:
        return sum(map(len, self._tables.values()))

    def table(self, tag: Hashable) -> dict[bytes, int]:
        """The results for one match and master seed (``tag``: what else they depend on),
        by rollout index and position."""
        return self._tables.setdefault(tag, {})

    def play(
        self, table: dict[bytes, int], state: MatchState, chance: KeyedChance, index: int
    ) -> int:
        """Play ``state`` to its end as :meth:`WinChances.rollout` does (``chance`` the dice
        of rollout ``index``, ``table`` from :meth:`table`); the winner (0, 1, 2)."""
        seen: list[bytes] = []
        winner = -1
        apply = state.apply_action
        for _ in range(MEMO_STEPS):
            player = state.player
            if player == TERMINAL:
                break
            key = position_key(index, state)
            known = table.get(key)
            if known is not None:
                self.hits += 1
                winner = known
                break
            seen.append(key)
            if player >= 0:
                apply(_BOTS[player](state))
            else:
                chance.apply(state)
        if winner < 0:
            for _ in decisions(state, chance, _BOTS):
                pass
            winner = state.winner
        if len(table) + len(seen) > self._limit:
            table.clear()
        for position in seen:
            table[position] = winner
        return winner


#: Positions the live coach's memo holds (one reader per kernel: about 6 MB).
LIVE_MEMO_LIMIT: Final = 20_000
_LIVE_MEMO: list[RolloutMemo] = []


def live_memo() -> RolloutMemo:
    """The process's one :class:`RolloutMemo` for a page's live coach: the estimates of a
    match's decisions, made one after another, share their rollouts' positions (the next
    decision's rollouts meet the last one's), as consecutive decisions of one record do.
    Tables are per match and seed, so other matches never mix in."""
    if not _LIVE_MEMO:
        _LIVE_MEMO.append(RolloutMemo(LIVE_MEMO_LIMIT))
    return _LIVE_MEMO[0]


def candidate_options(state: MatchState) -> tuple[str, ...]:
    """The options :class:`WinChances` estimates by default: every legal action, but at the
    orders the greedy bot's programme and its neighbours (see the module)."""
    if state.phase != ORDERS:
        return tuple(state.legal)
    base = _BOTS[0].orders(state, state.player)
    return (base, *neighbours(base))


def determinised(state: MatchState) -> MatchState:
    """A copy of ``state`` without its log, where nothing hidden from the side to play is
    left: at the orders, the other side's programmed orders become the greedy bot's."""
    copy = state.copy()
    copy.log = False
    side = state.player
    if state.phase == ORDERS and state.orders[1 - side] is not None:
        copy.orders[1 - side] = ORDER_ACTIONS[_BOTS[0].orders(state, 1 - side)]
    return copy


def outcome_for(state: MatchState, side: int) -> int:
    """:data:`WIN`, :data:`DRAW` or :data:`LOSS` of a finished match, for ``side``."""
    if state.winner == side:
        return WIN
    return DRAW if state.winner == 2 else LOSS


class WinChances:
    """Refinable estimates of the win chance after each option of one decision (see the
    module for what they assume)."""

    def __init__(
        self,
        state: object,
        options: Iterable[str] | None = None,
        *,
        seed: object = 0,
        memo: RolloutMemo | None = None,
    ) -> None:
        """``state``: a decision node (it is copied, not changed); ``options``: legal actions
        to estimate (default :func:`candidate_options`); ``seed``: an int, the master seed
        of the rollouts' dice; ``memo``: a :class:`RolloutMemo` shared with other
        estimates of the same match (the same results, sooner)."""
        if not isinstance(state, MatchState):
            raise CoachError(f"WinChances needs a MatchState, got {excerpt(state)}")
        if state.player < 0:
            raise CoachError("WinChances needs a decision node, not a chance node or the end")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise CoachError(f"seed must be an integer, got {excerpt(seed)}")
        if memo is not None and not isinstance(memo, RolloutMemo):
            raise CoachError(f"memo must be a RolloutMemo, got {excerpt(memo)}")
        chosen = candidate_options(state) if options is None else _options(state, options)
        self.side: int = state.player
        self.seed: int = seed
        self.options: tuple[str, ...] = chosen
        self._base = determinised(state)
        self._outcomes: dict[str, list[int]] = {option: [] for option in chosen}
        self._memo = memo
        self._table = None if memo is None else memo.table((seed, state.rules, state.teams))

    @property
    def rollouts(self) -> int:
        """Rollouts per option so far (every option has the same number)."""
        return len(self._outcomes[self.options[0]])

    def rollout(self, option: str, index: int) -> int:
        """Play rollout ``index`` after ``option``; the result for the side deciding."""
        state = self._base.copy()
        state.apply_action(option)
        chance = rollout_chance(self.seed, index)
        if self._memo is not None and self._table is not None:
            winner = self._memo.play(self._table, state, chance, index)
            return WIN if winner == self.side else DRAW if winner == 2 else LOSS
        for _ in decisions(state, chance, _BOTS):
            pass
        return outcome_for(state, self.side)

    def refine(self, rollouts: object = 8) -> tuple[OptionChance, ...]:
        """Add ``rollouts`` rollouts to every option; returns the new estimates."""
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 0:
            raise CoachError(f"rollouts must be a number ≥ 0, got {excerpt(rollouts)}")
        if self.rollouts + rollouts > MAX_ROLLOUTS:
            raise CoachError(f"at most {MAX_ROLLOUTS} rollouts per option")
        start = self.rollouts
        for index in range(start, start + rollouts):
            for option in self.options:
                self._outcomes[option].append(self.rollout(option, index))
        return self.chances()

    def refine_for(self, seconds: float, step: int = STEP) -> tuple[OptionChance, ...]:
        """Refine in steps of ``step`` rollouts per option until ``seconds`` have passed
        (at least one step); returns the estimates."""
        latest = self.chances()
        for latest in self.stream(step, seconds):  # noqa: B007 - the last estimates
            pass
        return latest

    def stream(
        self, step: int = STEP, seconds: float | None = None
    ) -> Iterator[tuple[OptionChance, ...]]:
        """Refine step by step, yielding the estimates after each step: a page shows them as
        they come. Ends after ``seconds`` (at least one step), or never: stop iterating."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        while True:
            yield self.refine(step)
            if deadline is not None and time.perf_counter() >= deadline:
                return

    def chances(self) -> tuple[OptionChance, ...]:
        """The estimates so far, in the order of :attr:`options`."""
        return tuple(OptionChance(o, tuple(self._outcomes[o])) for o in self.options)

    def __getitem__(self, action: str) -> OptionChance:
        if action not in self._outcomes:
            raise CoachError(f"{excerpt(action)} is not an option estimated here")
        return OptionChance(action, tuple(self._outcomes[action]))

    def best(self) -> OptionChance:
        """The option with the highest estimated win chance (the first of equals)."""
        return max(self.chances(), key=lambda chance: chance.wins)

    def __repr__(self) -> str:
        return (
            f"WinChances({len(self.options)} options, {self.rollouts} rollouts, seed={self.seed})"
        )


def _options(state: MatchState, options: Iterable[str]) -> tuple[str, ...]:
    if isinstance(options, str):
        raise CoachError("options must be a list of legal actions, not one string")
    out: list[str] = []
    for option in itertools.islice(options, 10 * len(state.legal)):
        if option not in state.legal:
            raise CoachError(f"{excerpt(option)} is not a legal action here")
        if option not in out:
            out.append(option)
    if not out:
        raise CoachError("options must name at least one legal action")
    return tuple(out)
