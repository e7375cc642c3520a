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
from typing import Any, Final

from akvo.bots import make_bot, options_for
from akvo.config import RulesConfig
from akvo.lab.coverage import match_uses
from akvo.lab.loop import LUCK_UNIT as LOOP_LUCK_UNIT
from akvo.lab.loop import Situation, Stakes, play_out
from akvo.lab.results import (
    LUCK_COLUMNS,
    LUCK_UNIT,
    STAKE_COLUMNS,
    STAKE_WEIGHT_UNIT,
    MatchResult,
)
from akvo.lab.stats import roll_stakes
from akvo.match.board import CHARS
from akvo.match.state import MatchState, new_match
from akvo.match.streams import KeyedChance
from akvo.teams import Team

assert LUCK_UNIT == LOOP_LUCK_UNIT  # the loop counts luck in the unit the results read


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
    played = play_out(state, chance, bots, STAKES, len(LUCK_COLUMNS), len(STAKE_COLUMNS))
    return state, MatchResult(
        index=index,
        seed=match_seed(spec.seed, index),
        winner=state.result or "draw",
        score_a=state.scores[0],
        score_b=state.scores[1],
        reason=state.reason,
        turns=state.turn,
        favoured=played.favoured,
        first_edge=played.edge,
        runes_a=state.runes_spent_count[0],
        runes_b=state.runes_spent_count[1],
        ultimes_a=sum(state.ult_uses[:CHARS]),
        ultimes_b=sum(state.ult_uses[CHARS:]),
        luck=tuple(played.luck),
        uses=match_uses(state),
        stakes=tuple(played.stakes),
    )


def _weigh(situation: Situation) -> tuple[int, int, int]:
    """:func:`akvo.lab.stats.roll_stakes` (the parry's chance ``parried / rolls``) with the
    weights in millionths (:data:`~akvo.lab.loop.Weigh`)."""
    chest, stage, lead, turn, shooter, parried, rolls, critical = situation
    column, weights = roll_stakes(chest, stage, lead, turn, shooter, parried / rolls, critical)
    success, critical_success = weights
    return column, round(success * STAKE_WEIGHT_UNIT), round(critical_success * STAKE_WEIGHT_UNIT)


#: Each roll situation's stake weights, worked out once per process.
STAKES: Final = Stakes(_weigh)


def play_chunk(spec: MatchSpec, start: int, stop: int) -> list[MatchResult]:
    """Matches ``start`` … ``stop - 1`` (a Dask task)."""
    return [play_one(spec, index) for index in range(start, stop)]
