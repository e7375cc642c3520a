"""The bots' ladder: each level against its neighbours on paired deals, Bradley–Terry Elo.

A *deal* is a match seed (its dice and weather, :class:`~akvo.match.streams.KeyedChance`)
played twice, the two bots swapping seats (and teams): the dice luck and the seat's edge
cancel within a deal. Each pairing of the ladder (every two adjacent levels, and « expert »
against « normal », the reference the targets are set against) plays the same deals.

Figures, each with its 95 % interval:

- a level's match points per deal (win 1, draw ½, the mean of its two seats): the Wilson
  score interval at the deals' *effective* sample size (Kish: ``n · p(1 − p) / s²``, the
  binomial variance over the observed one), which stays inside [0, 1] and is the plain
  Wilson interval when every deal is a win or a loss;
- its win rate over the matches (draws are not wins): Wilson;
- Bradley–Terry Elo from every pairing's match points (:func:`akvo.lab.ratings.bradley_terry`),
  « normal » at 0;
- optionally each level's exploitability at the orders (:mod:`akvo.lab.exploitability`):
  the win-chance points a best response that knows its strategy gains, Student interval.

Levels and their options (``ladder_options``: « fort » at budget 8) come from the bots'
registry. Every match runs through the lab (:func:`akvo.lab.run.play_tasks`): in this
process, on a LocalCluster, or on any Dask cluster, with a progress bar.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akvo.bots import BOTS, LADDER, REGISTRY
from akvo.config import RulesConfig
from akvo.lab.play import MatchSpec
from akvo.lab.ratings import bradley_terry
from akvo.lab.results import LabError, MatchResult
from akvo.lab.run import Progress, _chunks, dask_client, play_tasks, team_of
from akvo.lab.stats import LEVEL, Interval, proportion

#: The reference level: Elo 0, and the extra pairing with the top level.
REFERENCE = "greedy"
RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "ladder.md"


def ladder_pairs(levels: Sequence[str] = LADDER) -> list[tuple[str, str]]:
    """(stronger, weaker): adjacent levels, then the top level against the reference."""
    pairs = [(levels[i + 1], levels[i]) for i in range(len(levels) - 1)]
    top = levels[-1]
    if REFERENCE in levels and (top, REFERENCE) not in pairs and top != REFERENCE:
        pairs.append((top, REFERENCE))
    return pairs


def _options(names: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    """Each level's ladder options, qualified by its name (:func:`akvo.bots.options_for`)."""
    return tuple(
        (f"{name}.{key}", value)
        for name in names
        for key, value in sorted(REGISTRY[name].ladder_options.items())
    )


def wilson_points(points: Sequence[float]) -> Interval:
    """The mean of per-deal points in [0, 1] with the Wilson score interval at the
    effective sample size (see the module)."""
    n = len(points)
    if n == 0:
        raise LabError("no deal was played")
    mean = sum(points) / n
    variance = sum((p - mean) ** 2 for p in points) / n  # as the binomial p(1 − p)
    binomial = mean * (1 - mean)
    effective = n if variance <= 0 or binomial <= 0 else n * binomial / variance
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + LEVEL / 2))
    centre = (mean + z * z / (2 * effective)) / (1 + z * z / effective)
    half = (
        z
        / (1 + z * z / effective)
        * math.sqrt(binomial / effective + z * z / (4 * effective * effective))
    )
    return Interval(mean, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class PairingResult:
    """One pairing of the ladder (``first`` against ``second``)."""

    first: str
    second: str
    #: ``first``'s match points on each deal (the mean of its two seats).
    deal_points: tuple[float, ...]
    wins: int
    draws: int
    #: Matches played: two a deal.
    matches: int

    def cells(self) -> list[str]:
        """Its row of the tables: the pairing, deals, points and wins with their 95 %
        intervals (``low … high``), draws."""
        points, wins = self.points, self.win_rate
        return [
            f"« {BOTS[self.first]} » – « {BOTS[self.second]} »",
            str(len(self.deal_points)),
            f"{points.estimate:.3f}",
            f"{points.low:.3f} … {points.high:.3f}",
            f"{wins.estimate:.3f}",
            f"{wins.low:.3f} … {wins.high:.3f}",
            str(self.draws),
        ]

    @property
    def points(self) -> Interval:
        return wilson_points(self.deal_points)

    @property
    def win_rate(self) -> Interval:
        return proportion(self.wins, self.matches)

    @property
    def total_points(self) -> float:
        return sum(self.deal_points) * 2


#: The columns of :meth:`PairingResult.cells`.
PAIRING_COLUMNS = ("pairing", "deals", "points of the first", "95 %", "wins", "95 %", "draws")


@dataclass(frozen=True)
class LadderReport:
    pairings: tuple[PairingResult, ...]
    elo: dict[str, Interval]
    deals: int
    seed: int
    complete: bool
    #: Each level's exploitability at the orders, in win-chance points
    #: (:mod:`akvo.lab.exploitability`); empty when it was not measured.
    exploitability: dict[str, Interval] = field(default_factory=dict)

    def level_cells(self, name: str) -> list[str]:
        """A level's row: its label, engine name, Elo and interval, then its
        exploitability and interval (« – » when not measured)."""
        r = self.elo[name]
        gain = self.exploitability.get(name)
        return [
            f"« {BOTS[name]} »",
            name,
            f"{r.estimate:+.0f}",
            f"{r.low:+.0f} … {r.high:+.0f}",
            "–" if gain is None else f"{gain.estimate:.1f}",
            "–" if gain is None else f"{gain.low:.1f} … {gain.high:.1f}",
        ]

    def to_text(self) -> str:
        """Tab-separated tables: the levels, then each pairing (French labels)."""
        lines = ["\t".join(LEVEL_COLUMNS)]
        lines += ["\t".join(self.level_cells(name)) for name in self.elo]
        lines += ["", "\t".join(PAIRING_COLUMNS)]
        lines += ["\t".join(p.cells()) for p in self.pairings]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a JSON file (``akvo ladder --out ladder.json``; the lab page
        ships one): the levels' Elo and exploitability, every pairing's per-deal points."""
        return {
            "deals": self.deals,
            "seed": self.seed,
            "complete": self.complete,
            "elo": {name: [r.estimate, r.low, r.high] for name, r in self.elo.items()},
            "exploitability": {
                name: [r.estimate, r.low, r.high] for name, r in self.exploitability.items()
            },
            "pairings": [
                {
                    "first": p.first,
                    "second": p.second,
                    "deal_points": list(p.deal_points),
                    "wins": p.wins,
                    "draws": p.draws,
                    "matches": p.matches,
                }
                for p in self.pairings
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LadderReport:
        """The report :meth:`to_dict` wrote; :class:`LabError` if it is not one."""
        try:
            pairings = tuple(
                PairingResult(
                    str(p["first"]),
                    str(p["second"]),
                    tuple(float(v) for v in p["deal_points"]),
                    int(p["wins"]),
                    int(p["draws"]),
                    int(p["matches"]),
                )
                for p in data["pairings"]
            )
            elo, gains = (
                {str(name): Interval(*map(float, r)) for name, r in data.get(key, {}).items()}
                for key in ("elo", "exploitability")
            )
            return cls(
                pairings, elo, int(data["deals"]), int(data["seed"]), bool(data["complete"]), gains
            )
        except (KeyError, TypeError, ValueError) as error:
            raise LabError(f"not a ladder report: {error!r}") from None

    def to_markdown(self, command: str, seconds: float) -> str:
        now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        out = [
            "# The bots' ladder",
            "",
            f"`{command}` — {now}, {seconds / 60:.1f} min"
            + ("" if self.complete else " (interrupted: the deals that finished)"),
            "",
            f"{min(len(p.deal_points) for p in self.pairings)} deals per pairing"
            + ("" if self.complete else f" (of {self.deals} asked)")
            + ", each played twice with the bots swapping seats on "
            "the same dice (Perrockiss against Fish Tank, default rules). 95 % intervals: Elo "
            "from Bradley–Terry on match points (« normal » at 0); points per deal by the "
            "Wilson interval at the deals' effective sample size; win rates by Wilson. "
            "Exploitability: the win-chance points a best response that knows the level's "
            "strategy at the orders gains over the level's own game value "
            "(akvo.lab.exploitability; Student interval over the positions).",
            "",
            _markdown_row(LEVEL_COLUMNS),
            "|---|---|---:|---|---:|---|",
            *(_markdown_row(self.level_cells(name)) for name in self.elo),
            "",
            _markdown_row(PAIRING_COLUMNS),
            "|---|---:|---:|---|---:|---|---:|",
            *(_markdown_row(p.cells()) for p in self.pairings),
        ]
        return "\n".join(out) + "\n"


#: The columns of :meth:`LadderReport.level_cells`.
LEVEL_COLUMNS = ("level", "bot", "Elo", "95 %", "exploitability (points)", "95 %")


def _markdown_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _points(row: MatchResult, side: str) -> float:
    return 1.0 if row.winner == side else 0.5 if row.winner == "draw" else 0.0


def ladder(
    deals: int = 100,
    seed: int = 0,
    levels: Sequence[str] = LADDER,
    pairs: Sequence[tuple[str, str]] | None = None,
    *,
    team_a: str = "perrockiss",
    team_b: str = "fish-tank",
    rules: RulesConfig | None = None,
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool = False,
    on_progress: Progress | None = None,
    exploitability: int = 0,
) -> LadderReport:
    """Play ``deals`` paired deals for each pairing (see the module) and rate the levels;
    with ``exploitability`` orders positions, measure each level's exploitability there
    (:mod:`akvo.lab.exploitability`, in this process)."""
    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise LabError(f"deals must be a positive number, got {deals!r}")
    for name in levels:
        if name not in REGISTRY:
            raise LabError(f"unknown bot {name!r}; choose among {', '.join(REGISTRY)}")
    pairs = list(pairs) if pairs is not None else ladder_pairs(levels)
    rules = rules if rules is not None else RulesConfig()
    teams = (team_of(team_a), team_of(team_b))
    specs: list[MatchSpec] = []
    for first, second in pairs:
        for bots in ((first, second), (second, first)):
            specs.append(MatchSpec(*teams, bots, rules, seed, _options(bots)))
    with dask_client(workers, client, scheduler) as dask:
        count = 1 if dask is None else max(1, len(dask.scheduler_info().get("workers", {})))
        tasks = [
            (spec, start, stop)
            for start, stop in _chunks(deals, count * len(specs), 1)
            for spec in specs
        ]
        played, complete = play_tasks(tasks, dask, progress, on_progress)
    rows: dict[int, dict[int, MatchResult]] = {}
    for (spec, _, _), chunk in zip(tasks, played, strict=True):
        for row in chunk or ():
            rows.setdefault(specs.index(spec), {})[row.index] = row
    results = []
    for k, (first, second) in enumerate(pairs):
        as_a, as_b = rows.get(2 * k, {}), rows.get(2 * k + 1, {})
        both = sorted(set(as_a) & set(as_b))  # deals played in both seats
        points = [(_points(as_a[i], "A") + _points(as_b[i], "B")) / 2 for i in both]
        matches = [as_a[i] for i in both] + [as_b[i] for i in both]
        wins = sum(as_a[i].winner == "A" for i in both) + sum(as_b[i].winner == "B" for i in both)
        draws = sum(row.winner == "draw" for row in matches)
        results.append(PairingResult(first, second, tuple(points), wins, draws, len(matches)))
    scored = [r for r in results if r.deal_points]
    if not scored:
        raise LabError("no deal finished")
    ratings = bradley_terry(
        [(r.first, r.second, r.total_points, r.matches) for r in scored],
        anchor=REFERENCE if any(REFERENCE in (r.first, r.second) for r in scored) else None,
    )
    ordered = {name: ratings[name] for name in levels if name in ratings}
    gains = {}
    if exploitability:
        from akvo.lab.exploitability import exploitability as measure

        gains = measure(list(ordered), exploitability, seed, rules)
    return LadderReport(tuple(results), ordered, deals, seed, complete, gains)
