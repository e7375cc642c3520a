"""An option's exact value (:class:`akvo.coach.OptionValue`) in French: one function,
:func:`value_words`, for every page that shows the coach's values, and a :class:`Wording`
per page (the guided pages: :data:`.play.advice.GUIDED`; the match page:
:data:`.play.coach.MATCH`; an online table: :data:`.site_tables_coach.TABLE`), so that the
pages' words stand side by side and the facts behind them are read in one place."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from akvo.coach import OptionValue
from akvo.coach.values import P_PUSH, P_SUCCESS, WORTH

#: Measures whose number is a chance (the others are points).
CHANCES = (P_PUSH, P_SUCCESS)


@dataclass(frozen=True)
class Wording:
    """One page's words. ``phrases`` maps a measure to its template (an unknown measure
    shows nothing), over these fields — a template without one leaves that fact out:

    - ``{value}``: the number, by ``chance`` (a chance) or ``points`` (points);
    - ``{sign}``: « + » before a positive number;
    - ``{whose}``: the side the value is for, as the caller names it (« pour A »);
    - ``{critical}``: « , critique 12,3 % » where a roll's critical chance is known;
    - ``{reply}``: « face à la meilleure réponse » where the value assumes the opponent's
      best answer (a rune met by a rune);
    - ``{each}``: « par tir, jusqu’à trois » for a worth counted per shot (Trident).

    ``no_shot`` (an option that does not shoot) and ``no_target`` (a worth with no target in
    range) replace the phrase where the page words them; ``None``: the number is worded."""

    chance: Callable[[Fraction], str]
    points: Callable[[Fraction], str]
    phrases: Mapping[str, str]
    no_shot: str | None = None
    no_target: str | None = None


def value_words(option: OptionValue, wording: Wording, whose: str = "") -> str:
    """``option``'s value in ``wording``'s words (« » where it has no number to show)."""
    if wording.no_shot is not None and option.note == "does not shoot":
        return wording.no_shot
    value = option.value
    if value is None or option.measure not in wording.phrases:
        return ""
    if option.measure == WORTH and option.target is None and wording.no_target is not None:
        return wording.no_target
    number = wording.chance if option.measure in CHANCES else wording.points
    critical = option.critical
    return wording.phrases[option.measure].format(
        value=number(value),
        sign="+" if value > 0 else "",
        whose=whose,
        critical="" if critical is None else f", critique {wording.chance(critical)}",
        reply=" face à la meilleure réponse" if option.reply not in (None, "no rune") else "",
        each=" par tir, jusqu’à trois" if option.note.startswith("per shot") else "",
    )
