"""Statistics of a simulation: win rates with 95 % intervals (scipy), score distributions,
the advantage of activating first, and paired comparisons on common random numbers.

scipy is imported here only, when a summary is asked for (``import akvo.lab`` stays light).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Final

from akvo.lab.coverage import USE_COLUMNS, RuleUse, rule_uses, use_label
from akvo.lab.results import STAKE_UNIT, LabError, Results
from akvo.rules import tier_for_turn

LEVEL = 0.95
METHODS = ("wilson", "exact")
#: The fewest matches behind a figure for the lab to read it without a caveat, or to rank
#: by it (teams, effects): with fewer, a win rate's interval spans most of [0, 1] and the
#: order of close teams changes from seed to seed.
MIN_SAMPLE = 30


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95 % confidence interval."""

    estimate: float
    low: float
    high: float

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high


def proportion(successes: int, trials: int, method: str = "wilson") -> Interval:
    """A binomial proportion with scipy's 95 % interval: Wilson score or exact
    (Clopper–Pearson)."""
    if method not in METHODS:
        raise LabError(f"unknown interval method {method!r}; choose one of {METHODS}")
    if trials <= 0:
        raise LabError("a proportion needs at least one trial")
    from scipy.stats import binomtest

    ci = binomtest(successes, trials).proportion_ci(confidence_level=LEVEL, method=method)
    return Interval(successes / trials, float(ci.low), float(ci.high))


def within(interval: Interval, low: float, high: float) -> Interval:
    """``interval`` limited to the values the quantity can take, ``[low, high]``. The true
    value lies in that range, so the limited interval contains it exactly when the
    unlimited one does: its coverage is unchanged, and it never shows an impossible value
    (a mean score below 0, a difference of match points beyond ±1). It also contains its
    estimate: a closed formula's rounding can leave a bound just past it (Wilson's lower
    bound at 0 wins out of 7 came out as 2.8e-17)."""
    if low > high:
        raise LabError(f"an empty range [{low}, {high}]")
    estimate = min(max(interval.estimate, low), high)
    return Interval(
        estimate,
        min(max(interval.low, low), estimate),
        max(min(interval.high, high), estimate),
    )


def mean_interval(values: list[float], low: float = -math.inf, high: float = math.inf) -> Interval:
    """A mean with its 95 % Student t interval (a point when there is no spread), limited
    to ``[low, high]``, the values the quantity can take (:func:`within`)."""
    n = len(values)
    if n == 0:
        raise LabError("a mean needs at least one value")
    mean = sum(values) / n
    if n < 2:
        return within(Interval(mean, mean, mean), low, high)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    if variance == 0:
        return within(Interval(mean, mean, mean), low, high)
    from scipy.stats import t

    half = float(t.ppf(0.5 + LEVEL / 2, n - 1)) * math.sqrt(variance / n)
    return within(Interval(mean, mean - half, mean + half), low, high)


def points_interval(points: list[float]) -> Interval:
    """A mean of match points in [0, 1] (win 1, draw ½, loss 0) with the 95 % Wilson score
    interval of their total read as a count of successes. Wilson takes the variance
    p(1 − p), the largest a quantity in [0, 1] of mean p can have (draws only lower it): the
    interval stays inside [0, 1], is exactly :func:`proportion`'s without draws, and with
    draws errs on the wide side; unlike Student's it does not shrink to a point when five
    matches agree."""
    n = len(points)
    if n == 0:
        raise LabError("a mean of match points needs at least one match")
    if any(not 0 <= p <= 1 for p in points):
        raise LabError("match points lie between 0 and 1")
    from scipy.stats import norm

    mean = sum(points) / n
    z = float(norm.ppf(0.5 + LEVEL / 2))
    shrink = 1 + z * z / n
    centre = (mean + z * z / (2 * n)) / shrink
    half = z / shrink * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n))
    return within(Interval(mean, centre - half, centre + half), 0.0, 1.0)


@dataclass(frozen=True)
class Summary:
    """What a designer reads from a simulation (see :func:`summarise`)."""

    matches: int
    wins_a: int
    draws: int
    wins_b: int
    p_a: Interval  # P(A wins)
    p_draw: Interval
    p_b: Interval
    score_a: Interval  # mean score
    score_b: Interval
    score_diff: Interval  # mean of score A − score B
    scores_a: dict[int, int]  # score → matches
    scores_b: dict[int, int]
    first_edge: Interval  # points per turn: side activating first − other side
    reasons: dict[str, int]
    method: str
    meta: dict[str, Any]
    uses: dict[str, tuple[int, int]]  # column of USE_COLUMNS → (times in all, matches)

    @property
    def caveat(self) -> str | None:
        """For the page (French): why these figures are only indicative, or ``None``."""
        if self.matches >= MIN_SAMPLE:
            return None
        return (
            f"Peu de matchs ({self.matches}, moins de {MIN_SAMPLE}) : intervalles larges, "
            "à confirmer sur plus de matchs."
        )

    def rows(self) -> list[tuple[str, float, float | None, float | None]]:
        """(measure, estimate, low, high) lines: the table the command line prints."""
        names = self.meta.get("teams", ["A", "B"])
        out: list[tuple[str, float, float | None, float | None]] = [
            ("matchs", self.matches, None, None)
        ]
        for label, interval in (
            (f"victoires A ({names[0]})", self.p_a),
            ("nuls", self.p_draw),
            (f"victoires B ({names[1]})", self.p_b),
            ("score moyen A", self.score_a),
            ("score moyen B", self.score_b),
            ("écart de score A-B", self.score_diff),
            ("avantage du premier à activer (points/tour)", self.first_edge),
        ):
            out.append((label, interval.estimate, interval.low, interval.high))
        return out

    def to_text(self) -> str:
        """Aligned, tab-separated lines: French labels, plain numbers (machine-readable)."""
        lines = ["mesure\testimation\tbas95\thaut95"]
        for label, estimate, low, high in self.rows():
            cells = [label, _number(estimate), _number(low), _number(high)]
            lines.append("\t".join(cells))
        return "\n".join(lines)

    def uses_text(self) -> str:
        """What the matches used (runes by kind, Ultimes, each variant's branch): how many
        times in all and in how many matches, tab-separated."""
        lines = ["utilisation\tfois\tmatchs"]
        for column, (times, matches) in self.uses.items():
            lines.append(f"{use_label(column)}\t{times}\t{matches}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _number(value: float | None) -> str:
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.4f}"


def summarise(results: Results, method: str = "wilson") -> Summary:
    """Wins/draws/losses with 95 % intervals (Wilson or exact, scipy), mean scores with t
    intervals (never below 0: :func:`within`), the score histograms, and the
    first-activation edge per turn."""
    n = len(results)
    if n == 0:
        raise LabError("no finished match to summarise")
    winners = Counter(results.column("winner"))
    score_a = [float(v) for v in results.column("score_a")]
    score_b = [float(v) for v in results.column("score_b")]
    edges = [row.first_edge / max(1, len(row.favoured)) for row in results]
    return Summary(
        matches=n,
        wins_a=winners["A"],
        draws=winners["draw"],
        wins_b=winners["B"],
        p_a=proportion(winners["A"], n, method),
        p_draw=proportion(winners["draw"], n, method),
        p_b=proportion(winners["B"], n, method),
        score_a=mean_interval(score_a, low=0.0),
        score_b=mean_interval(score_b, low=0.0),
        score_diff=mean_interval([a - b for a, b in zip(score_a, score_b, strict=True)]),
        scores_a=dict(sorted(Counter(results.column("score_a")).items())),
        scores_b=dict(sorted(Counter(results.column("score_b")).items())),
        first_edge=mean_interval(edges),
        reasons=dict(sorted(Counter(results.column("reason")).items())),
        method=method,
        meta=dict(results.meta),
        uses={column: _use(results.column(column)) for column in USE_COLUMNS},
    )


def _use(counts: list[int]) -> tuple[int, int]:
    return sum(counts), sum(count > 0 for count in counts)


_POINTS = {"A": 1.0, "draw": 0.5, "B": 0.0}

# --- What a roll puts at stake (the weights of the stake-weighted luck) -------------------
#: By turn (index 1–10), the spread (standard deviation) of the score difference still to
#: come from that turn to the end of the match, measured once on greedy matches (Perrockiss
#: against Fish Tank, default rules, the first 2000 matches of master seed 1): the only
#: fitted figures of the cheap value below. Other figures, teams or bots leave the
#: controls' expectation exactly 0 (each weight is still fixed before its roll); they only
#: explain less of the variance.
REMAINING_SPREAD: Final = (3.1, 3.1, 3.1, 3.1, 2.75, 2.55, 2.0, 1.65, 0.8, 0.95, 0.6)


def win_share(lead: int, turn: int) -> float:
    """A cheap value of a match: A's expected match points (win 1, draw ½) when A leads by
    ``lead`` points during ``turn``, were the difference still to come normal with the
    turn's :data:`REMAINING_SPREAD` (R25: the higher score after turn 8 wins)."""
    return 0.5 * (1 + math.erf(lead / (REMAINING_SPREAD[turn] * math.sqrt(2))))


def point_stake(lead: int, turn: int, side: int, points: int) -> float:
    """How much ``points`` more for ``side`` (0: A) change :func:`win_share`."""
    return abs(win_share(lead + (points if side == 0 else -points), turn) - win_share(lead, turn))


def leverage(lead: int, turn: int) -> float:
    """What a point is worth at the margin (:func:`win_share`'s slope): the weight of the
    rolls whose effect is on the board (a push), not on the score."""
    spread = REMAINING_SPREAD[turn]
    return math.exp(-0.5 * (lead / spread) ** 2) / (spread * math.sqrt(2 * math.pi))


def roll_stakes(
    chest: bool, stage: int, lead: int, turn: int, shooter: int, parry: float, critical: bool
) -> tuple[int, tuple[float, float]]:
    """What is at stake in one roll of a shot, known before the roll: its first column in
    :data:`~akvo.lab.results.STAKE_COLUMNS` (the success's; the critical's is next) and the
    weights of its success and of its critical success, in A's match points by the cheap
    value (:func:`win_share`). ``stage`` 0 is the shooter's roll, 1 the defender's;
    ``lead``: A's score minus B's; ``parry``: the chance that the defence or interception
    roll to come succeeds (0 when none can follow); ``critical``: whether the attack was a
    critical success (a defence roll: 2 points at stake at the chest, a push of 2).

    At the chest, an attack's success scores 1 point unless parried, its critical 1 more;
    an interception saves the points, its critical pushes the shooter back (weighted as a
    push). At a mage, a success is a push (weighted by :func:`leverage`), by turn tier.

    Why the controls stay of expectation exactly 0: a roll's luck (success minus its
    chance) has mean 0 over its uniform faces whatever led to it, and the weight is
    fixed before the dice come, so weight × luck has mean 0 too (a martingale, as in the
    poker estimators DIVAT and AIVAT). The value need not be right: a better one only
    explains more of the variance."""
    if chest:
        if stage == 0:
            one = point_stake(lead, turn, shooter, 1)
            two = point_stake(lead, turn, shooter, 2)
            return 0, ((1 - parry) * one, (1 - parry) * (two - one))
        saved = point_stake(lead, turn, shooter, 1 + critical)
        return 2, (saved, leverage(lead, turn))
    column = 4 * tier_for_turn(turn) + 2 * stage
    push = leverage(lead, turn)
    if stage == 0:
        return column, ((1 - parry) * push, (1 - parry) * push)
    return column, ((1 + critical) * push, push)


@dataclass(frozen=True, slots=True)
class LuckAdjusted:
    """The paired difference with the dice luck taken into account (a control variate).

    Each match's controls — the lab uses its stake-weighted luck
    (:data:`~akvo.lab.results.STAKE_COLUMNS`) — have expectation exactly 0 under either
    reading, so their difference between the readings, X, has mean 0 too: the per-match
    difference of points D is regressed on X, and ``delta`` is the regression's value at
    X = 0 (mean D − β·mean X), with the 95 % Student interval of that value from the
    residuals (n − k − 1 degrees of freedom, k the controls that vary). ``betas``: A's
    points per unit of each control (0 for a control that never varies); ``explained``:
    the share of the variance of D the controls account for (R²).
    """

    delta: Interval
    betas: tuple[float, ...]
    explained: float


def luck_adjusted(
    differences: list[float],
    controls: list[list[float]],
    low: float = -math.inf,
    high: float = math.inf,
) -> LuckAdjusted:
    """:class:`LuckAdjusted` for per-match ``differences`` and, per match, its controls
    (each of mean 0 by construction). With no control that varies (a reading compared
    with itself: X = 0) it is the plain paired interval, with β = 0. Its residual sum
    of squares never exceeds the plain one's (R² ≥ 0), but the interval is not always
    narrower: it loses k degrees of freedom and pays for the sample mean of X being off 0
    (on a few matches with luck that explains nothing, it is wider). The estimate and its
    interval are limited to ``[low, high]``, the values the difference can take."""
    import numpy as np

    d = np.asarray(differences, dtype=float)
    n = len(d)
    x = np.asarray(controls, dtype=float).reshape(n, -1)
    width = x.shape[1]
    varying = [j for j in range(width) if np.ptp(x[:, j]) > 0] if n else []
    if not varying or n - len(varying) - 1 < 1:
        return LuckAdjusted(mean_interval([float(v) for v in d], low, high), (0.0,) * width, 0.0)
    x = x[:, varying]
    x_mean = x.mean(axis=0)
    centred = x - x_mean
    d_centred = d - d.mean()
    beta, _, rank, _ = np.linalg.lstsq(centred, d_centred, rcond=None)
    residuals = d_centred - centred @ beta
    rss = float(residuals @ residuals)
    total = float(d_centred @ d_centred)
    estimate = float(d.mean() - beta @ x_mean)
    betas = [0.0] * width
    for j, b in zip(varying, beta, strict=True):
        betas[j] = float(b)
    explained = 1 - rss / total if total > 0 else 0.0
    dof = n - int(rank) - 1
    leverage = 1 / n + float(x_mean @ np.linalg.pinv(centred.T @ centred) @ x_mean)
    variance = rss / dof * leverage
    if variance <= 0:
        point = within(Interval(estimate, estimate, estimate), low, high)
        return LuckAdjusted(point, tuple(betas), explained)
    from scipy.stats import t

    half = float(t.ppf(0.5 + LEVEL / 2, dof)) * math.sqrt(variance)
    delta = within(Interval(estimate, estimate - half, estimate + half), low, high)
    return LuckAdjusted(delta, tuple(betas), explained)


@dataclass(frozen=True)
class Comparison:
    """Two simulations on the same seeds: how much side A's result changed.

    ``delta`` is the mean of (second − first) per match of A's match points (win 1, draw
    ½, loss 0), with its paired 95 % interval; ``unpaired`` is the same difference with the
    interval two independent runs of this size would give (Welch), so that ``gain`` — how
    many times narrower the paired interval is — says what the common random numbers bought;
    ``changed`` counts matches whose winner differs; ``luck`` is the same difference with
    the dice luck taken into account (:class:`LuckAdjusted` on the stake-weighted luck,
    :data:`~akvo.lab.results.STAKE_COLUMNS`), and ``luck_gain`` what it buys over two
    independent runs. ``first`` and ``second`` have Wilson intervals (:func:`points_interval`),
    the differences Student's or Welch's limited to [−1, 1] (:func:`within`). Two identical
    configurations (:attr:`identical`) give the same matches: no ratio of widths is shown
    for them (« identique »), as 0 over 0 means nothing.
    """

    matches: int
    first: Interval  # A's mean match points in the first simulation
    second: Interval
    delta: Interval
    changed: int
    meta: tuple[dict[str, Any], dict[str, Any]]
    unpaired: Interval
    rules: tuple[RuleUse, ...] = ()  # each variant that differs: how much it came into play
    luck: LuckAdjusted | None = None

    @property
    def exercised(self) -> bool:
        """False when every rule that differs was counted and none came into play: the
        bots never used it, and the difference (0) says nothing about the rule."""
        return not self.rules or any(not r.counted or r.played for r in self.rules)

    @property
    def identical(self) -> bool:
        """True when both simulations had the same configuration (teams, bots and their
        options, rules, seed): a reading compared with itself."""
        keys = ("team_lists", "bots", "bot_options", "rules", "seed")
        one, two = self.meta
        return all(one.get(key) == two.get(key) for key in keys)

    @property
    def gain(self) -> float:
        """Unpaired half-width over paired half-width (``inf`` when the paired one is 0)."""
        paired_half = (self.delta.high - self.delta.low) / 2
        unpaired_half = (self.unpaired.high - self.unpaired.low) / 2
        return unpaired_half / paired_half if paired_half > 0 else math.inf

    @property
    def luck_gain(self) -> float:
        """Unpaired half-width over the luck-adjusted one (``inf`` when that one is 0; the
        plain :attr:`gain` when no luck was recorded)."""
        if self.luck is None:
            return self.gain
        adjusted_half = (self.luck.delta.high - self.luck.delta.low) / 2
        unpaired_half = (self.unpaired.high - self.unpaired.low) / 2
        return unpaired_half / adjusted_half if adjusted_half > 0 else math.inf

    def to_text(self) -> str:
        lines = ["mesure\testimation\tbas95\thaut95"]
        measures = [
            ("points de A (1re config.)", self.first),
            ("points de A (2e config.)", self.second),
        ]
        if self.exercised:
            measures += [
                ("différence (2e - 1re)", self.delta),
                ("différence sans appariement (deux séries indépendantes)", self.unpaired),
            ]
            if self.luck is not None:
                measures.append(("différence, chance des dés prise en compte", self.luck.delta))
        for label, interval in measures:
            cells = [label, _number(interval.estimate), _number(interval.low)]
            lines.append("\t".join([*cells, _number(interval.high)]))
        lines.append(f"matchs au vainqueur changé\t{self.changed}\t\t")
        if self.exercised:
            gain = _ratio(self.gain, self.identical)
            lines.append(f"intervalle apparié plus étroit (fois)\t{gain}\t\t")
            if self.luck is not None:
                luck_gain = _ratio(self.luck_gain, self.identical)
                lines.append(
                    f"intervalle avec la chance des dés prise en compte plus étroit (fois)"
                    f"\t{luck_gain}\t\t"
                )
                share = f"{self.luck.explained:.4f}"
                lines.append(f"part de la variance expliquée par la chance des dés\t{share}\t\t")
        for rule in self.rules:
            if not rule.counted:
                lines.append(f"règle {rule.field} : jeu non compté par le laboratoire\t\t\t")
                continue
            lines.append(f"matchs où la règle a joué ({rule.field})\t{rule.matches}\t\t")
            lines.append(f"fois où elle a joué (1re config.)\t{rule.first}\t\t")
            lines.append(f"fois où elle a joué (2e config.)\t{rule.second}\t\t")
        if not self.exercised:
            lines.append(
                "effet\tnon mesurable : la règle n'a joué dans aucun match (les bots ne l'ont "
                "pas mise en jeu)\t\t"
            )
        return "\n".join(lines)


def _ratio(gain: float, identical: bool) -> str:
    """A gain of width for the text: « identique » for a configuration compared with
    itself, « sans objet » when the paired interval is a point for another reason."""
    if identical:
        return "identique"
    return "sans objet (même écart à chaque match)" if math.isinf(gain) else f"{gain:.2f}"


def difference_interval(
    one: list[float], two: list[float], low: float = -math.inf, high: float = math.inf
) -> Interval:
    """mean(two) − mean(one) with the 95 % Welch interval of two independent samples
    (scipy); a point when neither sample varies; limited to ``[low, high]``."""
    estimate = sum(two) / len(two) - sum(one) / len(one)
    if len(one) < 2 or len(two) < 2 or (len(set(one)) == 1 and len(set(two)) == 1):
        return within(Interval(estimate, estimate, estimate), low, high)
    from scipy.stats import ttest_ind

    ci = ttest_ind(two, one, equal_var=False).confidence_interval(LEVEL)
    return within(Interval(estimate, float(ci.low), float(ci.high)), low, high)


def paired(first: Results, second: Results) -> Comparison:
    """Compare two simulations played on the same seeds (common random numbers)."""
    if [r.seed for r in first] != [r.seed for r in second]:
        raise LabError("a paired comparison needs both simulations on the same match seeds")
    if not len(first):
        raise LabError("no finished match to compare")
    one = [_POINTS[r.winner] for r in first]
    two = [_POINTS[r.winner] for r in second]
    differences = [b - a for a, b in zip(one, two, strict=True)]
    luck = [
        [(y - x) / STAKE_UNIT for x, y in zip(a.stakes, b.stakes, strict=True)]
        for a, b in zip(first, second, strict=True)
    ]
    return Comparison(
        matches=len(first),
        first=points_interval(one),
        second=points_interval(two),
        delta=mean_interval(differences, -1.0, 1.0),
        changed=sum(a.winner != b.winner for a, b in zip(first, second, strict=True)),
        meta=(dict(first.meta), dict(second.meta)),
        unpaired=difference_interval(one, two, -1.0, 1.0),
        rules=rule_uses(first, second, _differing(first.meta, second.meta)),
        luck=luck_adjusted(differences, luck, -1.0, 1.0),
    )


def _differing(one: dict[str, Any], two: dict[str, Any]) -> list[str]:
    """The variants whose reading differs between two simulations' ``meta``."""
    a, b = one.get("rules", {}), two.get("rules", {})
    return [field for field in a if b.get(field, a[field]) != a[field]]
