"""The balance report: every team against every other, and what each rune and Ultime is worth.

:func:`tournament` plays a round robin of teams (the six presets by default, or any list),
each ordered pair ``n`` times (both seats: A against B and B against A are two pairs), one
bot for all; and, for each rune kind and each Ultime, the first ``effect_matches`` matches
of every pair again with side A's bot forbidden to play it (:mod:`akvo.lab.forbid`), on the
same seeds: the paired difference of A's wins is what the rune or Ultime is worth to its
side. Every match is one Dask task's share (a LocalCluster by default, or ``client=`` /
``scheduler=``), with a tqdm bar; one seed gives the same report whatever the workers.

The report says no more than it knows: teams with the same team list (three presets share
one) are played once and shown as one row naming them all; below
:data:`MIN_MATCHES_PER_PAIR` matches per pair the teams are not ranked and the runes' and
Ultimes' effects are marked as indicative (:attr:`BalanceReport.caveat`, French text for
the page); every interval stays within what is possible (Wilson for win rates, Student's
limited to [−1, 1] for the effects).
"""

from __future__ import annotations

import csv
import io
import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Unpack

from akvo.lab.coverage import use_label
from akvo.lab.forbid import FORBIDDABLE
from akvo.lab.play import MatchSpec
from akvo.lab.results import LabError, MatchResult
from akvo.lab.run import (
    LARGEST_CHUNK,
    SMALLEST_CHUNK,
    Progress,
    Where,
    _chunks,
    _spec,
    _worker_count,
    dask_client,
    play_tasks,
    team_of,
)
from akvo.lab.stats import MIN_SAMPLE, Interval, mean_interval, proportion
from akvo.rules import PRESET_TEAMS
from akvo.teams import Team

#: The fewest matches per ordered pair (plain, or replayed for the effects) for the report
#: to rank the teams or the effects (:data:`~akvo.lab.stats.MIN_SAMPLE`).
MIN_MATCHES_PER_PAIR = MIN_SAMPLE

#: CSV columns of the report (one line per pair, per team, per item and the edge).
CSV_COLUMNS = (
    "section",
    "subject",
    "opponent",
    "matches",
    "wins",
    "draws",
    "losses",
    "estimate",
    "low95",
    "high95",
    "times",
    "matches_played",
)


@dataclass(frozen=True, slots=True)
class PairResult:
    """One ordered pair: ``team_a`` as side A against ``team_b``."""

    team_a: str
    team_b: str
    matches: int
    wins_a: int
    draws: int
    wins_b: int
    p_a: Interval  # 95 % Wilson
    p_draw: Interval
    first_edge: Interval  # points per turn of the side activating first minus the other's


@dataclass(frozen=True, slots=True)
class TeamResult:
    """One team over all its matches, both seats."""

    team: str
    matches: int
    wins: int
    draws: int
    losses: int
    p_win: Interval
    members: tuple[str, ...] = ()  # every name given for this team list (``team`` first)

    @property
    def label(self) -> str:
        """The team's names, joined when several have the same team list."""
        return " = ".join(self.members or (self.team,))


@dataclass(frozen=True, slots=True)
class ItemEffect:
    """A rune kind or an Ultime (:data:`~akvo.lab.forbid.FORBIDDABLE`), played by side A.

    ``times`` and ``matches_played`` count its plays in the first ``matches`` matches of
    every pair (allowed); ``effect`` is side A's win chance with it minus without it (the
    same bot forbidden to play it, same seeds): a paired mean with its 95 % interval;
    ``changed`` counts matches whose winner differs."""

    item: str
    matches: int
    times: int
    matches_played: int
    effect: Interval
    changed: int

    @property
    def label(self) -> str:
        return use_label(f"{self.item}_a").removesuffix(" (A)")


@dataclass(frozen=True)
class BalanceReport:
    """What :func:`tournament` measured (see the module)."""

    teams: tuple[str, ...]
    bot: str
    seed: int
    n: int
    effect_matches: int
    pairs: tuple[PairResult, ...]
    team_results: tuple[TeamResult, ...]
    first_edge: Interval
    effects: tuple[ItemEffect, ...]
    complete: bool = True

    @property
    def fewest(self) -> int:
        """The fewest matches a pair played (``n`` unless the run was interrupted)."""
        return min((p.matches for p in self.pairs), default=self.n)

    @property
    def ranked(self) -> bool:
        """Whether every pair had enough matches to rank the teams
        (:data:`MIN_MATCHES_PER_PAIR`)."""
        return self.fewest >= MIN_MATCHES_PER_PAIR

    @property
    def effects_ranked(self) -> bool:
        """Whether enough matches were replayed per pair to rank the effects."""
        return self.effect_matches >= MIN_MATCHES_PER_PAIR

    @property
    def caveat(self) -> str | None:
        """For the page (French): why the teams are not ranked, or ``None``."""
        if self.ranked:
            return None
        return (
            f"Trop peu de matchs pour classer les équipes : {self.fewest} par paire, il en faut "
            f"au moins {MIN_MATCHES_PER_PAIR}. Les équipes sont données dans l’ordre de la "
            "liste, sans rang ; leurs intervalles disent ce que ces matchs permettent."
        )

    @property
    def effects_caveat(self) -> str | None:
        """For the page (French): why the effects are indicative only, or ``None``."""
        if not self.effects or self.effects_ranked:
            return None
        return (
            f"Trop peu de matchs pour mesurer l’effet des runes et des Ultimes : "
            f"{self.effect_matches} rejoués par paire, il en faut au moins "
            f"{MIN_MATCHES_PER_PAIR}. Effets indicatifs, non classés."
        )

    def ranking(self) -> tuple[TeamResult, ...]:
        """The teams, best win rate first when :attr:`ranked`, else in the order given."""
        if not self.ranked:
            return self.team_results
        return tuple(sorted(self.team_results, key=lambda t: -t.p_win.estimate))

    def effects_ranking(self) -> tuple[ItemEffect, ...]:
        """The effects, largest first when :attr:`effects_ranked`, else in the fixed order
        of :data:`~akvo.lab.forbid.FORBIDDABLE`."""
        if not self.effects_ranked:
            return self.effects
        return tuple(sorted(self.effects, key=lambda e: -e.effect.estimate))

    def to_text(self) -> str:
        """Tab-separated French tables: the pairs, the teams, the edge, the runes and
        Ultimes (plain numbers with a dot, 95 % intervals)."""
        lines = ["# paires (A contre B) : victoires de A, nuls, victoires de B, Wilson 95 %"]
        lines.append(
            "équipe A\téquipe B\tmatchs\tvictoires A\tnuls\tvictoires B\tP(A gagne)\tbas95"
            "\thaut95\tP(nul)\tavantage du premier (points/tour)"
        )
        for p in self.pairs:
            lines.append(
                f"{p.team_a}\t{p.team_b}\t{p.matches}\t{p.wins_a}\t{p.draws}\t{p.wins_b}\t"
                f"{_f(p.p_a.estimate)}\t{_f(p.p_a.low)}\t{_f(p.p_a.high)}\t"
                f"{_f(p.p_draw.estimate)}\t{_f(p.first_edge.estimate)}"
            )
        lines.append("# équipes (les deux camps)" + ("" if self.ranked else ", non classées"))
        if self.caveat:
            lines.append(f"# {self.caveat}")
        lines.append("équipe\tmatchs\tvictoires\tnuls\tdéfaites\tP(gagne)\tbas95\thaut95")
        for t in self.ranking():
            lines.append(
                f"{t.label}\t{t.matches}\t{t.wins}\t{t.draws}\t{t.losses}\t"
                f"{_f(t.p_win.estimate)}\t{_f(t.p_win.low)}\t{_f(t.p_win.high)}"
            )
        edge = self.first_edge
        lines.append(
            f"# avantage du premier à activer (points/tour)\t{_f(edge.estimate)}\t"
            f"{_f(edge.low)}\t{_f(edge.high)}"
        )
        if self.effects:
            lines.append(
                f"# runes et Ultimes joués par A : effet sur P(A gagne), avec moins sans "
                f"(même bot, mêmes graines, {self.effect_matches} matchs par paire)"
            )
            if self.effects_caveat:
                lines.append(f"# {self.effects_caveat}")
            lines.append(
                "rune ou Ultime\tfois\tmatchs où joué\teffet\tbas95\thaut95\tvainqueur changé"
            )
            for e in self.effects_ranking():
                lines.append(
                    f"{e.label}\t{e.times}\t{e.matches_played}\t{_f(e.effect.estimate)}\t"
                    f"{_f(e.effect.low)}\t{_f(e.effect.high)}\t{e.changed}"
                )
        return "\n".join(lines)

    def to_csv(self) -> str:
        """One line per pair, team, rune or Ultime, and the edge (:data:`CSV_COLUMNS`)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for p in self.pairs:
            row = ("pair", p.team_a, p.team_b, p.matches, p.wins_a, p.draws, p.wins_b)
            writer.writerow([*row, *_cells(p.p_a), "", ""])
        for t in self.team_results:
            row = ("team", t.label, "", t.matches, t.wins, t.draws, t.losses)
            writer.writerow([*row, *_cells(t.p_win), "", ""])
        matches = sum(p.matches for p in self.pairs)
        writer.writerow(
            ["first_edge", "", "", matches, "", "", "", *_cells(self.first_edge), "", ""]
        )
        for e in self.effects:
            head = ["effect", e.item, "", e.matches, "", "", ""]
            writer.writerow([*head, *_cells(e.effect), e.times, e.matches_played])
        return out.getvalue()


def _f(value: float) -> str:
    return f"{value:.4f}"


def _cells(interval: Interval) -> list[str]:
    return [_f(interval.estimate), _f(interval.low), _f(interval.high)]


def _job_specs(
    teams: Sequence[str], bot: str, rules: Any, seed: int, items: Sequence[str]
) -> list[tuple[tuple[str, str, str], MatchSpec]]:
    """``((team_a, team_b, item), spec)`` for every ordered pair, ``item`` ``""`` for the
    plain matches, else the rune or Ultime side A's bot may not play."""
    out = []
    for a in teams:
        for b in teams:
            if a == b:
                continue
            spec = _spec(a, b, (bot, bot), rules, seed, None)
            out.append(((a, b, ""), spec))
            out += [((a, b, item), replace(spec, forbidden=((item,), ()))) for item in items]
    return out


def tournament(
    teams: Sequence[Team | str] | None = None,
    n: int = 100,
    effect_matches: int | None = None,
    seed: int = 0,
    bot: str = "greedy",
    rules: Any = None,
    items: Sequence[str] = FORBIDDABLE,
    *,
    progress: bool | None = None,
    on_progress: Progress | None = None,
    **where: Unpack[Where],
) -> BalanceReport:
    """The balance report (see the module): ``teams`` preset keys or team lists (default:
    every preset), ``n`` matches per ordered pair, ``effect_matches`` (default ``n // 10``,
    at least 1; 0: none) of them replayed per rune kind and Ultime in ``items``."""
    given = [t if isinstance(t, str) else str(t) for t in (teams or list(PRESET_TEAMS))]
    groups: dict[str, list[str]] = {}  # team list → the names given for it
    for name in dict.fromkeys(given):
        groups.setdefault(str(team_of(name)), []).append(name)
    if len(groups) < 2:
        same = f" ({', '.join(given)} have one team list)" if len(set(given)) > 1 else ""
        raise LabError(f"a tournament needs at least two different teams{same}")
    names = [members[0] for members in groups.values()]
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise LabError(f"n must be a positive number of matches per pair, got {n!r}")
    effect_n = max(1, n // 10) if effect_matches is None else effect_matches
    if not isinstance(effect_n, int) or not 0 <= effect_n <= n:
        raise LabError(f"effect_matches must be between 0 and n ({n}), got {effect_matches!r}")
    chosen = tuple(items) if effect_n else ()
    for item in chosen:
        if item not in FORBIDDABLE:
            raise LabError(f"cannot forbid {item!r}; choose among {', '.join(FORBIDDABLE)}")
    jobs = _job_specs(names, bot, rules, seed, chosen)
    show = sys.stderr.isatty() if progress is None else progress
    with dask_client(**where) as dask:
        rows, complete = _play_all(jobs, n, effect_n, dask, show, on_progress)
    report = _report(names, bot, seed, n, effect_n, chosen, rows, complete)
    members = {members[0]: tuple(members) for members in groups.values()}
    merged = tuple(replace(t, members=members[t.team]) for t in report.team_results)
    return replace(report, team_results=merged)


def _play_all(
    jobs: list[tuple[tuple[str, str, str], MatchSpec]],
    n: int,
    effect_n: int,
    client: Any,
    progress: bool,
    on_progress: Progress | None,
) -> tuple[dict[tuple[str, str, str], list[MatchResult]], bool]:
    """Every job's matches, as chunks on Dask (or in this process), in index order."""
    workers = _worker_count(client)
    counts = [effect_n if key[2] else n for key, _ in jobs]
    # Many jobs keep every worker busy: one chunk size for all, about 16 chunks per worker.
    size = max(SMALLEST_CHUNK, min(LARGEST_CHUNK, math.ceil(sum(counts) / (16 * workers))))
    tasks = [
        (key, spec, start, stop)
        for (key, spec), count in zip(jobs, counts, strict=True)
        for start, stop in _chunks(count, workers, size)
    ]
    played, complete = play_tasks(
        [(spec, start, stop) for _, spec, start, stop in tasks], client, progress, on_progress
    )
    rows: dict[tuple[str, str, str], list[MatchResult]] = {key: [] for key, _ in jobs}
    for (key, *_), chunk in zip(tasks, played, strict=True):
        rows[key].extend(chunk or ())
    for chunk in rows.values():
        chunk.sort(key=lambda row: row.index)
    return rows, complete


def _wins(rows: Sequence[MatchResult]) -> Counter[str]:
    return Counter(row.winner for row in rows)


def _report(
    names: list[str],
    bot: str,
    seed: int,
    n: int,
    effect_n: int,
    items: Sequence[str],
    rows: dict[tuple[str, str, str], list[MatchResult]],
    complete: bool,
) -> BalanceReport:
    pairs, edges = [], []
    tally = {name: Counter[str]() for name in names}
    for (a, b, item), played in rows.items():
        if item or not played:
            continue
        wins = _wins(played)
        count = len(played)
        pair_edges = [row.first_edge / max(1, len(row.favoured)) for row in played]
        edges += pair_edges
        pairs.append(
            PairResult(
                a,
                b,
                count,
                wins["A"],
                wins["draw"],
                wins["B"],
                proportion(wins["A"], count),
                proportion(wins["draw"], count),
                mean_interval(pair_edges),
            )
        )
        tally[a].update(win=wins["A"], draw=wins["draw"], loss=wins["B"])
        tally[b].update(win=wins["B"], draw=wins["draw"], loss=wins["A"])
    teams = []
    for name in names:
        t = tally[name]
        total = t["win"] + t["draw"] + t["loss"]
        if total:
            p = proportion(t["win"], total)
            teams.append(TeamResult(name, total, t["win"], t["draw"], t["loss"], p))
    effects = []
    for item in items:
        base: list[MatchResult] = []
        without: list[MatchResult] = []
        for (a, b, forbidden), played in rows.items():
            if forbidden != item:
                continue
            plain = {row.index: row for row in rows[(a, b, "")]}
            for row in played:
                if row.index in plain:
                    base.append(plain[row.index])
                    without.append(row)
        if not base:
            continue
        column = f"{item}_a"
        uses = [row.use(column) for row in base]
        diffs = [
            float(x.winner == "A") - float(y.winner == "A")
            for x, y in zip(base, without, strict=True)
        ]
        changed = sum(x.winner != y.winner for x, y in zip(base, without, strict=True))
        effects.append(
            ItemEffect(
                item,
                len(base),
                sum(uses),
                sum(u > 0 for u in uses),
                mean_interval(diffs, -1.0, 1.0),
                changed,
            )
        )
    return BalanceReport(
        tuple(names),
        bot,
        seed,
        n,
        effect_n,
        tuple(pairs),
        tuple(teams),
        mean_interval(edges) if edges else Interval(0.0, 0.0, 0.0),
        tuple(effects),
        complete,
    )
