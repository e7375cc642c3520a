"""Exact worth of the shots a side could take, shared by the greedy and search bots.

Every probability comes from :mod:`akvo.shots`; the geometry (who is in range, at what
distance) from :mod:`akvo.match.geometry`, as in
:func:`akvo.match.preview.unit_preview` (a test checks that :func:`target_worths` gives
exactly the values of :func:`akvo.match.preview.target_values`). The bots call these
thousands of times per match, so a shot's worth is kept in a flat per-rules table at an
index packed from the few small ints that decide it, and a mage's best worth is computed
from that table in one pass (positions rarely repeat: caching them cost more than it saved).

A *worth* is in points: a chest shot is worth its expected points; a push of an enemy mage
is worth :data:`PUSH_WEIGHT` points per unit of P(push) — pushing a mage back delays its own
chest shots and is how a side defends its beach. The bots compare worths.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Final

from akvo.config import RulesConfig
from akvo.errors import AkvoError, ShotError
from akvo.match.actions import ADVANCE_ORDER, PARSED, SHIP_AT_B, SHIP_AT_L, SHIP_TT, ShootAt
from akvo.match.board import (
    BARREUR,
    CHAR_NAMES,
    CHARS,
    CHARS_OF_UNIT,
    CHEST,
    KITESURFEUR,
    LANCEUR,
    PEDALAIR,
    PLONGEUR,
    SHIP,
    UNIT_OF_CHAR,
    UNITS,
)
from akvo.match.geometry import chest_distance, mage_distance
from akvo.match.preview import CHEST_NAME
from akvo.match.roster import CATEGORY_OF
from akvo.match.schema import EFFECT_EGIDE, EFFECT_TOURBILLON, EFFECT_VIGIE
from akvo.match.state import MatchState
from akvo.resolution import MAX_RANGE, MAX_SOUFFLE_DISTANCE, SOUFFLE_REDUCTION
from akvo.rules import TIE_BREAK_TURNS, TIERS, RuneCategory, tier_for_turn
from akvo.shots import ROLL_RUNES, RuneChoice, Side, shot

#: Points a push is worth per unit of P(push): pushing a mage back costs it a turn of
#: advance towards the chest, and our beach is safer.
PUSH_WEIGHT: Final = Fraction(2, 5)

#: The rune name :mod:`akvo.shots` uses for each rune category of the engine's roster.
SHOT_RUNE: dict[int, RuneChoice] = {CATEGORY_OF[RuneCategory(name)]: name for name in ROLL_RUNES}

Effects = tuple[int, int]
_TIER: Final = (0, *(tier_for_turn(turn) for turn in range(1, TIE_BREAK_TURNS[-1] + 1)))


@lru_cache(maxsize=1 << 16)
def shot_value(
    chest: bool,
    tier: int,
    distance: int,
    idist: int | None,
    attack: Side,
    defence: Side,
    rules: RulesConfig,
) -> float:
    """The worth of one shot (expected points, or weighted P(push)) from its exact odds,
    as a float for fast comparisons; 0 if the rules make it impossible."""
    try:
        odds = shot(
            "chest" if chest else "mage", tier, distance, idist, attack, defence, rules=rules
        )
    except ShotError:
        return 0.0
    return float(odds.value if chest else PUSH_WEIGHT * odds.value)


@lru_cache(maxsize=1 << 12)
def _attacker(
    vigie: bool, tourbillon: bool, rune: RuneChoice = None, souffle: bool = False
) -> Side:
    return Side(rune, vigie=vigie, tourbillon=tourbillon, souffle=souffle)


@lru_cache(maxsize=1 << 12)
def _defender(resilience: int, egide: bool, tourbillon: bool, rune: RuneChoice = None) -> Side:
    return Side(rune, resilience=resilience, egide=egide, tourbillon=tourbillon)


def _sides(
    state: MatchState, side: int, character: int, defender: int, effects: Effects
) -> tuple[Side, Side]:
    mine, theirs = effects[side], effects[1 - side]
    attack = _attacker(
        bool(mine & EFFECT_VIGIE), character == KITESURFEUR and bool(mine & EFFECT_TOURBILLON)
    )
    defence = _defender(
        state.res[(1 - side) * CHARS + defender],
        bool(theirs & EFFECT_EGIDE),
        defender == KITESURFEUR and bool(theirs & EFFECT_TOURBILLON),
    )
    return attack, defence


# --- The shot table ---------------------------------------------------------------------
# A shot without runes is decided by a few small ints: (chest, tier, distance, interception
# distance, the attacker's Vigie, Tourbillon, Souffle, the defender's Résilience, Égide,
# Tourbillon). Its worth sits in a flat list at one index packed from them (mixed radix:
# the strides below), filled on first use with :func:`shot_value` — a list index costs far
# less than hashing a tuple key, and a list of floats gives the garbage collector nothing to
# follow. :data:`_UNKNOWN` marks a worth not computed yet (worths are never negative).
#
# Written for mypyc (akvo.compiled): the tables read with a variable index are lists (a
# ``Final`` tuple of ints is unboxed into a C struct, then boxed into a new tuple at each
# such read), effects are passed as ints, and ``abs`` is spelled out on ints.
_SPIN: Final = 1  # the defender's Tourbillon
_EGIDE: Final = 2
_RESILIENCE: Final = 4  # × Résilience 0–3
_SOUFFLE: Final = 16
_WHIRL: Final = 32  # the attacker's Tourbillon
_VIGIE: Final = 64
_IDIST: Final = 128  # × (interception distance + 1), 0 for none (1–4, 0 also gives none)
_DISTANCE: Final = _IDIST * (MAX_RANGE + 2)  # × distance 0–6
_TIER_STRIDE: Final = _DISTANCE * (MAX_SOUFFLE_DISTANCE + 1)  # × tier 1–4
_CHEST: Final = _TIER_STRIDE * (max(TIERS) + 1)
_TABLE_SIZE: Final = 2 * _CHEST
_UNKNOWN: Final = -1.0
#: The engine's constants this module reads, as mypyc reads them fastest (see above).
_ON_VIGIE: Final[int] = EFFECT_VIGIE
_ON_EGIDE: Final[int] = EFFECT_EGIDE
_ON_TOURBILLON: Final[int] = EFFECT_TOURBILLON
_UNIT_OF: Final[list[int]] = list(UNIT_OF_CHAR)
_TIER_OF_TURN: Final[list[int]] = list(_TIER)
_SHOOT: Final[list[str]] = [f"shoot {name}" for name in CHAR_NAMES]
_SHOOT_CHEST: Final = f"shoot {CHEST_NAME}"
_SHOOT_SOUFFLE: Final[list[str]] = [f"{action} souffle" for action in _SHOOT]
_SHOOT_CHEST_SOUFFLE: Final = f"{_SHOOT_CHEST} souffle"


def _fill(table: list[float], rules: RulesConfig, index: int) -> float:
    """Compute, store and return the worth of the shot at ``index`` of ``table``."""
    chest, rest = divmod(index, _CHEST)
    tier, rest = divmod(rest, _TIER_STRIDE)
    distance, rest = divmod(rest, _DISTANCE)
    code, rest = divmod(rest, _IDIST)
    vigie, rest = divmod(rest, _VIGIE)
    whirl, rest = divmod(rest, _WHIRL)
    souffle, rest = divmod(rest, _SOUFFLE)
    resilience, rest = divmod(rest, _RESILIENCE)
    egide, spin = divmod(rest, _EGIDE)
    worth = table[index] = shot_value(
        chest == 1,
        tier,
        distance,
        code - 1 if code else None,
        _attacker(vigie == 1, whirl == 1, None, souffle == 1),
        _defender(resilience, egide == 1, spin == 1),
        rules,
    )
    return worth


class _Worths:
    """The worths already computed under one rules configuration: the shot table, and the
    rune gains by :func:`resolution_key` plus the rune's category (ints: no container for
    the garbage collector to follow)."""

    def __init__(self) -> None:
        self.shots: list[float] = [_UNKNOWN] * _TABLE_SIZE
        self.gains: dict[int, float] = {}


def _worths_of(rules: RulesConfig) -> _Worths:
    """The worths of ``rules`` (the last one found by identity: hashing a RulesConfig costs
    more than a table look-up)."""
    last = _LAST[0]
    if last is not None and last[0] is rules:
        return last[1]
    worths = _WORTHS.get(rules)
    if worths is None:
        worths = _WORTHS[rules] = _Worths()
    _LAST[0] = (rules, worths)
    return worths


_WORTHS: Final[dict[RulesConfig, _Worths]] = {}
_LAST: Final[list[tuple[RulesConfig, _Worths] | None]] = [None]  # the last one used


def clear_worths() -> None:
    """Forget every worth computed (benchmarks time the bots from cold tables)."""
    _WORTHS.clear()
    _LAST[0] = None


def _base(turn: int, mine: int, theirs: int, character: int) -> int:
    """The part of a shot's table index that the tier and the effects in force decide."""
    base = _TIER_OF_TURN[turn] * _TIER_STRIDE
    if mine & _ON_VIGIE:
        base += _VIGIE
    if character == KITESURFEUR and mine & _ON_TOURBILLON:
        base += _WHIRL
    if theirs & _ON_EGIDE:
        base += _EGIDE
    return base


def _chest_index(base: int, distance: int, row: int, guard_row: int) -> int:
    """A chest shot's table index (less the guard's Résilience and Tourbillon)."""
    idist = row - guard_row if row >= guard_row else guard_row - row
    code = idist + 1 if idist <= MAX_RANGE else 0
    return _CHEST + base + distance * _DISTANCE + code * _IDIST


def _worth(table: list[float], rules: RulesConfig, index: int) -> float:
    """The worth of the shot at ``index``: read from ``table``, computed on a miss."""
    worth = table[index]
    return worth if worth >= 0.0 else _fill(table, rules, index)


def _chest_worth(table: list[float], rules: RulesConfig, index: int, distance: int) -> float:
    if distance < 0:  # off the board: no such shot (no table entry either)
        return 0.0
    return _worth(table, rules, index)


def target_worths(
    state: MatchState, side: int, character: int, souffle: bool = False
) -> dict[str, float]:
    """Every target in range now (``shoot …`` → worth), with the Ultime effects in force;
    with ``souffle``, also the ``shoot … souffle`` shots Souffle portant offers while the
    Pédalair's Ultime is free (R24). Plain shots first (the mages in character order, then
    the chest), then the Souffle ones in the same order."""
    out, extra = _target_worths(state, side, character, souffle)
    out.update(extra)
    return out


def split_target_worths(
    state: MatchState, side: int, character: int
) -> tuple[dict[str, float], dict[str, float]]:
    """:func:`target_worths` with Souffle portant as two dicts: the plain shots, and the
    Souffle portant ones."""
    return _target_worths(state, side, character, True)


def _target_worths(
    state: MatchState, side: int, character: int, souffle: bool
) -> tuple[dict[str, float], dict[str, float]]:
    mine, theirs = state.effects[side], state.effects[1 - side]
    souffle = souffle and not state.ult_used[side] >> PEDALAIR & 1
    rows = state.rows
    at = rows[side * UNITS + _UNIT_OF[character]]
    res = state.res
    rules = state.rules
    table = _worths_of(rules).shots
    enemy = (1 - side) * UNITS
    guard = (1 - side) * CHARS
    base = _base(state.turn, mine, theirs, character)
    spin = _SPIN if theirs & _ON_TOURBILLON else 0
    lane = character + 1
    out: dict[str, float] = {}
    extra: dict[str, float] = {}
    for target in range(CHARS):
        # mage_distance and _worth inlined, as in _best: this loop runs for every target
        # of every shooter the greedy bot weighs
        rows_apart = at - rows[enemy + _UNIT_OF[target]]
        distance = (rows_apart if rows_apart >= 0 else -rows_apart) + abs(lane - target - 1)
        if distance > MAX_SOUFFLE_DISTANCE:
            continue
        index = base + distance * _DISTANCE + res[guard + target] * _RESILIENCE
        if target == KITESURFEUR:
            index += spin
        if distance <= MAX_RANGE:
            worth = table[index]
            out[_SHOOT[target]] = worth if worth >= 0.0 else _fill(table, rules, index)
        if souffle and distance >= SOUFFLE_REDUCTION:
            index += _SOUFFLE
            worth = table[index]
            extra[_SHOOT_SOUFFLE[target]] = worth if worth >= 0.0 else _fill(table, rules, index)
    distance = chest_distance(side, at)
    # Trident's shots are at mages (R24)
    if distance <= MAX_SOUFFLE_DISTANCE and not (state.trident and character == PLONGEUR):
        index = _chest_index(base, distance, at, rows[enemy + _UNIT_OF[character]])
        index += res[guard + character] * _RESILIENCE
        if character == KITESURFEUR:
            index += spin
        if distance <= MAX_RANGE:
            out[_SHOOT_CHEST] = _chest_worth(table, rules, index, distance)
        if souffle and distance >= SOUFFLE_REDUCTION:
            index += _SOUFFLE
            extra[_SHOOT_CHEST_SOUFFLE] = _chest_worth(table, rules, index, distance)
    return out, extra


def best_worth(state: MatchState, side: int, character: int, row: int | None = None) -> float:
    """The best worth among the character's targets now (0 when none is in range), with the
    Ultime effects in force; with ``row``, as if its unit stood on that row. The maximum of
    :func:`target_worths`' plain shots, without building them."""
    mine, theirs = state.effects[side], state.effects[1 - side]
    at = state.rows[side * UNITS + _UNIT_OF[character]] if row is None else row
    return _best(state, side, character, mine, theirs, at)


def _best(state: MatchState, side: int, character: int, mine: int, theirs: int, at: int) -> float:
    """:func:`best_worth` with the effects of each side (``mine``: the shooter's) and the
    shooter's row. The bots' hottest function (several calls per decision):
    :func:`akvo.match.geometry.mage_distance` and :func:`_worth` are inlined, which saves
    two calls per target (:func:`_base`, once per call, is not); ``tests/test_bots.py``
    checks it against :func:`target_worths`."""
    rules = state.rules
    last = _LAST[0]
    table = last[1].shots if last is not None and last[0] is rules else _worths_of(rules).shots
    rows = state.rows
    res = state.res
    enemy = (1 - side) * UNITS
    guard = (1 - side) * CHARS
    base = _base(state.turn, mine, theirs, character)
    spin = _SPIN if theirs & _ON_TOURBILLON else 0
    best = 0.0  # worths are never negative: the maximum, or 0 with no target
    for target, unit, lanes_apart in _REACHABLE[character]:
        rows_apart = at - rows[enemy + unit]
        distance = (rows_apart if rows_apart >= 0 else -rows_apart) + lanes_apart
        if distance <= MAX_RANGE:
            index = base + distance * _DISTANCE + res[guard + target] * _RESILIENCE
            if target == KITESURFEUR:
                index += spin
            worth = table[index]  # _worth inlined (hot loop): a call less per target
            if worth < 0.0:
                worth = _fill(table, rules, index)
            if worth > best:
                best = worth
    if state.trident and character == PLONGEUR:
        return best  # Trident's shots are at mages (R24)
    distance = chest_distance(side, at)
    if 0 <= distance <= MAX_RANGE:  # (a negative distance, off the board: no such shot)
        index = _chest_index(base, distance, at, rows[enemy + _UNIT_OF[character]])
        index += res[guard + character] * _RESILIENCE
        if character == KITESURFEUR:
            index += spin
        worth = _worth(table, rules, index)
        if worth > best:
            best = worth
    return best


#: For each shooter, the enemy mages it may reach: (target, its unit, lanes apart), those
#: too many lanes away left out (R4: a mage's distance is rows apart plus lanes apart, so
#: its distance from the same row). The hot loops add the rows apart themselves.
_REACHABLE: Final[list[list[tuple[int, int, int]]]] = [
    [
        (target, UNIT_OF_CHAR[target], mage_distance(0, shooter, 0, target))
        for target in range(CHARS)
        if mage_distance(0, shooter, 0, target) <= MAX_RANGE
    ]
    for shooter in range(CHARS)
]


def action_worth(action: str, value: Fraction) -> float:
    """Worth of a ``shoot …`` action given its exact value from ``target_values``."""
    aim = PARSED[action]
    chest = isinstance(aim, ShootAt) and aim.target == CHEST
    return float(value if chest else PUSH_WEIGHT * value)


def shooters(state: MatchState, side: int) -> list[int]:
    """The characters of ``side`` that will still shoot this turn (orders revealed)."""
    orders = state.orders[side]
    if orders is None:
        return []
    out: list[int] = []
    done = state.activated[side]
    for unit in range(UNITS):
        if done >> unit & 1:
            continue
        order = orders[unit]
        if unit == SHIP:
            if order == _SHIP_TT:
                out.append(BARREUR)
                out.append(LANCEUR)
            elif order == _SHIP_AT_B:
                out.append(BARREUR)
            elif order == _SHIP_AT_L:
                out.append(LANCEUR)
        elif order != _ADVANCE_ORDER:
            out.append(_FIRST_CHAR[unit])
    return out


_SHIP_TT: Final[int] = SHIP_TT
_SHIP_AT_B: Final[int] = SHIP_AT_B
_SHIP_AT_L: Final[int] = SHIP_AT_L
_ADVANCE_ORDER: Final[int] = ADVANCE_ORDER
_FIRST_CHAR: Final[list[int]] = [chars[0] for chars in CHARS_OF_UNIT]


def ultime_gains(state: MatchState, side: int, effects: tuple[int, ...]) -> list[float]:
    """What declaring each Ultime effect now is worth this turn: our remaining shots' gain
    plus what it takes from the enemy's remaining shots (orders are revealed by now)."""
    other = 1 - side
    mine, theirs = state.effects[side], state.effects[other]
    table = _worths_of(state.rules).shots
    all_ours, all_theirs = shooters(state, side), shooters(state, other)
    # Each shooter's shots in range are found once, then valued under each effect.
    ours = [_shots_in_range(state, side, c) for c in all_ours]
    their = [_shots_in_range(state, other, c) for c in all_theirs]
    turn = state.turn
    base_ours = [
        _best_of(table, state.rules, shots, turn, c, mine, theirs)
        for c, shots in zip(all_ours, ours, strict=True)
    ]
    base_theirs = [
        _best_of(table, state.rules, shots, turn, c, theirs, mine)
        for c, shots in zip(all_theirs, their, strict=True)
    ]
    gains: list[float] = []
    for effect in effects:
        changed = mine | effect
        gain = 0.0
        # Vigie helps our shots only, Égide hinders theirs only (R24); Tourbillon both.
        if effect != _ON_EGIDE:
            for i, c in enumerate(all_ours):
                if effect == _ON_TOURBILLON and c != KITESURFEUR:
                    continue  # our Tourbillon changes only our Kitesurfeur's shots: gain 0
                after = _best_of(table, state.rules, ours[i], turn, c, changed, theirs)
                gain += after - base_ours[i]
        if effect != _ON_VIGIE:
            taken = 0.0  # summed apart, then added: the same float sums as ever
            for i, c in enumerate(all_theirs):
                after = _best_of(table, state.rules, their[i], turn, c, theirs, changed)
                taken += base_theirs[i] - after
            gain += taken
        gains.append(gain)
    return gains


def _shots_in_range(state: MatchState, side: int, character: int) -> list[int]:
    """The character's shots in range as in :func:`_best` (the geometry inlined the same
    way, for the same reason), each as its table index less the effects' part, times 2,
    plus 1 if a Kitesurfeur's Tourbillon acts on it."""
    rows = state.rows
    res = state.res
    at = rows[side * UNITS + _UNIT_OF[character]]
    enemy = (1 - side) * UNITS
    guard = (1 - side) * CHARS
    shots: list[int] = []
    for target, unit, lanes_apart in _REACHABLE[character]:
        rows_apart = at - rows[enemy + unit]
        distance = (rows_apart if rows_apart >= 0 else -rows_apart) + lanes_apart
        if distance <= MAX_RANGE:
            index = distance * _DISTANCE + res[guard + target] * _RESILIENCE
            shots.append(index * 2 + (target == KITESURFEUR))
    if state.trident and character == PLONGEUR:
        return shots
    distance = chest_distance(side, at)
    if 0 <= distance <= MAX_RANGE:
        index = _chest_index(0, distance, at, rows[enemy + _UNIT_OF[character]])
        index += res[guard + character] * _RESILIENCE
        shots.append(index * 2 + (character == KITESURFEUR))
    return shots


def _best_of(
    table: list[float],
    rules: RulesConfig,
    shots: list[int],
    turn: int,
    character: int,
    mine: int,
    theirs: int,
) -> float:
    """The best worth of ``shots`` (:func:`_shots_in_range`) with these effects: the same
    table entries, hence the same value, as :func:`_best`."""
    base = _base(turn, mine, theirs, character)
    spin = _SPIN if theirs & _ON_TOURBILLON else 0
    best = 0.0
    for packed in shots:
        index = base + (packed >> 1)
        if packed & 1:
            index += spin
        worth = table[index]  # _worth inlined, as in _best: this loop runs per effect tried
        if worth < 0.0:
            worth = _fill(table, rules, index)
        if worth > best:
            best = worth
    return best


def resolution_sides(state: MatchState) -> tuple[bool, int, int | None, Side, Side]:
    """The shot being resolved: (chest?, effective distance, interception distance or None,
    attacking and defending :class:`Side` with the runes played so far)."""
    current = state.shot
    if current is None:
        raise AkvoError("no shot is being resolved")
    effects: Effects = (state.effects[0], state.effects[1])
    attack, defence = _sides(state, current.side, current.shooter, current.defender, effects)
    chest = current.target == CHEST
    idist = current.idist if chest and current.idist <= MAX_RANGE else None
    attack_rune = SHOT_RUNE.get(current.att_cat)
    defence_rune = SHOT_RUNE.get(current.def_cat)
    if attack_rune is not None:
        attack = _attacker(attack.vigie, attack.tourbillon, attack_rune)
    if defence_rune is not None:
        defence = _defender(defence.resilience, defence.egide, defence.tourbillon, defence_rune)
    return chest, current.distance, idist, attack, defence


def resolution_worth(state: MatchState, attack: Side, defence: Side) -> float:
    """Worth (to the shooter) of the shot being resolved with these two sides."""
    chest, distance, idist, _, _ = resolution_sides(state)
    return shot_value(chest, state.tier, distance, idist, attack, defence, state.rules)


def with_rune(base: Side, rune: RuneChoice, attacking: bool) -> Side:
    """The same side playing ``rune`` (cached Side objects)."""
    if attacking:
        return _attacker(base.vigie, base.tourbillon, rune)
    return _defender(base.resilience, base.egide, base.tourbillon, rune)


def resolution_key(state: MatchState) -> int:
    """Everything that decides what a rune changes in the shot being resolved, packed into
    one int for :func:`rune_gain`: chest or mage, the tier, the distances, each side's
    effects, Résilience and rune played so far (times 16: room for the rune)."""
    current = state.shot
    if current is None:
        raise AkvoError("no shot is being resolved")
    side, shooter, defender = current.side, current.shooter, current.defender
    mine, theirs = state.effects[side], state.effects[1 - side]
    chest = current.target == CHEST
    key = _TIER[state.turn] * 2 + chest
    key = key * 256 + current.distance
    key = key * 256 + (current.idist + 1 if chest and current.idist <= MAX_RANGE else 0)
    key = key * 8 + (current.att_cat + 1 if current.att_cat in SHOT_RUNE else 0)
    key = key * 8 + (current.def_cat + 1 if current.def_cat in SHOT_RUNE else 0)
    key = key * 2 + bool(mine & EFFECT_VIGIE)
    key = key * 2 + (shooter == KITESURFEUR and bool(mine & EFFECT_TOURBILLON))
    key = key * 4 + state.res[(1 - side) * CHARS + defender]
    key = key * 2 + bool(theirs & EFFECT_EGIDE)
    key = key * 2 + (defender == KITESURFEUR and bool(theirs & EFFECT_TOURBILLON))
    return key * 16


def rune_gain(state: MatchState, key: int, attacking: bool, category: int) -> float:
    """What a rune of ``category`` gains its side on the shot being resolved (points; 0 for
    a category that does not act on a roll): the shooter's worth with it minus without it
    for an attack rune, without minus with for a defence rune. ``key`` is
    :func:`resolution_key`; cached by ``key``, the side and ``category``."""
    gains = _worths_of(state.rules).gains
    slot = key + 8 * attacking + category
    gain = gains.get(slot)
    if gain is None:
        gain = gains[slot] = _rune_gain(state, attacking, category)
    return gain


def _rune_gain(state: MatchState, attacking: bool, category: int) -> float:
    name = SHOT_RUNE.get(category)
    if name is None:
        return 0.0
    chest, distance, idist, attack, defence = resolution_sides(state)
    tier, rules = _TIER[state.turn], state.rules
    base = shot_value(chest, tier, distance, idist, attack, defence, rules)
    if attacking:
        played = with_rune(attack, name, True)
        return shot_value(chest, tier, distance, idist, played, defence, rules) - base
    played = with_rune(defence, name, False)
    return base - shot_value(chest, tier, distance, idist, attack, played, rules)
