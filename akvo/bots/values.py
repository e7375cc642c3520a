"""Exact worth of the shots a side could take, shared by the greedy and search bots.

Every probability comes from :mod:`akvo.shots`; the geometry (who is in range, at what
distance) from :mod:`akvo.match.board`'s distance functions, as in
:func:`akvo.match.preview.unit_preview` (a test checks that :func:`target_worths` gives
exactly the values of :func:`akvo.match.preview.target_values`). The bots call these
thousands of times per match, so the shot values are cached by the few small ints that
decide them, and the best worth of a mage by the positions it depends on.

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
from akvo.match.actions import ADVANCE_ORDER, SHIP_AT_B, SHIP_AT_L, SHIP_TT
from akvo.match.board import (
    BARREUR,
    CHAR_NAMES,
    CHARS,
    CHARS_OF_UNIT,
    CHEST,
    KITESURFEUR,
    LANCEUR,
    MAX_RANGE,
    PEDALAIR,
    PLONGEUR,
    SHIP,
    UNIT_OF_CHAR,
    UNITS,
    chest_distance,
)
from akvo.match.core import EFFECT_EGIDE, EFFECT_TOURBILLON, EFFECT_VIGIE
from akvo.match.preview import CHEST_NAME
from akvo.match.roster import ATTAQUE, CONFUSION, DEFENSE, RELANCE
from akvo.match.state import MatchState
from akvo.resolution import MAX_SOUFFLE_DISTANCE, SOUFFLE_REDUCTION
from akvo.rules import TIE_BREAK_TURNS, tier_for_turn
from akvo.shots import RuneChoice, Side, shot

#: Points a push is worth per unit of P(push): pushing a mage back costs it a turn of
#: advance towards the chest, and our beach is safer.
PUSH_WEIGHT: Final = Fraction(2, 5)

#: The rune name :mod:`akvo.shots` uses for each rune category of the engine's roster.
SHOT_RUNE: dict[int, RuneChoice] = {
    ATTAQUE: "attaque",
    DEFENSE: "defense",
    CONFUSION: "confusion",
    RELANCE: "relance",
}

Effects = tuple[int, int]


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


def target_worths(
    state: MatchState,
    side: int,
    character: int,
    effects: Effects | None = None,
    souffle: bool = False,
    row: int | None = None,
) -> dict[str, float]:
    """Every target in range now (``shoot …`` → worth), with the Ultime effects in force (or
    ``effects``, to ask "what if"); with ``souffle``, also the ``shoot … souffle`` shots
    Souffle portant offers while the Pédalair's Ultime is free (R24); with ``row``, as if
    the character's unit stood on that row. The result is cached by everything it depends
    on (the shooter's row, the enemy rows and Résilience, the tier, the effects that act,
    Trident, Souffle, the rules): read it, never change it."""
    return _worths_at(
        state, side, character, _position(state, side, character, effects, souffle, row)
    )


def _worths_at(
    state: MatchState,
    side: int,
    character: int,
    position: tuple[tuple[object, ...], bool, bool, int, Effects],
) -> dict[str, float]:
    """:func:`target_worths` for a position already keyed by :func:`_position`."""
    key, trident, souffle, row, effects = position
    cache = _caches_of(state.rules)
    positions = cache[0]
    found = positions.get(key)
    if found is None:
        if len(positions) > _WORTHS_SIZE:
            positions.clear()
        found = positions[key] = _target_worths(
            state, side, character, effects, trident, souffle, row, cache[1]
        )
    return found


def _position(
    state: MatchState,
    side: int,
    character: int,
    effects: Effects | None,
    souffle: bool,
    row: int | None,
) -> tuple[tuple[object, ...], bool, bool, int, Effects]:
    """The cache key of a character's targets (everything they depend on), with the
    Trident and Souffle flags, row and effects that apply."""
    if effects is None:
        effects = (state.effects[0], state.effects[1])
    other = 1 - side
    trident = state.trident and character == PLONGEUR  # Trident's shots are at mages (R24)
    souffle = souffle and not state.ult_used[side] >> PEDALAIR & 1
    rows = state.rows
    if row is None:
        row = rows[side * UNITS + UNIT_OF_CHAR[character]]
    enemy = other * UNITS
    base = other * CHARS
    key = (side, character, souffle, trident, _TIER[state.turn], row, effects,
           *rows[enemy : enemy + UNITS], *state.res[base : base + CHARS])  # fmt: skip
    return key, trident, souffle, row, effects


#: A shot without runes: (chest, tier, distance, interception distance, the attacker's
#: Vigie, Tourbillon, Souffle, the defender's Résilience, Égide, Tourbillon).
ShotKey = tuple[bool, int, int, int | None, bool, bool, bool, int, bool, bool]
Caches = tuple[
    dict[tuple[object, ...], dict[str, float]],
    dict[ShotKey, float],
    dict[tuple[object, ...], float],
]
#: Per rules configuration: the position cache of :func:`target_worths`, the shot worths
#: by the small ints that decide them (cheaper to hash than :class:`Side` objects), and
#: :func:`best_worth` by position.
_CACHES: dict[RulesConfig, Caches] = {}
_WORTHS_SIZE: Final = 1 << 17
_TIER: Final = (0, *(tier_for_turn(turn) for turn in range(1, TIE_BREAK_TURNS[-1] + 1)))
_LAST: list[object] = [None, None]  # the last rules configuration and its caches


def _caches_of(rules: RulesConfig) -> Caches:
    """The caches of ``rules`` (the last one found by identity: hashing a RulesConfig costs
    more than a cached lookup)."""
    if _LAST[0] is rules:
        return _LAST[1]  # type: ignore[return-value]
    cache = _CACHES.get(rules)
    if cache is None:
        cache = _CACHES[rules] = ({}, {}, {})
    _LAST[0], _LAST[1] = rules, cache
    return cache


def clear_worths() -> None:
    """Forget the positions seen (benchmarks time the bots from a cold position cache)."""
    for positions, _, bests in _CACHES.values():
        positions.clear()
        bests.clear()


def _worth(shots: dict[ShotKey, float], rules: RulesConfig, key: ShotKey) -> float:
    """:func:`shot_value` of the shot ``key`` = (chest, tier, distance, interception
    distance, then the attacker's Vigie, Tourbillon, Souffle, then the defender's Résilience,
    Égide, Tourbillon), no runes; stored in ``shots`` under that key."""
    chest, tier, distance, idist, vigie, whirl, souffle, resilience, egide, spin = key
    worth = shots[key] = shot_value(
        chest,
        tier,
        distance,
        idist,
        _attacker(vigie, whirl, None, souffle),
        _defender(resilience, egide, spin),
        rules,
    )
    return worth


def _target_worths(
    state: MatchState,
    side: int,
    character: int,
    effects: Effects,
    trident: bool,
    souffle: bool,
    row: int,
    shots: dict[ShotKey, float],
) -> dict[str, float]:
    rows = state.rows
    res = state.res
    other = 1 - side
    enemy_rows = rows[other * UNITS : other * UNITS + UNITS]
    enemy_res = res[other * CHARS : other * CHARS + CHARS]
    lane = character + 1
    tier = _TIER[state.turn]
    rules = state.rules
    mine, theirs = effects[side], effects[other]
    vigie = bool(mine & EFFECT_VIGIE)
    whirl = character == KITESURFEUR and bool(mine & EFFECT_TOURBILLON)
    egide = bool(theirs & EFFECT_EGIDE)
    tourbillon = bool(theirs & EFFECT_TOURBILLON)
    out: dict[str, float] = {}
    extra: dict[str, float] = {}
    key: ShotKey
    for enemy in range(CHARS):
        # R4: rows apart plus lanes apart (akvo.match.board.mage_distance, inlined)
        distance = abs(row - enemy_rows[UNIT_OF_CHAR[enemy]]) + abs(lane - enemy - 1)
        if distance > MAX_SOUFFLE_DISTANCE:
            continue
        spin = enemy == KITESURFEUR and tourbillon
        if distance <= MAX_RANGE:
            key = (False, tier, distance, None, vigie, whirl, False, enemy_res[enemy], egide, spin)
            worth = shots.get(key)
            if worth is None:
                worth = _worth(shots, rules, key)
            out[_SHOOT[enemy]] = worth
        if souffle and distance >= SOUFFLE_REDUCTION:
            key = (False, tier, distance, None, vigie, whirl, True, enemy_res[enemy], egide, spin)
            worth = shots.get(key)
            if worth is None:
                worth = _worth(shots, rules, key)
            extra[_SHOOT_SOUFFLE[enemy]] = worth
    distance = chest_distance(side, row)
    if distance <= MAX_SOUFFLE_DISTANCE and not trident:
        idist = abs(row - enemy_rows[UNIT_OF_CHAR[character]])
        interception = idist if idist <= MAX_RANGE else None
        guard = (enemy_res[character], egide, character == KITESURFEUR and tourbillon)
        if distance <= MAX_RANGE:
            key = (True, tier, distance, interception, vigie, whirl, False, *guard)
            worth = shots.get(key)
            out[_SHOOT_CHEST] = worth if worth is not None else _worth(shots, rules, key)
        if souffle and distance >= SOUFFLE_REDUCTION:
            key = (True, tier, distance, interception, vigie, whirl, True, *guard)
            worth = shots.get(key)
            extra[_SHOOT_CHEST + _SOUFFLE] = (
                worth if worth is not None else _worth(shots, rules, key)
            )
    out.update(extra)
    return out


_SHOOT: Final = tuple(f"shoot {name}" for name in CHAR_NAMES)
_SHOOT_CHEST: Final = f"shoot {CHEST_NAME}"
_SOUFFLE: Final = " souffle"
_SHOOT_SOUFFLE: Final = tuple(action + _SOUFFLE for action in _SHOOT)


def best_worth(
    state: MatchState,
    side: int,
    character: int,
    effects: Effects | None = None,
    row: int | None = None,
) -> float:
    """The best worth among the character's targets now (0 when none is in range); with
    ``row``, as if its unit stood on that row (cached by position, like the targets)."""
    position = _position(state, side, character, effects, False, row)
    key = position[0]
    bests = _caches_of(state.rules)[2]
    best = bests.get(key)
    if best is None:
        if len(bests) > _WORTHS_SIZE:
            bests.clear()
        worths = _worths_at(state, side, character, position)
        best = bests[key] = max(worths.values(), default=0.0)
    return best


def action_worth(action: str, value: Fraction) -> float:
    """Worth of a ``shoot …`` action given its exact value from ``target_values``."""
    return float(value if action.split()[1] == CHEST_NAME else PUSH_WEIGHT * value)


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
            if order == SHIP_TT:
                out += [BARREUR, LANCEUR]
            elif order == SHIP_AT_B:
                out.append(BARREUR)
            elif order == SHIP_AT_L:
                out.append(LANCEUR)
        elif order != ADVANCE_ORDER:
            out.append(CHARS_OF_UNIT[unit][0])
    return out


def ultime_gains(state: MatchState, side: int, effects: tuple[int, ...]) -> list[float]:
    """What declaring each Ultime effect now is worth this turn: our remaining shots' gain
    plus what it takes from the enemy's remaining shots (orders are revealed by now)."""
    before: Effects = (state.effects[0], state.effects[1])
    all_ours, all_theirs = shooters(state, side), shooters(state, 1 - side)
    base_ours = [best_worth(state, side, c, before) for c in all_ours]
    base_theirs = [best_worth(state, 1 - side, c, before) for c in all_theirs]
    gains: list[float] = []
    for effect in effects:
        after = list(before)
        after[side] |= effect
        changed: Effects = (after[0], after[1])
        gain = 0.0
        # Vigie helps our shots only, Égide hinders theirs only (R24); Tourbillon both.
        if effect != EFFECT_EGIDE:
            for c, b in zip(all_ours, base_ours, strict=True):
                if effect == EFFECT_TOURBILLON and c != KITESURFEUR:
                    continue  # our Tourbillon changes only our Kitesurfeur's shots: gain 0
                gain += best_worth(state, side, c, changed) - b
        if effect != EFFECT_VIGIE:
            taken = 0.0  # summed apart, then added: the same float sums as ever
            for c, b in zip(all_theirs, base_theirs, strict=True):
                taken += b - best_worth(state, 1 - side, c, changed)
            gain += taken
        gains.append(gain)
    return gains


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
