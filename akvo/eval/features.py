"""What the learned evaluation reads of a position: public facts only, as numbers.

A position is read in two steps, so that a batch costs little more than its Python reads:

1. :func:`raw` copies the few small ints that matter out of the state (one list per state);
   the other side's orders are read only once both are revealed, and a side's own orders
   are not read before then either, so that both sides' features come from the same public
   facts (the evaluation is then exactly antisymmetric: ``P(A) + P(B) = 1``).
2. :func:`features` turns a batch of raw rows into float32 features from one side's point
   of view, in numpy: the viewer's block (:data:`SIDE_FEATURES`), the other side's block in
   the same layout, then the context both share (:data:`CONTEXT_FEATURES`).

The strongest features are the exact worths of the shots on the board (expected chest
points, pushes), looked up in a table that :func:`akvo.bots.values.shot_value` fills once
per rules configuration (rows are distances and Résiliences; runes and Ultime effects are
left to the other features).

Change anything here that changes a feature's meaning → bump :data:`FEATURE_VERSION`: the
shipped weights are stamped with it and refuse to load against another version.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from akvo.config import RulesConfig
from akvo.match.board import CHARS, CHEST, UNITS
from akvo.match.core import Shot
from akvo.match.phases import END, ORDERS
from akvo.match.roster import Roster
from akvo.match.state import MatchState
from akvo.rules import TIE_BREAK_TURNS, RuneCategory, tier_for_turn

#: The version of the features' layout and meaning (stamped in every weights file).
FEATURE_VERSION: Final = 2

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int32]

_CATEGORIES: Final = len(RuneCategory)

# --- raw rows -----------------------------------------------------------------------------
# Column offsets of a raw row (ints).
TURN, PHASE, PLAYER, FAVOURED, SIDE, UNIT, WINNER, REVEALED = range(8)
ROWS = 8  # 10: rows[side * 5 + unit]
RES = ROWS + 2 * UNITS  # 12: Résilience[side * 6 + character]
SPENT = RES + 2 * CHARS  # 2
ULT_USED = SPENT + 2  # 2
EFFECTS = ULT_USED + 2  # 2
BAG = EFFECTS + 2  # 2
ACTIVATED = BAG + 2  # 2
SCORES = ACTIVATED + 2  # 2
ORDERS_AT = SCORES + 2  # 10: orders[side * 5 + unit], -1 before both are revealed
RUNES = ORDERS_AT + 2 * UNITS  # 12: unspent runes[side * 6 + category]
SHOT_SIDE = RUNES + 2 * _CATEGORIES
SHOT_TARGET = SHOT_SIDE + 1  # 0–5 a mage, 6 the chest, -1 none yet
SHOT_SHOOTER = SHOT_TARGET + 1
SHOT_DISTANCE = SHOT_SHOOTER + 1
SHOT_IDIST = SHOT_DISTANCE + 1  # interception distance of a chest shot
SHOT_ATTACK = SHOT_IDIST + 1  # the attack roll: -1 not rolled, 0 failed, 1 hit, 2 critical
RAW_SIZE: Final = SHOT_ATTACK + 1

_NO_SHOT: Final = (-1, -1, -1, 0, 0, -1)

_HIDDEN_ORDERS: Final = (-1,) * (2 * UNITS)

#: Each roster met so far (by identity: rosters hold dicts, and are cached by
#: :mod:`akvo.match.roster`, so they are few) → itself (kept alive) and the bit mask of its
#: runes of each category.
_MASKS: dict[int, tuple[Roster, tuple[int, ...]]] = {}


def _category_masks(roster: Roster) -> tuple[int, ...]:
    found = _MASKS.get(id(roster))
    if found is not None and found[0] is roster:
        return found[1]
    bits = [0] * _CATEGORIES
    for holder in roster.runes:
        for _letter, bit, category in holder:
            bits[category] |= bit
    _MASKS[id(roster)] = (roster, tuple(bits))
    return tuple(bits)


def _unspent(roster: Roster, spent: int) -> tuple[int, ...]:
    """How many runes of each category ``roster`` has not spent (memoised: a side's spent
    runes change a few times a match)."""
    key = (id(roster), spent)
    found = _UNSPENT.get(key)
    if found is None:
        if len(_UNSPENT) > 100_000:
            _UNSPENT.clear()
        found = tuple((mask & ~spent).bit_count() for mask in _category_masks(roster))
        _UNSPENT[key] = found
    return found


_UNSPENT: dict[tuple[int, int], tuple[int, ...]] = {}


def raw(state: MatchState) -> list[int]:
    """The ints the features read from ``state``, the same for both sides (public facts)."""
    orders = state.orders
    a, b = orders
    revealed = state.phase != ORDERS and a is not None and b is not None
    shot = state.shot
    rosters = state.rosters
    return [
        state.turn,
        state.phase,
        state.player,
        state.favoured,
        state.side,
        state.unit,
        state.winner,
        int(revealed),
        *state.rows,
        *state.res,
        *state.spent,
        *state.ult_used,
        *state.effects,
        *state.bag,
        *state.activated,
        *state.scores,
        *((*a, *b) if revealed else _HIDDEN_ORDERS),  # type: ignore[misc]
        *_unspent(rosters[0], state.spent[0]),
        *_unspent(rosters[1], state.spent[1]),
        *(_NO_SHOT if shot is None else _shot(shot)),
    ]


def _shot(shot: Shot) -> tuple[int, int, int, int, int, int]:
    attack = shot.attack
    rolled = -1 if attack is None else 2 if attack.critical else int(attack.success)
    return shot.side, shot.target, shot.shooter, shot.distance, shot.idist, rolled


def raw_batch(states: Sequence[MatchState]) -> IntArray:
    """:func:`raw` of every state, as an ``(n, RAW_SIZE)`` int32 array."""
    flat: list[int] = []
    extend = flat.extend
    for state in states:
        extend(raw(state))
    return np.array(flat, dtype=np.int32).reshape(len(states), RAW_SIZE)


# --- shot worths --------------------------------------------------------------------------
MAX_DISTANCE: Final = 16


@lru_cache(maxsize=16)
def shot_tables(rules: RulesConfig) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """``(chest, mage)`` worth tables of a plain shot (no rune, no Ultime effect):
    ``chest[tier, distance, interception distance, guard's Résilience]`` in expected points
    (interception distance 0: none) and ``mage[tier, distance, target's Résilience]`` in the
    bots' push worth (:data:`akvo.bots.values.PUSH_WEIGHT` × P(push)); 0 out of range."""
    from akvo.bots.values import shot_value
    from akvo.resolution import MAX_RANGE
    from akvo.shots import Side

    chest = np.zeros((5, MAX_DISTANCE + 1, MAX_DISTANCE + 1, 4))
    mage = np.zeros((5, MAX_DISTANCE + 1, 4))
    attack = Side()
    for tier in range(1, 5):
        for distance in range(1, MAX_RANGE + 1):
            for res in range(4):
                defence = Side(resilience=res)
                mage[tier, distance, res] = shot_value(
                    False, tier, distance, None, attack, defence, rules
                )
                for idist in range(MAX_DISTANCE + 1):
                    code = idist if 1 <= idist <= MAX_RANGE else None
                    chest[tier, distance, idist, res] = shot_value(
                        True, tier, distance, code, attack, defence, rules
                    )
    return chest, mage


# --- features -----------------------------------------------------------------------------
#: The names of one side's block, in order.
SIDE_FEATURES: Final[tuple[str, ...]] = (
    "score",
    *(f"progress_{u}" for u in range(UNITS)),
    *(f"resilience_{c}" for c in range(CHARS)),
    *(f"ultime_free_{c}" for c in range(CHARS)),
    *(f"chest_worth_{c}" for c in range(CHARS)),
    *(f"push_worth_{c}" for c in range(CHARS)),
    "chest_worth_sum",
    "chest_worth_max",
    "chest_worth_next_tier_sum",
    *(f"runes_{category.name.lower()}" for category in RuneCategory),
    "runes_left",
    "mages_in_enemy_half",
    "weather_tokens",
    "favoured",
    "units_activated",
    "tourbillon",
    "egide",
    "vigie",
    "pending_chest_worth",
    "pending_shots",
    "pending_advances",
    "to_play",
    "activating",
    "shooting",
    "shooting_chest",
    "shot_chest_worth",
    "shot_hit",
    "shot_critical",
)
LAST_TURN: Final = TIE_BREAK_TURNS[-1]
_PHASES: Final = END + 1
#: The names of the shared context, in order.
CONTEXT_FEATURES: Final[tuple[str, ...]] = (
    *(f"turn_{t}" for t in range(1, LAST_TURN + 1)),
    *(f"tier_{t}" for t in range(1, 5)),
    *(f"phase_{p}" for p in range(_PHASES)),
    "orders_revealed",
)
SIDE_SIZE: Final = len(SIDE_FEATURES)
CONTEXT_SIZE: Final = len(CONTEXT_FEATURES)
FEATURE_SIZE: Final = 2 * SIDE_SIZE + CONTEXT_SIZE
FEATURE_NAMES: Final[tuple[str, ...]] = (
    *(f"own_{n}" for n in SIDE_FEATURES),
    *(f"other_{n}" for n in SIDE_FEATURES),
    *CONTEXT_FEATURES,
)

_TIER_OF: Final = np.array([1, *(tier_for_turn(t) for t in range(1, LAST_TURN + 1)), 4])
_UNIT_OF_CHAR: Final = np.array([0, 1, 2, 2, 3, 4])
_LANES: Final = np.arange(CHARS)
_LANE_GAP: Final = np.abs(_LANES[:, None] - _LANES[None, :])  # [shooter, target]
_UNIT_BITS: Final = np.arange(UNITS)
_EFFECT_BITS: Final = np.arange(3)  # Tourbillon, Égide, Vigie (akvo.match.schema)
_MAGES_OF_UNIT: Final = np.array([1, 1, 2, 1, 1])


@lru_cache(maxsize=64)
def _columns(offset: int, width: int, side: int) -> npt.NDArray[np.intp]:
    """Raw columns ``(2, width)`` of a per-side field: the viewer's, then the other's."""
    first = offset + side * width + np.arange(width)
    second = offset + (1 - side) * width + np.arange(width)
    return np.stack([first, second])


def _blocks(
    r: IntArray, side: int, chest: npt.NDArray[np.float64], mage: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Both sides' blocks (:data:`SIDE_FEATURES`), ``(n, 2, SIDE_SIZE)``: the viewer's
    first. Each block is computed by the same operations (the two sides at once), so
    exchanging the blocks is exactly seeing the position from the other side."""
    n = len(r)
    sides = np.array([side, 1 - side])
    turn = r[:, TURN]
    tier = _TIER_OF[turn][:, None, None]
    next_tier = _TIER_OF[np.minimum(turn + 1, LAST_TURN)][:, None, None]
    rows = r[:, _columns(ROWS, UNITS, side)]  # (n, 2, 5)
    progress = np.where(sides[None, :, None] == 0, rows, 9 - rows)  # rows from own beach
    mage_rows = rows[:, :, _UNIT_OF_CHAR]  # (n, 2, 6)
    their_mage_rows = mage_rows[:, ::-1]
    res = r[:, _columns(RES, CHARS, side)]
    their_res = res[:, ::-1]
    chest_distance = 9 - progress[:, :, _UNIT_OF_CHAR]
    guard_distance = np.abs(mage_rows - their_mage_rows)  # the enemy mage of the same lane
    chest_now = chest[tier, chest_distance, guard_distance, their_res]
    chest_next = chest[next_tier, chest_distance, guard_distance, their_res]
    # push worths: every enemy target of every mage, the best one
    gaps = np.abs(mage_rows[..., None] - their_mage_rows[:, :, None, :]) + _LANE_GAP
    pushes = mage[tier[..., None], gaps, their_res[:, :, None, :]].max(axis=3)
    ult_free = 1 - ((r[:, [ULT_USED + side, ULT_USED + 1 - side], None] >> _LANES) & 1)
    runes = r[:, _columns(RUNES, _CATEGORIES, side)]
    effects = r[:, [EFFECTS + side, EFFECTS + 1 - side]]
    activated = r[:, [ACTIVATED + side, ACTIVATED + 1 - side]]
    unit_done = (activated[..., None] >> _UNIT_BITS) & 1  # (n, 2, 5)
    orders = r[:, _columns(ORDERS_AT, UNITS, side)]
    revealed = (r[:, REVEALED] == 1)[:, None]
    ship = orders[..., 2]
    shoots = np.stack(
        [
            orders[..., 0] == 1,
            orders[..., 1] == 1,
            (ship == 1) | (ship == 2),
            (ship == 1) | (ship == 3),
            orders[..., 3] == 1,
            orders[..., 4] == 1,
        ],
        axis=2,
    )
    pending_shots = shoots & (unit_done[..., _UNIT_OF_CHAR] == 0) & revealed[..., None]
    lateral = [0, 1, 3, 4]
    lateral_advances = ((orders[..., lateral] == 0) & (unit_done[..., lateral] == 0)).sum(axis=2)
    ship_advances = np.where(ship == 0, 2, np.where(ship >= 2, 1, 0)) * (unit_done[..., 2] == 0)
    pending_advances = (lateral_advances + ship_advances) * revealed
    half = ((progress >= 5) * _MAGES_OF_UNIT).sum(axis=2)
    shooting = r[:, SHOT_SIDE, None] == sides
    on_chest = shooting & (r[:, SHOT_TARGET, None] == CHEST)
    attack = r[:, SHOT_ATTACK, None]
    shooter = np.maximum(r[:, SHOT_SHOOTER], 0)
    guard_res = r[np.arange(n), RES + CHARS * (1 - r[:, SHOT_SIDE].clip(0, 1)) + shooter]
    shot_worth = chest[
        tier[:, 0, 0],
        np.clip(r[:, SHOT_DISTANCE], 0, MAX_DISTANCE),
        np.clip(r[:, SHOT_IDIST], 0, MAX_DISTANCE),
        guard_res,
    ]
    block = np.empty((n, 2, SIDE_SIZE))
    at = 0
    for part in (
        r[:, [SCORES + side, SCORES + 1 - side]] / 4.0,
        progress / 8.0,
        res / 3.0,
        ult_free,
        chest_now,
        pushes,
        chest_now.sum(axis=2),
        chest_now.max(axis=2),
        chest_next.sum(axis=2),
        runes / 4.0,
        runes.sum(axis=2) / 26.0,
        half / 6.0,
        r[:, [BAG + side, BAG + 1 - side]] / 4.0,
        r[:, FAVOURED, None] == sides,
        unit_done.sum(axis=2) / 5.0,
        (effects[..., None] >> _EFFECT_BITS) & 1,
        (chest_now * pending_shots).sum(axis=2),
        pending_shots.sum(axis=2) / 6.0,
        pending_advances / 6.0,
        r[:, PLAYER, None] == sides,
        r[:, SIDE, None] == sides,
        shooting,
        on_chest,
        on_chest * (attack < 0) * shot_worth[:, None],
        shooting & (attack >= 1),
        shooting & (attack == 2),
    ):
        width = 1 if part.ndim == 2 else part.shape[2]
        block[:, :, at : at + width] = part.reshape(n, 2, width)
        at += width
    assert at == SIDE_SIZE
    return block


def _context(r: IntArray) -> npt.NDArray[np.float64]:
    n = len(r)
    block = np.zeros((n, CONTEXT_SIZE))
    rows = np.arange(n)
    block[rows, r[:, TURN] - 1] = 1.0
    block[rows, LAST_TURN + _TIER_OF[r[:, TURN]] - 1] = 1.0
    phase = np.minimum(r[:, PHASE], _PHASES - 1)
    block[rows, LAST_TURN + 4 + phase] = 1.0
    block[:, -1] = r[:, REVEALED]
    return block


def features(r: IntArray, side: int, rules: RulesConfig) -> FloatArray:
    """The features of raw rows ``r`` (:func:`raw_batch`) from ``side``'s point of view
    (0 A, 1 B): ``(n, FEATURE_SIZE)`` float32, own block, other block, context."""
    chest, mage = shot_tables(rules)
    out = np.empty((len(r), FEATURE_SIZE), dtype=np.float32)
    out[:, : 2 * SIDE_SIZE] = _blocks(r, side, chest, mage).reshape(len(r), 2 * SIDE_SIZE)
    out[:, 2 * SIDE_SIZE :] = _context(r)
    return out


def swap_sides(x: FloatArray) -> FloatArray:
    """The same positions seen from the other side: the two side blocks exchanged."""
    out = x.copy()
    out[:, :SIDE_SIZE] = x[:, SIDE_SIZE : 2 * SIDE_SIZE]
    out[:, SIDE_SIZE : 2 * SIDE_SIZE] = x[:, :SIDE_SIZE]
    return out
