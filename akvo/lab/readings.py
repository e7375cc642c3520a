"""Two readings of the rules side by side, for the book's simulator (« À vous de simuler »).

:func:`compare_readings` takes two simulations played on the same seeds (one reading each,
:func:`akvo.lab.run.compare` or two :func:`~akvo.lab.run.simulate` calls) and returns in
one object what the page shows: the difference of A's match points with its three 95 %
intervals side by side — paired (common dice), unpaired (as two independent runs would
give) and luck-adjusted (the stake-weighted dice luck as a control variate) — each within
[−1, 1]; the data of a plot of both readings' distributions (outcomes and score
differences over one common axis); which rules came into play (coverage); and the French
caveats that keep the page from saying more than it knows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from akvo.lab.coverage import RuleUse
from akvo.lab.results import LabError, Results
from akvo.lab.stats import MIN_SAMPLE, Comparison, Interval, paired


@dataclass(frozen=True, slots=True)
class SideBySide:
    """One interval of the difference (second reading − first) of A's match points.

    ``key``: ``"paired"``, ``"unpaired"`` or ``"luck"``; ``label``: French, for the page;
    ``half_width``: half the interval's width (what the plot compares)."""

    key: str
    label: str
    interval: Interval

    @property
    def half_width(self) -> float:
        return (self.interval.high - self.interval.low) / 2


@dataclass(frozen=True, slots=True)
class Distribution:
    """One reading's matches for the plot: A's wins, draws and B's wins, and the count of
    matches per score difference (A − B) over :attr:`ReadingsComparison.support`."""

    name: str
    outcomes: tuple[int, int, int]
    score_differences: tuple[int, ...]


@dataclass(frozen=True)
class ReadingsComparison:
    """What :func:`compare_readings` measured (see the module)."""

    names: tuple[str, str]
    comparison: Comparison
    intervals: tuple[SideBySide, SideBySide, SideBySide]  # paired, unpaired, luck
    support: tuple[int, ...]  # every score difference (A − B) seen, in order: the x axis
    distributions: tuple[Distribution, Distribution]
    caveats: tuple[str, ...]  # French, for the page; empty when nothing limits the reading

    @property
    def coverage(self) -> tuple[RuleUse, ...]:
        """Each variant that differs between the readings: in how many matches it came
        into play, how often under each reading (or that the lab does not count it)."""
        return self.comparison.rules

    @property
    def identical(self) -> bool:
        return self.comparison.identical

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a page or a JSON file."""
        return {
            "names": list(self.names),
            "matches": self.comparison.matches,
            "changed": self.comparison.changed,
            "identical": self.identical,
            "intervals": {
                s.key: {
                    "label": s.label,
                    "estimate": s.interval.estimate,
                    "low": s.interval.low,
                    "high": s.interval.high,
                }
                for s in self.intervals
            },
            "support": list(self.support),
            "distributions": [
                {
                    "name": d.name,
                    "outcomes": list(d.outcomes),
                    "score_differences": list(d.score_differences),
                }
                for d in self.distributions
            ],
            "coverage": [
                {
                    "field": r.field,
                    "counted": r.counted,
                    "matches": r.matches,
                    "first": r.first,
                    "second": r.second,
                    "total": r.total,
                }
                for r in self.coverage
            ],
            "caveats": list(self.caveats),
        }


def compare_readings(
    first: Results, second: Results, names: Sequence[str] = ("Lecture 1", "Lecture 2")
) -> ReadingsComparison:
    """Two simulations on the same seeds side by side (see the module). ``names``: how
    the page calls the two readings."""
    if len(names) != 2:
        raise LabError("two readings need two names")
    comparison = paired(first, second)
    luck = comparison.luck
    fitted = luck is not None and any(luck.betas)
    luck_label = (
        "corrigée de la chance aux dés"
        if fitted
        else "corrigée de la chance aux dés (trop peu de matchs pour l’estimer : appariée)"
    )
    intervals = (
        SideBySide("paired", "appariée (mêmes dés)", comparison.delta),
        SideBySide("unpaired", "sans appariement (deux séries indépendantes)", comparison.unpaired),
        SideBySide("luck", luck_label, luck.delta if luck is not None else comparison.delta),
    )
    one = [row.score_a - row.score_b for row in first]
    two = [row.score_a - row.score_b for row in second]
    support = tuple(sorted(set(one) | set(two)))
    distributions = (
        _distribution(names[0], first, one, support),
        _distribution(names[1], second, two, support),
    )
    return ReadingsComparison(
        (names[0], names[1]), comparison, intervals, support, distributions, _caveats(comparison)
    )


def _distribution(
    name: str, results: Results, differences: list[int], support: tuple[int, ...]
) -> Distribution:
    winners = Counter(row.winner for row in results)
    counts = Counter(differences)
    return Distribution(
        name,
        (winners["A"], winners["draw"], winners["B"]),
        tuple(counts[value] for value in support),
    )


def _caveats(comparison: Comparison) -> tuple[str, ...]:
    """What the page must say before its numbers (French)."""
    if comparison.identical:
        return ("Les deux lectures sont identiques : mêmes matchs, différence nulle.",)
    out = []
    if not comparison.exercised:
        out.append(
            "La règle n’a joué dans aucun match : les bots n’ont jamais rencontré la situation "
            "où les deux lectures diffèrent ; aucun effet ne peut être mesuré (ce n’est pas "
            "un effet nul)."
        )
    if comparison.matches < MIN_SAMPLE:
        out.append(
            f"Trop peu de matchs ({comparison.matches}) pour conclure : il en faut au moins "
            f"{MIN_SAMPLE} ; les intervalles disent ce que ces matchs permettent."
        )
    return tuple(out)
