"""One simulated match from its seed, and a chunk of them (the unit of work sent to Dask).

A match's randomness comes only from its seed, derived from the master seed and the match's
index by a hash (:func:`match_seed`): the results never depend on how the matches are split
into chunks or which worker plays them. The dice and the weather are drawn by event
(:class:`~akvo.match.streams.KeyedChance`: each roll from a stream keyed by the seed and the
roll's identity), and the bots' own draws by decision, so that two simulations on the same
seeds — two readings of a rule, two bots — see the same dice wherever they make the same
roll: their paired comparison measures the rule, not the luck.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from akvo.bots import make_bot, options_for
from akvo.config import RulesConfig
from akvo.lab.coverage import match_uses
from akvo.lab.results import (
    LUCK_COLUMNS,
    LUCK_UNIT,
    STAKE_COLUMNS,
    STAKE_WEIGHT_UNIT,
    MatchResult,
)
from akvo.lab.stats import roll_stakes
from akvo.match.board import CHARS, CHEST, SIDE_NAMES
from akvo.match.chance import ROLLS
from akvo.match.core import CHANCE
from akvo.match.phases import ORDERS, REROLL, WEATHER
from akvo.match.shooting import can_intercept, roll_dice, roll_target
from akvo.match.state import MatchState, new_match
from akvo.match.streams import KeyedChance
from akvo.rules import CRITICAL_MARGIN
from akvo.teams import Team


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """Everything a worker needs to play matches of one configuration (small, picklable)."""

    team_a: Team
    team_b: Team
    bots: tuple[str, str]
    rules: RulesConfig
    seed: int
    bot_options: tuple[tuple[str, Any], ...] = ()
    #: Per side, what its bot may not play (:data:`akvo.lab.forbid.FORBIDDABLE` names).
    forbidden: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def match_seed(master: int, index: int, role: str = "chance") -> int:
    """A 64-bit seed for one match and one role ("chance", "A", "B") of a master seed."""
    digest = hashlib.sha256(f"akvo.lab:{master}:{index}:{role}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _bot(spec: MatchSpec, side: str, index: int) -> Any:
    name = spec.bots[0 if side == "A" else 1]
    options = options_for(name, dict(spec.bot_options))
    bot = make_bot(name, match_seed(spec.seed, index, side), **options)
    forbidden = spec.forbidden[0 if side == "A" else 1]
    if forbidden:
        from akvo.lab.forbid import Forbidding

        return Forbidding(bot, forbidden)
    return bot


def play_one(spec: MatchSpec, index: int) -> MatchResult:
    """Play match ``index`` of a simulation and summarise it."""
    return play_indexed(spec, index)[1]


def match_state(spec: MatchSpec, index: int) -> MatchState:
    """Match ``index`` of a simulation played again: the final state, with its record (for
    a replay viewer)."""
    return play_indexed(spec, index, log=True)[0]


def play_indexed(
    spec: MatchSpec, index: int, *, log: bool = False
) -> tuple[MatchState, MatchResult]:
    """Play match ``index``; the French log only when asked (a replay shows it, a
    simulation's table does not need it: same play, same record, faster). The loop is
    :func:`akvo.match.decisions`'; what the match used is the engine's own count, read at
    the end (:func:`~akvo.lab.coverage.match_uses`)."""
    chance = KeyedChance(match_seed(spec.seed, index))
    bots = (_bot(spec, "A", index), _bot(spec, "B", index))
    state = new_match(spec.team_a, spec.team_b, spec.rules, log=log)
    favoured: list[str] = []
    edge = 0  # points of the side activating first minus the other's, over the turns
    turn_start = [0, 0]
    apply = state.apply_action
    luck = [0] * len(LUCK_COLUMNS)  # A's minus B's, in LUCK_COLUMNS order
    stakes = [0] * len(STAKE_COLUMNS)  # likewise, each roll's luck times its stake
    while True:
        player = state.player
        if player >= 0:
            phase = state.phase
            if phase == ORDERS and state.side == 0:  # a new turn's orders: weather is known
                if favoured:
                    edge += _turn_edge(favoured[-1], turn_start, state.scores)
                turn_start = list(state.scores)
                favoured.append(SIDE_NAMES[state.favoured])
            apply(bots[player](state))
        elif player == CHANCE:
            if state.phase == WEATHER:
                chance.apply(state)
            else:
                _roll_luck(state, chance, luck, stakes)
        else:
            break
    if favoured:
        edge += _turn_edge(favoured[-1], turn_start, state.scores)
    return state, MatchResult(
        index=index,
        seed=match_seed(spec.seed, index),
        winner=state.result or "draw",
        score_a=state.scores[0],
        score_b=state.scores[1],
        reason=state.reason,
        turns=state.turn,
        favoured="".join(favoured),
        first_edge=edge,
        runes_a=state.runes_spent_count[0],
        runes_b=state.runes_spent_count[1],
        ultimes_a=sum(state.ult_uses[:CHARS]),
        ultimes_b=sum(state.ult_uses[CHARS:]),
        luck=tuple(luck),
        uses=match_uses(state),
        stakes=tuple(stakes),
    )


#: Each roll's (or rerolled die's) chance action → its faces.
_FACES: dict[str, tuple[int, ...]] = {action: faces for rolls in ROLLS for action, faces in rolls}
#: How many rolls ``count`` dice have (6**count), by count.
_ROLL_COUNTS: tuple[int, ...] = (1, 6, 36, 216, 1296)


@cache
def _reach(count: int, need: int) -> int:
    """How many of the 6**count rolls of ``count`` dice sum to ``need`` or more."""
    return sum(1 for _, faces in ROLLS[count] if sum(faces) >= need)


def _luck(count: int, need: int, total: int) -> int:
    """Reaching ``need`` or not (1 or 0) minus its chance, in 1/:data:`LUCK_UNIT`."""
    rolls = _ROLL_COUNTS[count]
    return LUCK_UNIT // rolls * ((rolls if total >= need else 0) - _reach(count, need))


@cache
def _lucks(action: str, need: int) -> tuple[int, int]:
    """The luck of the roll ``action`` (its dice, or the one rerolled die, must reach
    ``need``): for a success and for a critical (:func:`_luck`), looked up once."""
    faces = _FACES[action]
    count, total = len(faces), sum(faces)
    return _luck(count, need, total), _luck(count, need + CRITICAL_MARGIN, total)


def _roll_luck(state: MatchState, chance: KeyedChance, luck: list[int], stakes: list[int]) -> None:
    """Draw and apply a roll (or reroll); add its luck for the side that rolled to
    ``luck`` (:data:`~akvo.lab.results.LUCK_COLUMNS` order; A's plus, B's minus), and to
    ``stakes`` the same luck times what the roll puts at stake
    (:func:`akvo.lab.stats.roll_stakes`, in millionths), weighed before the dice come."""
    shot = state.shot
    assert shot is not None  # a roll's chance node is inside a shot
    stage = shot.stage  # 0: the shooter rolls, 1: the defender
    sign = 1 if (shot.side == 0) == (stage == 0) else -1
    modifier, threshold = roll_target(state)
    need = threshold - modifier
    if state.phase == REROLL:  # the other dice stay: the new face must make up the rest
        dice = shot.dice
        need -= sum(dice) - dice[shot.relanced - 1]
    chest = shot.target == CHEST
    at = stage + (4 if chest else 0)  # a shot at a mage, then the chest
    critical = stage == 1 and shot.attack is not None and shot.attack.critical
    parried, rolls = _parry(state) if stage == 0 else (0, 1)
    lead = state.scores[0] - state.scores[1]
    column, weight, weight_critical = _weights(
        chest, stage, lead, state.turn, shot.side, parried, rolls, critical
    )
    success, critical_luck = _lucks(chance.apply(state), need)
    luck[at] += sign * success
    luck[at + 2] += sign * critical_luck
    stakes[column] += sign * weight * success
    stakes[column + 1] += sign * weight_critical * critical_luck


def _parry(state: MatchState) -> tuple[int, int]:
    """Before an attack roll: the chance that the defence or interception roll that its
    success would bring succeeds (its dice and target are set by then: runes, Résilience,
    distance), as (rolls that reach it, rolls); none when no interception can follow."""
    shot = state.shot
    assert shot is not None and shot.stage == 0
    if not can_intercept(shot):
        return 0, 1
    count = roll_dice(state, 1)  # the defender's roll, read ahead as the engine will set it
    modifier, threshold = roll_target(state, 1)
    return _reach(count, threshold - modifier), _ROLL_COUNTS[count]


@cache
def _weights(
    chest: bool,
    stage: int,
    lead: int,
    turn: int,
    shooter: int,
    parried: int,
    rolls: int,
    critical: bool,
) -> tuple[int, int, int]:
    """:func:`akvo.lab.stats.roll_stakes` (the parry's chance ``parried / rolls``) with the
    weights in millionths, looked up once (a few hundred situations recur)."""
    column, weights = roll_stakes(chest, stage, lead, turn, shooter, parried / rolls, critical)
    success, critical_success = weights
    return column, round(success * STAKE_WEIGHT_UNIT), round(critical_success * STAKE_WEIGHT_UNIT)


def _turn_edge(favoured: str, start: list[int], scores: list[int]) -> int:
    gained = (scores[0] - start[0], scores[1] - start[1])
    return gained[0] - gained[1] if favoured == "A" else gained[1] - gained[0]


def play_chunk(spec: MatchSpec, start: int, stop: int) -> list[MatchResult]:
    """Matches ``start`` … ``stop - 1`` (a Dask task)."""
    return [play_one(spec, index) for index in range(start, stop)]
