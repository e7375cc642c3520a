"""The one valuation (:mod:`akvo.coach.valuation`) in the play pages' words.

The match page's coach, the replay and « Vos erreurs » (:mod:`.mistakes`) show an option as
:func:`option_line`: its French label, the side deciding's win chance after it with its
95 % interval, and (in the replay, or as the button's tooltip) the reason, which carries
the exact measure. Each page values a decision through :func:`page_valuation` with the same
budget and seed, so that the same position shows the same numbers everywhere, and the
suggestion is always the best shown value (:attr:`akvo.coach.valuation.Valuation.best`).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Final

from akvo.coach.budget import DEFAULT_BUDGET
from akvo.coach.valuation import EVAL_MARGIN, ORDER_ROLLOUTS_PER_BUDGET, OptionWorth, Valuation
from akvo.coach.valuation import valuation as engine_valuation
from akvo.coach.words import capitalised, percent
from akvo.match import MatchState
from akvo_widgets.text.formatting import NBSP, french
from akvo_widgets.text.labels import action_label

from .coach import value_text

#: The clause of a reason that repeats the win chance (the option's line shows it already).
CHANCE_CLAUSE: Final = "chance de gagner ensuite"
#: At the orders, the candidates listed (best first) besides the reader's own programme.
ORDERS_SHOWN: Final = 3
#: The seed of the orders' rollouts on every page (the analysis's default too): the same
#: position gets the same numbers on the match page, in the replay and in the analysis.
PAGE_SEED: Final = 0


def page_valuation(
    state: MatchState, actions: Sequence[str] | None = None, *, budget: int = DEFAULT_BUDGET
) -> Valuation:
    """Every option of the decision at ``state`` valued as every page values it."""
    return engine_valuation(state, budget=budget, seed=PAGE_SEED, actions=actions)


def chance_words(worth: OptionWorth) -> str:
    """``victoire 64,2 % (58,4–70,4 %)``: the win chance after the option, its interval."""
    low = percent(worth.low).removesuffix(f"{NBSP}%")
    return f"victoire {percent(worth.p)} ({low}–{percent(worth.high)})"


def option_text(worth: OptionWorth) -> str:
    """What a button adds to its label: the exact value where there is one (the match
    page's words, :func:`.coach.value_text`), then the win chance."""
    exact = value_text(worth.exact) if worth.exact is not None else ""
    return f"{exact} — {chance_words(worth)}" if exact else chance_words(worth)


def option_line(state: MatchState, worth: OptionWorth) -> str:
    """One option as every page writes it: its label, exact value and win chance."""
    return f"{action_label(state, worth.action)} — {option_text(worth)}"


def option_lines(state: MatchState, values: Valuation) -> dict[str, str]:
    """Action → :func:`option_line`, for every option valued."""
    return {worth.action: option_line(state, worth) for worth in values}


def option_texts(values: Valuation) -> dict[str, str]:
    """Action → :func:`option_text` (what the decision buttons add to their label)."""
    return {worth.action: option_text(worth) for worth in values}


def reason_words(worth: OptionWorth) -> str:
    """The option's reason without the win chance its line already shows ("" if nothing
    else): « Le Kitesurfeur de A a 47,6 % de chances de repousser… »."""
    reason = worth.reason
    cut = reason.lower().find(CHANCE_CLAUSE)
    if cut >= 0:
        reason = reason[:cut].rstrip(" ;")
    return french(capitalised(reason)) if reason else ""


def suggestion_sentence(state: MatchState, values: Valuation) -> str:
    """The suggestion: the option with the best shown value, its chance, and why."""
    best = values.best
    why = reason_words(best)
    return french(
        f"Conseil : {action_label(state, best.action)} — {chance_words(best)}."
        + (f" {why}." if why else "")
    )


def method_note(values: Valuation) -> str:
    """How the chances were computed, in French (the page says they are estimates)."""
    margin = f"{EVAL_MARGIN * 100:.0f}{NBSP}points"
    if values.method == "orders":
        rollouts = ORDER_ROLLOUTS_PER_BUDGET * values.budget
        return french(
            f"Chances de gagner : {rollouts} fins de tour simulées par programme contre "
            "chaque programme probable de l’adversaire (mêmes dés), puis l’évaluation "
            f"apprise ; intervalle à 95 % (erreur de l’évaluation, ± {margin}, comprise)."
        )
    return french(
        "Chance de gagner après chaque choix : la suite de l’activation calculée sur tous "
        "les résultats des dés avec leurs probabilités exactes, puis l’évaluation apprise ; "
        f"intervalle à 95 % (± {margin}, l’erreur de l’évaluation)."
    )


def options_html(
    state: MatchState, values: Valuation, chosen: str | None = None, most: int | None = None
) -> str:
    """Every option with its win chance and its reason, the best first (a ``<ul>``);
    ``most``: only that many of the best, and ``chosen``, then how many more there were."""
    rows = []
    ranked = sorted(values, key=lambda w: -w.p)
    shown = ranked if most is None else ranked[:most]
    shown += [w for w in ranked if w.action == chosen and w not in shown]
    for worth in shown:
        css = ["akvo-value-option"]
        mark = ""
        if worth.action == chosen:
            css.append("akvo-replay-chosen")
            mark = "✔ "
        if worth.action == values.suggestion:
            css.append("akvo-value-best")
        why = reason_words(worth)
        reason = f'<br><small class="akvo-value-reason">{escape(why)}</small>' if why else ""
        rows.append(
            f'<li class="{" ".join(css)}">{mark}{escape(option_line(state, worth))}{reason}</li>'
        )
    more = len(ranked) - len(shown)
    tail = (
        f'<p class="akvo-value-more">{escape(french(f"… et {more} autres, moins bons."))}</p>'
        if more
        else ""
    )
    return f'<ul class="akvo-replay-option-list akvo-value-options">{"".join(rows)}</ul>{tail}'


__all__ = [
    "PAGE_SEED",
    "chance_words",
    "method_note",
    "option_line",
    "option_lines",
    "option_text",
    "option_texts",
    "options_html",
    "page_valuation",
    "reason_words",
    "suggestion_sentence",
]
