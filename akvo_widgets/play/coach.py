"""The coach in the match page: each option's exact value, and its estimated win chance.

The numbers come from :mod:`akvo.coach`: :func:`akvo.coach.decision_values` for the exact
immediate value of every option (this module only words them in French), and
:class:`akvo.coach.WinChances` for the chance of winning the match after each option,
estimated by rollouts of the « normal » bot on the same dice for every option.

The estimates are refined in a background thread (:class:`ChanceWorker`), so that the page
never waits for them: the first ones come within a second or two, then they sharpen while
the reader thinks, until the reader decides (the worker is then dropped) or the budget is
spent. A worker only ever reports for the decision it was started on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Final

from akvo.coach import DecisionValues, OptionChance, OptionValue, WinChances
from akvo.coach.values import EXPECTED_POINTS, GAIN, P_PUSH, P_SUCCESS, WORTH
from akvo.lab.stats import proportion
from akvo.match import MatchState
from akvo_widgets.text.formatting import NBSP, decimal, exact_percent, french, integer
from akvo_widgets.text.labels import action_label, orders_label
from akvo_widgets.text.value_words import Wording, value_words

#: Seconds the first estimates may take (the page promises « within 2 s »).
FIRST_SECONDS: Final = 1.2
#: Rollouts per option after which the worker stops refining (it would only warm the room).
MOST_ROLLOUTS: Final = 200
#: Rollouts per option added between two updates of the page.
STEP: Final = 4


def small_points(value: Fraction) -> str:
    """Points in French, a tiny non-zero value never shown as ``0,00 pt``."""
    if 0 < value < Fraction(1, 200):
        return f"<{NBSP}0,01{NBSP}pt"
    if 0 > value > -Fraction(1, 200):
        return f">{NBSP}−0,01{NBSP}pt"
    return f"{decimal(value, 2).replace('-', '−')}{NBSP}pt"


def _signed_points(value: Fraction) -> str:
    return ("+" if value > 0 else "") + small_points(value)


#: The match page's words: short (« pt »), the best shot behind a worth, and whether a
#: value assumes the opponent's best reply.
MATCH = Wording(
    chance=exact_percent,
    points=small_points,
    phrases={
        P_PUSH: "{value} de recul{reply}",
        EXPECTED_POINTS: "{value} espéré{reply}",
        P_SUCCESS: "réussite {value}{critical}",
        WORTH: "meilleur tir {value}{reply}",
        GAIN: "gain du tour {sign}{value}",
    },
    no_shot="ne tire pas",
    no_target="aucune cible à portée",
)


def value_text(option: OptionValue) -> str:
    """One option's exact value in French, as its button shows it."""
    return value_words(option, MATCH)


def chance_text(chance: OptionChance) -> str:
    """``victoire ≈ 54 % (41–66 %)``: an estimate and its 95 % interval."""
    if not chance.rollouts:
        return ""
    low, high = (decimal(bound * 100, 0) for bound in (chance.low, chance.high))
    return f"victoire ≈ {decimal(chance.p * 100, 0)}{NBSP}% ({low}–{high}{NBSP}%)"


def advice_note(values: DecisionValues) -> str:
    """What the exact values assume, and the « normal » bot's choice, in French."""
    return french(f"Valeurs exactes : {values.assumption_fr}.".replace("'", "’"))


def suggestion_text(state: MatchState, values: DecisionValues) -> str:
    """The « normal » bot's choice here (at the orders: its programme), in French."""
    if values.suggestion.startswith("orders "):
        programme = orders_label(values.suggestion.removeprefix("orders "))
        return french(f"Le bot « normal » programmerait : {programme}.")
    return french(f"Le bot « normal » choisirait : {action_label(state, values.suggestion)}.")


def estimate_note(rollouts: int, done: bool) -> str:
    """How the win chances are estimated (the page must say they are estimates)."""
    count = integer(rollouts)
    more = "" if done else ", affinée pendant que vous réfléchissez"
    return french(
        f"Chance de gagner : estimation sur {count} parties simulées par option (le bot "
        f"« normal » joue la suite des deux côtés, mêmes dés pour chaque option), "
        f"intervalle de confiance à 95 %{more}."
    )


def warm_up() -> None:
    """Import the intervals' statistics (scipy.stats, seconds on a loaded machine) in a
    daemon thread, so that the first estimates do not wait for it."""
    threading.Thread(target=_import_stats, name="akvo-coach-warm", daemon=True).start()


def _import_stats() -> None:
    proportion(1, 2)


Report = Callable[[tuple[OptionChance, ...], bool], None]


class ChanceWorker:
    """Refines :class:`~akvo.coach.WinChances` for one decision in a daemon thread.

    ``report(chances, done)`` is called from the thread after each step (first within
    :data:`FIRST_SECONDS`), until :meth:`stop` or :data:`MOST_ROLLOUTS`. The caller
    decides, under its own lock, whether the report is still wanted.
    """

    def __init__(
        self,
        state: MatchState,
        report: Report,
        *,
        options: Sequence[str] | None = None,
        seed: int = 0,
        most: int = MOST_ROLLOUTS,
    ) -> None:
        self.chances = WinChances(state, options, seed=seed)
        self.report = report
        self.most = most
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="akvo-coach", daemon=True)

    def start(self) -> ChanceWorker:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _run(self) -> None:
        chances = self.chances
        first = chances.refine_for(FIRST_SECONDS, step=1)
        while not self._stop.is_set():
            done = chances.rollouts >= self.most
            self.report(first, done)
            if done:
                return
            # a pause between steps leaves the kernel free for the reader's clicks
            if self._stop.wait(0.05):
                return
            first = chances.refine(min(STEP, self.most - chances.rollouts))
