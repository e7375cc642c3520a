"""Why an option is worth what the valuation says, in French, from the engine's facts.

:func:`option_reason` writes one sentence per option from its exact immediate value
(:class:`akvo.coach.values.OptionValue`: the push chance, a chest's expected points, the
chance a roll succeeds, the best shot an activation leads to, an Ultime's exact gain) and
its win chance. Every number written is one of those values, formatted by
:mod:`akvo.coach.words` (tests read them back and compare).
"""

from __future__ import annotations

from fractions import Fraction

from akvo.bots.values import PUSH_WEIGHT
from akvo.coach.values import EXPECTED_POINTS, GAIN, P_PUSH, P_SUCCESS, WORTH, OptionValue
from akvo.coach.words import (
    action_words,
    capitalised,
    mage_words,
    number,
    percent,
    rune_words,
    ultime_words,
)
from akvo.match.actions import PlayRune, RestoreUltime, ShootAt, parse_action
from akvo.match.board import CHAR_NAMES, CHEST
from akvo.match.phases import Phase
from akvo.match.state import MatchState


def chance_words(p: float, interval: tuple[float, float]) -> str:
    """« chance de gagner ensuite : 61,2 % (entre 55,2 % et 67,2 %) »."""
    low, high = interval
    return f"chance de gagner ensuite : {percent(p)} (entre {percent(low)} et {percent(high)})"


def option_reason(
    state: MatchState,
    action: str,
    known: OptionValue | None,
    p: float,
    interval: tuple[float, float],
) -> str:
    """One option's reason: its exact immediate fact, if any, then its win chance."""
    fact = exact_fact(state, action, known)
    tail = chance_words(p, interval)
    return capitalised(f"{fact} ; {tail}" if fact else tail)


def points_words(value: Fraction | float) -> str:
    """Expected points: ``Fraction(5, 4)`` → ``"1,25 point en moyenne"``."""
    plural = "s" if abs(float(value)) >= 2 else ""
    return f"{number(float(value))} point{plural} en moyenne"


def _target_index(action: str | None) -> int | None:
    if action is None:
        return None
    parsed = parse_action(action)
    return parsed.target if isinstance(parsed, ShootAt) else None


def _shot_fact(
    side: int, shooter: int, target: int | None, measure: str, value: Fraction, verb: str
) -> str:
    """« le Pédalair de A a 47,6 % de chances de repousser le Surfeur de B »."""
    who = mage_words(side, shooter)
    if target is None or target == CHEST:
        return f"{who} {verb} {points_words(value)} au coffre"
    what = mage_words(1 - side, target)
    return f"{who} {verb} {percent(float(value))} de chances de repousser {what}"


def _best_shot_fact(state: MatchState, known: OptionValue) -> str:
    """The best shot an activation, a step or an order leads to."""
    if known.shooter is None or known.target is None or known.worth is None:
        if known.note == "does not shoot":
            return "pas de tir pour cette unité ce tour"
        return "aucune cible à portée ensuite"
    shooter = CHAR_NAMES.index(known.shooter)
    target = _target_index(known.target)
    value = known.worth if target == CHEST else known.worth / PUSH_WEIGHT
    fact = "meilleur tir ensuite : " + _shot_fact(
        state.player, shooter, target, EXPECTED_POINTS if target == CHEST else P_PUSH, value, "a"
    )
    if known.note == "per shot, up to 3":
        fact += " (à chaque tir, jusqu’à trois)"
    return fact


def _resolution_fact(state: MatchState, action: str, known: OptionValue) -> str:
    """A rune at a shot: the shooter's chance (or points) once the runes are played."""
    current = state.shot
    assert current is not None and known.value is not None
    target = None if known.measure == EXPECTED_POINTS else current.target
    verb = "garde" if state.phase == Phase.DEFENCE_RUNE else "a"
    fact = _shot_fact(current.side, current.shooter, target, known.measure, known.value, verb)
    if known.reply is not None:
        reply = action_words(known.reply, 1 - state.player, state.rules)
        fact = f"face à la meilleure réponse du défenseur ({reply}), {fact}"
        if known.unanswered is not None and known.unanswered != known.value:
            other = (
                points_words(known.unanswered)
                if known.measure == EXPECTED_POINTS
                else percent(float(known.unanswered))
            )
            fact += f" ({other} s’il ne répondait pas)"
    return fact


def exact_fact(state: MatchState, action: str, known: OptionValue | None) -> str:
    """The exact immediate fact behind an option, in French ('' when there is none)."""
    parsed = parse_action(action)
    if isinstance(parsed, RestoreUltime):
        return (
            f"rend l’Ultime {ultime_words(parsed.character)} pour plus tard : rien ne change "
            "tout de suite, sa valeur est celle de la suite de la partie"
        )
    if isinstance(parsed, PlayRune) and parsed.kind == "recover":
        return (
            f"le prodige reprend {rune_words(parsed.letter, state.rules)} déjà dépensée : "
            "elle pourra resservir"
        )
    if known is None:
        if state.phase == Phase.ORDERS:
            other = "AB"[1 - state.player]
            return (
                f"joués contre les ordres probables de {other}, sur les mêmes dés, "
                "jusqu’à la fin du tour"
            )
        return ""
    if known.measure in (P_PUSH, EXPECTED_POINTS) and known.value is not None:
        if state.phase == Phase.TARGET:
            current = state.shot
            assert current is not None
            target = _target_index(action)
            return _shot_fact(
                current.side, current.shooter, target, known.measure, known.value, "a"
            )
        return _resolution_fact(state, action, known)
    if known.measure == P_SUCCESS and known.value is not None:
        fact = f"{percent(float(known.value))} de réussir le jet"
        if known.critical:
            fact += f", dont {percent(float(known.critical))} de réussite critique"
        if known.prodige:
            fact += f", et {percent(float(known.prodige))} de prodige"
        return fact
    if known.measure == GAIN and known.value is not None:
        sign = "+" if known.value >= 0 else "−"
        return (
            f"gain exact sur les tirs qui restent ce tour : {sign}{number(abs(float(known.value)))}"
            f" point (un repoussement probable compte pour {number(float(PUSH_WEIGHT))} point)"
        )
    if known.measure == WORTH:
        return _best_shot_fact(state, known)
    if known.note == "does not shoot":
        return "ne tire pas"
    return ""


__all__ = ["chance_words", "exact_fact", "option_reason", "points_words"]
