"""The designer's laboratory: many bot-played matches, statistically honest answers.

::

    from akvo.lab import simulate, compare

    results = simulate("perrockiss", "fish-tank", bots=("greedy", "random"),
                       rules="weather=coin", n=10_000, seed=1, workers=2)
    results.summary().p_a            # Interval(estimate, low, high), 95 % Wilson (scipy)
    results.to_csv("results.csv")    # one line per match
    _, _, diff = compare("perrockiss", "fish-tank", n=2000, seed=1, other_rules="weather=coin")
    diff.delta                       # paired difference of A's match points, 95 % interval
    side = compare_readings(*compare(...)[:2])  # paired, unpaired, luck-adjusted, plot data
    report = tournament(n=1000, workers=2)  # the balance report: akvo.lab.tournament
    open("balance.csv", "w").write(report.to_csv())

Runs on dask.distributed (a LocalCluster by default, or ``client=`` / ``scheduler=``);
``workers=0`` plays in this process. Results depend only on the seed.
"""

from akvo.lab.options import parse_rules, rules_text
from akvo.lab.ratings import bradley_terry
from akvo.lab.readings import ReadingsComparison, compare_readings
from akvo.lab.results import (
    COLUMNS,
    LUCK_COLUMNS,
    STAKE_COLUMNS,
    LabError,
    MatchResult,
    Results,
)
from akvo.lab.run import compare, dask_client, replay_match, simulate
from akvo.lab.stats import (
    Comparison,
    Interval,
    LuckAdjusted,
    Summary,
    difference_interval,
    luck_adjusted,
    mean_interval,
    paired,
    points_interval,
    proportion,
    roll_stakes,
    summarise,
    within,
)
from akvo.lab.tournament import BalanceReport, tournament

__all__ = [
    "COLUMNS",
    "LUCK_COLUMNS",
    "STAKE_COLUMNS",
    "BalanceReport",
    "Comparison",
    "Interval",
    "LabError",
    "LuckAdjusted",
    "MatchResult",
    "ReadingsComparison",
    "Results",
    "Summary",
    "bradley_terry",
    "compare",
    "compare_readings",
    "dask_client",
    "difference_interval",
    "luck_adjusted",
    "mean_interval",
    "paired",
    "parse_rules",
    "points_interval",
    "proportion",
    "replay_match",
    "roll_stakes",
    "rules_text",
    "simulate",
    "summarise",
    "tournament",
    "within",
]
