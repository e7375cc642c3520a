"""The exact immediate value of every option of a decision: what the coach shows by each
button.

:func:`decision_values` answers at any decision node of a :class:`~akvo.match.MatchState`
with one :class:`OptionValue` per legal action, in the engine's order, inside a
:class:`DecisionValues` that says what the numbers assume and which option the « normal »
bot (:class:`akvo.bots.greedy.GreedyBot`) would choose. Every number is a ``Fraction``
computed by the engine, nothing is estimated here (the estimated win chance is
:mod:`akvo.coach.chances`):

==================  ===========================  =============================================
decision            ``measure``                  from
==================  ===========================  =============================================
target              ``p_push`` (a mage) or       :func:`akvo.match.preview.unit_preview`
                    ``expected_points`` (chest)  (:mod:`akvo.shots`), no rune played yet
attack rune         the same, with the           each rune's shot (:func:`akvo.shots.shot`)
                    defender's best reply        met by every rune the defender can still
                                                 play (R18: it answers knowing the rune)
defence rune        the same                     the attacker's rune is declared
Relance             ``p_success`` (+ critical,   this roll's dice (R12, R13, R15,
                    prodige)                     :mod:`akvo.resolution`)
activation          ``worth`` / ``gain``         the unit's best shot now; an Ultime's gain
advance, move       ``worth``                    the best shot from the cell reached
before a shot, ship
order, Rouleau,
Trident
orders, prodige,    ``none``                     no single exact number: see the suggestion
rune U                                           and the win chance
==================  ===========================  =============================================

A *worth* is in points, as the bots weigh shots (:mod:`akvo.bots.values`): a chest shot's
expected points, :data:`~akvo.bots.values.PUSH_WEIGHT` point per unit of P(push) on a
mage; shots with Souffle portant are left out (an Ultime the bots keep for later), as in
:func:`akvo.bots.values.best_worth`. An Ultime's *gain* is what declaring it changes in
the turn's remaining shots: the sum over our shooters still to shoot of their best worth
with it minus without it, plus the sum over the enemy's of without minus with — the
quantity :func:`akvo.bots.values.ultime_gains` computes in floats (the greedy bot's rule),
here exact. « Se déplacer avant de tirer » (and the ship's « move first », Rouleau) is
valued by the shooter's best worth from the cell it would shoot from, as
:class:`~akvo.bots.greedy.GreedyBot` compares them. The values read only what the side to
play may see (:meth:`~akvo.match.MatchState.observation`): at the orders, the other side's
hidden orders play no part.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Generic, NamedTuple, Protocol, TypeVar

from akvo.bots.greedy import GreedyBot
from akvo.bots.values import PUSH_WEIGHT, resolution_sides, shooters
from akvo.coach.errors import CoachError
from akvo.errors import excerpt
from akvo.match.actions import SHIP_AT_B, Activate, DeclareUltime, Reroll, parse_action
from akvo.match.board import (
    BARREUR,
    CHAR_NAMES,
    CHARS_OF_UNIT,
    LANCEUR,
    PLONGEUR,
    SHIP,
    SURFEUR,
    UNIT_OF_CHAR,
    UNITS,
)
from akvo.match.core import TERMINAL
from akvo.match.phases import Phase
from akvo.match.preview import CHEST_NAME, TargetPreview, unit_preview
from akvo.match.state import MatchState
from akvo.match.ultimes import EFFECT_OF_CHAR
from akvo.resolution import is_critical, is_prodige, is_success
from akvo.shots import ShotKind, shot

#: What an option's ``value`` measures.
P_PUSH: Final = "p_push"  # P(the shot pushes the target mage), R16
EXPECTED_POINTS: Final = "expected_points"  # E[points] of a chest shot, R17
P_SUCCESS: Final = "p_success"  # P(the roll being decided succeeds), R12
WORTH: Final = "worth"  # points, as the bots weigh shots (see the module)
GAIN: Final = "gain"  # an Ultime's exact gain this turn, in points (see the module)
NONE: Final = "none"  # no exact immediate number for this option
MEASURES: Final = (P_PUSH, EXPECTED_POINTS, P_SUCCESS, WORTH, GAIN, NONE)

#: What the values of a decision assume (``DecisionValues.assumption``), in English and in
#: French (for the page).
ASSUMPTIONS: Final = {
    "no_rune_yet": (
        "shots valued with no rune played (the runes are decided next) and the Ultimes in force",
        "tirs évalués sans rune (elles se décident ensuite), Ultimes en cours compris",
    ),
    "opponent_best_reply": (
        "each rune meets the defender's best reply among the runes it can still play "
        "(R18: it declares after the attacker, knowing its rune)",
        "chaque rune face à la meilleure réponse du défenseur parmi ses runes encore "
        "disponibles (il déclare après l'attaquant, en connaissant sa rune)",
    ),
    "attacker_declared": (
        "the attacker's rune is declared: each option's value is exact (the defender wants "
        "it as low as possible)",
        "la rune de l'attaquant est déclarée : valeur exacte de chaque choix (le défenseur "
        "la veut la plus basse possible)",
    ),
    "dice_seen": (
        "this roll only: the dice shown, the one die rerolled",
        "ce jet seulement : les dés obtenus, le dé relancé",
    ),
    "no_exact_value": (
        "no exact immediate number: the « normal » bot's suggestion and the win chance say more",
        "pas de valeur exacte immédiate : la suggestion du bot « normal » et la chance de "
        "gagner en disent plus",
    ),
}


class _Option(Protocol):
    @property
    def action(self) -> str: ...


OptionT = TypeVar("OptionT", bound=_Option)


class Options(Generic[OptionT]):
    """A decision's options, found by their action (a mixin of the decisions' dataclasses:
    :class:`DecisionValues` here, :class:`akvo.coach.valuation.Valuation`)."""

    __slots__ = ()
    options: tuple[OptionT, ...]

    def __getitem__(self, action: str) -> OptionT:
        for option in self.options:
            if option.action == action:
                return option
        raise CoachError(f"{excerpt(action)} is not an option of this decision")

    def __iter__(self) -> Iterator[OptionT]:
        return iter(self.options)

    def __len__(self) -> int:
        return len(self.options)


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One option (a legal action) of a decision with its exact immediate value.

    ``value`` is the number ``measure`` names (``None`` for :data:`NONE`); ``worth`` the
    same option on the bots' points scale where it has one (for every shot, activation,
    advance and Ultime), so that a push chance and a chest's points compare. Shot values
    are the shooter's (at a defence rune, the defender wants them low). The other fields
    say where the number comes from:

    - ``shooter`` / ``target``: the best shot behind a worth (a character name of
      :data:`akvo.match.board.CHAR_NAMES` and its ``shoot …`` action); ``None`` when no
      target is in range;
    - ``reply`` / ``unanswered`` (attack runes): the defender's best answer (an action of
      its rune decision) and the value if it played no rune;
    - ``critical`` / ``prodige`` (Relance): P(critical), P(prodige) of the roll;
    - ``note``: a short English key when the option has a reason for its number
      (``"does not shoot"``, ``"no target in range"``, ``"restores an Ultime"``…).
    """

    action: str
    measure: str
    value: Fraction | None
    worth: Fraction | None = None
    shooter: str | None = None
    target: str | None = None
    reply: str | None = None
    unanswered: Fraction | None = None
    critical: Fraction | None = None
    prodige: Fraction | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class DecisionValues(Options[OptionValue]):
    """Every option of one decision with its exact value (:func:`decision_values`).

    ``side`` decides (0 = A, 1 = B); ``phase`` is the phase's label (``"target"``…);
    ``assumption`` a key of :data:`ASSUMPTIONS`; ``higher_is_better`` is False only at a
    defence rune (the values are the shooter's); ``suggestion`` is the « normal » bot's
    choice here (at the orders: its programme).
    """

    phase: str
    side: int
    assumption: str
    higher_is_better: bool
    suggestion: str
    options: tuple[OptionValue, ...]

    @property
    def values(self) -> dict[str, Fraction | None]:
        """Action → value."""
        return {option.action: option.value for option in self.options}

    @property
    def assumption_text(self) -> str:
        """What the values assume, in English."""
        return ASSUMPTIONS[self.assumption][0]

    @property
    def assumption_fr(self) -> str:
        """What the values assume, in French (for the page)."""
        return ASSUMPTIONS[self.assumption][1]

    def best(self) -> OptionValue | None:
        """The option with the best value for the side deciding (the first of equals), or
        ``None`` when no option has a value."""
        valued = [o for o in self.options if o.value is not None]
        if not valued:
            return None
        sign = 1 if self.higher_is_better else -1
        return max(valued, key=lambda o: sign * o.value)  # type: ignore[operator]


_ADVISER: Final = GreedyBot(0)  # its seeded generator is never drawn from at a decision


def decision_values(state: object) -> DecisionValues:
    """The exact immediate value of each legal action at ``state``, a decision node (see
    the module for what each decision's numbers are). The state is not changed.

    Raises :class:`~akvo.coach.errors.CoachError` at a chance node, at the end of the
    match, or for anything that is not a :class:`~akvo.match.MatchState`."""
    if not isinstance(state, MatchState):
        raise CoachError(f"decision_values needs a MatchState, got {excerpt(state)}")
    if state.player < 0:
        what = "the match is over" if state.player == TERMINAL else "this is a chance node"
        raise CoachError(f"decision_values needs a decision node: {what}")
    valuer, assumption = _VALUERS.get(state.phase, (_no_values, "no_exact_value"))
    return DecisionValues(
        phase=state.phase_name(),
        side=state.player,
        assumption=assumption,
        higher_is_better=state.phase != Phase.DEFENCE_RUNE,
        suggestion=_ADVISER.choose(state),
        options=tuple(valuer(state)),
    )


# --- the best shot of a unit, now or from another cell --------------------------------------


class _Best(NamedTuple):
    worth: Fraction
    shooter: str | None
    target: str | None


def target_worth(target: TargetPreview) -> Fraction:
    """A target's worth in points (see the module): the bots' weighing, exact."""
    return target.value if target.target == CHEST_NAME else PUSH_WEIGHT * target.value


def _best_shot(state: MatchState, side: int, characters: tuple[int, ...] | list[int]) -> _Best:
    """The best shot (Souffle portant aside) of these characters from where they stand."""
    best = _Best(Fraction(0), None, None)
    for character in characters:
        for target in unit_preview(state, side, character).targets:
            worth = target_worth(target)
            if not target.souffle and worth > best.worth:
                best = _Best(worth, CHAR_NAMES[character], target.action)
    return best


def _best_from(state: MatchState, side: int, character: int, row: int) -> _Best:
    """The character's best shot if its unit stood on ``row`` (everything else as now)."""
    index = side * UNITS + UNIT_OF_CHAR[character]
    if state.rows[index] == row:
        return _best_shot(state, side, [character])
    probe = state.copy()
    probe.rows[index] = row
    return _best_shot(probe, side, [character])


def _row_after(state: MatchState, action: str, side: int, character: int) -> int:
    """The row of the character's unit once ``action`` is played (the engine moves it)."""
    return state.child(action).rows[side * UNITS + UNIT_OF_CHAR[character]]


def _worth_option(action: str, best: _Best, note: str = "") -> OptionValue:
    if best.target is None and not note:
        note = "no target in range"
    return OptionValue(action, WORTH, best.worth, best.worth, best.shooter, best.target, note=note)


# --- one valuer per phase -------------------------------------------------------------------

Valuer = Callable[[MatchState], list[OptionValue]]


def _no_values(state: MatchState) -> list[OptionValue]:
    note = "restores an Ultime" if state.phase == Phase.ACTIVATE else ""
    return [OptionValue(action, NONE, None, note=note) for action in state.legal]


def _targets(state: MatchState) -> list[OptionValue]:
    current = state.shot
    assert current is not None
    preview = unit_preview(state, current.side, current.shooter)
    by_action = {target.action: target for target in preview.targets}
    shooter = CHAR_NAMES[current.shooter]
    out: list[OptionValue] = []
    for action in state.legal:
        target = by_action.get(action)
        if target is None:  # "hold": the only targets need Souffle portant
            out.append(OptionValue(action, NONE, None, Fraction(0), note="does not shoot"))
            continue
        measure = EXPECTED_POINTS if target.target == CHEST_NAME else P_PUSH
        worth = target_worth(target)
        out.append(OptionValue(action, measure, target.value, worth, shooter, action))
    return out


def _resolution_value(state: MatchState) -> tuple[str, Fraction]:
    """The measure and exact value of the shot being resolved, with the runes played."""
    chest, distance, idist, attack, defence = resolution_sides(state)
    kind: ShotKind = "chest" if chest else "mage"
    odds = shot(kind, state.tier, distance, idist, attack, defence, rules=state.rules)
    return (EXPECTED_POINTS if chest else P_PUSH), odds.value


def _rune_option(action: str, measure: str, value: Fraction, **fields: object) -> OptionValue:
    worth = value if measure == EXPECTED_POINTS else PUSH_WEIGHT * value
    return OptionValue(action, measure, value, worth, **fields)  # type: ignore[arg-type]


def _attack_runes(state: MatchState) -> list[OptionValue]:
    """Each attack option met by the defender's best reply: the engine plays the rune, then
    every rune the defender may answer with (its legal actions there), R18's order."""
    out: list[OptionValue] = []
    for action in state.legal:
        declared = state.child(action)
        if declared.phase != Phase.DEFENCE_RUNE:  # the defender has no rune to answer with
            measure, value = _resolution_value(declared)
            out.append(_rune_option(action, measure, value, unanswered=value))
            continue
        replies = {reply: _resolution_value(declared.child(reply)) for reply in declared.legal}
        reply = min(replies, key=lambda r: replies[r][1])  # the first of equal replies
        measure, value = replies[reply]
        unanswered = _resolution_value(declared.child("no rune"))[1]
        out.append(_rune_option(action, measure, value, reply=reply, unanswered=unanswered))
    return out


def _defence_runes(state: MatchState) -> list[OptionValue]:
    out: list[OptionValue] = []
    for action in state.legal:
        measure, value = _resolution_value(state.child(action))
        out.append(_rune_option(action, measure, value))
    return out


def _relance(state: MatchState) -> list[OptionValue]:
    """Keep the dice, or reroll one die: each of its six faces is equally likely (R15)."""
    current = state.shot
    assert current is not None
    modifier, threshold = state.roll_target()
    dice = list(current.dice)
    rule = state.rules.prodige
    out: list[OptionValue] = []
    for action in state.legal:
        parsed = parse_action(action)
        if isinstance(parsed, Reroll):
            index = parsed.die - 1
            rolls = [[*dice[:index], face, *dice[index + 1 :]] for face in range(1, 7)]
        else:
            rolls = [dice]
        count = len(rolls)
        totals = [sum(faces) + modifier for faces in rolls]
        out.append(
            OptionValue(
                action,
                P_SUCCESS,
                Fraction(sum(is_success(t, threshold) for t in totals), count),
                critical=Fraction(sum(is_critical(t, threshold) for t in totals), count),
                prodige=Fraction(sum(is_prodige(faces, rule) for faces in rolls), count),
            )
        )
    return out


def ultime_gain(state: MatchState, side: int, effect: int) -> Fraction:
    """The exact gain for ``side`` of a turn-long Ultime ``effect`` (an ``EFFECT_*`` bit of
    :mod:`akvo.match.core`) declared now: see the module; the greedy bot's
    :func:`akvo.bots.values.ultime_gains`, exact."""
    other = 1 - side
    probe = state.copy()
    probe.effects[side] |= effect
    gain = Fraction(0)
    for character in shooters(state, side):
        gain += _best_shot(probe, side, [character]).worth
        gain -= _best_shot(state, side, [character]).worth
    for character in shooters(state, other):
        gain += _best_shot(state, other, [character]).worth
        gain -= _best_shot(probe, other, [character]).worth
    return gain


def _activation(state: MatchState) -> list[OptionValue]:
    side = state.player
    shooting = set(shooters(state, side))
    out: list[OptionValue] = []
    for action in state.legal:
        parsed = parse_action(action)
        if isinstance(parsed, Activate):
            characters = [c for c in CHARS_OF_UNIT[parsed.unit] if c in shooting]
            note = "" if characters else "does not shoot"
            out.append(_worth_option(action, _best_shot(state, side, characters), note))
        elif isinstance(parsed, DeclareUltime):
            gain = ultime_gain(state, side, EFFECT_OF_CHAR[parsed.character])
            out.append(OptionValue(action, GAIN, gain, gain))
        else:  # the rune U: an Ultime for later
            out.append(OptionValue(action, NONE, None, note="restores an Ultime"))
    return out


def _advance(state: MatchState) -> list[OptionValue]:
    """An Avancer step, with or without a Mouvement rune: the best shot from the new cell."""
    side = state.player
    characters = CHARS_OF_UNIT[state.unit]
    out: list[OptionValue] = []
    for action in state.legal:
        row = _row_after(state, action, side, characters[0])
        best = max((_best_from(state, side, c, row) for c in characters), key=lambda b: b.worth)
        out.append(_worth_option(action, best))
    return out


def _stepped(state: MatchState, character: int) -> list[OptionValue]:
    """Options that move the shooter or not before it shoots: its best shot from the cell
    each leaves it on (as the greedy bot compares « move first » with « shot first »)."""
    side = state.player
    out: list[OptionValue] = []
    for action in state.legal:
        row = _row_after(state, action, side, character)
        out.append(_worth_option(action, _best_from(state, side, character, row)))
    return out


def _pre_shot(state: MatchState) -> list[OptionValue]:
    current = state.shot
    assert current is not None
    return _stepped(state, current.shooter)


def _rouleau(state: MatchState) -> list[OptionValue]:
    return _stepped(state, SURFEUR)


_FIRST: Final = {"first barreur": BARREUR, "first lanceur": LANCEUR}


def _ship_order(state: MatchState) -> list[OptionValue]:
    """« first barreur / lanceur »: each mage's best shot now; « move first / shot first »:
    the shooting mage's best shot from where it would shoot."""
    side = state.player
    if all(action in _FIRST for action in state.legal):
        return [_worth_option(a, _best_shot(state, side, [_FIRST[a]])) for a in state.legal]
    orders = state.orders[side]
    assert orders is not None
    return _stepped(state, BARREUR if orders[SHIP] == SHIP_AT_B else LANCEUR)


def _trident(state: MatchState) -> list[OptionValue]:
    """Trident: the best mage shot (up to three such shots); without it, the best shot."""
    side = state.player
    best = _best_shot(state, side, [PLONGEUR])
    out: list[OptionValue] = []
    for action in state.legal:
        if action == "trident":
            out.append(_worth_option(action, _best_mage_shot(state, side), "per shot, up to 3"))
        else:
            out.append(_worth_option(action, best))
    return out


def _best_mage_shot(state: MatchState, side: int) -> _Best:
    best = _Best(Fraction(0), None, None)
    for target in unit_preview(state, side, PLONGEUR).targets:
        worth = target_worth(target)
        if target.target != CHEST_NAME and not target.souffle and worth > best.worth:
            best = _Best(worth, CHAR_NAMES[PLONGEUR], target.action)
    return best


def _trident_again(state: MatchState) -> list[OptionValue]:
    side = state.player
    out: list[OptionValue] = []
    for action in state.legal:
        if action == "shoot again":
            out.append(_worth_option(action, _best_shot(state, side, [PLONGEUR])))
        else:
            out.append(OptionValue(action, WORTH, Fraction(0), Fraction(0), note="does not shoot"))
    return out


_VALUERS: Final[dict[int, tuple[Valuer, str]]] = {
    Phase.TARGET: (_targets, "no_rune_yet"),
    Phase.ATTACK_RUNE: (_attack_runes, "opponent_best_reply"),
    Phase.DEFENCE_RUNE: (_defence_runes, "attacker_declared"),
    Phase.RELANCE: (_relance, "dice_seen"),
    Phase.ACTIVATE: (_activation, "no_rune_yet"),
    Phase.ADVANCE: (_advance, "no_rune_yet"),
    Phase.PRE_SHOT: (_pre_shot, "no_rune_yet"),
    Phase.ROULEAU: (_rouleau, "no_rune_yet"),
    Phase.SHIP_ORDER: (_ship_order, "no_rune_yet"),
    Phase.TRIDENT: (_trident, "no_rune_yet"),
    Phase.TRIDENT_AGAIN: (_trident_again, "no_rune_yet"),
}

__all__ = [
    "ASSUMPTIONS",
    "EXPECTED_POINTS",
    "GAIN",
    "MEASURES",
    "NONE",
    "P_PUSH",
    "P_SUCCESS",
    "WORTH",
    "DecisionValues",
    "OptionValue",
    "decision_values",
    "target_worth",
    "ultime_gain",
]
