"""What each rules variant of :class:`~akvo.config.RulesConfig` changes, in exact numbers.

The rulings page of the book switches each variant and shows these numbers; every one is
computed by the engine's own rule (R8 weather draws, R13 prodiges in :mod:`akvo.dice`, R19
categories in :mod:`akvo.rules`, R22 in :mod:`akvo.match.showcase`, R18/R20 by playing a
:func:`~akvo.match.scenario.scenario` position in the match engine and reading
:func:`~akvo.match.preview.unit_preview`), never re-implemented. :func:`win_rates` plays
bot matches under the default rules and under a variant on the same seeds
(:func:`akvo.lab.simulate` in this process) for their effect on who wins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from akvo.config import CHOICES, DEFAULT_RULES, RulesConfig
from akvo.errors import RulesError, require_choice, require_instance
from akvo.match.actions import ADVANCE, NO_MOVE, ROULEAU, RUNE_LETTER, WEATHER_ACTIONS
from akvo.match.board import BARREUR, SHIP, UNIT_OF_NAME
from akvo.match.geometry import chest_distance
from akvo.match.phases import Phase
from akvo.match.preview import CHEST_NAME, unit_preview
from akvo.match.scenario import scenario
from akvo.match.state import MatchState
from akvo.match.weather import weather_outcomes
from akvo.rules import TURNS, Character, RuneCategory
from akvo.rules import rune as grimoire_rune
from akvo.shots import ATTACK_RUNES, RuneChoice, Side, shot_on_mage
from akvo.switches import RULINGS
from akvo.teams import Team

if TYPE_CHECKING:
    from akvo.lab import Comparison, Results

#: Each variant field → the ruling that names it (declared with its switch, :mod:`akvo.switches`).
VARIANT_RULINGS: Mapping[str, str] = RULINGS
#: The weather bag of R8: 4 tokens favouring each side, drawn for turns 1–8.
WEATHER_BAG = (4, 4)

_ATTACK_RUNES: Mapping[RuneCategory, RuneChoice] = MappingProxyType(
    {RuneCategory(name): name for name in ATTACK_RUNES if name}
)


def weather_favoured_turns(rules: RulesConfig = DEFAULT_RULES) -> Mapping[int, Fraction]:
    """Number of regular turns (1–8) in which side A is favoured → probability (R8)."""
    rules = _rules(rules)
    states: dict[tuple[int, tuple[int, int]], Fraction] = {(0, WEATHER_BAG): Fraction(1)}
    for _ in TURNS:
        following: dict[tuple[int, tuple[int, int]], Fraction] = {}
        for (count, bag), p in states.items():
            for action, q in weather_outcomes(rules, list(bag)):
                side = WEATHER_ACTIONS.index(action)
                left = (bag[0] - (side == 0), bag[1] - (side == 1))
                key = (count + (side == 0), left if rules.weather == "bag" else bag)
                following[key] = following.get(key, Fraction(0)) + p * q
        states = following
    out: dict[int, Fraction] = {}
    for (count, _), p in states.items():
        out[count] = out.get(count, Fraction(0)) + p
    return MappingProxyType(dict(sorted(out.items())))


def best_own_attack(
    team: Team, character: Character, tier: int, distance: int, rules: RulesConfig = DEFAULT_RULES
) -> tuple[RuneCategory | None, Fraction]:
    """The character's best own rune for a shot on a mage (R20, R21) and its P(push).

    Only the character's four runes count (not the bonus ones); ``None`` means none of
    them helps an attack. The categories follow the R19 reading in ``rules``.
    """
    team = require_instance("team", team, Team, RulesError)
    character = require_instance("character", character, Character, RulesError)
    best: tuple[RuneCategory | None, Fraction] = (
        None,
        shot_on_mage(tier, distance, rules=rules).p_push,
    )
    for rune in team.runes_of(character, rules):
        choice = _ATTACK_RUNES.get(rune.category)
        if choice is None:
            continue
        p = shot_on_mage(tier, distance, Side(rune=choice), rules=rules).p_push
        if p > best[1]:
            best = (rune.category, p)
    return best


# --- R18 with R20: a Mouvement rune just before a shot (variant ``mouvement_rune``) ---------

#: Where the two movement variants are measured: the start of turn 5 (tier III), every unit
#: on its start row; A's Kitesurfeur (Mouvement V, Attaque N, Confusion F; bonus Attaque Q
#: and Mouvement W in Perrockiss) shoots B's Kitesurfeur, 3 cells ahead in its lane.
MOVEMENT_SETUP: Mapping[str, Any] = MappingProxyType({"turn": 5, "bag": [2, 2]})
#: Side A's orders there: Tirer for the Kitesurfeur (lanes' units, then the ship's token).
MOUVEMENT_ORDERS = ("orders ATAA AA", "orders AAAA AA")
#: The ship's position: B's ship back on its own row 8, so that A's ship has room ahead.
SHIP_SETUP: Mapping[str, Any] = MappingProxyType({**MOVEMENT_SETUP, "rows": {"B": {"navire": 8}}})
SHIP_ORDERS = ("orders AAAA AA", "orders AAAA AA")


@dataclass(frozen=True, slots=True)
class ShotChoice:
    """One way to take the shot: from which row, at what distance, the attack runes the
    engine then offers (letters) and the best chance to push with one of them (or none)."""

    row: int
    distance: int
    runes: tuple[str, ...]
    best_rune: str | None
    p_push: Fraction


@dataclass(frozen=True, slots=True)
class MouvementEffect:
    """The shooter's two choices: shoot from where it stands, or play its Mouvement rune
    (``rune``) first and shoot one cell closer."""

    tier: int
    rune: str
    still: ShotChoice
    moved: ShotChoice

    @property
    def best(self) -> Fraction:
        """The best chance to push the target the shooter has under this reading."""
        return max(self.still.p_push, self.moved.p_push)


def _rules(rules: object) -> RulesConfig:
    return require_instance("rules", rules, RulesConfig, RulesError)


def _opening(rules: RulesConfig, setup: Mapping[str, Any], orders: Sequence[str]) -> MatchState:
    """The position, weather to A, both sides' orders given: A is about to activate."""
    state = scenario(rules=_rules(rules), **dict(setup))
    for action in ("weather A", *orders):
        state.apply_action(action)
    return state


def _attack_side(letter: str | None, rules: RulesConfig) -> Side:
    choice = None if letter is None else _ATTACK_RUNES.get(grimoire_rune(letter, rules).category)
    return Side(rune=choice)


def _shot_choice(state: MatchState, target: str) -> ShotChoice:
    """At the shooter's target decision: shoot ``target`` and read the runes offered."""
    current = state.shot
    assert current is not None, "not at a target decision"
    preview = unit_preview(state, current.side, current.shooter)
    aim = next(t for t in preview.targets if t.action == f"shoot {target}")
    after = state.child(aim.action)
    offered = after.legal_actions() if after.phase == Phase.ATTACK_RUNE else ()
    runes = tuple(RUNE_LETTER[a] for a in offered if a in RUNE_LETTER)
    defence = Side(resilience=state.resilience(1 - current.side, target))
    best: tuple[str | None, Fraction] = (None, aim.odds.p_push)
    for letter in runes:
        attack = _attack_side(letter, state.rules)
        odds = shot_on_mage(aim.odds.tier, aim.base_distance, attack, defence, rules=state.rules)
        if odds.p_push > best[1]:
            best = (letter, odds.p_push)
    return ShotChoice(preview.row, aim.base_distance, runes, best[0], best[1])


def mouvement_before_shot(rules: RulesConfig = DEFAULT_RULES) -> MouvementEffect:
    """A's Kitesurfeur shooting B's Kitesurfeur (:data:`MOVEMENT_SETUP`), standing still or
    after its Mouvement rune, with the runes the engine lets it add under ``rules`` (R18)."""
    state = _opening(rules, MOVEMENT_SETUP, MOUVEMENT_ORDERS)
    state.apply_action("activate kitesurfeur")
    move = next(a for a in state.legal_actions() if a in RUNE_LETTER)
    still = _shot_choice(state.child(NO_MOVE), "kitesurfeur")
    moved = _shot_choice(state.child(move), "kitesurfeur")
    return MouvementEffect(state.tier, RUNE_LETTER[move], still, moved)


# --- R20 with the ship's double token: its Mouvement runes (variant ``ship_advance_runes``) --


@dataclass(frozen=True, slots=True)
class ShipAdvance:
    """A's ship on an Avancer/Avancer order, playing every Mouvement rune the engine offers
    (:data:`SHIP_SETUP`), and the Barreur's chest shot from where it ends."""

    tier: int
    row_before: int
    row: int
    runes: tuple[str, ...]  # the Mouvement runes played, in order
    chest_distance: int
    chest_points: Fraction  # expected points of the Barreur's chest shot from ``row``

    @property
    def cells(self) -> int:
        return self.row - self.row_before


def ship_double_advance(rules: RulesConfig = DEFAULT_RULES) -> ShipAdvance:
    """How far A's ship goes with the double Avancer token under ``rules`` (R10, R20)."""
    state = _opening(rules, SHIP_SETUP, SHIP_ORDERS)
    before = state.row(0, SHIP)
    state.apply_action("activate navire")
    played: list[str] = []
    while state.phase == Phase.ADVANCE and state.current_player == 0:
        boosted = [a for a in state.legal_actions() if a in RUNE_LETTER]
        action = boosted[0] if boosted else ADVANCE
        if boosted:
            played.append(RUNE_LETTER[action])
        state.apply_action(action)
    chest = next(
        t for t in unit_preview(state, 0, BARREUR).targets if t.action == f"shoot {CHEST_NAME}"
    )
    return ShipAdvance(
        state.tier,
        before,
        state.row(0, SHIP),
        tuple(played),
        chest.base_distance,
        chest.odds.expected_points,
    )


# --- R20 with R24: a Mouvement rune on Rouleau's advance (variant ``rouleau_mouvement``) ---

#: A's Surfeur (Mouvement Y; bonus Mouvement W in Perrockiss) shoots B's Surfeur at the
#: start of turn 5 (:data:`MOVEMENT_SETUP`), without moving first or playing a rune; the
#: dice are set: a plain success, then B's failed defence pushes its Surfeur 1 cell back.
ROULEAU_ORDERS = ("orders AATA AA", "orders AAAA AA")
ROULEAU_SHOT = ("activate surfeur", NO_MOVE, "shoot surfeur", "no rune", "no rune")
ROULEAU_DICE = ("roll 5544", "roll 1112")


@dataclass(frozen=True, slots=True)
class RouleauAdvance:
    """A's Surfeur declaring Rouleau after pushing B's Surfeur (:data:`ROULEAU_SHOT`), with
    the first Mouvement rune the engine offers on it (``rune``, or ``None`` without one)."""

    tier: int
    row_before: int
    row: int
    rune: str | None
    runes_offered: tuple[str, ...]  # the Mouvement runes the engine offers with Rouleau
    chest_distance: int  # from ``row`` to B's beach (R5): in range at 1–4

    @property
    def cells(self) -> int:
        return self.row - self.row_before


def rouleau_advance(rules: RulesConfig = DEFAULT_RULES) -> RouleauAdvance:
    """How far Rouleau takes A's Surfeur under ``rules``, with a Mouvement rune if offered."""
    state = _opening(rules, MOVEMENT_SETUP, ROULEAU_ORDERS)
    surfeur = UNIT_OF_NAME["surfeur"]
    for action in (*ROULEAU_SHOT, *ROULEAU_DICE):
        state.apply_action(action)
    assert state.phase == Phase.ROULEAU, "the scripted shot must offer Rouleau"
    before = state.row(0, surfeur)
    offered = tuple(RUNE_LETTER[a] for a in state.legal_actions() if a in RUNE_LETTER)
    state.apply_action(f"{ROULEAU} +{offered[0]}" if offered else ROULEAU)
    row = state.row(0, surfeur)
    return RouleauAdvance(
        state.tier,
        before,
        row,
        offered[0] if offered else None,
        offered,
        chest_distance(0, row),
    )


# --- Win rates: the default rules against a variant, on the same seeds ----------------------

Progress = Callable[[int, int], None]


def variant_rules(field: str) -> RulesConfig:
    """The default rules with ``field`` switched to its other reading."""
    field = require_choice("rules variant", field, CHOICES, RulesError)
    return DEFAULT_RULES.with_(**{field: CHOICES[field][1]})


def win_rates(
    field: str,
    n: int = 200,
    seed: int = 1,
    bots: tuple[str, str] = ("greedy", "greedy"),
    teams: tuple[str, str] = ("perrockiss", "fish-tank"),
    on_progress: Progress | None = None,
) -> tuple[Results, Results, Comparison]:
    """``n`` matches under the default rules, then the same ``n`` seeds with ``field``
    switched (:func:`akvo.lab.simulate` in this process, no Dask), and their paired
    comparison. ``on_progress(done, 2 * n)`` follows both runs."""
    from akvo.lab import paired, simulate

    variant = variant_rules(field)

    def follow(offset: int) -> Callable[[int, int], None]:
        def report(done: int, _total: int) -> None:
            if on_progress is not None:
                on_progress(offset + done, 2 * n)

        return report

    runs = [
        simulate(*teams, bots, rules, n, seed, workers=0, progress=False, on_progress=follow(i * n))
        for i, rules in enumerate((DEFAULT_RULES, variant))
    ]
    return runs[0], runs[1], paired(runs[0], runs[1])
