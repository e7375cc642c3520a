"""Stable verdicts and the rating of play, read from the valuation's intervals.

A decision's *loss* is the best option's win chance minus the chosen one's
(:meth:`akvo.coach.valuation.Valuation.difference`, with its 95 % interval). Its verdict
(:func:`stable_verdict`) is the gravest of :data:`VERDICTS` whose threshold the interval's
*low* end clears; a loss whose estimate reaches a threshold but whose interval does not is
« incertain » (« Analyser plus finement » spends more on it). A verdict therefore does not
change with the seed beyond its interval.

The *rating* of one side in one match is its mean loss per non-forced decision (win-chance
points, with a 95 % Student interval), and its class is a band of :data:`BANDS`, named
after the bot ladder's levels (:mod:`akvo.bots.registry`) whose mean ratings fall in them
(``benchmarks/results/coach.md``, ``benchmarks/bench_coach_stability.py --ladder``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from akvo.lab.stats import Interval, mean_interval

#: (verdict, least loss of win chance), the gravest first; marks as in chess/backgammon.
VERDICTS: Final = (("gaffe", 0.20), ("erreur", 0.10), ("imprécision", 0.05))
MARKS: Final = {"gaffe": "??", "erreur": "?", "imprécision": "?!", "incertain": ""}
UNSURE: Final = "incertain"
VERDICT_NAMES: Final = (*(name for name, _ in reversed(VERDICTS)), UNSURE)
SMALLEST_LOSS: Final = VERDICTS[-1][1]

#: Bands of the rating (mean win chance lost per non-forced decision), best first: a side
#: plays « comme le niveau X » when its rating is below X's upper bound. Calibrated on the
#: ladder (benchmarks/results/coach.md: 4 matches per level against « normal », the level's
#: side reviewed): « expert » 0.34 ± 0.05 points; « débutant » 1.00 ± 0.38, « facile »
#: 0.85 ± 0.20, « normal » 1.28 ± 0.40, « fort » 1.10 ± 0.29 — four levels the rating does
#: not tell apart (their intervals overlap), so they share a band; the random bot about
#: 2 points. Each bound is the geometric mean of the neighbouring groups' means.
BANDS: Final = (
    ("expert", 0.0054),
    ("débutant à fort", 0.0164),
)
#: Beyond the last band.
BEYOND: Final = "hasard"


def stable_verdict(loss: float, low: float) -> str | None:
    """The verdict of a loss whose 95 % interval starts at ``low`` (see the module):
    None below :data:`SMALLEST_LOSS`, « incertain » when only the estimate reaches it."""
    if loss < SMALLEST_LOSS:
        return None
    for name, least in VERDICTS:
        if low >= least:
            return name
    return UNSURE


def band(rating: float) -> str:
    """The class of a rating: the name of the first band it falls in."""
    for name, upper in BANDS:
        if rating < upper:
            return name
    return BEYOND


def band_words(rating: float) -> str:
    name = band(rating)
    return f"niveau « {name} »"


@dataclass(frozen=True, slots=True)
class Rating:
    """One side's rating in one match: mean loss per non-forced decision with its 95 %
    interval, its band, the count of each verdict."""

    side: int
    decisions: int
    mean_loss: Interval
    counts: dict[str, int]

    @property
    def band(self) -> str:
        return band(self.mean_loss.estimate)

    def sentence(self) -> str:
        """In French: « Camp A : 0,82 point perdu par décision (entre …), niveau « fort » »."""
        from akvo.coach.words import number

        m = self.mean_loss
        counts = ", ".join(f"{self.counts[name]} {name}" for name in VERDICT_NAMES)
        return (
            f"Camp {'AB'[self.side]} : {number(100 * m.estimate)} point"
            f"{'s' if m.estimate >= 0.02 else ''} de chance de gagner perdu en moyenne par "
            f"décision (entre {number(100 * m.low)} et "
            f"{number(100 * m.high)}) sur {self.decisions} décisions, "
            f"{band_words(m.estimate)} ; {counts}"
        )

    def to_dict(self) -> dict[str, object]:
        m = self.mean_loss
        return {
            "camp": "AB"[self.side],
            "decisions": self.decisions,
            "mean_loss": m.estimate,
            "low": m.low,
            "high": m.high,
            "band": self.band,
            **self.counts,
        }


def rating(side: int, losses: Sequence[float], verdicts: Sequence[str | None]) -> Rating:
    """A side's rating from the losses (≥ 0) and verdicts of its non-forced decisions."""
    counts = {name: sum(v == name for v in verdicts) for name in VERDICT_NAMES}
    if not losses:
        return Rating(side, 0, Interval(0.0, 0.0, 0.0), counts)
    return Rating(side, len(losses), mean_interval(list(losses), 0.0, 1.0), counts)


__all__ = [
    "BANDS",
    "BEYOND",
    "MARKS",
    "UNSURE",
    "VERDICTS",
    "VERDICT_NAMES",
    "Rating",
    "band",
    "rating",
    "stable_verdict",
]
