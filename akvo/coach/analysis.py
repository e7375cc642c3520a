"""Post-match analysis: the win chance after each decision, and the mistakes it reveals.

For every decision of the analysed side(s) in a match record, :func:`analyse` estimates
(:class:`akvo.coach.chances.WinChances`) the chance that the side deciding wins after the
option it chose and after every other option (at the orders: the greedy bot's programme,
its neighbours and the one chosen), all on the same dice (common random numbers), and
reads the *loss*:

- the *best* option is the one with the most wins on those rollouts;
- a loss must be *shown*: the paired 95 % interval of best minus chosen (rollout *i* of
  both saw the same dice) lies above 0 and an exact sign test on the rollouts only one of
  them won agrees (:func:`shows_loss`); a difference within the noise is no mistake.
  Without this, the best of several noisy estimates always looks better than the choice,
  and a good player's decisions would collect losses that are only noise (with 16
  rollouts and a few options, the greedy bot lost « 2 points » a decision that way);
- and shown *twice*: the best option was picked as the maximum of noisy estimates, so on
  its own rollouts it looks better than it is (the winner's curse): a loss read from them
  is too large, or no loss at all. Where those rollouts show a loss, the best
  option and the choice are estimated again on fresh rollouts (another seed, the same
  dice for both: :attr:`Decision.retest`), and the *loss* is their difference when those
  show it too, else 0. On 200 matches of the random bot against the greedy bot from
  turn 8 (4 rollouts per option, up to 16), this halved the greedy bot's mean loss
  (0.0013 → 0.0007: losses of the first rollouts it does not confirm) and cut the random
  player's by a third (0.0070 → 0.0047);
- rollouts are spent where they decide: every option gets ``rollouts`` first, and only
  where the difference is neither shown nor surely below 5 points are they doubled, up to
  ``max_rollouts`` (4 × by default); the retest (two options) starts with as many
  rollouts as the estimate that showed the loss and doubles likewise, up to
  :data:`RETEST_FACTOR` × ``max_rollouts``. A decision settled at once costs no more, and
  only the few decisions with a loss are retested (a whole match: 2 % more rollouts).

A loss earns a verdict (:data:`VERDICTS`; one point = 1 % of win chance):

====================  ===============================================
loss (win chance)     verdict
====================  ===============================================
≥ 20 points           « gaffe »
≥ 10 points           « erreur »
≥ 5 points            « imprécision »
====================  ===============================================

With a small budget only large losses can be shown (16 rollouts show about 25 points, 64
about 10): the verdicts are sure, not exhaustive — more rollouts find the smaller ones.
Every decision uses the same rollout seeds, so neighbouring decisions see the same dice
to come and the win-chance curve is smooth; the analysis is reproducible from ``seed``,
whatever the workers.

It runs in this process (``workers=0``), on a new Dask LocalCluster (the default, one
worker per core, :func:`akvo.lab.run.dask_client`) or on an existing cluster (``client``
or ``scheduler``): the decisions are shared out in chunks of consecutive decisions, each
worker replaying the record. Consecutive, because the rollouts of one decision pass through
the next one (:class:`akvo.coach.chances.RolloutMemo` shares that work: the same results,
a quarter to two fifths fewer positions played); of even work (:func:`chunks`: an early decision
rolls out a longer rest of the match), the earliest submitted first. Progress: a tqdm bar
on stderr and/or ``on_progress(done, total)`` after each chunk (returning ``False`` stops
the analysis: ``Analysis.complete`` is then False and the rows are those finished).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from akvo.coach.budget import DEFAULT_ROLLOUTS, MAX_ROLLOUTS
from akvo.coach.chances import WIN, OptionChance, RolloutMemo, WinChances, candidate_options
from akvo.coach.errors import CoachError
from akvo.errors import RecordError, excerpt
from akvo.extras import optional
from akvo.lab.stats import Interval, mean_interval, proportion
from akvo.match.board import SIDE_NAMES
from akvo.match.state import MatchState, replay
from akvo.match.streams import mix

#: (verdict, least loss of win chance), the gravest first.
VERDICTS: Final = (("gaffe", 0.20), ("erreur", 0.10), ("imprécision", 0.05))
VERDICT_NAMES: Final = tuple(name for name, _ in reversed(VERDICTS))
#: The least loss that earns a verdict: below it, more rollouts would change nothing.
SMALLEST_LOSS: Final = VERDICTS[-1][1]
#: Rollouts per option go up to this many times the first budget where the noise hides
#: the answer (``max_rollouts``).
EXTRA_FACTOR: Final = 4
#: The header of the table :meth:`Analysis.to_text` prints.
HEADER: Final = ("coup", "camp", "choix", "meilleur", "p_choix", "p_meilleur", "perte", "verdict")
SUMMARY_HEADER: Final = ("camp", "décisions", "perte_moyenne", *VERDICT_NAMES)
#: Chunks per worker: enough for an even share and a progress bar that moves.
CHUNKS_PER_WORKER: Final = 6
#: The retest's rollouts go up to this many times ``max_rollouts``: it only runs where a
#: loss was shown, a few decisions a match.
RETEST_FACTOR: Final = 4
#: Mixed into the master seed for the retest's rollouts (:func:`retest_seed`).
RETEST_SALT: Final = 0x2E7E57
NBSP: Final = "\u00a0"

Progress = Callable[[int, int], bool | None]


def paired_difference(first: OptionChance, second: OptionChance) -> Interval:
    """``first``'s win chance minus ``second``'s with a paired 95 % interval: Student t over
    the rollouts' win differences (rollout *i* of both saw the same dice, so the pairs are
    much surer than the two intervals apart); :func:`akvo.lab.stats.mean_interval`."""
    wins = [
        float((a == WIN) - (b == WIN)) for a, b in zip(first.outcomes, second.outcomes, strict=True)
    ]
    return mean_interval(wins)


def shows_loss(best: OptionChance, chosen: OptionChance) -> bool:
    """Whether the rollouts show ``best`` ahead of ``chosen``: the paired interval of
    :func:`paired_difference` lies above 0 *and* an exact sign test on the rollouts where
    only one of the two won agrees (its Clopper–Pearson 95 % interval lies above ½).

    The sign test guards the few rollouts of a first estimate: four rollouts where ``best``
    won and ``chosen`` lost have no spread, so Student's interval is the point 1 — a
    « 100-point loss » that one chance in sixteen gives two equal options' discordant
    rollouts, and that made the greedy bot's own choices look like gaffes. Four such
    rollouts do not pass the sign test (six are needed); the estimate is refined instead.
    """
    if best.action == chosen.action or paired_difference(best, chosen).low <= 0:
        return False
    ahead = sum(a == WIN and b != WIN for a, b in zip(best.outcomes, chosen.outcomes, strict=True))
    behind = sum(b == WIN and a != WIN for a, b in zip(best.outcomes, chosen.outcomes, strict=True))
    return proportion(ahead, ahead + behind, "exact").low > 0.5


def retest_seed(seed: int) -> int:
    """The master seed of the retests' rollouts under the analysis's ``seed``: other dice
    than the estimates that picked the best option, the same for every decision (a
    64-bit word, as :func:`akvo.coach.chances.rollout_seed` reads it)."""
    return mix((seed & ((1 << 64) - 1)) ^ RETEST_SALT)


def verdict(loss: float) -> str | None:
    """The verdict of a loss of win chance (see :data:`VERDICTS`), or None below 5 points."""
    for name, least in VERDICTS:
        if loss >= least - 1e-12:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Decision:
    """One analysed decision: the position before action ``coup`` of the record (1-based:
    the board after ``coup − 1`` recorded actions), what was chosen, what was best.

    ``options`` are every option estimated, each with its rollouts; ``chosen`` and
    ``best`` are two of them (the same when the choice was the best, ties going to the
    choice). ``retest``: (best, chosen) estimated again on fresh rollouts where those of
    ``options`` showed a loss, else None; the loss is read from it (see the module).
    ``prompt`` is the engine's French description of the decision. ``shown``: whether the
    rollouts tell the best option from the choice (:func:`shows_loss`, the first ones and
    the retest's both), tested once when the decision is made: the loss, the verdict, the
    explanation and the table's row all read it."""

    coup: int
    turn: int
    side: int
    phase: str
    prompt: str
    chosen: OptionChance
    best: OptionChance
    options: tuple[OptionChance, ...]
    retest: tuple[OptionChance, OptionChance] | None = None
    shown: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shown", self.retest is not None and shows_loss(*self.retest))

    @property
    def camp(self) -> str:
        return SIDE_NAMES[self.side]

    @property
    def judged(self) -> tuple[OptionChance, OptionChance]:
        """(best, chosen) as the loss is read from them: the retest's, else the first."""
        return self.retest or (self.best, self.chosen)

    @property
    def difference(self) -> float:
        """The best option's estimated win chance minus the chosen one's, on the rollouts
        the loss is read from (:attr:`judged`; below 0 where the retest reversed them)."""
        best, chosen = self.judged
        return best.p - chosen.p

    @property
    def loss_interval(self) -> Interval:
        """The difference with its paired 95 % interval (rollout *i* of both options saw the
        same dice): :func:`paired_difference`."""
        return paired_difference(*self.judged)

    @property
    def loss(self) -> float:
        """The win chance the choice lost: :attr:`difference` when the rollouts show it
        (:attr:`shown`), else 0 — a difference within the noise is no mistake."""
        return self.difference if self.shown else 0.0

    @property
    def verdict(self) -> str | None:
        return verdict(self.loss)

    def explanation(self) -> str:
        """What happened here, in French (for the page's list of flagged moves)."""
        head = f"Coup {self.coup}, tour {self.turn}, camp {self.camp} — {self.prompt}"
        best, choice = self.judged
        chosen = f"« {choice.action} » laissait {_percent(choice.p)} de chances de gagner"
        if best.action == choice.action:
            return f"{head} {chosen} : c'était le meilleur choix estimé."
        better = f"« {best.action} » en laissait {_percent(best.p)}"
        if not self.shown:
            noise = "un écart que les simulations ne distinguent pas du hasard"
            return f"{head} {chosen} ; {better}, {noise}."
        judged = f" : {self.verdict}." if self.verdict else "."
        return f"{head} {chosen} ; {better} ({_points(self.loss)} de plus){judged}"

    def cells(self) -> tuple[str, ...]:
        """The row of the table (:data:`HEADER`): the estimates the loss is read from."""
        best, chosen = self.judged
        return (
            str(self.coup),
            self.camp,
            chosen.action,
            best.action,
            _chance_cell(chosen),
            _chance_cell(best),
            f"{self.loss:.3f}",
            self.verdict or "-",
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "coup": self.coup,
            "turn": self.turn,
            "camp": self.camp,
            "phase": self.phase,
            "prompt": self.prompt,
            "chosen": _chance_dict(self.chosen),
            "best": _chance_dict(self.best),
            "retest": None
            if self.retest is None
            else {"best": _chance_dict(self.retest[0]), "chosen": _chance_dict(self.retest[1])},
            "loss": self.loss,
            "verdict": self.verdict,
            "explanation": self.explanation(),
            "options": [_chance_dict(option) for option in self.options],
        }


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """Side A's estimated win chance after decision ``coup`` (side B's is the losses':
    ``1 − p_a − draws``), with its 95 % interval."""

    coup: int
    turn: int
    side: int  # the side that decided
    p_a: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class SideSummary:
    side: int
    decisions: int
    mean_loss: float
    counts: dict[str, int]  # verdict → decisions

    @property
    def camp(self) -> str:
        return SIDE_NAMES[self.side]

    def cells(self) -> tuple[str, ...]:
        counts = (str(self.counts[name]) for name in VERDICT_NAMES)
        return (self.camp, str(self.decisions), f"{self.mean_loss:.4f}", *counts)


@dataclass(frozen=True)
class Analysis:
    """The analysis of one match (:func:`analyse`): one :class:`Decision` per analysed
    decision in match order, and what the page shows of them."""

    decisions: tuple[Decision, ...]
    sides: tuple[int, ...]
    rollouts: int  # per option first
    max_rollouts: int  # per option at most, where the noise hid the answer
    seed: int
    complete: bool
    teams: tuple[str, str]
    result: str | None  # "A", "B", "draw", or None for a match not finished

    def curve(self) -> tuple[CurvePoint, ...]:
        """Side A's win chance after each analysed decision (its own or B's), in order: the
        chosen option's first estimate (the same rollout seeds at every decision, a smooth
        curve), not the retest's."""
        points = []
        for row in self.decisions:
            chosen = row.chosen
            a_wins = chosen.wins if row.side == 0 else chosen.losses
            interval = proportion(a_wins, chosen.rollouts)
            points.append(
                CurvePoint(
                    row.coup,
                    row.turn,
                    row.side,
                    a_wins / chosen.rollouts,
                    interval.low,
                    interval.high,
                )
            )
        return tuple(points)

    def worst(self, count: int = 3) -> tuple[Decision, ...]:
        """The ``count`` decisions that lost the most win chance (a loss above 0), gravest
        first, earlier first among equals."""
        lossy = [row for row in self.decisions if row.loss > 0]
        return tuple(sorted(lossy, key=lambda row: (-row.loss, row.coup))[:count])

    def summary(self) -> tuple[SideSummary, ...]:
        """Per analysed side: its decisions, mean loss and the count of each verdict."""
        out = []
        for side in self.sides:
            rows = [row for row in self.decisions if row.side == side]
            counts = {name: sum(row.verdict == name for row in rows) for name in VERDICT_NAMES}
            mean = sum(row.loss for row in rows) / len(rows) if rows else 0.0
            out.append(SideSummary(side, len(rows), mean, counts))
        return tuple(out)

    def to_text(self) -> str:
        """The table (tab-separated, :data:`HEADER`), then the summary per side."""
        lines = ["\t".join(HEADER)]
        lines += ["\t".join(row.cells()) for row in self.decisions]
        lines += ["", "\t".join(SUMMARY_HEADER)]
        lines += ["\t".join(side.cells()) for side in self.summary()]
        if not self.complete:
            lines.append("# analyse interrompue : les décisions non analysées manquent")
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict[str, Any]:
        return {
            "teams": list(self.teams),
            "result": self.result,
            "sides": [SIDE_NAMES[s] for s in self.sides],
            "rollouts": self.rollouts,
            "max_rollouts": self.max_rollouts,
            "seed": self.seed,
            "complete": self.complete,
            "decisions": [row.to_dict() for row in self.decisions],
            "summary": [
                {"camp": s.camp, "decisions": s.decisions, "mean_loss": s.mean_loss, **s.counts}
                for s in self.summary()
            ],
            "curve": [
                {"coup": p.coup, "turn": p.turn, "p_a": p.p_a, "low": p.low, "high": p.high}
                for p in self.curve()
            ],
            "worst": [row.coup for row in self.worst()],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)


def _percent(p: float) -> str:
    return f"{p * 100:.1f}".replace(".", ",") + f"{NBSP}%"


def _points(loss: float) -> str:
    return f"{loss * 100:.1f}".replace(".", ",") + f"{NBSP}points"


def _chance_cell(chance: OptionChance) -> str:
    return f"{chance.p:.3f} [{chance.low:.3f}, {chance.high:.3f}]"


def _chance_dict(chance: OptionChance) -> dict[str, Any]:
    return {
        "action": chance.action,
        "p": chance.p,
        "low": chance.low,
        "high": chance.high,
        "rollouts": chance.rollouts,
        "wins": chance.wins,
        "draws": chance.draws,
    }


# --- the positions of a record --------------------------------------------------------------


def checked_record(record: object) -> tuple[dict[str, Any], MatchState]:
    """The record, replayed once to check it (the engine's :class:`RecordError` names what
    is wrong), with the final state."""
    final = replay(record, log=False)
    assert isinstance(record, dict)
    return record, final


def decision_nodes(record: dict[str, Any]) -> Iterator[tuple[int, MatchState, str]]:
    """(index in ``record["actions"]``, the state before it, the action) for every
    recorded decision (chance outcomes pass by). The state is live: copy it to keep it."""
    state = replay({**record, "actions": []}, log=False)
    for index, action in enumerate(record["actions"]):
        if state.player >= 0:
            yield index, state, action
        state.apply_action(action)


@dataclass(frozen=True, slots=True)
class Plan:
    """How each decision is estimated: ``rollouts`` per option first, up to ``most`` where
    the noise hides the answer, the rollouts' dice from ``seed``."""

    rollouts: int
    most: int
    seed: int


def _decide(
    state: MatchState, chosen: str, index: int, plan: Plan, memo: RolloutMemo | None = None
) -> Decision:
    """Estimate every option with ``plan.rollouts`` rollouts, then double them while the
    best option and the choice differ by more than the noise can hide yet less than it can
    show (see the module), up to ``plan.most``; ``memo`` shares the rollouts' work between
    the decisions of one match (the same results)."""
    rollouts, most, seed = plan.rollouts, plan.most, plan.seed
    options = candidate_options(state)
    if chosen not in options:
        options = (*options, chosen)
    chances = WinChances(state, options, seed=seed, memo=memo)
    chances.refine(rollouts)
    while True:
        estimates = chances.chances()
        choice = chances[chosen]
        best = max(estimates, key=lambda c: (c.wins, c.action == chosen))
        if best.action == chosen or chances.rollouts >= most:
            break
        if _settled(best, choice):
            break
        chances.refine(min(chances.rollouts, most - chances.rollouts))
    retest = None
    if shows_loss(best, choice):
        retest = _retest(state, (best.action, chosen), chances.rollouts, plan, memo)
    return Decision(
        coup=index + 1,
        turn=state.turn,
        side=state.player,
        phase=state.phase_name(),
        prompt=state.prompt(),
        chosen=choice,
        best=best,
        options=estimates,
        retest=retest,
    )


def _retest(
    state: MatchState, pair: tuple[str, str], rollouts: int, plan: Plan, memo: RolloutMemo | None
) -> tuple[OptionChance, OptionChance]:
    """(best, chosen) of ``pair`` estimated on fresh rollouts (:func:`retest_seed`), as many
    as showed the loss first, doubled as :func:`_decide` does up to ``plan.most``: an
    estimate of the difference that the choice of the best option did not bias."""
    again = WinChances(state, pair, seed=retest_seed(plan.seed), memo=memo)
    again.refine(rollouts)
    most = RETEST_FACTOR * plan.most
    while True:
        best, chosen = again.chances()
        if again.rollouts >= most or _settled(best, chosen):
            return best, chosen
        again.refine(min(again.rollouts, most - again.rollouts))


def _settled(best: OptionChance, chosen: OptionChance) -> bool:
    """Whether more rollouts would change nothing: the loss is shown, or surely below the
    least one that earns a verdict."""
    return shows_loss(best, chosen) or paired_difference(best, chosen).high < SMALLEST_LOSS


def analyse_chunk(
    record: dict[str, Any], indices: Sequence[int], plan: Plan, share: bool = True
) -> list[Decision]:
    """Analyse the decisions at these action indices of a checked record (a worker's task);
    ``share``: one :class:`~akvo.coach.chances.RolloutMemo` for them all (the same rows,
    sooner: best on consecutive decisions)."""
    wanted = set(indices)
    out: list[Decision] = []
    last = max(wanted, default=-1)
    memo = RolloutMemo() if share else None
    for index, state, action in decision_nodes(record):
        if index in wanted:
            out.append(_decide(state, action, index, plan, memo))
        if index >= last:
            break
    return out


# --- the analysis ---------------------------------------------------------------------------


def _sides(side: object) -> tuple[int, ...]:
    if side is None:
        return (0, 1)
    if isinstance(side, str) and side.upper() in SIDE_NAMES:
        return (SIDE_NAMES.index(side.upper()),)
    if side in (0, 1) and not isinstance(side, bool):
        return (int(side),)  # type: ignore[call-overload]
    raise CoachError(f"side must be 'A', 'B' or None (both), got {excerpt(side)}")


def _count(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CoachError(f"{name} must be an integer {low}–{high}, got {excerpt(value)}")
    return value


def analyse(
    record: object,
    *,
    side: object = None,
    rollouts: object = DEFAULT_ROLLOUTS,
    max_rollouts: object = None,
    seed: object = 0,
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    on_progress: Progress | None = None,
) -> Analysis:
    """Analyse the decisions of a match record (:meth:`~akvo.match.MatchState.record`).

    - ``side``: ``"A"``, ``"B"`` or None for both; ``rollouts`` per option, doubled up to
      ``max_rollouts`` (default :data:`EXTRA_FACTOR` times more) where the noise hides
      whether the choice lost; ``seed``: the master seed of the rollouts' dice (same seed,
      same analysis);
    - where: ``client`` (a ``distributed.Client``), ``scheduler`` (its address), or a new
      LocalCluster of ``workers`` processes (default one per core); ``workers=0``: here;
    - ``progress``: a tqdm bar on stderr (default: when stderr is a terminal);
      ``on_progress(done, total)`` after each chunk of decisions, ``False`` stops.

    A record that is not a valid match raises the engine's
    :class:`~akvo.errors.RecordError`; bad options :class:`~akvo.coach.errors.CoachError`.
    """
    sides = _sides(side)
    budget = _count("rollouts", rollouts, 1, MAX_ROLLOUTS)
    most = EXTRA_FACTOR * budget if max_rollouts is None else max_rollouts
    most = _count("max_rollouts", most, budget, EXTRA_FACTOR * MAX_ROLLOUTS)
    master = _count("seed", seed, -(2**63), 2**63 - 1)
    plan = Plan(budget, most, master)
    if workers is not None:
        _count("workers", workers, 0, 256)
    checked, final = checked_record(record)
    indices = [i for i, state, _ in decision_nodes(checked) if state.player in sides]
    show = sys.stderr.isatty() if progress is None else progress
    from akvo.lab.run import dask_client

    if not indices:
        rows: list[Decision] = []
        complete = True
    elif workers == 0 and client is None and scheduler is None:
        batches = _batches_here(checked, indices, plan)
        with contextlib.closing(batches):
            rows, complete = _collect(batches, len(indices), show, on_progress)
    else:
        with dask_client(workers, client, scheduler) as dask:
            batches = _batches_dask(dask, checked, indices, plan)
            with contextlib.closing(batches):
                rows, complete = _collect(batches, len(indices), show, on_progress)
    rows.sort(key=lambda row: row.coup)
    teams = tuple(
        str(name or team) for name, team in zip(_names(checked), final.teams, strict=True)
    )
    return Analysis(
        tuple(rows), sides, budget, most, master, complete, (teams[0], teams[1]), final.result
    )


def _names(record: dict[str, Any]) -> list[str | None]:
    names = record.get("team_names")
    if (
        isinstance(names, list)
        and len(names) == 2
        and all(isinstance(n, str | None) for n in names)
    ):
        return [n[:80] if n else None for n in names]
    return [None, None]


def _collect(
    batches: Iterator[list[Decision]], total: int, show: bool, on_progress: Progress | None
) -> tuple[list[Decision], bool]:
    """Gather the analysed decisions as they come, with the bar and the callback; stops
    (False) on Ctrl+C or when the callback returns False."""
    bar = None
    if show:
        bar = optional("tqdm").tqdm(total=total, unit="décision", file=sys.stderr, leave=False)
    rows: list[Decision] = []
    try:
        for batch in batches:
            rows.extend(batch)
            if bar is not None:
                bar.update(len(batch))
            if on_progress is not None and on_progress(len(rows), total) is False:
                return rows, False
    except KeyboardInterrupt:
        return rows, False
    finally:
        if bar is not None:
            bar.close()
    return rows, True


def _batches_here(
    record: dict[str, Any], indices: list[int], plan: Plan
) -> Generator[list[Decision], None, None]:
    """The decisions analysed one by one in this process."""
    wanted = set(indices)
    memo = RolloutMemo()
    for index, state, action in decision_nodes(record):
        if index in wanted:
            yield [_decide(state, action, index, plan, memo)]


def chunks(indices: Sequence[int], count: int, length: int) -> list[list[int]]:
    """``indices`` (increasing action indices) cut into at most ``count`` runs of
    consecutive decisions of about even work: a decision weighs the rest of the match after
    it (``length`` actions in all; its rollouts play that) plus a tenth of a match (its own
    work: options, intervals)."""
    if not indices:
        return []
    count = max(1, min(count, len(indices)))
    weights = [length - index + length // 10 + 1 for index in indices]
    share = sum(weights) / count
    out: list[list[int]] = [[]]
    done = 0.0
    for index, weight in zip(indices, weights, strict=True):
        if out[-1] and done >= share * len(out) and len(out) < count:
            out.append([])
        out[-1].append(index)
        done += weight
    return out


def _batches_dask(
    client: Any, record: dict[str, Any], indices: list[int], plan: Plan
) -> Generator[list[Decision], None, None]:
    """The decisions analysed on Dask in chunks of consecutive decisions and even work
    (:func:`chunks`), as the chunks finish; closing it cancels what is pending."""
    distributed: Any = importlib.import_module("distributed")  # it ships no type information
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    parts = chunks(indices, workers * CHUNKS_PER_WORKER, len(record["actions"]))
    futures = [client.submit(analyse_chunk, record, part, plan, pure=False) for part in parts]

    try:
        for future in distributed.as_completed(futures):
            yield future.result()
    finally:
        pending = [future for future in futures if not future.done()]
        if pending:
            client.cancel(pending)


def load_record(path: str) -> dict[str, Any]:
    """A match record from a JSON file, checked for size and shape before the engine reads
    it (:class:`~akvo.errors.RecordError` names what is wrong)."""
    from pathlib import Path

    from akvo.match.records import MAX_JSON_CHARS, parse_json

    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_JSON_CHARS:
            raise RecordError(f"{excerpt(path)} is too large for a match record ({size} bytes)")
        data = file.read_bytes()
    except OSError as error:
        raise CoachError(f"cannot read {excerpt(path)}: {error.strerror or error}") from None
    record = parse_json(data)
    if not isinstance(record, dict):
        raise RecordError(f"a match record is a JSON object, got {type(record).__name__}")
    return record


__all__ = [
    "DEFAULT_ROLLOUTS",
    "HEADER",
    "VERDICTS",
    "Analysis",
    "CurvePoint",
    "Decision",
    "SideSummary",
    "analyse",
    "load_record",
    "verdict",
]
