"""The exact value of every option of a decision, where the engine can compute it.

The replay viewer and the exercises ask, at a decision, "what was each option worth?".
Every number here comes from the engine: shots from :func:`akvo.shots.shot` (through
:mod:`akvo.bots.values`, which describes the shot being resolved), targets from
:mod:`akvo.match.preview`, dice from :mod:`akvo.dice`. Each kind of decision gets its own
:class:`OptionValues`, which says in French what its numbers are — a decision whose options
have no single exact number (orders, Ultimes…) gets none, and says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from akvo.bots.values import PUSH_WEIGHT, SHOT_RUNE, resolution_sides, shooters, with_rune
from akvo.coach.values import decision_values as coach_values
from akvo.match import MatchState, Phase
from akvo.match.board import CHARS_OF_UNIT, UNIT_OF_NAME
from akvo.match.preview import CHEST_NAME, target_values, unit_preview
from akvo.resolution import is_critical, is_success
from akvo.shots import Side, shot
from akvo_widgets.text.formatting import NBSP, decimal, fraction, percent
from akvo_widgets.text.labels import rune_label

NO_RUNE = "no rune"
KEEP = "keep"
FACES = range(1, 7)


@dataclass(frozen=True)
class OptionValues:
    """The exact values of a decision's options (action → value) and what they mean."""

    meaning: str  # French: what the number of each option is
    values: dict[str, Fraction] = field(default_factory=dict)
    extra: dict[str, str] = field(default_factory=dict)  # action → more numbers, in French
    unit: str = "percent"  # "percent", "points", or "target" (points for the chest only)
    digits: int = 2  # decimals of points

    def text(self, action: str) -> str:
        """The option's value as the page shows it (French, with the exact fraction)."""
        if action not in self.values:
            return ""
        value = self.values[action]
        chest = self.unit == "target" and CHEST_NAME in action.split()
        shown = points(value, self.digits) if self.unit == "points" or chest else percent(value)
        more = f", {self.extra[action]}" if action in self.extra else ""
        return f"{shown} ({fraction(value)}){more}"


def points(value: Fraction, digits: int = 2) -> str:
    return f"{decimal(value, digits)}{NBSP}point en moyenne"


def shot_worth(action: str, value: Fraction) -> Fraction:
    """A target's worth in points, as the « normal » bot weighs it: a chest shot's expected
    points, or :data:`akvo.bots.values.PUSH_WEIGHT` point per unit of P(push) on a mage."""
    return value if action.split()[1] == CHEST_NAME else PUSH_WEIGHT * value


# --- shots and runes ---------------------------------------------------------------------


def rune_values(state: MatchState) -> OptionValues:
    """At a rune decision (attack or defence): the shot's exact value with each rune the
    side may play, or none. For the attacker's rune, the defender has not answered yet: the
    numbers assume the defender plays no rune."""
    chest, distance, idist, attack, defence = resolution_sides(state)
    current = state.shot
    assert current is not None
    attacking = state.phase == Phase.ATTACK_RUNE
    rune_side = current.side if attacking else 1 - current.side
    category_of = state.rosters[rune_side].category_of

    def value(attack_side: Side, defence_side: Side) -> Fraction:
        return shot(
            "chest" if chest else "mage",
            state.tier,
            distance,
            idist,
            attack_side,
            defence_side,
            rules=state.rules,
        ).value

    values: dict[str, Fraction] = {}
    for action in state.legal_actions():
        if action == NO_RUNE:
            values[action] = value(attack, defence)
            continue
        name = SHOT_RUNE.get(category_of.get(action.split()[1], -1))
        if name is None:
            continue  # a rune with no effect on the odds of this shot: no number
        if attacking:
            values[action] = value(with_rune(attack, name, True), defence)
        else:
            values[action] = value(attack, with_rune(defence, name, False))
    what = "points moyens du tir sur le coffre" if chest else "chance que le tir repousse"
    after = (
        " (si le défenseur ne répond par aucune rune)"
        if attacking
        else " (le défenseur la veut la plus basse possible)"
    )
    return OptionValues(
        f"{what} avec chaque choix, valeur exacte{after}",
        values,
        unit="points" if chest else "percent",
    )


def answered_rune_values(state: MatchState) -> OptionValues:
    """At the attacker's rune decision: the shot's exact value with each rune (or none)
    met by the defender's best reply — the numbers of :func:`akvo.coach.decision_values`,
    which the match page, the replay and the analysis show (R18: the defender answers
    knowing the rune). ``extra`` names the reply."""
    chest = resolution_sides(state)[0]
    values: dict[str, Fraction] = {}
    extra: dict[str, str] = {}
    for option in coach_values(state):
        if option.value is None:
            continue
        values[option.action] = option.value
        if option.reply is not None and option.reply != NO_RUNE:
            extra[option.action] = f"si le défenseur répond par la {rune_name(state, option.reply)}"
    what = "points moyens du tir sur le coffre" if chest else "chance que le tir repousse"
    return OptionValues(
        f"{what} avec chaque choix, valeur exacte, face à la meilleure réponse du défenseur "
        "(comme sur la page du match)",
        values,
        extra,
        unit="points" if chest else "percent",
    )


def attaque_letters(state: MatchState) -> list[str]:
    """At the attacker's rune decision: the legal ``rune X`` actions of an Attaque rune."""
    if state.phase != Phase.ATTACK_RUNE:
        return []
    current = state.shot
    assert current is not None
    category_of = state.rosters[current.side].category_of
    return [
        action
        for action in state.legal_actions()
        if action != NO_RUNE and SHOT_RUNE.get(category_of.get(action.split()[1], -1)) == "attaque"
    ]


def rune_name(state: MatchState, action: str) -> str:
    return rune_label(state, action.split()[1])


# --- activations ---------------------------------------------------------------------------


def unit_values(state: MatchState) -> OptionValues:
    """At an activation: each ``activate …`` option's best immediate shot, in points (a
    one-step look-ahead: a unit that only advances this turn is worth 0 here)."""
    side = state.current_player
    shooting = set(shooters(state, side))
    values: dict[str, Fraction] = {}
    extra: dict[str, str] = {}
    for action in state.legal_actions():
        if not action.startswith("activate "):
            continue
        unit = UNIT_OF_NAME[action.split()[1]]
        best = Fraction(0)
        for character in CHARS_OF_UNIT[unit]:
            if character not in shooting:
                continue
            for target in unit_preview(state, side, character).targets:
                if not target.souffle:
                    best = max(best, shot_worth(target.action, target.value))
        values[action] = best
        if not any(c in shooting for c in CHARS_OF_UNIT[unit]):
            extra[action] = "l’unité ne tire pas ce tour"
    return OptionValues(
        "valeur du meilleur tir immédiat de l’unité, en points (points moyens sur le coffre, "
        "ou 2/5 de point par chance de repousser un mage), un seul coup d’avance",
        values,
        extra,
        unit="points",
        digits=3,
    )


# --- Relance -------------------------------------------------------------------------------


def relance_values(state: MatchState) -> OptionValues:
    """At a Relance decision: the chance that this roll succeeds if the dice are kept, or if
    each die is rerolled (exact), and the chance of a critical in ``extra``."""
    current = state.shot
    assert current is not None
    modifier, threshold = state.roll_target()
    dice = list(current.dice)
    values: dict[str, Fraction] = {}
    extra: dict[str, str] = {}
    for action in state.legal_actions():
        if action == KEEP:
            others, rerolled = sum(dice), 0
        else:
            index = int(action.split()[1]) - 1
            others, rerolled = sum(dice) - dice[index], 1
        totals = [others + modifier] if not rerolled else [others + modifier + f for f in FACES]
        values[action] = Fraction(sum(is_success(t, threshold) for t in totals), len(totals))
        critical = Fraction(sum(is_critical(t, threshold) for t in totals), len(totals))
        extra[action] = f"critique {percent(critical)} ({fraction(critical)})"
    return OptionValues(
        "chance exacte que ce jet réussisse, et d’un critique, selon le dé relancé ; ce choix "
        "n’a pas d’autre valeur en un seul nombre (la suite du tir en dépend aussi)",
        values,
        extra,
    )


# --- any decision --------------------------------------------------------------------------

NO_NUMBER = {
    Phase.ORDERS: "les ordres sont secrets : aucune valeur exacte n’est calculée pour eux",
    Phase.ACTIVATE: "",
    Phase.SHIP_ORDER: "l’ordre des tâches du navire n’a pas de valeur en un seul nombre",
    Phase.TRIDENT: "Trident engage jusqu’à trois tirs : pas de valeur en un seul nombre",
    Phase.TRIDENT_AGAIN: "pas de valeur en un seul nombre pour ce choix",
    Phase.ADVANCE: "avancer change les tirs à venir : pas de valeur en un seul nombre",
    Phase.PRE_SHOT: (
        "avancer avant de tirer change la cible possible : pas de valeur en un seul nombre"
    ),
    Phase.PRODIGE: "reprendre une rune sert plus tard : pas de valeur en un seul nombre",
    Phase.ROULEAU: "Rouleau fait avancer le Surfeur : pas de valeur en un seul nombre",
}
ULTIME_NOTE = (
    "Déclarer un Ultime change tous les tirs du tour : ce choix n’a pas de valeur exacte "
    "en un seul nombre."
)


def decision_values(state: MatchState) -> OptionValues:
    """The exact values of the options of any decision, or an empty set that says why."""
    phase = state.phase_enum
    if phase is Phase.TARGET:
        values = target_values(state)
        return OptionValues(
            "chance exacte de repousser le mage visé ; pour le coffre, points moyens du tir",
            values,
            unit="target",
        )
    if phase in (Phase.ATTACK_RUNE, Phase.DEFENCE_RUNE):
        return rune_values(state)
    if phase is Phase.ACTIVATE:
        return unit_values(state)
    if phase is Phase.RELANCE:
        return relance_values(state)
    return OptionValues(NO_NUMBER.get(phase, "pas de valeur en un seul nombre pour ce choix"))
